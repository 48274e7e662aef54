/**
 * A mapping from flat legacy records to the payloads of one endpoint: which field comes from where,
 * and how rows group into payloads and into the items of a payload's lists.
 *
 * @module
 */
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { runValidation } from "../validation/run-validation.js"
import type { FieldSource } from "./field-source.js"
import { didYouMean, MAPPING_KEYS, MappingFileSchema, MappingSpecSchema } from "./mapping-schema.js"
import { isValueTableFile } from "./value-table.js"

/**
 * Selects the rows a collection applies to: `column` equals one of the values (compared trimmed).
 *
 * @since 0.1.0
 */
export interface RowFilter {
  readonly column: string
  readonly equals: string | ReadonlyArray<string>
}

/**
 * A list inside a payload (or inside an item) whose items are built from rows.
 *
 * @since 0.1.0
 */
export interface CollectionMapping {
  /** Where the list goes, relative to the enclosing object: `"notes"`, `"delivery_note.amounts"`. */
  readonly path: string
  /** Rows with equal values in these columns form one item; without it, every row is an item. */
  readonly groupBy?: ReadonlyArray<string>
  /** Only rows that match build items of this list (invoice line rows vs tax rows, say). */
  readonly when?: RowFilter
  /** Fields of each item, by path relative to the item; every row of an item must agree on them. */
  readonly fields: Readonly<Record<string, FieldSource>>
  /** Lists inside each item (registers under their definition, …). */
  readonly collections?: ReadonlyArray<CollectionMapping>
}

/**
 * What a mapping says: its endpoint, how rows group into payloads, and where every field comes from.
 * `E` is the endpoint, so the payloads of `mapRecords` are typed as that endpoint's request.
 *
 * @since 0.1.0
 */
export interface MappingSpec<E extends PostEndpointId = PostEndpointId> {
  /** The JSON Schema of a mapping file, for editors; ignored. */
  readonly $schema?: string
  readonly endpoint: E
  /** What `data-import map` reads: CSV or NDJSON rows, or EDIFACT or BO4E records (see `reader`); ignored by `mapRecords`. */
  readonly source?: "csv" | "ndjson" | "edifact" | "bo4e"
  /** For `source: "edifact"` or `"bo4e"`: the file of the reader's options, relative to the mapping; ignored by `mapRecords`. */
  readonly reader?: string
  /** Rows with equal values in these columns form one payload (the notes of one account); without it, one payload per row. */
  readonly groupBy?: ReadonlyArray<string>
  /** At most this many items of the first collection per payload: larger groups are cut between items. */
  readonly batchSize?: number
  /** Payload-level fields by dot path (`"energy_amount.quantity"`); every row of a group must agree on them. */
  readonly fields: Readonly<Record<string, FieldSource>>
  readonly collections?: ReadonlyArray<CollectionMapping>
}

/**
 * A checked mapping of endpoint `E`, ready for `mapRecords`.
 *
 * @since 0.1.0
 */
export interface Mapping<E extends PostEndpointId = PostEndpointId> extends MappingSpec<E> {
  readonly _tag: "Mapping"
}

/**
 * One problem of a mapping: where in the mapping (`collections.0.fields.body`), a code, and what to do.
 *
 * @since 0.1.0
 */
export interface MappingProblem {
  readonly at: string
  readonly code: string
  readonly detail: string
}

/** An attr's segments: dots inside a key are escaped (`energy_amount\\.quantity`). */
const segmentsOf = (attr: string): Array<string> =>
  attr.split(/(?<!\\)\./u).map((segment) => segment.replace(/\\(.)/gu, "$1"))

/** Where in the mapping, readable: `fields["energy_amount.quantity"].convert`. */
export const placeOf = (segments: ReadonlyArray<string>): string =>
  segments.map((segment, i) => (/^[A-Za-z0-9_$]+$/u.test(segment) ? `${i === 0 ? "" : "."}${segment}` : `[${JSON.stringify(segment)}]`)).join("")

const problemOf = (e: { readonly attr: string; readonly code: string; readonly detail: string }): MappingProblem => {
  const segments = e.attr === "non_field_errors" ? [] : segmentsOf(e.attr)
  const at = placeOf(segments)
  if (e.code !== "unknown_field") return { at, code: e.code, detail: e.detail }
  // An unknown field is always a key of some object, so its attr has a last segment.
  const key = segments[segments.length - 1]!
  if (segments[segments.length - 2] === "fields") {
    return { at, code: "invalid_field_path", detail: `${JSON.stringify(key)} is not a dot path of payload field names (such as energy_amount.quantity)` }
  }
  // A key of the format in the wrong place (a field with both "value" and "column", say) has no nearer name.
  if (MAPPING_KEYS.includes(key)) return { at, code: "unknown_key", detail: `${JSON.stringify(key)} is a key of the mapping format, but not one this object takes` }
  return { at, code: "unknown_key", detail: `unknown key ${JSON.stringify(key)}${didYouMean(key, MAPPING_KEYS)}` }
}

const check = (spec: unknown, functions: boolean): Array<MappingProblem> => {
  const result = runValidation(functions ? MappingSpecSchema : MappingFileSchema, spec, { rootMustBeObject: true })
  return result.ok ? [] : result.error.errors.map(problemOf)
}

/**
 * The problems of a mapping read from JSON (an empty list when it is usable): unknown keys at any depth
 * (with the nearest known key), unknown converters, converter options that do not exist or have wrong
 * values, and misplaced values. Each problem names where it is in the mapping.
 *
 * @example
 * mappingProblems({ endpoint: "notes", group_by: ["Konto"], fields: {} })
 * // => [{ at: "group_by", code: "unknown_key", detail: 'unknown key "group_by" (did you mean groupBy?)' }]
 *
 * @since 0.1.0
 */
export const mappingProblems = (spec: unknown): Array<MappingProblem> => check(spec, false)

/**
 * A problem as one line of text: `collections.0.group_by: unknown key "group_by" (did you mean groupBy?)`.
 *
 * @example
 * const [problem] = mappingProblems({ endpoint: "notes", group_by: ["Konto"], fields: {} })
 * formatMappingProblem(problem!) // => 'group_by: unknown key "group_by" (did you mean groupBy?)'
 * formatMappingProblem({ at: "", code: "invalid", detail: "a mapping is a JSON object" }) // => "a mapping is a JSON object"
 *
 * @since 0.1.0
 */
export const formatMappingProblem = (problem: MappingProblem): string =>
  problem.at === "" ? problem.detail : `${problem.at}: ${problem.detail}`

/** The value tables of a (checked) spec still given as `{ file }`: a mapping holds its tables, read. */
const unreadTables = (spec: { readonly fields: Readonly<Record<string, FieldSource>>; readonly collections?: ReadonlyArray<CollectionMapping> }, at: ReadonlyArray<string> = []): Array<MappingProblem> => [
  ...Object.entries(spec.fields).flatMap(([path, source]) =>
    typeof source === "object" && "values" in source && source.values !== undefined
      ? (Array.isArray(source.values) ? source.values : [source.values]).flatMap((table) =>
        isValueTableFile(table)
          ? [{ at: placeOf([...at, "fields", path, "values"]), code: "unread_value_table", detail: `the value table ${table.file} is not read yet: read it with resolveValueTables (data-import map does)` }]
          : [])
      : []),
  ...(spec.collections ?? []).flatMap((c, i) => unreadTables(c, [...at, "collections", String(i)]))
]

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
 * mapRecords(mapping, [{ Kundennummer: "KD-1", Notiz: "Rückruf", Datum: "01.02.2024 10:00" }]).payloads[0]?.payload
 * // => { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "Rückruf", created_at: "2024-02-01T10:00:00+01:00" }] }
 *
 * @since 0.1.0
 */
export const defineMapping = <E extends PostEndpointId>(spec: MappingSpec<E>): Mapping<E> => {
  // A mapping passed through again (to a worker, say) carries its tag, which is no key of the format.
  const { _tag, ...plain } = spec as MappingSpec<E> & { readonly _tag?: unknown }
  const problems = check(plain, true)
  if (problems.length === 0) problems.push(...unreadTables(plain))
  if (problems.length > 0) throw new TypeError(`Invalid mapping: ${problems.map(formatMappingProblem).join("; ")}`)
  return { ...plain, _tag: "Mapping" }
}
