/**
 * The rehearsal lookup: "is this record stored?" for a list of natural keys, as the in-doubt list of
 * `data-import report --in-doubt` writes them (its `key` or `key_utc` column). What the real service's
 * operators answer by looking into their database, so that a rehearsal can practise settling the records
 * in doubt (`data-import resolve`) end to end. A stored record is found by its natural key, computed with
 * the library's own `recordsOf` from what the service stored, whatever file, request or date it came with.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { isPostEndpointId, type PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { naturalKeyOf, recordsOf } from "../schemas/endpoints/natural-key.js"
import { comparableKey } from "../schemas/endpoints/natural-key-text.js"
import { isRecord } from "../validation/path.js"
import type { Answer } from "./handler.js"
import { businessError } from "./service-response.js"
import { accountKey, type RecordKind, type ServiceState } from "./state.js"

/**
 * Endpoints whose records the service does not store one by one: time definitions are stored per
 * definition, while a record is a whole request (its key names every definition). Asked about, their
 * keys are answered `unknown`.
 */
const NOT_ONE_BY_ONE: ReadonlySet<PostEndpointId> = new Set(["market-participant-definitions"])

/** The request body that would have stored `data` as one record of `endpoint`, for `recordsOf` to key it. */
const bodyOf = (endpoint: PostEndpointId, data: unknown, key: ReadonlyArray<unknown>): unknown => {
  const naturalKey = naturalKeyOf(endpoint)
  const { service } = endpoints[endpoint]
  const envelope = naturalKey.account ? { import_supplier: key[1], external_account_number: key[2] } : {}
  if (naturalKey.items !== undefined) return { ...envelope, [naturalKey.items]: [data] }
  if ("field" in service && typeof service.field === "string") return { ...envelope, [service.field]: data }
  return isRecord(data) ? { ...envelope, ...data } : envelope
}

/**
 * A stored note has a `created_at` whether or not its request gave one; the service finds a note asked
 * without one by its body alone, and so does the lookup.
 */
const asAsked = (endpoint: PostEndpointId, data: unknown, key: ReadonlyArray<unknown>): unknown => {
  if (endpoint !== "notes" || !isRecord(data)) return data
  const at = 3 + naturalKeyOf("notes").fields.indexOf("created_at")
  if (key[at] !== null) return data
  const { created_at: _, ...rest } = data
  return rest
}

/**
 * Answers the lookup: 200 `{ stored, not_stored, unknown }`, each a list of the keys as given; 400 for a
 * body without a list of keys, or keys that are no natural key (each named).
 *
 * @example
 * lookupRecords(state, { keys: ['["payment-instruction","STADTWERKE_NORD","KD-1","R-1"]'] }).body
 * // => { stored: [], not_stored: ['["payment-instruction","STADTWERKE_NORD","KD-1","R-1"]'], unknown: [] }
 */
export const lookupRecords = (state: ServiceState, body: { readonly keys: ReadonlyArray<string> }): Answer => {
  const stored: Array<string> = []
  const notStored: Array<string> = []
  const unknown: Array<string> = []
  const errors: Array<{ detail: string; attr: string }> = []
  /** The comparable keys of what is stored, by kind and account: each asked once. */
  const keysStored = new Map<string, ReadonlyArray<{ readonly data: unknown }>>()
  for (const [index, text] of body.keys.entries()) {
    let values: unknown
    try {
      values = JSON.parse(text)
    } catch {
      values = undefined
    }
    const endpoint = Array.isArray(values) ? values[0] : undefined
    if (!Array.isArray(values) || typeof endpoint !== "string" || !isPostEndpointId(endpoint) || comparableKey(text) === undefined) {
      errors.push({ detail: "Not a natural key: a JSON array of the endpoint, (supplier, account,) and key fields, as the in-doubt list writes it.", attr: `keys.${index}` })
      continue
    }
    const naturalKey = naturalKeyOf(endpoint)
    const { service } = endpoints[endpoint]
    if (NOT_ONE_BY_ONE.has(endpoint) || !("stores" in service)) {
      unknown.push(text)
      continue
    }
    if (naturalKey.account && (typeof values[1] !== "string" || typeof values[2] !== "string")) {
      errors.push({ detail: "A key of an account's record names its supplier and account second and third.", attr: `keys.${index}` })
      continue
    }
    const kind = service.stores as RecordKind
    const account = naturalKey.account ? accountKey(values[1] as string, values[2] as string) : null
    const cacheKey = JSON.stringify([kind, account])
    let items = keysStored.get(cacheKey)
    if (items === undefined) {
      items = state.list(kind, account).map((data) => ({ data }))
      keysStored.set(cacheKey, items)
    }
    const wanted = comparableKey(text)
    const found = items.some(({ data }) =>
      (recordsOf(endpoint, bodyOf(endpoint, asAsked(endpoint, data, values), values)) ?? []).some((r) => comparableKey(r.key) === wanted)
    )
    ;(found ? stored : notStored).push(text)
  }
  if (errors.length > 0) return { status: 400, body: businessError("invalid", errors) }
  return { status: 200, body: { stored, not_stored: notStored, unknown } }
}
