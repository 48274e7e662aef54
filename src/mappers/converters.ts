/**
 * The converters a mapped column can go through, as one table: each converter's name, the Effect schema
 * of its options (which the mapping schema, its JSON Schema and the README reference all read), and the
 * conversion itself.
 *
 * @module
 */
import { Schema } from "effect"
import { type ConversionResult, fail, succeed } from "./conversion-result.js"
import { toBoolean, type ToBooleanOptions } from "./to-boolean.js"
import { decimalStringConverter, toDecimalString, type ToDecimalStringOptions } from "./to-decimal-string.js"
import { isExactJsonNumber } from "./is-exact-json-number.js"
import { isoDateTimeConverter, toIsoDateTime, type ToIsoDateTimeOptions } from "./to-iso-date-time.js"
import { toIsoDate, type ToIsoDateOptions } from "./to-iso-date.js"
import { toMinorUnits } from "./to-minor-units.js"
import { DAY_FORMATS, DAY_TIMES, WALL_TIME_FORMATS } from "./day-instant.js"

/**
 * One cell of a flat legacy record.
 *
 * @since 0.1.0
 */
export type Cell = string | number | boolean | null | undefined

const option = <S extends Schema.Top>(schema: S, description: string) =>
  Schema.optionalKey(schema.annotate({ description }))

const locale = option(Schema.Literals(["de", "en", "auto", "plain"]), "Separator convention: `de` (1.234,56), `en` (1,234.56), `plain` (digits and a point only: 1234.56, as JSON and BO4E write numbers) or `auto` (refuses what is ambiguous). Default `auto`.")
const scale = option(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })), "Exact number of decimals in the output, rounding with `rounding`. Default: the decimals as written.")
const rounding = option(Schema.Literals(["half-even", "half-up"]), "Tie-breaking when `scale` drops digits. Default `half-even`.")

const shift = option(Schema.Int.check(Schema.isBetween({ minimum: -100, maximum: 100 })), "Moves the decimal point this many places to the right, exactly, before `scale` (2: euros to cents; 3: MWh to kWh; negative: to the left). Default 0.")

const DecimalOptions = Schema.Struct({ locale, scale, rounding, shift })
const LocaleOnly = Schema.Struct({ locale })
const CentsOptions = Schema.Struct({
  locale,
  digits: option(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10 })), "Decimals of the currency's minor unit. Default 2 (cents).")
})
const DateOptions = Schema.Struct({
  format: option(Schema.Literals(["dd.MM.yyyy", "yyyyMMdd", "yyyy-MM-dd"]), "Only accept this layout. Default: any of them, told apart by shape.")
})
const DateTimeOptions = Schema.Struct({
  format: option(
    Schema.Literals([...WALL_TIME_FORMATS, ...DAY_FORMATS]),
    "Only accept this layout. Default: any of them, told apart by shape. A date-only layout (dd.MM.yyyy, yyyyMMdd, yyyy-MM-dd) needs `time`."
  ),
  time: option(
    Schema.Literals(DAY_TIMES),
    "The instant a date-only cell means: `start` (00:00:00), `end` (23:59:59) or `next-start` (00:00:00 of the next day, the exclusive end of a period). Without it, a date-only cell is refused."
  ),
  timeZone: option(Schema.String.check(Schema.isNonEmpty()), "IANA zone the wall time was recorded in. Default `Europe/Berlin`.") ,
  ambiguous: option(
    Schema.Literals(["reject", "earlier", "later", "by-order"]),
    "A wall time that occurs twice (autumn clock change): `reject` (default), `earlier`, `later`, or `by-order`: within a run of rows, the first occurrence takes the earlier offset and its repeat the later one."
  ),
  offsetColumn: option(
    Schema.String.check(Schema.isNonEmpty()),
    "A column that tells the offset of the wall time (`+02:00`/`+01:00`, `S`/`W`, `MESZ`/`MEZ`, `CEST`/`CET`); it decides a repeated wall time and must agree with any other."
  ),
  output: option(Schema.Literals(["offset", "utc"]), "`offset` (default): local time with its offset; `utc`: the instant in UTC (`Z`).")
})
const BooleanOptions = Schema.Struct({
  trueValues: option(Schema.Array(Schema.String), "Spellings of true (trimmed, case-insensitive); replaces the defaults true, 1, j, ja, y, yes, x."),
  falseValues: option(Schema.Array(Schema.String), "Spellings of false; replaces the defaults false, 0, n, nein, no and the blank cell.")
})
const ListOptions = Schema.Struct({
  separator: option(Schema.String.check(Schema.isNonEmpty()), "Separator between items. Default `;`.")
})
const NoOptions = Schema.Struct({})

/** What a converter does with a non-empty cell, given its (checked) options. */
type Convert = (cell: Exclude<Cell, null | undefined>, options: Readonly<Record<string, unknown>>) => ConversionResult<unknown>

/**
 * A converter: what it is for, the schema of its options, and the conversion.
 *
 * @since 0.1.0
 */
export interface Converter {
  readonly description: string
  readonly options: Schema.Struct<Schema.Struct.Fields>
  readonly convert: Convert
  /** Whether its value of a non-blank cell is never blank or empty (a mapped payload need not be looked at for it). */
  readonly neverEmpty?: boolean
  /** The conversion with its options read once, for a whole column (when reading them costs per cell). */
  readonly prepare?: (options: Readonly<Record<string, unknown>>) => (cell: Exclude<Cell, null | undefined>) => ConversionResult<unknown>
}

const decimalOf = (cell: Exclude<Cell, null | undefined>, options: Readonly<Record<string, unknown>>) =>
  toDecimalString(cell, options as ToDecimalStringOptions)

/**
 * Every converter by name. A JSON mapping names them in `convert`; the name `string` is the default.
 *
 * @example
 * CONVERTERS.decimal.convert("1.234,5", { locale: "de" }) // => { ok: true, value: "1234.5" }
 *
 * @since 0.1.0
 */
export const CONVERTERS = {
  string: {
    description: "The cell as text, trimmed (the default).",
    neverEmpty: true,
    options: NoOptions,
    convert: (cell) => succeed(typeof cell === "string" ? cell.trim() : String(cell))
  },
  decimal: {
    description: "A decimal string (`\"1234.50\"`), exact: German or English separators, SAP's trailing minus.",
    neverEmpty: true,
    options: DecimalOptions,
    convert: decimalOf,
    prepare: (options) => decimalStringConverter(options as ToDecimalStringOptions)
  },
  number: {
    description: "A JSON number. A value a JSON number cannot hold exactly is refused (`inexact_number`), so amounts never change on the way.",
    neverEmpty: true,
    options: DecimalOptions,
    convert: (cell, options) => {
      const decimal = decimalOf(cell, options)
      if (!decimal.ok) return decimal
      return isExactJsonNumber(decimal.value)
        ? succeed(Number(decimal.value))
        : fail("inexact_number", `${decimal.value} cannot be sent as a JSON number without changing it (it would become ${JSON.stringify(Number(decimal.value))})`)
    }
  },
  integer: {
    description: "A whole JSON number within ±(2^53 − 1).",
    neverEmpty: true,
    options: LocaleOnly,
    convert: (cell, options) => {
      const decimal = decimalOf(cell, options)
      if (!decimal.ok) return decimal
      const n = Number(decimal.value)
      return /^-?\d+$/u.test(decimal.value) && Number.isSafeInteger(n) ? succeed(n) : fail("invalid", `${decimal.value} is not an integer within ±(2^53 − 1)`)
    }
  },
  cents: {
    description: "A decimal amount as an integer of minor units (`12,34` → 1234); a fraction of a minor unit is refused.",
    neverEmpty: true,
    options: CentsOptions,
    convert: (cell, options) => {
      const decimal = decimalOf(cell, options)
      return decimal.ok ? toMinorUnits(decimal.value, { digits: (options["digits"] as number | undefined) ?? 2 }) : decimal
    }
  },
  date: {
    description: "A calendar date (`dd.MM.yyyy`, `yyyyMMdd`, `yyyy-MM-dd`) as `yyyy-MM-dd`.",
    neverEmpty: true,
    options: DateOptions,
    convert: (cell, options) => toIsoDate(cell, options as ToIsoDateOptions)
  },
  datetime: {
    description: "A zone-less wall time in `timeZone` as an ISO 8601 date-time with its offset; clock changes are never guessed. A date-only cell is read as the instant of the day `time` names.",
    neverEmpty: true,
    options: DateTimeOptions,
    convert: (cell, options) => toIsoDateTime(cell, options as ToIsoDateTimeOptions),
    prepare: (options) => isoDateTimeConverter(options as ToIsoDateTimeOptions)
  },
  boolean: {
    description: "A flag (`X`, `J`, `1`, `true`, blank, …) as `true`/`false`. Unlike the others, a blank cell is read (as false).",
    neverEmpty: true,
    options: BooleanOptions,
    convert: (cell, options) => toBoolean(cell, options as ToBooleanOptions)
  },
  list: {
    description: "A list of strings, split at `separator`, trimmed, blanks dropped.",
    options: ListOptions,
    convert: (cell, options) => {
      const separator = typeof options["separator"] === "string" ? options["separator"] : ";"
      return succeed(String(cell).split(separator).map((s) => s.trim()).filter((s) => s !== ""))
    }
  }
} as const satisfies Record<string, Converter>

/**
 * The name of a converter (`convert` in a mapping).
 *
 * @since 0.1.0
 */
export type ConverterName = keyof typeof CONVERTERS

/** The converter names, in the table's order. */
export const CONVERTER_NAMES = Object.keys(CONVERTERS) as ReadonlyArray<ConverterName>
