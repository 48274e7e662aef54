/**
 * Records whose natural key must not repeat within one input (an endpoint's `uniqueInInput`, declared
 * beside its resource): the keys of a payload's items, for `map` and `validate` to compare across
 * payloads, batches and files. `send` needs none of this: its ledger keys every record the same way.
 *
 * @module
 */
import { type EndpointDefinition, endpoints } from "../../schemas/endpoints/catalogue.js"
import { type PostEndpointId } from "../../schemas/endpoints/endpoint-id.js"
import { recordsOf } from "../../schemas/endpoints/natural-key.js"
import { type UniqueInInput } from "../../schemas/endpoint-definition.js"

/** An endpoint's rule across records, with where its items are and whether the account is part of the key. */
export interface InputKeyRule extends UniqueInInput {
  readonly items: string
  readonly perAccount: boolean
}

const RULES: ReadonlyMap<string, InputKeyRule> = new Map(
  Object.entries(endpoints as Readonly<Record<string, EndpointDefinition>>).flatMap(([id, endpoint]) =>
    endpoint.uniqueInInput === undefined || endpoint.naturalKey?.items === undefined
      ? []
      : [[id, { ...endpoint.uniqueInInput, items: endpoint.naturalKey.items, perAccount: endpoint.naturalKey.account }] as const]
  )
)

/**
 * The rule across records of an endpoint, if it has one.
 *
 * @example
 * uniqueInInputOf("transactions")?.code // => "duplicate_transaction_ids"
 * uniqueInInputOf("notes") // => undefined
 */
export const uniqueInInputOf = (endpoint: string): InputKeyRule | undefined => RULES.get(endpoint)

/**
 * The natural key of each item of a payload of an endpoint with a rule across records, by item index;
 * `undefined` for an item without its rule's field (a text), which names no record to compare.
 *
 * @example
 * const body = { import_supplier: "S", external_account_number: "A", transactions: [{ transaction_id: "T-1" }, {}] }
 * inputKeysOf("transactions", body).map((key) => key !== undefined) // => [true, false]
 */
export const inputKeysOf = (endpoint: string, payload: unknown): Array<string | undefined> => {
  const rule = RULES.get(endpoint)
  const items = rule === undefined || typeof payload !== "object" || payload === null ? undefined : (payload as Readonly<Record<string, unknown>>)[rule.items]
  if (rule === undefined || !Array.isArray(items)) return []
  const keys: Array<string | undefined> = items.map(() => undefined)
  for (const record of recordsOf(endpoint as PostEndpointId, payload) ?? []) {
    const item: unknown = record.index === null ? undefined : items[record.index]
    if (typeof item === "object" && item !== null && typeof (item as Record<string, unknown>)[rule.field] === "string") keys[record.index!] = record.key
  }
  return keys
}
