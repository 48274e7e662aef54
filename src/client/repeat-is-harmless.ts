/**
 * Which requests may be sent twice without harm, by the service's own rules: a request whose outcome is
 * unknown (the connection broke after sending, or the process died while it was in flight) is sent again
 * automatically only when this says so.
 *
 * @module
 */
import type { EndpointId } from "../endpoints/endpoint-id.js"
import { isRecord } from "../validation/path.js"
import { effectiveQuery } from "./build-request.js"

type Rule = (payload: unknown, query: Readonly<Record<string, boolean>>) => boolean

const read: Rule = () => true
const never: Rule = () => false

/**
 * Notes are compared by body and `created_at`: a repeat of a note with `created_at` is
 * `NOTE_ALREADY_EXISTS`. Without `created_at`, the service stamps the current time and a repeat may be a
 * second note.
 */
const notesWithCreatedAt: Rule = (payload) => {
  const notes = isRecord(payload) ? payload["notes"] : undefined
  return Array.isArray(notes) && notes.length > 0 && notes.every((n) => isRecord(n) && typeof n["created_at"] === "string")
}

/** With `check_previously_added` (the default), a known `transaction_id` is `TRANSACTION_ALREADY_EXISTS`. */
const transactionsChecked: Rule = (_, query) => query["check_previously_added"] === true

/**
 * Per endpoint, whether a repeat is harmless. Reads are. Historical statements are not: a repeat is a
 * 400 `historical_statement_already_exists`, which cannot be told from a real refusal of the first send.
 */
export const REPEAT_IS_HARMLESS: Readonly<Record<EndpointId, Rule>> = {
  "notes": notesWithCreatedAt,
  "delivery-note": never,
  "energy-amount": never,
  "transactions": transactionsChecked,
  "historical-statements": never,
  "market-participant-invoice": never,
  "payment-instruction": never,
  "account-transfer-status": read,
  "all-account-import-processes": read,
  "pending-account-import-processes": read,
  "imported-account-import-processes": read,
  // A participant whose code exists already is answered 200 and left unchanged.
  "market-participant": () => true,
  "market-participant-fees": never,
  "market-participant-definitions": never
}

/**
 * Whether sending this request twice is harmless by the service's rules (so a request of unknown outcome
 * may be sent again, and its `already_exists` counts as success).
 *
 * @example
 * isRepeatHarmless("notes", { …, notes: [{ body: "Call back", created_at: "2024-05-01T10:00:00Z" }] }) // true
 * isRepeatHarmless("energy-amount", payload) // false: a repeat stores the amount twice
 */
export const isRepeatHarmless = (
  endpointId: EndpointId,
  payload: unknown,
  query?: Readonly<Record<string, boolean>>
): boolean => REPEAT_IS_HARMLESS[endpointId](payload, effectiveQuery(endpointId, query))
