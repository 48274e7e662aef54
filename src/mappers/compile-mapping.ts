/**
 * A mapping compiled once into readers: each level (the payload, each collection) knows its fields'
 * readers, its collections, and which columns only its collections read. Rows are read through it once,
 * in input order.
 *
 * @module
 */
import type { CollectionMapping, Mapping, RowFilter } from "./define-mapping.js"
import { type ColumnSource, columnsOf, type FieldOutcome, type FieldReader, fieldReader, type FieldSource, type LegacyRecord, type WallTimeResolver } from "./field-source.js"
import { type PathStep, stepsOf } from "./path-steps.js"

/** One level of a compiled mapping. */
export interface CompiledNode {
  readonly fields: ReadonlyArray<{ readonly path: string; readonly steps: ReadonlyArray<PathStep>; readonly columns: ReadonlyArray<string>; readonly read: FieldReader }>
  readonly collections: ReadonlyArray<CompiledCollection>
  /** Columns that only this level's collections read: a row with data there must reach one of them. */
  readonly collectionOnlyColumns: ReadonlyArray<string>
}

/** A compiled collection: where its list goes, how rows become items, and which rows it takes. */
export interface CompiledCollection extends CompiledNode {
  readonly path: string
  readonly groupBy?: ReadonlyArray<string> | undefined
  readonly when?: RowFilter | undefined
}

/** What one row gave at one level: its field outcomes, and per collection what it gave there (`undefined`: not matched). */
export interface ReadNode {
  readonly values: ReadonlyArray<FieldOutcome>
  readonly children: ReadonlyArray<ReadNode | undefined>
}

/** A row, its 0-based index in the input, and what it gave at every level. */
export interface ReadRow {
  readonly index: number
  readonly record: LegacyRecord
  readonly read: ReadNode
}

/** A cell as it is compared in group keys and filters: trimmed text (a BOM or padding does not count). */
export const normaliseCell = (cell: unknown): string | null =>
  cell === undefined || cell === null ? null : String(cell).trim()

/**
 * The key of a row in these columns, compared after the same trimming the string converter applies.
 *
 * @example
 * groupKey({ Konto: " KD-1 " }, ["Konto"]) === groupKey({ Konto: "\uFEFFKD-1" }, ["Konto"]) // => true
 */
export const groupKey = (record: LegacyRecord, columns: ReadonlyArray<string>): string =>
  JSON.stringify(columns.map((c) => normaliseCell(Object.hasOwn(record, c) ? record[c] : undefined)))

const matches = (filter: RowFilter | undefined, record: LegacyRecord): boolean => {
  if (filter === undefined) return true
  const cell = normaliseCell(Object.hasOwn(record, filter.column) ? record[filter.column] : undefined) ?? ""
  return typeof filter.equals === "string" ? filter.equals.trim() === cell : filter.equals.some((e) => e.trim() === cell)
}

const ownColumns = (fields: Readonly<Record<string, FieldSource>>): Array<string> => Object.values(fields).flatMap(columnsOf)

const allColumns = (collection: CollectionMapping): Array<string> => [
  ...ownColumns(collection.fields),
  ...(collection.groupBy ?? []),
  ...(collection.collections ?? []).flatMap(allColumns)
]

const compileNode = (
  fields: Readonly<Record<string, FieldSource>>,
  collections: ReadonlyArray<CollectionMapping>,
  keyColumns: ReadonlyArray<string>,
  resolvers: Array<WallTimeResolver>
): CompiledNode => {
  const own = new Set([...ownColumns(fields), ...keyColumns, ...collections.filter((c) => c.when !== undefined).map((c) => c.when!.column)])
  return {
    fields: Object.entries(fields).map(([path, source]) => ({ path, steps: stepsOf(path), columns: columnsOf(source), read: fieldReader(source, resolvers) })),
    collections: collections.map((c) => ({
      // Stryker disable next-line ArrayDeclaration: equivalent, a key column only keeps its own columns out of the collection-only ones; a phantom column is read by no collection
      ...compileNode(c.fields, c.collections ?? [], c.groupBy ?? [], resolvers),
      path: c.path,
      groupBy: c.groupBy,
      when: c.when
    })),
    collectionOnlyColumns: [...new Set(collections.flatMap(allColumns))].filter((c) => !own.has(c))
  }
}

/** A compiled mapping: its payload level, and the resolvers of its stateful date-times (in mapping order). */
export interface CompiledMapping extends CompiledNode {
  readonly resolvers: ReadonlyArray<WallTimeResolver>
}

/** Compiles a mapping into readers; each compiled mapping has its own `by-order` state. */
export const compileMapping = (mapping: Mapping): CompiledMapping => {
  const resolvers: Array<WallTimeResolver> = []
  // Stryker disable next-line ArrayDeclaration: equivalent, as in compileNode: a phantom key column is read by no collection
  return { ...compileNode(mapping.fields, mapping.collections ?? [], mapping.groupBy ?? [], resolvers), resolvers }
}

/** One field read from a row; a reader that throws gives an `invalid` outcome with its message, never a crash. */
export const readFieldSafely = (read: FieldReader, record: LegacyRecord): FieldOutcome => {
  try {
    return read(record)
  } catch (cause) {
    return { ok: false, code: "invalid", detail: cause instanceof Error ? cause.message : String(cause) }
  }
}

const readNode = (node: CompiledNode, record: LegacyRecord): ReadNode => ({
  values: node.fields.map((f) => readFieldSafely(f.read, record)),
  children: node.collections.map((c) => (matches(c.when, record) ? readNode(c, record) : undefined))
})

/** Reads one row through the compiled mapping (call in input order). */
export const readRow = (root: CompiledNode, index: number, record: LegacyRecord): ReadRow => ({ index, record, read: readNode(root, record) })

/** Every field source of a mapping, at every level. */
const fieldSourcesOf = (node: { readonly fields: Readonly<Record<string, FieldSource>>; readonly collections?: ReadonlyArray<CollectionMapping> }): Array<FieldSource> =>
  [...Object.values(node.fields), ...(node.collections ?? []).flatMap(fieldSourcesOf)]

/**
 * Whether the rows must be read in input order: a `by-order` date-time remembers the rows before it, so
 * a batch of rows mapped apart needs the state the rows before it left (`mapBatchAfter`).
 *
 * @example
 * mapsInInputOrder(defineMapping({ endpoint: "notes", fields: { created_at: { column: "Zeit", convert: "datetime", options: { ambiguous: "by-order" } } } })) // => true
 * mapsInInputOrder(defineMapping({ endpoint: "notes", fields: { created_at: { column: "Zeit", convert: "datetime", options: { ambiguous: "later" } } } })) // => false
 */
export const mapsInInputOrder = (mapping: Mapping): boolean =>
  // A bare column name, a constant and a function have no options.
  fieldSourcesOf(mapping).some((s) => (s as ColumnSource).options?.["ambiguous"] === "by-order")

/** Whether a mapping computes a field with a function (whose value may be any object, not plain JSON data). */
export const hasFunctionSources = (mapping: Mapping): boolean =>
  fieldSourcesOf(mapping).some((s) => typeof s === "object" && "from" in s)

/** The columns a mapping reads anywhere (fields, `columns`, offset columns, `groupBy`, `when`), each once. */
export const mappingColumns = (mapping: Mapping | { readonly fields: Readonly<Record<string, FieldSource>>; readonly groupBy?: ReadonlyArray<string>; readonly collections?: ReadonlyArray<CollectionMapping> }): Array<string> => {
  const ofCollection = (c: CollectionMapping): Array<string> => [
    ...ownColumns(c.fields),
    ...(c.groupBy ?? []),
    ...(c.when !== undefined ? [c.when.column] : []),
    ...(c.collections ?? []).flatMap(ofCollection)
  ]
  return [...new Set([...ownColumns(mapping.fields), ...(mapping.groupBy ?? []), ...(mapping.collections ?? []).flatMap(ofCollection)])]
}

/**
 * The columns the mapping reads the payload attr `attr` from (an item's index skipped), where a field
 * maps it; `[]` for a constant, a function, or an attr no field maps. An error of the API at that attr
 * then names the export's column.
 *
 * @example
 * columnsAt(defineMapping({ endpoint: "transactions", groupBy: ["Konto"], fields: { external_account_number: "Konto" },
 *   collections: [{ path: "transactions", fields: { amount: { column: "Betrag", convert: "number" } } }] }), "transactions.0.amount") // => ["Betrag"]
 */
export const columnsAt = (node: { readonly fields: Readonly<Record<string, FieldSource>>; readonly collections?: ReadonlyArray<CollectionMapping> | undefined }, attr: string): Array<string> => {
  const source = Object.hasOwn(node.fields, attr) ? node.fields[attr] : undefined
  if (source !== undefined) return columnsOf(source)
  for (const collection of node.collections ?? []) {
    if (!attr.startsWith(`${collection.path}.`)) continue
    const found = columnsAt(collection, attr.slice(collection.path.length + 1).replace(/^\d+\./u, ""))
    if (found.length > 0) return found
  }
  return []
}
