/**
 * The shape of one endpoint of the catalogue: what the API documents (method, path, schemas, responses
 * with retry advice), and the few facts about its behaviour that the client and the reference service
 * read from it (whether a repeat is harmless, what the service stores and how it answers).
 *
 * @module
 */
import type { Schema } from "effect"
import type { CrossFieldRule } from "./cross-field-rule.js"
import type { WarningRule } from "./warning-rule.js"

/**
 * What a client should do after an error status.
 *
 * @since 0.1.0
 */
export type RetryAdvice =
  /** Fix the request; sending it again unchanged fails again. */
  | "do-not-retry-unchanged"
  /** A transient failure: send the same request again, as it is. */
  | "retry-as-is"
  /** Obtain a fresh token, then send the request again. */
  | "reauthenticate"
  /** Overloaded or unavailable, nothing done: wait (at least `Retry-After`, when given), then send it again as it is. */
  | "retry-later"

/**
 * One documented response status of an endpoint.
 *
 * @since 0.1.0
 */
export interface ResponseDefinition {
  readonly schema: Schema.Top
  readonly description: string
  /** Set on error statuses (4xx, 5xx): what a client should do next. */
  readonly retry?: RetryAdvice
  /** Set on a success status that means the data was there already and nothing changed. */
  readonly alreadyExisted?: true
}

/**
 * A query parameter with its default.
 *
 * @since 0.1.0
 */
export interface QueryParameterDefinition {
  readonly name: string
  readonly type: "boolean"
  readonly default: boolean
  readonly description: string
}

/**
 * Whether sending a request twice is harmless by the service's rules, so that a request of unknown
 * outcome may be sent again (the client's `isRepeatHarmless` applies it):
 * - `"always"`: a read, or data the service leaves unchanged when it has it already;
 * - `"never"`: a repeat stores the data twice, or is refused in a way that cannot be told from a real refusal;
 * - `"when-notes-have-created-at"`: notes are compared by body and `created_at`, so a repeat is
 *   `NOTE_ALREADY_EXISTS` only when every note gives `created_at`;
 * - `"when-check-previously-added"`: with the query flag `check_previously_added`, a known
 *   `transaction_id` is `TRANSACTION_ALREADY_EXISTS`.
 */
export type RepeatRule = "always" | "never" | "when-notes-have-created-at" | "when-check-previously-added"

/**
 * How the reference service (`src/service`) answers an endpoint. Which answer a post-import endpoint
 * gives for a missing account follows from its documented responses (a 404 body, or a 400).
 */
export interface ServiceBehaviour {
  /** The service's handler, by name; `"store-and-echo"` stores the body's {@link ServiceBehaviour.field} and answers 201 with the body. */
  readonly handler: string
  /** The kind of record the endpoint stores, as `GET /_reference/stats` counts them under `stored`. */
  readonly stores?: string
  /** `"store-and-echo"` only: the field of the body that is stored. */
  readonly field?: string
  /** `"account-import-processes"` only: which processes of the supplier are listed. */
  readonly processes?: "all" | "pending" | "imported"
}

/**
 * What makes two records of an endpoint the same record (their natural key), so that a ledger can tell a
 * record it has settled from a new one whatever file or line it arrives on:
 * - `items`: the array field of the body whose elements are records of their own (notes, transactions,
 *   statements, price sheets); absent, the whole body is one record;
 * - `account`: whether `import_supplier` and `external_account_number` belong to the key;
 * - `fields`: dot paths inside the record (an element of `items`, or the body); `a[].b` takes `b` of every
 *   element of the array `a`. A field that is absent counts as `null`;
 * - `instants`: those of `fields` whose values are datetimes: compared as the instant they name, as the
 *   service compares them (`…T00:00:00+01:00` and `…T23:00:00Z` of the day before are one value). Every
 *   other field is compared as the text it is, however much it looks like a datetime: a transaction id
 *   `2024-01-01T00:00:00Z` is not the id `2024-01-01T01:00:00+01:00`.
 *
 * @since 0.1.0
 */
export interface NaturalKey {
  readonly items?: string
  readonly account: boolean
  readonly fields: ReadonlyArray<string>
  readonly instants?: ReadonlyArray<string>
}

/**
 * A rule across the records of one input: two items of an endpoint's records (`naturalKey.items`) with the
 * same natural key anywhere in the input are one record sent twice. `map` and `validate` refuse the later
 * one with `code` at its `field`, naming where the first was; `send`'s ledger, which keys every record by
 * the same natural key, sends the first once and lists a later one with other content as a conflict.
 *
 * @example
 * const rule: UniqueInInput = { code: "duplicate_transaction_ids", field: "transaction_id", consequence: "the service would skip one of them" }
 * rule.field // => "transaction_id"
 *
 * @since 0.1.0
 */
export interface UniqueInInput {
  readonly code: string
  /** The field of an item a repeat is reported at (`<items>.<index>.<field>`). */
  readonly field: string
  /** What the service would do with both, for the error's detail. */
  readonly consequence: string
}

/**
 * What one item result of an answer says became of its item: stored now, there already, or refused.
 *
 * @since 0.1.0
 */
export type ItemResultOutcome = "created" | "already_exists" | "import_error"

/**
 * How a 201 answers each item of the request's records list (`naturalKey.items`), one result per item in
 * the request's order: where the list of results is, and what each result's `status` means. An endpoint
 * without it answers for its whole body at once.
 *
 * @example
 * const results: ItemResults = { in: "results", statuses: { TRANSACTION_ADDED_TO_ACCOUNT: "created" } }
 * results.statuses["TRANSACTION_ADDED_TO_ACCOUNT"] // => "created"
 *
 * @since 0.1.0
 */
export interface ItemResults {
  /** `"body"`: the answer is the list itself (`[…]`); `"results"`: the list is the answer's `results` (`{ results: […] }`). */
  readonly in: "body" | "results"
  /** Each result status and its outcome. */
  readonly statuses: Readonly<Record<string, ItemResultOutcome>>
}

/**
 * One endpoint of the API.
 *
 * @since 0.1.0
 */
export interface EndpointDefinition {
  readonly id: string
  readonly method: "GET" | "POST"
  /** Path template relative to the base URL, with `{name}` placeholders. */
  readonly path: string
  readonly summary: string
  readonly pathParameters: ReadonlyArray<string>
  readonly queryParameters: ReadonlyArray<QueryParameterDefinition>
  /** POST: the request body. GET: the path parameters as an object. */
  readonly request: Schema.Top
  /** GET only: `"path"`; POST: `"body"`. Says what {@link EndpointDefinition.request} describes. */
  readonly requestKind: "body" | "path"
  readonly query?: Schema.Top
  readonly responses: Readonly<Record<number, ResponseDefinition>>
  /** Whether a repeat of a request is harmless. */
  readonly repeat: RepeatRule
  /** How the reference service answers the endpoint. */
  readonly service: ServiceBehaviour
  /** POST only: the natural key of one record. */
  readonly naturalKey?: NaturalKey
  /** POST only: records whose natural key must not repeat within one input. */
  readonly uniqueInInput?: UniqueInInput
  /**
   * POST only: what one body's document is called in a detail (`"note"`, `"set of time definitions"`): a
   * mapping's rows that make one document go out whole or not at all, and their error names it.
   */
  readonly documentName?: string
  /**
   * POST only: the fields that name a file of the file store, as dot paths from the body, `[]` after a
   * list for each of its items (`notes[].document_paths[].document_path`). `--documents DIR` looks each up.
   */
  readonly documentPaths?: ReadonlyArray<string>
  /** POST only: the answer has one result per item of `naturalKey.items` (notes, transactions). */
  readonly itemResults?: ItemResults
}

/**
 * One resource as its module declares it to the registry (`src/schemas/registry.ts`, its default export):
 * its endpoints, and the cross-field and warning rules its schemas carry.
 */
export interface ResourceDefinition {
  readonly endpoints: Readonly<Record<string, EndpointDefinition>>
  readonly rules: ReadonlyArray<CrossFieldRule<any, string>>
  readonly warningRules: ReadonlyArray<WarningRule<any, string>>
}
