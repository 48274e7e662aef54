/**
 * An answer of the service as a typed outcome (sans-IO): status and body in, {@link ResponseOutcome}
 * out, by the catalogue's statuses, schemas and retry advice. Responses are read tolerantly: a field the
 * contract does not name is a warning, never `unexpected`.
 *
 * @module
 */
import { type EndpointDefinition, endpoints, type ResponseDefinition } from "../schemas/endpoints/catalogue.js"
import type { ItemResults } from "../schemas/endpoint-definition.js"
import { type EndpointId, isEndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { ApiError } from "../schemas/errors.js"
import { NON_FIELD_ERRORS } from "../validation/codes.js"
import { compileBodyCheck } from "../validation/compile-validator.js"
import { validateResponse } from "../validation/validate-response.js"
import { isRecord } from "../validation/path.js"
import type { ItemOutcome, ItemResult, ResponseOutcome } from "./outcome.js"
import { redactSecrets } from "./redact-secrets.js"

/**
 * Options of {@link parseResponse}.
 *
 * @since 0.1.0
 */
export interface ParseResponseOptions {
  /** The `Retry-After` header, if the answer had one. */
  readonly retryAfter?: string | null | undefined
  /** The clock for a `Retry-After` given as a date; default: the current time. */
  readonly now?: Date | undefined
  /** How to read fields the contract does not name; default `"warn"`. */
  readonly additionalFields?: "error" | "warn" | undefined
  /**
   * `"json"`: the body comes straight from `JSON.parse` (as the client's does), which spares a walk over
   * its property descriptors. Default `"any"`.
   */
  readonly input?: "any" | "json" | undefined
  /**
   * How many items (notes, transactions) the request had: a 201 with fewer results is `unexpected`, since
   * what became of the others is unknown. Default: not checked. `createClient` passes it.
   */
  readonly itemCount?: number | undefined
  /**
   * Texts the answer may echo (the token, the API key): replaced by `[redacted]` in the quote of an
   * undocumented 400 body before it is cut to 300 characters, where a cut through a secret would leave a
   * piece of it that no later redaction recognises. `createClient` passes its secrets.
   */
  readonly secrets?: ReadonlyArray<string> | undefined
}

/** How an endpoint's 201 answers each item of its request (its catalogue entry's `itemResults`), if it does. */
const itemResultsOf = (endpointId: EndpointId): ItemResults | undefined => {
  const entry: EndpointDefinition = endpoints[endpointId]
  return entry.itemResults
}

/**
 * How many items (notes, transactions) a request has: the length of its list of records
 * (`naturalKey.items`) where the service answers one result per item; `undefined` for other endpoints
 * or no list.
 */
export const requestItemCount = (endpointId: EndpointId, payload: unknown): number | undefined => {
  const entry: EndpointDefinition = endpoints[endpointId]
  const key = entry.itemResults === undefined ? undefined : entry.naturalKey?.items
  const list = key !== undefined && isRecord(payload) ? payload[key] : undefined
  return Array.isArray(list) ? list.length : undefined
}

/** The result list of a body where `results` says it is: the body itself (notes), or its `results` (transactions). */
const resultListOf = (results: ItemResults | undefined, body: unknown): ReadonlyArray<unknown> | undefined => {
  if (results === undefined) return undefined
  if (results.in === "body") return Array.isArray(body) ? body : undefined
  return isRecord(body) && Array.isArray(body["results"]) ? body["results"] : undefined
}

/** The item results of a body, each status read by `results`. */
const itemsOf = (results: ItemResults | undefined, body: unknown): ReadonlyArray<ItemResult> | undefined => {
  const list = resultListOf(results, body)
  if (results === undefined || list === undefined) return undefined
  return list.flatMap((item: unknown, index) => {
    const status = isRecord(item) ? item["status"] : undefined
    const outcome = typeof status === "string" && Object.hasOwn(results.statuses, status) ? results.statuses[status] : undefined
    return outcome === undefined ? [] : [{ index, outcome }]
  })
}

/**
 * `Retry-After` in milliseconds: delta-seconds, or an HTTP date (counted from `now`, never negative).
 * `undefined` when absent or unreadable.
 *
 * @example
 * parseRetryAfter("3") // 3000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", new Date("2015-10-21T07:27:58Z")) // 2000
 *
 * @since 0.1.0
 */
export const parseRetryAfter = (value: string | null | undefined, now: Date = new Date()): number | undefined => {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/u.test(text)) return Number(text) * 1000
  // An HTTP date names its weekday and month; a bare number like "-1" is no date, though Date.parse takes it as a year.
  const at = /[a-z]{3}/iu.test(text) ? Date.parse(text) : Number.NaN
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime())
}

const errorsOf = (body: unknown): ReadonlyArray<ApiError> =>
  isRecord(body) && Array.isArray(body["errors"]) ? (body["errors"] as ReadonlyArray<ApiError>) : []

const textOf = (body: unknown, key: string): string | undefined =>
  isRecord(body) && typeof body[key] === "string" ? body[key] : undefined

const unexpected = (status: number, body: unknown, detail: string, errors: ReadonlyArray<ApiError> = []): ResponseOutcome => ({
  kind: "unexpected",
  status,
  body,
  warnings: [],
  errors: errors.length > 0 ? errors : [{ detail, code: "invalid", attr: NON_FIELD_ERRORS }]
})

/** A body as it can be quoted in a detail: JSON or its text, at most 300 characters. */
const bodyPreview = (body: unknown): string => {
  const text = typeof body === "string" ? body : JSON.stringify(body) ?? String(body)
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}

/** What validateResponse answers for a valid body with nothing to report (only `ok` and `warnings` are read). */
const CLEAN = { ok: true, warnings: [] } as const

/**
 * Reads an answer of an endpoint: status and parsed body (JSON, or the raw text when it was not JSON)
 * to a typed outcome. The body must validate with `validateResponse` (additional fields are warnings,
 * by default) and the status must be documented, else the outcome is `unexpected`; so is a 201 with
 * no results (notes, transactions), or with fewer than the request's `itemCount`, when given. A
 * documented 400, 401, 429 or 503 says nothing was stored whatever its body, and is read by its status
 * (a 400 with an undocumented body is `rejected`, the body quoted in its error). Pure and total.
 *
 * @example
 * const outcome = parseResponse("notes", 201, [{ created_at: "2024-05-01T10:00:00Z", body: "Hi", status: "NOTE_ALREADY_EXISTS" }])
 * outcome.kind // "already_exists"
 * parseResponse("energy-amount", 503, { detail: "Unavailable." }, { retryAfter: "2" }) // { kind: "retryable", retryAfterMs: 2000, … }
 * parseResponse("transactions", 201, { results: [] }, { itemCount: 2 }).kind // "unexpected"
 * parseResponse("notes", 201, []).kind // "unexpected"
 *
 * @since 0.1.0
 */
export const parseResponse = (
  endpointId: EndpointId,
  status: number,
  body: unknown,
  options: ParseResponseOptions = {}
): ResponseOutcome => {
  if (!isEndpointId(endpointId)) return unexpected(status, body, `Unknown endpoint id: ${String(endpointId)}.`)
  const responses: Readonly<Record<number, ResponseDefinition>> = endpoints[endpointId].responses
  const definition = Object.hasOwn(responses, status) ? responses[status] : undefined
  // Most answers are valid with nothing to report: the compiled check says so at a fraction of the cost
  // of validateResponse, which answers every other case (and builds its errors and warnings).
  const read = definition !== undefined && compileBodyCheck(definition.schema, { input: options.input ?? "any" })(body)
    ? CLEAN
    : validateResponse(endpointId, status, body, { additionalFields: options.additionalFields ?? "warn" })
  // A 401, 429 or 503 says nothing was done whatever its body: a gateway or rate limiter in front of the
  // service answers them with text or HTML. The status decides; the body's problems are warnings.
  const byStatus = definition?.retry === "reauthenticate" || definition?.retry === "retry-later"
  // So does a 400: the request was refused, nothing of it stored, even where the body is not the documented
  // one (the payment vendor's `{ error_detail }`, a proxy's page). Its records are rejected, the body quoted.
  if (definition !== undefined && status === 400 && !read.ok) {
    const quoted = options.secrets === undefined || options.secrets.length === 0 ? body : redactSecrets(body, options.secrets)
    const detail = `The service refused the request (400) with a body the contract does not document: ${bodyPreview(quoted)}`
    return { kind: "rejected", status, body, warnings: read.error.errors, errors: [{ detail, code: "invalid", attr: NON_FIELD_ERRORS }] }
  }
  if (definition === undefined || (!read.ok && !byStatus)) {
    return unexpected(status, body, `Status ${status} is not documented for ${endpointId}.`, read.ok ? [] : read.error.errors)
  }
  const answered = { status, body, warnings: read.ok ? read.warnings : read.error.errors }
  if (definition.retry === undefined) {
    if (endpoints[endpointId].method === "GET") return { kind: "ok", ...answered }
    const itemResults = itemResultsOf(endpointId)
    const results = resultListOf(itemResults, body)
    if (results !== undefined && options.itemCount !== undefined && results.length < options.itemCount) {
      return unexpected(status, body, `${results.length} results for the ${options.itemCount} items of the request: what became of the others is unknown.`)
    }
    // A request's list of items is never empty (the schemas say so): an empty answer accounts for none of them.
    if (results?.length === 0) {
      return unexpected(status, body, "No results for the items of the request: what became of them is unknown.")
    }
    const items = itemsOf(itemResults, body)
    const withItems = items === undefined ? {} : { items }
    if (items?.some((i) => i.outcome === "import_error") === true) {
      return { kind: "import_error", ...answered, ...withItems, detail: "A transaction of the request could not be added." }
    }
    const nothingNew = definition.alreadyExisted === true || (items !== undefined && items.length > 0 && items.every((i) => i.outcome === "already_exists"))
    return { kind: nothingNew ? "already_exists" : "created", ...answered, ...withItems }
  }
  switch (definition.retry) {
    case "reauthenticate":
      return { kind: "unauthorized", ...answered }
    case "retry-as-is":
    case "retry-later":
      return { kind: "retryable", ...answered, advice: definition.retry, retryAfterMs: parseRetryAfter(options.retryAfter, options.now) }
    case "do-not-retry-unchanged":
      if (status === 404) return { kind: "not_found", ...answered }
      if (textOf(body, "status") === "TRANSACTION_IMPORT_ERROR") {
        return { kind: "import_error", ...answered, detail: textOf(body, "error_detail") ?? "The transaction could not be added." }
      }
      return { kind: "rejected", ...answered, errors: errorsOf(body) }
  }
}
