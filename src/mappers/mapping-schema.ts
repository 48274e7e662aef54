/**
 * The mapping format as an Effect schema: what a JSON mapping file may say, checked strictly (unknown keys
 * at any depth, converter names, each converter's option names and values), so a typo stops the run
 * before any row is read instead of silently dropping a field.
 *
 * @module
 */
import { Schema, SchemaIssue } from "effect"
import { POST_ENDPOINT_IDS } from "../schemas/endpoints/endpoint-id.js"
import { isRecord } from "../validation/path.js"
import { CONVERTER_NAMES, CONVERTERS, type ConverterName } from "./converters.js"
import { isDayFormat } from "./day-instant.js"
import { EVERY_INDEX, isListColumn } from "./list-column.js"
import { isValueTableFile, valueTableKeysProblem } from "./value-table.js"

const issue = (code: string, message: string): SchemaIssue.Issue => new SchemaIssue.InvalidValue({ code, message }, undefined)

const ColumnName = Schema.String.check(Schema.isNonEmpty()).annotate({ description: "A column of the export, as named in its header." })

/** Dot paths into the payload: `energy_amount.quantity`, `document_paths.0.document_path`. */
const FIELD_PATH = /^[a-z_][a-z0-9_]*(?:\.(?:[a-z_][a-z0-9_]*|[0-9]+))*$/u

const FieldPath = Schema.String.check(Schema.isPattern(FIELD_PATH, { message: "a dot path of payload field names such as energy_amount.quantity" }))

const exactlyOneColumn = Schema.makeFilter(
  (source: { readonly column?: string; readonly columns?: ReadonlyArray<string>; readonly either?: ReadonlyArray<string>; readonly skipBlank?: boolean; readonly values?: unknown }) =>
    [source.column, source.columns, source.either].filter((given) => given !== undefined).length !== 1
      ? issue("invalid_mapping", source.either === undefined ? "give either column or columns (not both, not neither)" : "give one of column, columns or either")
      : source.skipBlank !== undefined && (source.columns === undefined || source.values !== undefined)
      ? issue("invalid_mapping", "skipBlank leaves blank cells out of the join of columns (without values): give columns, or leave out skipBlank")
      : undefined
)

const OneValueTableJson = Schema.Union([
  Schema.Struct({
    file: Schema.String.check(Schema.isNonEmpty()).annotate({
      description: "A file beside the mapping (path relative to it) holding the table: .json (an object) or .csv (two columns with a header)."
    })
  }).annotate({ title: "value table file", description: "A value table kept in a file, maintained apart from the mapping." }),
  Schema.Record(Schema.String, Schema.Any).annotate({
    title: "value table",
    description: "What the export says → the field's value (null: leave the field out); keys of columns are the trimmed cells joined by |."
  })
]).annotate({ description: "Translates values: a table, or { file } naming a .json or .csv file with it. A value not in it is unknown_value unless default is given." })

const ValueTableJson = Schema.Union([
  OneValueTableJson,
  Schema.Array(OneValueTableJson).annotate({
    title: "value tables in turn",
    description: "Tables looked up in turn: the cell in the first, its value in the next, and so on (a PID to a market role, the role to the API's value); each a table or { file }."
  }).check(Schema.makeFilter((tables) => tables.length >= 1 ? undefined : issue("invalid_mapping", "a list of value tables needs at least one")))
]).annotate({
  description: "Translates values: a table, { file } naming a .json or .csv file with it, or a list of them looked up in turn. A value not in it is unknown_value unless default is given."
})

const isCellValue = (value: unknown): boolean => value === null || ["string", "number", "boolean"].includes(typeof value)

/** Why a source's list column (`a[*].b`) and `where` do not fit together, or `undefined`. */
const listColumnProblem = (name: ConverterName, source: {
  readonly column?: string
  readonly columns?: ReadonlyArray<string>
  readonly either?: ReadonlyArray<string>
  readonly where?: unknown
  readonly options?: unknown
}): string | undefined => {
  const column = source.column
  if ([...(source.columns ?? []), ...(source.either ?? [])].some(isListColumn)) return `${EVERY_INDEX} (every element of a list) belongs in column, not in columns or either`
  if (column === undefined || !isListColumn(column)) return source.where === undefined ? undefined : `where chooses elements of a list: give a column with ${EVERY_INDEX} where the index is (statuszusatzinformationen[*].status)`
  if (column.indexOf(EVERY_INDEX) !== column.lastIndexOf(EVERY_INDEX)) return `${EVERY_INDEX} may stand once in a column: ${JSON.stringify(column)}`
  const options = isRecord(source.options) ? source.options : {}
  if (name === "list" && options["separator"] !== undefined) return "the elements of a list column are the list's items, never split: leave out separator"
  if (options["ambiguous"] === "by-order") return "by-order reads rows in order, not the elements of a list column: use earlier, later or offsetColumn"
  return undefined
}

/** Checks across the keys of a column source: a table's companions, and the values a converter reads. */
const sourceProblems = (name: ConverterName) =>
  Schema.makeFilter((source: {
    readonly column?: string
    readonly either?: ReadonlyArray<string>
    readonly where?: unknown
    readonly columns?: ReadonlyArray<string>
    readonly values?: unknown
    readonly default?: unknown
    readonly lookup?: string
    readonly refuse?: unknown
    readonly options?: unknown
  }) => {
    const options = (isRecord(source.options) ? source.options : {}) as { readonly format?: unknown; readonly time?: unknown }
    const list = listColumnProblem(name, source)
    if (list !== undefined) return issue("invalid_mapping", list)
    if (source.values === undefined && (Object.hasOwn(source, "default") || source.lookup !== undefined || source.refuse !== undefined)) {
      return issue("invalid_mapping", "default, lookup and refuse belong to a value table: add values")
    }
    if (name === "datetime" && isDayFormat(options.format) && options.time === undefined) {
      return issue("invalid_mapping", `format ${options.format} is a date without a time of day: set options.time ("start", "end" or "next-start")`)
    }
    const chain = Array.isArray(source.values)
    const tables: ReadonlyArray<unknown> = chain ? source.values as ReadonlyArray<unknown> : [source.values]
    for (const [i, table] of tables.entries()) {
      if (!isRecord(table) || isValueTableFile(table)) continue
      // Only the first table looks up the cells of several columns; the others look up a value.
      const keys = valueTableKeysProblem(Object.keys(table), i === 0 && source.columns !== undefined && source.lookup !== "converted")
      if (keys !== undefined) return issue("invalid_mapping", `the value table${chain ? ` ${i + 1}` : ""}: ${keys}`)
    }
    // A table whose values a converter reads must hold cells (of tables in turn, the last).
    const last = tables[tables.length - 1]
    if (name !== "string" && source.lookup !== "converted" && last !== undefined && !isValueTableFile(last)) {
      const values = [...Object.values(last as Record<string, unknown>), ...(Object.hasOwn(source, "default") ? [source.default] : [])]
      if (!values.every(isCellValue)) return issue("invalid_mapping", `the ${name} converter reads the values of the table: give strings, numbers or booleans (or lookup "converted")`)
    }
    return undefined
  })

/** Which elements a list column reads: field of the element → its value, or one of its values. */
const ItemFilterJson = Schema.Record(
  Schema.String.check(Schema.isNonEmpty(), Schema.makeFilter((field) => isListColumn(field) ? issue("invalid_mapping", `a field of the element, named from it, without ${EVERY_INDEX}`) : undefined)),
  Schema.Union([Schema.String, Schema.Array(Schema.String).check(Schema.isMinLength(1))])
).annotate({
  description: "With a column holding [*] (every element of a list), only the elements whose fields, named from the element, have the value (or one of the values), compared trimmed: { \"art\": \"PLAUSIBILISIERUNGSHINWEIS\" }."
})

const columnSourceFor = (name: ConverterName) =>
  Schema.Struct({
    column: Schema.optionalKey(ColumnName.annotate({
      description: "A column of the export, as named in its header; with [*] where cell names carry an index (statuszusatzinformationen[*].status), the cell of every element of that list, in order: a list with convert list, else the one element (several that differ are conflicting_columns)."
    })),
    where: Schema.optionalKey(ItemFilterJson),
    // Annotations go before checks: the JSON Schema export reads them from the schema, not from its checks.
    columns: Schema.optionalKey(
      Schema.Array(ColumnName).annotate({
        description: "Several columns read as one cell, joined by a space (a date column and a time column)."
      }).check(
        Schema.makeFilter((columns) => columns.length >= 2 ? undefined : issue("invalid_mapping", "columns needs at least two column names; use column for one"))
      )
    ),
    skipBlank: Schema.optionalKey(Schema.Boolean.annotate({
      description: "With columns: a blank cell is left out of the join (a street and its house number, either of which may be missing) instead of rejecting the row as incomplete_columns."
    })),
    either: Schema.optionalKey(
      Schema.Array(ColumnName).annotate({
        description: "Columns of which one holds the value (one field spelt otherwise by another export): the one not blank is read; two that differ reject the row as conflicting_columns."
      }).check(
        Schema.makeFilter((columns) => columns.length >= 2 ? undefined : issue("invalid_mapping", "either needs at least two column names; use column for one"))
      )
    ),
    convert: name === "string"
      ? Schema.optionalKey(Schema.Literal(name).annotate({ description: CONVERTERS[name].description }))
      : Schema.Literal(name).annotate({ description: CONVERTERS[name].description }),
    // `string` has no options: an options object there is a mistake worth reporting.
    ...(Object.keys(CONVERTERS[name].options.fields).length > 0
      ? { options: Schema.optionalKey(CONVERTERS[name].options.annotate({ description: `How the ${name} converter reads the cell.` })) }
      : {}),
    values: Schema.optionalKey(ValueTableJson),
    default: Schema.optionalKey(Schema.Any.annotate({ description: "The value of a cell the value table does not know (null: leave the field out); without it such a row is rejected as unknown_value." })),
    refuse: Schema.optionalKey(Schema.Record(Schema.String, Schema.String.check(Schema.isNonEmpty())).annotate({
      description: "Values the field refuses, each with why (looked up as values is): such a row is rejected as refused_value, naming the value and the reason."
    })),
    lookup: Schema.optionalKey(Schema.Literals(["cell", "converted"]).annotate({
      description: "What the value table looks up: the trimmed cell (cell, the default; its value then goes through convert) or the converted value (converted)."
    }))
  }).annotate({ title: `${name} column` }).check(exactlyOneColumn, sourceProblems(name))

/** `{ column, convert, options }`: a column (or columns) through a converter; one member per converter. */
const ColumnSourceJson = Schema.Union(CONVERTER_NAMES.map(columnSourceFor))

/** `{ value }`: the same value in every payload. */
const ConstantSourceJson = Schema.Struct({
  // `Any`, not `Unknown`: the JSON Schema export drops the description of `Unknown`.
  value: Schema.Any.annotate({ description: "The value itself, as it goes into the payload." })
}).annotate({ title: "constant" })

/** `{ from }`: a function of the row (TypeScript only). */
const FunctionSourceSchema = Schema.Struct({
  from: Schema.declare((u: unknown): u is (row: never) => unknown => typeof u === "function")
})

const fieldSourceMembers = [ColumnName.annotate({ description: "A column read as a trimmed string." }), ConstantSourceJson, ColumnSourceJson] as const

/** The member a field source means, told by its keys (and `convert`), so errors come from that member only. */
const memberFor = (source: unknown, functions: boolean): Schema.Top | SchemaIssue.Issue => {
  if (typeof source === "string") return ColumnName
  if (!isRecord(source)) return issue("invalid", "a column name, { column, convert, options } or { value }")
  if (Object.hasOwn(source, "value")) return ConstantSourceJson
  if (Object.hasOwn(source, "from")) {
    return functions ? FunctionSourceSchema : issue("invalid_mapping", "{ from } needs a function, which a JSON mapping cannot hold")
  }
  if (!Object.hasOwn(source, "column") && !Object.hasOwn(source, "columns") && !Object.hasOwn(source, "either")) {
    return issue("invalid_mapping", "a field needs column, columns, either or value")
  }
  const convert = source["convert"] ?? "string"
  if (typeof convert === "string" && Object.hasOwn(CONVERTERS, convert)) return columnSources[convert as ConverterName]
  return new SchemaIssue.Pointer(
    ["convert"],
    issue("unknown_converter", `unknown converter ${JSON.stringify(convert)}${didYouMean(String(convert), CONVERTER_NAMES)}; use one of ${CONVERTER_NAMES.join(", ")}`)
  )
}

const columnSources = Object.fromEntries(CONVERTER_NAMES.map((name) => [name, columnSourceFor(name)])) as unknown as Record<ConverterName, Schema.Top>

/** A field source checked against the one member its keys select (a union would report every member's errors). */
const dispatchedFieldSource = (functions: boolean) =>
  Schema.Unknown.check(
    Schema.makeFilter((source, _ast, options) => {
      const member = memberFor(source, functions)
      if (!Schema.isSchema(member)) return member
      const result = Schema.decodeUnknownResult(member as Schema.Decoder<unknown>, options)(source)
      return result._tag === "Failure" ? result.failure.issue : undefined
    })
  )

const RowFilterSchema = Schema.Struct({
  column: ColumnName,
  equals: Schema.Union([Schema.String, Schema.Array(Schema.String).check(Schema.isMinLength(1))]).annotate({
    description: "The value (or one of the values) the column must have, compared after trimming."
  })
}).annotate({ description: "Only rows whose column has one of these values build items of this collection." })

const GroupBy = Schema.Array(ColumnName)

/** A collection as the mapping schema decodes it (field sources left open). */
export interface CollectionShape {
  readonly path: string
  readonly groupBy?: ReadonlyArray<string>
  readonly when?: { readonly column: string; readonly equals: string | ReadonlyArray<string> }
  readonly fields: Readonly<Record<string, unknown>>
  readonly collections?: ReadonlyArray<CollectionShape>
}

const makeMappingSchema = (fieldSource: Schema.Top) => {
  const Fields = Schema.Record(FieldPath, fieldSource).annotate({
    description: "Payload fields by dot path: a column name, { column, convert, options }, or { value }."
  })
  const Collection: Schema.Codec<CollectionShape> = Schema.Struct({
    path: FieldPath.annotate({ description: "Where the list goes, relative to the enclosing object: notes, delivery_note.amounts." }),
    groupBy: Schema.optionalKey(GroupBy.annotate({ description: "Rows with equal values in these columns form one item; without it, every row is an item." })),
    when: Schema.optionalKey(RowFilterSchema),
    fields: Fields,
    collections: Schema.optionalKey(Schema.Array(Schema.suspend((): Schema.Codec<CollectionShape> => Collection)).annotate({
      description: "Lists inside each item, built from the item's rows: the registers of a meter, say."
    }))
  }).annotate({ identifier: "Collection", description: "A list inside the payload whose items are built from rows." }) as never
  return Schema.Struct({
    $schema: Schema.optionalKey(Schema.String.annotate({ description: "The JSON Schema of this file, for editors." })),
    endpoint: Schema.Literals(POST_ENDPOINT_IDS).annotate({ description: "The endpoint whose payloads the rows become." }),
    source: Schema.optionalKey(Schema.Literals(["csv", "ndjson", "edifact", "bo4e"]).annotate({
      description: "What data-import map reads: csv or ndjson rows (default: told by the file's name), edifact records (one per QTY of MSCONS) or bo4e records (one per BO or per element of a list); reader options in the file named by reader."
    })),
    reader: Schema.optionalKey(Schema.String.check(Schema.isNonEmpty()).annotate({
      description: "For source edifact or bo4e: a JSON file beside the mapping (path relative to it) with the reader's options (edifact: record, groups, detail, messages, zone, segmentCount, accounts, units, pids, documentTypes, qualifiers, skip, versions, wholeMessages; bo4e: types, objects, records, context, skip, accounts)."
    })),
    groupBy: Schema.optionalKey(GroupBy.annotate({ description: "Rows with equal values in these columns form one payload (the notes of one account); without it, every row is a payload." })),
    batchSize: Schema.optionalKey(
      Schema.Int.check(Schema.isGreaterThan(0)).annotate({
        description: "At most this many items of the first collection per payload; a larger group is cut into several payloads, always between items."
      })
    ),
    fields: Fields,
    collections: Schema.optionalKey(Schema.Array(Collection).annotate({ description: "Lists inside the payload whose items are built from rows." }))
  }).annotate({ identifier: "Mapping", title: "data-import mapping", description: "How the rows of a legacy export become payloads of one endpoint." })
}

/**
 * The schema of a mapping file (JSON): what `data-import map --mapping FILE` reads, and what
 * `data-import schema --mapping` exports as JSON Schema for editors.
 *
 * @example
 * Schema.decodeUnknownSync(MappingJsonSchema)({ endpoint: "notes", fields: {} }) // => { endpoint: "notes", fields: {} }
 * Schema.is(MappingJsonSchema)({ endpoint: "notes" }) // => false
 */
export const MappingJsonSchema = makeMappingSchema(Schema.Union(fieldSourceMembers))

/** The checks of {@link MappingJsonSchema}, with each field source checked against the one member it means. */
export const MappingFileSchema = makeMappingSchema(dispatchedFieldSource(false))

/** The schema of a mapping written in TypeScript: the JSON form, plus `{ from }` functions. */
export const MappingSpecSchema = makeMappingSchema(dispatchedFieldSource(true))

/** Levenshtein distance, for suggesting the name that was meant. */
const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * The nearest of `names` to `name` (case-insensitive edit distance at most a third of its length), or
 * `undefined`.
 *
 * @example
 * nearestName("Qualifer", ["Kundennummer", "Qualifier"]) // => "Qualifier"
 */
export const nearestName = (name: string, names: Iterable<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.ceil(name.length / 3)) + 1
  for (const candidate of names) {
    // The distance is at least the difference in length: a far longer candidate is not measured.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue
    const d = distance(name.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

/** ` (did you mean x?)`, or nothing. */
export const didYouMean = (name: string, names: Iterable<string>): string => {
  const nearest = nearestName(name, names)
  return nearest === undefined ? "" : ` (did you mean ${nearest}?)`
}

/** Every key the mapping format knows, for "did you mean" hints. */
export const MAPPING_KEYS: ReadonlyArray<string> = [
  ...new Set([
    "$schema", "endpoint", "source", "reader", "groupBy", "batchSize", "fields", "collections", "path", "when", "equals",
    "column", "columns", "skipBlank", "either", "where", "convert", "options", "value", "values", "default", "refuse", "lookup", "file",
    ...CONVERTER_NAMES.flatMap((name) => Object.keys(CONVERTERS[name].options.fields))
  ])
]
