/**
 * A mapping from flat legacy records to the payloads of one endpoint: which field comes from where,
 * and how rows group into payloads and into the items of a payload's lists.
 *
 * @module
 */
import { type PostEndpointId, POST_ENDPOINT_IDS } from "../endpoints/endpoint-id.js"
import type { FieldSource } from "./field-source.js"

/** Selects the rows a collection applies to: `column` equals one of the values. */
export interface RowFilter {
  readonly column: string
  readonly equals: string | ReadonlyArray<string>
}

/** A list inside a payload (or inside an item) whose items are built from rows. */
export interface CollectionMapping {
  /** Where the list goes, relative to the enclosing object: `"notes"`, `"delivery_note.amounts"`. */
  readonly path: string
  /** Rows with equal values in these columns form one item; without it, every row is an item. */
  readonly groupBy?: ReadonlyArray<string>
  /** Only rows that match build items of this list (invoice line rows vs tax rows, say). */
  readonly when?: RowFilter
  /** Fields of each item, by path relative to the item; read from the item's first row. */
  readonly fields: Readonly<Record<string, FieldSource>>
  /** Lists inside each item (registers under their definition, …). */
  readonly collections?: ReadonlyArray<CollectionMapping>
}

/**
 * What a mapping says: its endpoint, how rows group into payloads, and where every field comes from.
 * `E` is the endpoint, so the payloads of `mapRecords` are typed as that endpoint's request.
 */
export interface MappingSpec<E extends PostEndpointId = PostEndpointId> {
  readonly endpoint: E
  /** Rows with equal values in these columns form one payload (the notes of one account); without it, one payload per row. */
  readonly groupBy?: ReadonlyArray<string>
  /** At most this many rows per payload: larger groups are split into batches (transactions per account in batches of N). */
  readonly batchSize?: number
  /** Payload-level fields by dot path (`"energy_amount.quantity"`), read from the group's first row. */
  readonly fields: Readonly<Record<string, FieldSource>>
  readonly collections?: ReadonlyArray<CollectionMapping>
}

/** A checked mapping of endpoint `E`, ready for `mapRecords`. */
export interface Mapping<E extends PostEndpointId = PostEndpointId> extends MappingSpec<E> {
  readonly _tag: "Mapping"
}

const problemsOfFields = (fields: unknown, at: string): Array<string> => {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return [`${at}fields must be an object`]
  const out: Array<string> = []
  for (const [path, source] of Object.entries(fields)) {
    if (!/^[a-z_][a-z0-9_]*(?:\.(?:[a-z_][a-z0-9_]*|\d+))*$/u.test(path)) out.push(`${at}fields: "${path}" is not a dot path`)
    if (typeof source === "string") continue
    if (typeof source !== "object" || source === null) {
      out.push(`${at}fields.${path}: a column name, { column }, { value } or { from } is required`)
    } else if (!("column" in source) && !("value" in source) && !("from" in source)) {
      out.push(`${at}fields.${path}: one of column, value or from is required`)
    } else if ("column" in source && typeof source.column !== "string") {
      out.push(`${at}fields.${path}: column must be a string`)
    }
  }
  return out
}

const problemsOfCollections = (collections: unknown, at: string): Array<string> => {
  if (collections === undefined) return []
  if (!Array.isArray(collections)) return [`${at}collections must be an array`]
  return collections.flatMap((c: unknown, i) => {
    const here = `${at}collections.${i}.`
    if (typeof c !== "object" || c === null) return [`${here} must be an object`]
    const collection = c as Record<string, unknown>
    return [
      ...(typeof collection["path"] === "string" ? [] : [`${here}path must be a string`]),
      ...problemsOfFields(collection["fields"], here),
      ...problemsOfCollections(collection["collections"], here)
    ]
  })
}

/** The problems of a mapping spec (an empty list when it is usable); for mappings read from JSON. */
export const mappingProblems = (spec: unknown): Array<string> => {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return ["a mapping must be an object"]
  const s = spec as Record<string, unknown>
  return [
    ...(POST_ENDPOINT_IDS.includes(s["endpoint"] as PostEndpointId) ? [] : [`endpoint must be one of ${POST_ENDPOINT_IDS.join(", ")}`]),
    ...(s["batchSize"] === undefined || (Number.isSafeInteger(s["batchSize"]) && (s["batchSize"] as number) > 0)
      ? []
      : ["batchSize must be a positive integer"]),
    ...(s["groupBy"] === undefined || (Array.isArray(s["groupBy"]) && s["groupBy"].every((c) => typeof c === "string"))
      ? []
      : ["groupBy must be a list of column names"]),
    ...problemsOfFields(s["fields"], ""),
    ...problemsOfCollections(s["collections"], "")
  ]
}

/**
 * Checks a mapping spec and returns the mapping. The same spec can be written as plain JSON (without
 * `from` functions), with the same meaning. Throws a `TypeError` listing the problems of a bad spec.
 *
 * @example
 * const mapping = defineMapping({
 *   endpoint: "notes",
 *   groupBy: ["Kundennummer"],
 *   fields: { import_supplier: { value: "STADTWERKE_NORD" }, external_account_number: "Kundennummer" },
 *   collections: [{ path: "notes", fields: { body: "Notiz", created_at: { column: "Datum", convert: "datetime" } } }]
 * })
 */
export const defineMapping = <E extends PostEndpointId>(spec: MappingSpec<E>): Mapping<E> => {
  const problems = mappingProblems(spec)
  if (problems.length > 0) throw new TypeError(`Invalid mapping: ${problems.join("; ")}`)
  return { ...spec, _tag: "Mapping" }
}
