/**
 * What an answer of the service means for the request that got it: the outcome union of `parseResponse`
 * and of the client's `send`.
 *
 * @module
 */
import type { RetryAdvice } from "../schemas/endpoints/catalogue.js"
import type { ItemResultOutcome } from "../schemas/endpoint-definition.js"
import type { ApiError } from "../schemas/errors.js"

/**
 * The outcome of one item of a notes or transactions request, as the endpoint's `itemResults` read its status.
 *
 * @since 0.1.0
 */
export type ItemOutcome = ItemResultOutcome

/**
 * One item's outcome, by its index in the request.
 *
 * @since 0.1.0
 */
export interface ItemResult {
  readonly index: number
  readonly outcome: ItemOutcome
}

interface Answered {
  /** The HTTP status. */
  readonly status: number
  /** The body as received (parsed JSON, or the text when it was not JSON). */
  readonly body: unknown
  /** Fields the contract does not name (`additional_field`) and other warnings: never a failure. */
  readonly warnings: ReadonlyArray<ApiError>
}

/**
 * An answer of the service, read against the catalogue:
 * - `created`: stored (for notes and transactions: at least one item new, none failed; see `items`);
 * - `already_exists`: nothing new, the service had it already (every item, or the whole record);
 * - `ok`: a status query answered;
 * - `rejected`: a 400 with errors; sending it unchanged fails again;
 * - `import_error`: a transaction could not be added (`TRANSACTION_IMPORT_ERROR`);
 * - `not_found`: the account (import process) is not there, or not imported yet;
 * - `unauthorized`: the token is missing or not valid;
 * - `retryable`: nothing was done, send it again (after `retryAfterMs`, when the service said);
 * - `unexpected`: a status the endpoint does not document, or a body that does not validate.
 *
 * @since 0.1.0
 */
export type ResponseOutcome =
  | (Answered & { readonly kind: "created"; readonly items?: ReadonlyArray<ItemResult> })
  | (Answered & { readonly kind: "already_exists"; readonly items?: ReadonlyArray<ItemResult> })
  | (Answered & { readonly kind: "ok" })
  | (Answered & { readonly kind: "rejected"; readonly errors: ReadonlyArray<ApiError> })
  | (Answered & { readonly kind: "import_error"; readonly detail: string; readonly items?: ReadonlyArray<ItemResult> })
  | (Answered & { readonly kind: "not_found" })
  | (Answered & { readonly kind: "unauthorized" })
  | (Answered & {
    readonly kind: "retryable"
    readonly advice: RetryAdvice
    /** What `Retry-After` asked for, in milliseconds; `undefined` when the answer had none. */
    readonly retryAfterMs: number | undefined
  })
  | (Answered & { readonly kind: "unexpected"; readonly errors: ReadonlyArray<ApiError> })

/**
 * The kind of a {@link ResponseOutcome}.
 *
 * @since 0.1.0
 */
export type ResponseOutcomeKind = ResponseOutcome["kind"]

/**
 * What `client.send` ends with: an answer's outcome, or
 * - `failed`: given up (retries or the retry budget exhausted, or the service unreachable); nothing is
 *   known to be stored, and sending it again later is safe;
 * - `in_doubt`: the request may have reached the service but no answer came back (the connection broke
 *   or timed out after sending), and sending it again is not harmless.
 *
 * @since 0.1.0
 */
export type SendOutcome =
  | (ResponseOutcome & { readonly attempts: number })
  | { readonly kind: "failed"; readonly reason: string; readonly attempts: number; readonly last?: ResponseOutcome }
  | { readonly kind: "in_doubt"; readonly reason: string; readonly attempts: number }
