/**
 * What an answer of the service means for each record of the request that got it: the client's outcome
 * (one per request) read as one ledger outcome per record, with the records to send again at once
 * (those a refusal of other records of the same request kept out).
 *
 * @module
 */
import { endpoints, type EndpointDefinition } from "../schemas/endpoints/catalogue.js"
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { type KeyedRecord, naturalKeyOf } from "../schemas/endpoints/natural-key.js"
import type { SendOutcome } from "../client/outcome.js"
import type { ApiError } from "../schemas/errors.js"
import { isRecord } from "../validation/path.js"
import type { BlockedCause, LedgerOutcome } from "../ledger/ledger-types.js"

/** The codes of a 400 that refuse a record for its account or supplier, not its content, by cause. */
export const BLOCKING_CODES: Readonly<Record<string, BlockedCause>> = {
  import_supplier_migration_not_ongoing: "supplier_not_ongoing",
  account_not_found: "account_not_imported",
  import_process_does_not_exist: "account_unknown"
}

/**
 * The codes of a 400 that refuse a pre-import record for a participant the service does not have yet
 * (fees name their market participant, time definitions their network operator), by cause. Sent before
 * the participant, the record is fine as it is: rejected, it would never be sent again unchanged, so it
 * is blocked and sent again by every run until the participant is imported.
 */
export const PREREQUISITE_CODES: Readonly<Record<string, BlockedCause>> = {
  market_participant_does_not_exist: "market_participant_not_imported",
  network_operator_does_not_exist: "network_operator_not_imported"
}

/** A refusal with these codes: blocked when each is a prerequisite's, rejected otherwise. */
const refusal = (codes: ReadonlyArray<string>, base: Omit<LedgerOutcome, "outcome" | "cause">): LedgerOutcome => {
  const causes = codes.map((c) => PREREQUISITE_CODES[c])
  if (codes.length > 0 && causes.every((c) => c !== undefined)) return { ...base, outcome: "blocked", cause: causes[0]! }
  return { ...base, outcome: "rejected", cause: codes.join(",") || "rejected" }
}

/** The records of a request with their outcomes, and the records to send again (in a new request) now. */
export interface RequestOutcomes {
  readonly settled: ReadonlyArray<readonly [KeyedRecord, LedgerOutcome]>
  readonly again: ReadonlyArray<KeyedRecord>
  /** A 404: the cause (account not imported, or unknown) is to be asked of the status endpoint. */
  readonly askAccount?: true
}

const codesOf = (errors: ReadonlyArray<ApiError>, body: unknown): Array<string> => {
  const top = isRecord(body) && typeof body["code"] === "string" ? [body["code"]] : []
  return [...new Set([...top, ...errors.map((e) => e.code)])]
}

const all = (records: ReadonlyArray<KeyedRecord>, outcome: LedgerOutcome): RequestOutcomes => ({
  settled: records.map((r) => [r, outcome] as const),
  again: []
})

/** Whether the endpoint's answer has one result per record (its catalogue entry's `itemResults`). */
const hasItemResults = (endpoint: PostEndpointId): boolean => {
  const entry: EndpointDefinition = endpoints[endpoint]
  return entry.itemResults !== undefined
}

/** The element `index` of the request body's items, as sent. */
const sentItem = (endpoint: PostEndpointId, body: unknown, index: number): unknown => {
  const field = naturalKeyOf(endpoint).items
  const items = field !== undefined && isRecord(body) ? body[field] : undefined
  return Array.isArray(items) ? items[index] : undefined
}

/** The `transaction_data` of result `index` of a transactions answer. */
const answeredData = (answer: unknown, index: number): Record<string, unknown> | undefined => {
  const results = isRecord(answer) ? answer["results"] : undefined
  const result = Array.isArray(results) ? results[index] : undefined
  const data = isRecord(result) ? result["transaction_data"] : undefined
  return isRecord(data) ? data : undefined
}

/**
 * What the service wrote into a transaction it moved, as its answer carries it: the first text field
 * (`description`, `note`, `display_note`) that differs from the one sent. The spec: "a description is
 * added to the transaction explaining this and a note is pinned to the account".
 */
const serviceNote = (sent: unknown, answered: Record<string, unknown>): string | null => {
  for (const field of ["description", "note", "display_note"]) {
    const text = answered[field]
    if (typeof text === "string" && text !== (isRecord(sent) ? sent[field] : undefined)) return text
  }
  return null
}

/** Per record from the item results of its answer (notes, transactions); a record with no result is in doubt. */
const byItems = (
  endpoint: PostEndpointId,
  body: unknown,
  records: ReadonlyArray<KeyedRecord>,
  outcome: Extract<SendOutcome, { readonly items?: unknown }>
): RequestOutcomes => {
  const items = new Map((outcome.items ?? []).map((item) => [item.index, item.outcome]))
  const base = { httpStatus: outcome.status, attempts: outcome.attempts }
  return {
    again: [],
    settled: records.map((record, i): readonly [KeyedRecord, LedgerOutcome] => {
      const item = items.get(i)
      if (item === "already_exists") return [record, { ...base, outcome: "already_existed" }]
      if (item === "created") {
        const sent = sentItem(endpoint, body, i)
        const from = isRecord(sent) ? sent["transaction_date"] : undefined
        const answered = answeredData(outcome.body, i)
        const to = answered?.["transaction_date"]
        if (endpoint === "transactions" && answered !== undefined && typeof to === "string" && to !== from) {
          // What the report lists of it: the transaction, both dates, and the service's own words about the move.
          const id = isRecord(sent) ? sent["transaction_id"] : undefined
          const detail = { from, to, pinned_note: true, transaction_id: typeof id === "string" ? id : null, service_note: serviceNote(sent, answered) }
          return [record, { ...base, outcome: "moved", cause: "moved_into_open_statement_period", detail }]
        }
        return [record, { ...base, outcome: "created" }]
      }
      if (item === "import_error") return [record, { ...base, outcome: "rejected", cause: "TRANSACTION_IMPORT_ERROR", detail: outcome.body }]
      return [record, { ...base, outcome: "in_doubt", cause: "no_result", detail: { reason: `The answer (${outcome.status}) has no result for this record.`, body: outcome.body } }]
    })
  }
}

/** The index in the request of the transaction a `TRANSACTION_IMPORT_ERROR` names. */
const failingTransaction = (body: unknown, answer: unknown): number | undefined => {
  const data = isRecord(answer) ? answer["transaction_data"] : undefined
  const id = isRecord(data) ? data["transaction_id"] : undefined
  const transactions = isRecord(body) ? body["transactions"] : undefined
  if (typeof id !== "string" || !Array.isArray(transactions)) return undefined
  const index = transactions.findIndex((t: unknown) => isRecord(t) && t["transaction_id"] === id)
  return index === -1 ? undefined : index
}

/** A 400 with errors: blocked, or rejected per record where the errors name records (`notes.2.body`). */
const refused = (
  endpoint: PostEndpointId,
  records: ReadonlyArray<KeyedRecord>,
  outcome: Extract<SendOutcome, { readonly kind: "rejected" }>
): RequestOutcomes => {
  const codes = codesOf(outcome.errors, outcome.body)
  const base = { httpStatus: outcome.status, attempts: outcome.attempts, detail: outcome.errors }
  const blocked = codes.map((c) => BLOCKING_CODES[c]).find((c) => c !== undefined)
  if (blocked !== undefined) return all(records, { ...base, outcome: "blocked", cause: blocked })
  const field = naturalKeyOf(endpoint).items
  const errorsOf = new Map<number, Array<ApiError>>()
  let whole = field === undefined || records.length === 1
  for (const error of outcome.errors) {
    const index = field !== undefined && typeof error.attr === "string" && error.attr.startsWith(`${field}.`) ? Number.parseInt(error.attr.slice(field.length + 1), 10) : Number.NaN
    if (Number.isNaN(index) || index >= records.length) whole = true
    else errorsOf.set(index, [...(errorsOf.get(index) ?? []), error])
  }
  if (whole || errorsOf.size === 0) return all(records, refusal(codes, base))
  // The others were refused only with them: sent again at once, without them.
  return {
    settled: [...errorsOf].map(([i, errors]) => [records[i]!, refusal(codesOf(errors, undefined), { ...base, detail: errors })] as const),
    again: records.filter((_, i) => !errorsOf.has(i))
  }
}

/**
 * The outcome of each record of a request from the client's outcome for it.
 *
 * @example
 * const records = [{ index: null, key: "k", identity: "i", content: "c", supplier: "S", account: "A" }]
 * recordOutcomes("energy-amount", {}, records, { kind: "created", status: 201, body: {}, warnings: [], attempts: 1 }).settled[0]?.[1].outcome
 * // => "created"
 */
export const recordOutcomes = (endpoint: PostEndpointId, body: unknown, records: ReadonlyArray<KeyedRecord>, outcome: SendOutcome): RequestOutcomes => {
  const attempts = outcome.attempts
  switch (outcome.kind) {
    case "created":
    case "already_exists":
      if (hasItemResults(endpoint)) return byItems(endpoint, body, records, outcome)
      return all(records, { outcome: outcome.kind === "created" ? "created" : "already_existed", httpStatus: outcome.status, attempts })
    case "ok":
      return all(records, { outcome: "created", httpStatus: outcome.status, attempts })
    case "rejected":
      return refused(endpoint, records, outcome)
    case "import_error": {
      const index = outcome.items === undefined ? failingTransaction(body, outcome.body) : undefined
      const detail = { detail: outcome.detail, body: outcome.body }
      if (outcome.items !== undefined) return byItems(endpoint, body, records, outcome)
      if (index === undefined || records.length === 1) {
        return all(records, { outcome: "rejected", cause: "TRANSACTION_IMPORT_ERROR", httpStatus: outcome.status, attempts, detail })
      }
      return {
        settled: [[records[index]!, { outcome: "rejected", cause: "TRANSACTION_IMPORT_ERROR", httpStatus: outcome.status, attempts, detail }]],
        again: records.filter((_, i) => i !== index)
      }
    }
    case "not_found":
      return { ...all(records, { outcome: "blocked", cause: "account_not_found", httpStatus: outcome.status, attempts, detail: outcome.body }), askAccount: true }
    case "unauthorized":
      return all(records, { outcome: "failed", cause: "unauthorized", httpStatus: outcome.status, attempts, detail: "The service refused the credentials (401)." })
    case "retryable":
      return all(records, { outcome: "failed", cause: `status_${outcome.status}`, httpStatus: outcome.status, attempts, detail: outcome.body })
    case "failed":
      return all(records, { outcome: "failed", cause: "failed", httpStatus: outcome.last?.status ?? null, attempts, detail: outcome.reason })
    case "unexpected":
      return all(records, { outcome: "in_doubt", cause: "unexpected_answer", httpStatus: outcome.status, attempts, detail: { errors: outcome.errors, body: outcome.body } })
    case "in_doubt":
      return all(records, { outcome: "in_doubt", cause: "no_answer", attempts, detail: outcome.reason })
  }
}
