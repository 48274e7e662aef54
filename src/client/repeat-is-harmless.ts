/**
 * Which requests may be sent twice without harm, by the service's own rules: a request whose outcome is
 * unknown (the connection broke after sending, or the process died while it was in flight) is sent again
 * automatically only when this says so.
 *
 * @module
 */
import { endpoints, type RepeatRule } from "../schemas/endpoints/catalogue.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import { isRecord } from "../validation/path.js"
import { requestQuery } from "./build-request.js"

type Rule = (payload: unknown, query: Readonly<Record<string, boolean>>) => boolean

/**
 * Notes are compared by body and `created_at`: a repeat of a note with `created_at` is
 * `NOTE_ALREADY_EXISTS`. Without `created_at`, the service stamps the current time and a repeat may be a
 * second note.
 */
const notesWithCreatedAt: Rule = (payload) => {
  const notes = isRecord(payload) ? payload["notes"] : undefined
  return Array.isArray(notes) && notes.length > 0 && notes.every((n) => isRecord(n) && typeof n["created_at"] === "string")
}

/**
 * With `check_previously_added` (the default), a known `transaction_id` is `TRANSACTION_ALREADY_EXISTS`.
 * `force_add_to_current_statement` does not matter: a forced repeat is also answered as already added.
 */
const transactionsChecked: Rule = (_, query) => query["check_previously_added"] === true

/** Each repeat rule of the catalogue (`endpoints[id].repeat`) as a check of the request. */
const RULES: Readonly<Record<RepeatRule, Rule>> = {
  "always": () => true,
  "never": () => false,
  "when-notes-have-created-at": notesWithCreatedAt,
  "when-check-previously-added": transactionsChecked
}

/**
 * Whether sending this request twice is harmless by the service's rules (so a request of unknown outcome
 * may be sent again, and its `already_exists` counts as success). `query` is the query the request is
 * sent with; a parameter not in it takes the client's default (`check_previously_added`: true).
 *
 * @example
 * isRepeatHarmless("notes", { …, notes: [{ body: "Call back", created_at: "2024-05-01T10:00:00Z" }] }) // true
 * isRepeatHarmless("energy-amount", payload) // false: a repeat stores the amount twice
 *
 * @since 0.1.0
 */
export const isRepeatHarmless = (
  endpointId: EndpointId,
  payload: unknown,
  query?: Readonly<Record<string, boolean>>
): boolean => RULES[endpoints[endpointId].repeat](payload, requestQuery(endpointId, {}, query))
