/**
 * Where the value of one payload field comes from: a column (optionally through a converter), a
 * constant, or a function of the row.
 *
 * @module
 */
import { type ConversionResult, fail, succeed } from "./conversion-result.js"
import { toBoolean, type ToBooleanOptions } from "./to-boolean.js"
import { toDecimalString, type ToDecimalStringOptions } from "./to-decimal-string.js"
import { toIsoDateTime, type ToIsoDateTimeOptions } from "./to-iso-date-time.js"
import { toIsoDate, type ToIsoDateOptions } from "./to-iso-date.js"
import { toMinorUnits } from "./to-minor-units.js"

/** One cell of a flat legacy record. */
export type Cell = string | number | boolean | null | undefined
/** A flat legacy record: column name → cell. */
export type LegacyRecord = Readonly<Record<string, Cell>>

/** The converters a column can go through, by name (the same names work in JSON mappings). */
export type ConverterName = "string" | "decimal" | "number" | "integer" | "cents" | "date" | "datetime" | "boolean" | "list"

/** Options of each converter. */
export interface ConverterOptions {
  readonly decimal?: ToDecimalStringOptions
  readonly date?: ToIsoDateOptions
  readonly datetime?: ToIsoDateTimeOptions
  readonly boolean?: ToBooleanOptions
  /** `list`: the separator between items (default `;`). */
  readonly separator?: string
}

/** A field whose value is read from a column. `convert` defaults to `string`. */
export interface ColumnSource {
  readonly column: string
  readonly convert?: ConverterName
  /** Options of the converter (JSON-friendly: `{ "locale": "de" }` for `decimal`, `{ "format": "dd.MM.yyyy" }` for `date`, …). */
  readonly options?: Readonly<Record<string, unknown>>
}

/** A field with the same value in every payload. */
export interface ConstantSource {
  readonly value: unknown
}

/** A field computed from the row (TypeScript only; a JSON mapping cannot hold functions). */
export interface FunctionSource {
  readonly from: (row: LegacyRecord) => ConversionResult<unknown> | unknown
}

/** Where a field's value comes from; a bare string is a column read as a string. */
export type FieldSource = string | ColumnSource | ConstantSource | FunctionSource

const isEmptyCell = (cell: Cell): boolean => cell === undefined || cell === null || (typeof cell === "string" && cell.trim() === "")

const convertCell = (cell: Cell, convert: ConverterName, options: Readonly<Record<string, unknown>>): ConversionResult<unknown> => {
  switch (convert) {
    case "string":
      return succeed(typeof cell === "string" ? cell.trim() : String(cell))
    case "decimal":
      return toDecimalString(cell, options as ToDecimalStringOptions)
    case "number":
    case "integer": {
      const decimal = toDecimalString(cell, options as ToDecimalStringOptions)
      if (!decimal.ok) return decimal
      const n = Number(decimal.value)
      if (convert === "integer" && !Number.isSafeInteger(n)) return fail("invalid", `${decimal.value} is not an integer`)
      return succeed(n)
    }
    case "cents": {
      const decimal = toDecimalString(cell, options as ToDecimalStringOptions)
      return decimal.ok ? toMinorUnits(decimal.value) : decimal
    }
    case "date":
      return toIsoDate(cell, options as ToIsoDateOptions)
    case "datetime":
      return toIsoDateTime(cell, options as ToIsoDateTimeOptions)
    case "boolean":
      return toBoolean(cell, options as ToBooleanOptions)
    case "list": {
      const separator = typeof options["separator"] === "string" ? options["separator"] : ";"
      return succeed(String(cell).split(separator).map((s) => s.trim()).filter((s) => s !== ""))
    }
  }
}

/** The outcome of reading one field from a row: a value, nothing (an empty cell), or an error. */
export type FieldOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly column?: string; readonly code: string; readonly detail: string }

const CONVERTERS: ReadonlySet<string> = new Set(["string", "decimal", "number", "integer", "cents", "date", "datetime", "boolean", "list"])

/** Reads one field from a row. Empty cells give `undefined` (the field is then omitted), except for `boolean`, where SAP's blank means false. */
export const readField = (source: FieldSource, row: LegacyRecord): FieldOutcome => {
  try {
    if (typeof source === "string") return readField({ column: source }, row)
    if ("value" in source) return { ok: true, value: source.value }
    if ("from" in source) {
      const out = source.from(row)
      if (typeof out === "object" && out !== null && "ok" in out && typeof out.ok === "boolean") {
        const result = out as ConversionResult<unknown>
        return result.ok ? { ok: true, value: result.value } : { ok: false, code: result.error.code, detail: result.error.detail }
      }
      return { ok: true, value: out }
    }
    const convert = source.convert ?? "string"
    if (!CONVERTERS.has(convert)) return { ok: false, column: source.column, code: "invalid_mapping", detail: `Unknown converter ${String(convert)}` }
    const cell = Object.hasOwn(row, source.column) ? row[source.column] : undefined
    if (cell === undefined || cell === null || (isEmptyCell(cell) && convert !== "boolean")) {
      return { ok: true, value: undefined }
    }
    const result = convertCell(cell, convert, source.options ?? {})
    return result.ok
      ? { ok: true, value: result.value }
      : { ok: false, column: source.column, code: result.error.code, detail: result.error.detail }
  } catch (cause) {
    return { ok: false, code: "invalid", detail: cause instanceof Error ? cause.message : String(cause) }
  }
}
