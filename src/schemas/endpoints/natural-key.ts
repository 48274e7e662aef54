/**
 * The records of a request body by their natural key (the catalogue's `naturalKey`): what a ledger keeps
 * to know a record again whatever file, line or request it arrives in, and the content hash that tells a
 * fix of a record from a repeat of it.
 *
 * @module
 */
import { hash } from "node:crypto"
import { ISO_DATETIME_RE } from "../patterns.js"
import { toInstant } from "../instant.js"
import { isRecord } from "../is-record.js"
import { endpoints, type NaturalKey } from "./catalogue.js"
import type { PostEndpointId } from "./endpoint-id.js"

/**
 * One record of a request body.
 *
 * @since 0.1.0
 */
export interface KeyedRecord {
  /** The element's index in the body's `items` array; `null` when the whole body is the record. */
  readonly index: number | null
  /** The key's values as JSON text: the endpoint, the account (when keyed by it), then each key field. */
  readonly key: string
  /** A short digest of {@link KeyedRecord.key}: what the ledger stores the record by. */
  readonly identity: string
  /**
   * The identity a ledger written before natural keys declared their instants keeps the record under, where
   * it is another one: such a ledger read every datetime-shaped text of a key as an instant, not only the
   * declared fields (`@1704067200` for a transaction id `2024-01-01T00:00:00Z`). Absent when both are the
   * same, as they are for every key without such a text outside its instants.
   */
  readonly formerIdentity?: string
  /** A digest of the record's content (with the body's other fields), independent of key order and spacing. */
  readonly content: string
  /** `import_supplier` and `external_account_number` of a post-import body, else `null`. */
  readonly supplier: string | null
  readonly account: string | null
}

/**
 * The natural key of a POST endpoint, as the catalogue declares it.
 *
 * @example
 * naturalKeyOf("transactions").items // => "transactions"
 * naturalKeyOf("energy-amount").items // => undefined
 *
 * @since 0.1.0
 */
export const naturalKeyOf = (endpointId: PostEndpointId): NaturalKey => endpoints[endpointId].naturalKey

const digest = (text: string): string => hash("sha256", text, "hex").slice(0, 32)

/** A key value as a key holds it: `null` for an absent field, else the value as it is. */
const asWritten = (value: unknown): unknown => (value === undefined ? null : value)

/**
 * A datetime names an instant: `…T00:00:00+01:00` and `…T23:00:00Z` of the day before are one key value,
 * so a file mapped again with another offset style is not a new record. Only for the fields the natural
 * key declares as instants: any other text is compared as written.
 */
const asInstant = (value: unknown): unknown => {
  if (typeof value === "string" && ISO_DATETIME_RE.test(value)) {
    const instant = toInstant(value)
    return `@${instant.seconds}${instant.fraction === "" ? "" : `.${instant.fraction}`}`
  }
  return asWritten(value)
}

/** The values at a dot path, each made a key value by `keyValue`; `a[].b` collects `b` of every element of `a`. */
const valuesAt = (value: unknown, path: string, keyValue: (value: unknown) => unknown): unknown => {
  let current: unknown = value
  const steps = path.split(".")
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!
    if (step.endsWith("[]")) {
      const list = isRecord(current) ? current[step.slice(0, -2)] : undefined
      if (!Array.isArray(list)) return null
      const rest = steps.slice(i + 1).join(".")
      return list.map((element) => (rest === "" ? keyValue(element) : valuesAt(element, rest, keyValue)))
    }
    current = isRecord(current) ? current[step] : undefined
  }
  return keyValue(current)
}

/** A copy with the keys of every object in sorted order; an object already so (and flat) is itself. */
const sortedCopy = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.map(sortedCopy)
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  let sorted = true
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! <= keys[i]!
  if (sorted && keys.every((k) => typeof record[k] !== "object" || record[k] === null)) return record
  const out: Record<string, unknown> = {}
  for (const key of sorted ? keys : keys.sort()) out[key] = sortedCopy(record[key])
  return out
}

/**
 * JSON text with the keys of every object sorted: equal content, equal text. The sorting is done on a
 * copy that JSON.stringify then writes natively, since this runs for every record a run reads.
 *
 * @example
 * canonicalJson({ b: 1, a: { d: 2, c: [3] } }) // => '{"a":{"c":[3],"d":2},"b":1}'
 */
export const canonicalJson = (value: unknown): string => JSON.stringify(sortedCopy(value)) ?? "null"

const textOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null)

/**
 * The natural key (as JSON text) of a record of `body`: the endpoint, the account when keyed by it, then
 * each key field, its declared instants as instants. With `everyDatetime`, the former key: every
 * datetime-shaped text as an instant (see `KeyedRecord.formerIdentity`).
 */
const keyMaker = (endpointId: PostEndpointId, body: Readonly<Record<string, unknown>>, everyDatetime = false): ((record: unknown) => string) => {
  const naturalKey = naturalKeyOf(endpointId)
  const instants = new Set(naturalKey.instants ?? [])
  const prefix: Array<unknown> = naturalKey.account ? [endpointId, body["import_supplier"] ?? null, body["external_account_number"] ?? null] : [endpointId]
  const readers = naturalKey.fields.map((field) => [field, everyDatetime || instants.has(field) ? asInstant : asWritten] as const)
  return (record) => JSON.stringify([...prefix, ...readers.map(([field, keyValue]) => valuesAt(record, field, keyValue))])
}

/**
 * The natural key of each item of a body whose records are its items (as {@link recordsOf} gives it, by
 * item index), without the digests of identity and content: what a caller needs that only names records.
 * `undefined` when the body's records are not items of a list, or the list is missing.
 *
 * @example
 * const body = { import_supplier: "S", external_account_number: "A", transactions: [{ transaction_id: "T-1" }, { transaction_id: "T-2" }] }
 * itemKeysOf("transactions", body) // => ['["transactions","S","A","T-1"]', '["transactions","S","A","T-2"]']
 */
export const itemKeysOf = (endpointId: PostEndpointId, body: unknown): ReadonlyArray<string> | undefined => {
  const field = naturalKeyOf(endpointId).items
  if (field === undefined || !isRecord(body) || !Array.isArray(body[field])) return undefined
  return (body[field] as ReadonlyArray<unknown>).map(keyMaker(endpointId, body))
}

/**
 * The records of a request body, each with its natural key, identity and content digest; `undefined` when
 * the body is not an object, or its `items` field is not a non-empty array (such a body names no record:
 * it is invalid before any key can be read).
 *
 * @example
 * const records = recordsOf("transactions", {
 *   import_supplier: "STADTWERKE_NORD",
 *   external_account_number: "KD-1",
 *   transactions: [{ transaction_id: "T-1", transaction_date: "2024-01-05", amount: 12.5, type: "CHARGE" }]
 * })
 * records?.[0]?.key // => '["transactions","STADTWERKE_NORD","KD-1","T-1"]'
 *
 * @since 0.1.0
 */
export const recordsOf = (endpointId: PostEndpointId, body: unknown): ReadonlyArray<KeyedRecord> | undefined => {
  const naturalKey = naturalKeyOf(endpointId)
  if (!isRecord(body)) return undefined
  const supplier = naturalKey.account ? textOrNull(body["import_supplier"]) : null
  const account = naturalKey.account ? textOrNull(body["external_account_number"]) : null
  const keyOf = keyMaker(endpointId, body)
  const formerKeyOf = keyMaker(endpointId, body, true)
  const keyed = (record: unknown, index: number | null, content: string): KeyedRecord => {
    const key = keyOf(record)
    const formerKey = formerKeyOf(record)
    const identity = digest(key)
    return formerKey === key
      ? { index, key, identity, content: digest(content), supplier, account }
      : { index, key, identity, formerIdentity: digest(formerKey), content: digest(content), supplier, account }
  }
  if (naturalKey.items === undefined) return [keyed(body, null, canonicalJson(body))]
  const items = body[naturalKey.items]
  if (!Array.isArray(items) || items.length === 0) return undefined
  const { [naturalKey.items]: _, ...envelope } = body
  const envelopeText = canonicalJson(envelope)
  return items.map((item, index) => keyed(item, index, `${envelopeText}\n${canonicalJson(item)}`))
}

/**
 * The body with only the records at `indices` (in that order): what is sent when the rest of a request's
 * records are settled already. A body whose whole is one record is returned as it is.
 *
 * @example
 * const body = { import_supplier: "S", external_account_number: "A", notes: [{ body: "a" }, { body: "b" }] }
 * bodyWith("notes", body, [1]) // => { import_supplier: "S", external_account_number: "A", notes: [{ body: "b" }] }
 */
export const bodyWith = (endpointId: PostEndpointId, body: unknown, indices: ReadonlyArray<number>): unknown => {
  const field = naturalKeyOf(endpointId).items
  if (field === undefined || !isRecord(body)) return body
  const items = body[field]
  if (!Array.isArray(items)) return body
  if (indices.length === items.length && indices.every((i, n) => i === n)) return body
  return { ...body, [field]: indices.map((i) => items[i]) }
}
