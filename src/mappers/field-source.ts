/**
 * Where the value of one payload field comes from: a column (or several, joined) through a converter, a
 * constant, or a function of the row; and the compiled reader that gets it from each row, in input order.
 * The repeated hour of an autumn clock change is resolved here too, from evidence instead of guessed: from
 * the order of the rows (`ambiguous: "by-order"`) or from a column that states the offset or the season.
 *
 * @module
 */
import { type ConversionResult, fail, succeed } from "./conversion-result.js"
import { type Cell, type Converter, CONVERTERS, type ConverterName } from "./converters.js"
import { copyData } from "./define-data.js"
import { rememberConversions } from "./remember-conversions.js"
import { isListColumn, type ItemFilter, listColumns, listItems } from "./list-column.js"
import { isoDateTimeConverter, toIsoDateTime, type ToIsoDateTimeOptions } from "./to-iso-date-time.js"
import { isValueTableFile, KEY_SEPARATOR, keyOfCell, keyOfValue, valueLookUp, type ValueTable, type ValueTableFile } from "./value-table.js"

export type { Cell, ConverterName }

/**
 * A flat legacy record: column name → cell.
 *
 * @since 0.1.0
 */
export type LegacyRecord = Readonly<Record<string, Cell>>

/**
 * A field whose value is read from a column (or from several columns joined by a space). `convert` defaults to `string`.
 *
 * @since 0.1.0
 */
export interface ColumnSource {
  /**
   * The column; with `[*]` where a reader's cell names carry an index (`statuszusatzinformationen[*].status`),
   * a list column: the cell of every element of the list, in order (see `where`). `convert: "list"` makes
   * the elements the field's list, each through `values`; any other converter reads the one element (several
   * that differ: `conflicting_columns`).
   */
  readonly column?: string
  /**
   * With a list column, the elements it reads: those whose fields, named from the element, have the value
   * (or one of the values): `{ "art": "PLAUSIBILISIERUNGSHINWEIS" }`.
   */
  readonly where?: ItemFilter
  /** Columns read as one cell, joined by a space: `["Datum", "Uhrzeit"]`. */
  readonly columns?: ReadonlyArray<string>
  /**
   * With `columns`: a blank cell is left out of the join instead of rejecting the row (`incomplete_columns`):
   * a street and its house number, either of which a record may lack (`["NAD+MS.5.1", "NAD+MS.5.3"]`).
   */
  readonly skipBlank?: boolean
  /**
   * Columns of which one holds the value: one field spelt otherwise by another export (`["obiskennzahl",
   * "obisKennzahl"]`). The cell that is not blank is read; two that differ reject the row (`conflicting_columns`).
   */
  readonly either?: ReadonlyArray<string>
  readonly convert?: ConverterName
  /** Options of the converter (JSON-friendly: `{ "locale": "de" }` for `decimal`, `{ "format": "dd.MM.yyyy" }` for `date`, …). */
  readonly options?: Readonly<Record<string, unknown>>
  /**
   * A value table: what the export says → the field's value (`null`: leave the field out). Keys of
   * `columns` are the trimmed cells joined by `|`. A `{ file }` must be read first (`resolveValueTables`).
   * A list of tables is looked up in turn: the cell in the first, its value in the next, and so on.
   */
  readonly values?: ValueTable | ValueTableFile | ReadonlyArray<ValueTable | ValueTableFile>
  /** The value of a cell the table does not know (`null`: leave the field out); without it, `unknown_value`. */
  readonly default?: unknown
  /**
   * Values the field refuses, each with why (`{ "LF": "a supplier: the API's role has no value for it" }`),
   * looked up as `values` is: such a row is rejected `refused_value`, naming the value and the reason.
   */
  readonly refuse?: Readonly<Record<string, string>>
  /** What is looked up: the trimmed `cell` (default; the table's value then goes through `convert`, if given), or the `converted` value. */
  readonly lookup?: "cell" | "converted"
}

/**
 * A field with the same value in every payload.
 *
 * @since 0.1.0
 */
export interface ConstantSource {
  readonly value: unknown
}

/**
 * A field computed from the row (TypeScript only; a JSON mapping cannot hold functions).
 *
 * @since 0.1.0
 */
export interface FunctionSource {
  readonly from: (row: LegacyRecord) => ConversionResult<unknown> | unknown
}

/**
 * Where a field's value comes from; a bare string is a column read as a string.
 *
 * @since 0.1.0
 */
export type FieldSource = string | ColumnSource | ConstantSource | FunctionSource

/** The outcome of reading one field from a row: a value (`undefined`: nothing), or an error. */
export type FieldOutcome =
  | {
    readonly ok: true
    readonly value: unknown
    /** Whether the row states a value here (a non-empty cell), as opposed to leaving it blank. */
    readonly stated: boolean
  }
  | { readonly ok: false; readonly column?: string; readonly code: string; readonly detail: string }

/** Reads a field from each row; called in input order (a `by-order` date-time remembers earlier rows). */
export type FieldReader = (row: LegacyRecord) => FieldOutcome

const isEmptyCell = (cell: Cell): boolean => cell === undefined || cell === null || (typeof cell === "string" && cell.trim() === "")

const cellOf = (row: LegacyRecord, column: string): Cell => (Object.hasOwn(row, column) ? row[column] : undefined)

/** The columns a field source reads (its value columns and any offset column). */
export const columnsOf = (source: FieldSource): Array<string> => {
  if (typeof source === "string") return [source]
  // A constant or a function has none of these keys (the mapping's schema allows no mix), so none is read.
  const { column, columns, either, options, where } = source as ColumnSource
  const offsetColumn = options?.["offsetColumn"]
  return [...(column === undefined ? [] : isListColumn(column) ? listColumns(column, where) : [column]), ...(columns ?? []), ...(either ?? []), ...(typeof offsetColumn === "string" ? [offsetColumn] : [])]
}

const NOTHING: FieldOutcome = { ok: true, value: undefined, stated: false }

const fromFunction = (source: FunctionSource): FieldReader => (row) => {
  const out = source.from(row)
  if (typeof out === "object" && out !== null && "ok" in out && typeof out.ok === "boolean") {
    const result = out as ConversionResult<unknown>
    return result.ok ? { ok: true, value: result.value, stated: true } : { ok: false, code: result.error.code, detail: result.error.detail }
  }
  return { ok: true, value: out, stated: true }
}

/**
 * The cells of several columns joined by a space; `undefined` when all are empty; the empty ones when only
 * some are, unless `skipBlank` (then the cells that are not blank, joined).
 */
const joinCells = (columns: ReadonlyArray<string>, row: LegacyRecord, skipBlank: boolean): string | undefined | { readonly missing: string } => {
  const empty = columns.filter((column) => isEmptyCell(cellOf(row, column)))
  if (empty.length === columns.length) return undefined
  if (empty.length > 0 && !skipBlank) return { missing: empty.join(", ") }
  return columns.filter((column) => !empty.includes(column)).map((column) => String(cellOf(row, column)).trim()).join(" ")
}

/**
 * The one cell of `either`'s columns that is not blank (`undefined` when all are), or the two that differ.
 * The same value in two of them is that value: an export that writes both spellings alike loses nothing.
 */
const eitherCell = (columns: ReadonlyArray<string>, row: LegacyRecord): Cell | { readonly conflict: string } => {
  let found: { readonly column: string; readonly cell: Cell } | undefined
  for (const column of columns) {
    const cell = cellOf(row, column)
    if (isEmptyCell(cell)) continue
    if (found === undefined) found = { column, cell }
    else if (keyOfCell(found.cell) !== keyOfCell(cell)) {
      return { conflict: `${found.column} ${JSON.stringify(keyOfCell(found.cell))} and ${column} ${JSON.stringify(keyOfCell(cell))} differ: which one is meant is not known` }
    }
  }
  return found?.cell
}

const isConflict = (cell: Cell | { readonly conflict: string }): cell is { readonly conflict: string } =>
  typeof cell === "object" && cell !== null && Object.hasOwn(cell, "conflict")

/** The name a field's errors give its column: `column`, `columns` joined by `+`, `either` by ` or `. */
const columnNameOf = (source: ColumnSource): string =>
  // Stryker disable next-line StringLiteral: equivalent, a column source has a column, columns or either (the mapping's schema requires one)
  source.column ?? source.columns?.join("+") ?? source.either?.join(" or ") ?? ""

/**
 * The reader of one field. Empty cells give `undefined` (the field is then omitted), except for
 * `boolean`, where SAP's blank means false. A stateful date-time reader's resolver is added to `resolvers`.
 */
export const fieldReader = (source: FieldSource, resolvers?: Array<WallTimeResolver>): FieldReader => {
  if (typeof source === "string") return fieldReader({ column: source })
  if ("column" in source && source.column !== undefined && isListColumn(source.column)) return listReader(source)
  if ("values" in source && source.values !== undefined) return tableReader(source, resolvers)
  if ("value" in source) {
    const value = source.value
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: equivalent, a shortcut: copyData returns a primitive as it is
    if (typeof value !== "object" || value === null) {
      const outcome: FieldOutcome = { ok: true, value, stated: false }
      return () => outcome
    }
    // A field written below a constant object (`contact_details.0.name` below `contact_details`) writes
    // into what it is given: each row gets its own copy.
    return () => ({ ok: true, value: copyData(value), stated: false })
  }
  if ("from" in source) return fromFunction(source)
  const convert: ConverterName = source.convert ?? "string"
  const converter = CONVERTERS[convert]
  const options = source.options ?? {}
  const column = columnNameOf(source)
  const stateful = convert === "datetime" && (options["ambiguous"] === "by-order" || typeof options["offsetColumn"] === "string")
  const wallTimes = stateful ? resolveWallTime(options) : undefined
  if (wallTimes !== undefined) resolvers?.push(wallTimes)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a shortcut: readCell reads source.column when columns is undefined
  const single = source.columns === undefined && source.either === undefined ? source.column! : undefined
  // Stryker disable next-line ConditionalExpression: equivalent, a stateful field converts through wallTimes, never through plain
  const plain = wallTimes !== undefined
    ? undefined
    : (converter as Converter).prepare?.(options) ?? ((cell: Exclude<Cell, null | undefined>) => converter.convert(cell, options))
  // Dates repeat down an export, and their answer depends on the cell alone.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: equivalent, remembering a pure conversion changes how often it runs, not its answer
  const convertCell = plain !== undefined && (convert === "date" || convert === "datetime") ? rememberConversions(plain) : plain
  return (row) => {
    let cell: Cell
    if (single !== undefined) cell = cellOf(row, single)
    else if (source.either !== undefined) {
      const one = eitherCell(source.either, row)
      if (isConflict(one)) return { ok: false, column, code: "conflicting_columns", detail: one.conflict }
      cell = one
    } else {
      const joined = joinCells(source.columns!, row, source.skipBlank === true)
      if (typeof joined === "object") return { ok: false, column, code: "incomplete_columns", detail: `${joined.missing} is empty while the other columns of this field are not` }
      cell = joined
    }
    // The usual field, a text cell read as text: trimmed once, its value without a conversion result in between.
    // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: equivalent, the string converter trims as this does (the mark also covers typeof → true, which the test of a number cell kills)
    if (convert === "string" && typeof cell === "string") {
      const text = cell.trim()
      return text === "" ? NOTHING : { ok: true, value: text, stated: true }
    }
    const empty = isEmptyCell(cell)
    if (empty && convert !== "boolean") {
      wallTimes?.blank()
      return NOTHING
    }
    const result = wallTimes !== undefined
      ? wallTimes.convert(cell as Exclude<Cell, null | undefined>, row)
      : convertCell!((cell ?? "") as Exclude<Cell, null | undefined>)
    return result.ok
      ? { ok: true, value: result.value, stated: !empty }
      : { ok: false, column, code: result.error.code, detail: result.error.detail }
  }
}

/** A field read through a value table: the table looks up the cell (and the converter reads its value) or the converted value. */
const tableReader = (source: ColumnSource, resolvers: Array<WallTimeResolver> | undefined): FieldReader => {
  const { lookup = "cell", columns, either } = source
  const tables: ReadonlyArray<ValueTable | ValueTableFile> = Array.isArray(source.values) ? source.values : [source.values as ValueTable | ValueTableFile]
  for (const table of tables) if (isValueTableFile(table)) throw new TypeError(`the value table ${table.file} must be read first (resolveValueTables)`)
  const values = tables[0] as ValueTable
  const column = columnNameOf(source)
  const hasDefault = Object.hasOwn(source, "default")
  // Each table after the first is named by its place, as the value it looks up is no cell of the row.
  const steps = (tables as ReadonlyArray<ValueTable>).map((table, i) => valueLookUp(table, i === 0 ? column : `${column} through value table ${i + 1}:`))
  const refused = new Map(Object.entries(source.refuse ?? {}))
  type Outcome = ReturnType<(typeof steps)[number]> | { readonly ok: false; readonly code: "refused_value"; readonly detail: string }
  // A refusal is looked up first, at every step: a value the mapping refuses is never translated, whatever the tables say.
  const lookUp = (cell: string): Outcome => {
    let key = cell
    let outcome: Outcome = { ok: true, value: cell }
    for (const step of steps) {
      const why = refused.get(key)
      if (why !== undefined) return { ok: false, code: "refused_value", detail: `${column} ${JSON.stringify(key)} is refused: ${why}` }
      outcome = step(key)
      if (!outcome.ok) return hasDefault ? { ok: true, value: source.default } : outcome
      // null leaves the field out: no table after it is asked.
      if (outcome.value === null) return outcome
      key = keyOfValue(outcome.value)
    }
    return outcome
  }
  const { values: _values, default: _default, lookup: _lookup, refuse: _refuse, ...plain } = source
  if (lookup === "converted") {
    const read = fieldReader(plain, resolvers)
    return (row) => {
      const outcome = read(row)
      if (!outcome.ok || outcome.value === undefined) return outcome
      return found(lookUp(keyOfValue(outcome.value)), column, outcome.stated)
    }
  }
  // The table's value goes through the converter as a cell of its own column.
  const { columns: _columns, either: _either, ...one } = plain
  const converted = source.convert === undefined ? undefined : fieldReader({ ...one, column: VALUE }, resolvers)
  const blankKey = columns === undefined ? "" : columns.map(() => "").join(KEY_SEPARATOR)
  const blankKnown = Object.hasOwn(values!, blankKey)
  // An offset column is read from the row beside the value.
  const offsetColumn = typeof source.options?.["offsetColumn"] === "string"
  return (row) => {
    let key: string
    if (either !== undefined) {
      const cell = eitherCell(either, row)
      if (isConflict(cell)) return { ok: false, column, code: "conflicting_columns", detail: cell.conflict }
      key = keyOfCell(cell)
    } else key = columns === undefined ? keyOfCell(cellOf(row, source.column!)) : columns.map((c) => keyOfCell(cellOf(row, c))).join(KEY_SEPARATOR)
    const blank = key === blankKey
    if (blank && !blankKnown) {
      // A blank cell leaves the field out, default or not (and ends a by-order run of its date-times).
      converted?.({})
      return NOTHING
    }
    const outcome = found(lookUp(key), column, !blank)
    if (!outcome.ok || converted === undefined || outcome.value === undefined) return outcome
    const value = outcome.value
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      return { ok: false, column, code: "invalid", detail: `the value table gives ${JSON.stringify(value)} for ${JSON.stringify(key)}, which ${source.convert} cannot read` }
    }
    const result = converted(offsetColumn ? { ...row, [VALUE]: value } : { [VALUE]: value })
    return result.ok ? { ...result, stated: outcome.stated } : { ...result, column }
  }
}

/**
 * A field read from a list column: each element's cell goes through the field's own reader under the
 * cell's name (so a reject names the element: `a[1].status "X" is not in the value table`). With
 * `convert: "list"` the field is the elements' values in order (none: the field is left out); otherwise
 * the one element's value, where elements that differ are `conflicting_columns`.
 */
const listReader = (source: ColumnSource): FieldReader => {
  const { column, where, ...rest } = source
  const asList = source.convert === "list"
  // An element is one item of the list, never split: its reader is the field's, with the string converter.
  const { convert: _convert, options: _options, ...text } = rest
  const item = asList ? text : rest
  const readers = new Map<string, FieldReader>()
  const readerOf = (name: string): FieldReader => {
    let read = readers.get(name)
    if (read === undefined) {
      // No resolvers: the mapping format refuses a by-order date-time in a list column.
      read = fieldReader({ ...item, column: name })
      readers.set(name, read)
    }
    return read
  }
  return (row) => {
    const items = listItems(row, column!, where)
    if (asList) {
      const values: Array<unknown> = []
      for (const { column: name } of items) {
        const outcome = readerOf(name)(row)
        if (!outcome.ok) return outcome
        if (outcome.value !== undefined) values.push(outcome.value)
      }
      return values.length === 0 ? NOTHING : { ok: true, value: values, stated: true }
    }
    const other = items.find((i) => i.text !== items[0]!.text)
    if (other !== undefined) {
      const first = items[0]!
      return { ok: false, column: column!, code: "conflicting_columns", detail: `${first.column} ${JSON.stringify(first.text)} and ${other.column} ${JSON.stringify(other.text)} differ: which one is meant is not known` }
    }
    return items.length === 0 ? NOTHING : readerOf(items[0]!.column)(row)
  }
}

/** The name the value of a table is read under by its converter. */
const VALUE = "\u0000value"

/** A look-up's outcome as a field's: a table value of `null` leaves the field out. */
const found = (outcome: ReturnType<ReturnType<typeof valueLookUp>> | { readonly ok: false; readonly code: string; readonly detail: string }, column: string, stated: boolean): FieldOutcome => {
  if (!outcome.ok) return { ok: false, column, code: outcome.code, detail: outcome.detail }
  const value = outcome.value
  // Each row gets its own copy of an object, as with a constant: a field below it writes into it.
  return { ok: true, value: value === null ? undefined : typeof value === "object" ? copyData(value) : value, stated }
}

/** Reads one field from a row (stateless: a `by-order` date-time sees this row alone). */
export const readField = (source: FieldSource, row: LegacyRecord): FieldOutcome => {
  try {
    return fieldReader(source)(row)
  } catch (cause) {
    return { ok: false, code: "invalid", detail: cause instanceof Error ? cause.message : String(cause) }
  }
}

// The repeated hour of an autumn clock change, resolved from the order of the rows or from a column.

/** Spellings of summer time (the earlier instant of a repeated hour) and standard time (the later). */
const SUMMER = new Set(["s", "so", "sommer", "summer", "sz", "mesz", "cest", "dst"])
const WINTER = new Set(["w", "wi", "winter", "wz", "mez", "cet", "std"])
const OFFSET = /^([+-])(\d{2}):?(\d{2})?$/u

type Stated = { readonly offset: string } | { readonly season: "summer" | "winter" }

const readOffsetCell = (cell: Cell): Stated | undefined => {
  // Stryker disable next-line StringLiteral: equivalent, a blank cell is passed over before it is read
  const text = String(cell ?? "").trim()
  const m = OFFSET.exec(text)
  if (m !== null) return { offset: `${m[1]}${m[2]}:${m[3] ?? "00"}` }
  const lower = text.toLowerCase()
  if (SUMMER.has(lower)) return { season: "summer" }
  if (WINTER.has(lower)) return { season: "winter" }
  return undefined
}

const offsetOf = (iso: string): string => iso.slice(-6)

const toUtc = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19)}Z`

/** The zone's summer and standard offsets in the year of `iso` (equal when it has no summer time). */
const seasonsOf = (iso: string, options: ToIsoDateTimeOptions): { readonly summer: string; readonly winter: string } => {
  const year = iso.slice(0, 4)
  const january = toIsoDateTime(`${year}-01-15T12:00:00`, { ...options, format: "yyyy-MM-ddTHH:mm:ss", ambiguous: "earlier" })
  const july = toIsoDateTime(`${year}-07-15T12:00:00`, { ...options, format: "yyyy-MM-ddTHH:mm:ss", ambiguous: "earlier" })
  // Stryker disable next-line StringLiteral: equivalent, noon of 15 January exists in every zone, so the fallback is never taken
  const a = january.ok ? offsetOf(january.value) : "+00:00"
  const b = july.ok ? offsetOf(july.value) : a
  // Stryker disable next-line ArithmeticOperator: equivalent for "-" in place of "+", which keeps the order of two offsets whose hours differ, as a zone's summer and standard offsets do ("/" in place of "*" fails the Lord Howe test)
  const minutes = (o: string) => (o.startsWith("-") ? -1 : 1) * (Number(o.slice(1, 3)) * 60 + Number(o.slice(4, 6)))
  // Stryker disable next-line EqualityOperator: equivalent, equal offsets are the same either way round
  return minutes(a) >= minutes(b) ? { summer: a, winter: b } : { summer: b, winter: a }
}

/**
 * A run of repeated wall times in progress: each wall time read so far and the instant it took.
 *
 * @since 0.1.0
 */
export type WallTimeRun = ReadonlyArray<readonly [string, "earlier" | "later"]>

/** A date-time column whose repeated wall times are resolved by row order or by an offset column. */
export interface WallTimeResolver {
  readonly convert: (cell: Exclude<Cell, null | undefined>, row: LegacyRecord) => ConversionResult<string>
  /** The column was blank in this row: a run of repeated wall times ends. */
  readonly blank: () => void
  /** Starts a batch of rows with the run the rows before it left (batches of one input mapped apart). */
  readonly start: (run: WallTimeRun) => void
  /**
   * Where the batch since {@link start} leaves the run: `readStart` when a `by-order` pick read the run
   * it started with (so it is right only if that was the run the rows before left), and the run at its
   * end (`undefined`: the batch never ended the run it started with, which goes on as it was).
   */
  readonly end: () => { readonly readStart: boolean; readonly run: WallTimeRun | undefined }
}

/**
 * A resolver for one date-time field. `by-order`: within a run of rows whose wall time in this column is
 * ambiguous, the first occurrence of a wall time takes the earlier offset and its repeat the later one
 * (a third occurrence starts a new run); any unambiguous or blank value ends the run. `offsetColumn`: the
 * stated offset (or season) picks the instant, and must agree with an unambiguous one.
 */
export const resolveWallTime = (options: Readonly<Record<string, unknown>>): WallTimeResolver => {
  const base = options as ToIsoDateTimeOptions & { readonly offsetColumn?: string }
  const convertOptions: ToIsoDateTimeOptions = { ...base, output: "offset" }
  // Built once: a conversion runs for every row.
  const rejecting: ToIsoDateTimeOptions = { ...convertOptions, ambiguous: "reject" }
  const earlierOptions: ToIsoDateTimeOptions = { ...convertOptions, ambiguous: "earlier" }
  const laterOptions: ToIsoDateTimeOptions = { ...convertOptions, ambiguous: "later" }
  const unambiguous = rememberConversions(isoDateTimeConverter(rejecting))
  const toEarlier = isoDateTimeConverter(earlierOptions)
  const toLater = isoDateTimeConverter(laterOptions)
  const byOrder = options["ambiguous"] === "by-order"
  const output = (iso: string): ConversionResult<string> => succeed(base.output === "utc" ? toUtc(iso) : iso)
  let run = new Map<string, "earlier" | "later">()
  // Since start(): the run is still the one the batch started with (perhaps grown), and whether a pick read it.
  let fresh = true
  let readStart = false
  const reset = (): void => {
    // Cleared in place, and only when it holds a run: this runs for every unambiguous wall time, and the
    // map is this resolver's own.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, clearing an empty map changes nothing
    if (run.size > 0) run.clear()
    fresh = false
  }
  return {
    blank: reset,
    start: (given) => {
      run = new Map(given)
      fresh = true
      readStart = false
    },
    end: () => ({ readStart, run: fresh && !readStart ? undefined : [...run] }),
    convert: (cell, row) => {
      // One conversion settles the usual unambiguous wall time; only a repeated one needs both instants.
      const once = unambiguous(cell)
      // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, a shortcut: the way below ends the run and gives the one instant too
      if (once.ok && base.offsetColumn === undefined) {
        // The usual row: one instant, nothing stated to check it against.
        reset()
        // Stryker disable next-line ConditionalExpression: equivalent where it always calls output, which writes the offset form as it is
        return base.output === "utc" ? output(once.value) : once
      }
      // Stryker disable next-line ConditionalExpression: equivalent, a wall time refused otherwise is refused alike by the earlier pick below
      if (!once.ok && once.error.code !== "ambiguous_time") return once
      const earlier = once.ok ? once : toEarlier(cell)
      // Stryker disable next-line ConditionalExpression: equivalent, a repeated wall time always has an earlier and a later instant
      if (!earlier.ok) return earlier
      const later = once.ok ? once : toLater(cell)
      // Stryker disable next-line ConditionalExpression: equivalent, see above
      if (!later.ok) return later
      const candidates = earlier.value === later.value ? [earlier.value] : [earlier.value, later.value]
      // Stryker disable next-line ConditionalExpression: equivalent, without an offset column no row has a cell for it
      if (base.offsetColumn !== undefined) {
        const offsetCell = Object.hasOwn(row, base.offsetColumn) ? row[base.offsetColumn] : undefined
        if (offsetCell !== undefined && offsetCell !== null && String(offsetCell).trim() !== "") {
          const stated = readOffsetCell(offsetCell)
          if (stated === undefined) {
            return fail("invalid_offset", `${base.offsetColumn} ${JSON.stringify(String(offsetCell))} is neither an offset (+02:00) nor a season (S/W, MESZ/MEZ, CEST/CET)`)
          }
          const wanted = "offset" in stated ? stated.offset : seasonsOf(earlier.value, convertOptions)[stated.season]
          const match = candidates.find((c) => offsetOf(c) === wanted)
          if (match === undefined) {
            return fail("offset_mismatch", `${String(cell)} has the offset ${candidates.map(offsetOf).join(" or ")} in ${base.timeZone ?? "Europe/Berlin"}, but ${base.offsetColumn} says ${JSON.stringify(String(offsetCell))}`)
          }
          return output(match)
        }
      }
      if (candidates.length === 1) {
        reset()
        return output(candidates[0]!)
      }
      if (!byOrder) {
        // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent, a shortcut: toIsoDateTime below picks the same instant for earlier and later
        if (base.ambiguous === "earlier" || base.ambiguous === "later") return output(base.ambiguous === "earlier" ? earlier.value : later.value)
        return toIsoDateTime(cell, base)
      }
      if (fresh) readStart = true
      const wall = String(cell).trim()
      const seen = run.get(wall)
      if (seen === "later") reset()
      const pick = seen === "earlier" ? "later" : "earlier"
      run.set(wall, pick)
      return output(pick === "earlier" ? earlier.value : later.value)
    }
  }
}
