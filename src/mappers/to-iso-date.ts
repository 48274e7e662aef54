import { type ConversionResult, fail, guard, preview, succeed } from "./conversion-result.js"
import { daysInMonth } from "../schemas/is-calendar-date.js"

/**
 * Text layouts of legacy calendar dates.
 *
 * @since 0.1.0
 */
export type DateFormat = "dd.MM.yyyy" | "yyyyMMdd" | "yyyy-MM-dd"

/**
 * Options of {@link toIsoDate}: the one layout to accept.
 *
 * @since 0.1.0
 */
export interface ToIsoDateOptions {
  /** Only accept this layout. Default: any of the three, recognised by shape. */
  readonly format?: DateFormat
}

/** A calendar date split into its fields (month 1-12). */
export interface CalendarDate {
  readonly year: number
  readonly month: number
  readonly day: number
}

// `\d` without the `u` flag only matches ASCII digits, so "１２.０３.２０２４" is refused.
const DATE_SHAPES: ReadonlyArray<readonly [DateFormat, RegExp, (m: RegExpExecArray) => CalendarDate]> = [
  ["dd.MM.yyyy", /^(\d{2})\.(\d{2})\.(\d{4})$/, (m) => ({ day: Number(m[1]), month: Number(m[2]), year: Number(m[3]) })],
  ["yyyyMMdd", /^(\d{4})(\d{2})(\d{2})$/, (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })],
  ["yyyy-MM-dd", /^(\d{4})-(\d{2})-(\d{2})$/, (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })]
]

/**
 * Whether the fields name a real day of the proleptic Gregorian calendar in
 * the years 0001-9999 (the range a four-digit ISO year can carry without
 * agreeing on year 0000). Shared with the date-time converter; the text of a
 * date is checked by the schemas' `isCalendarDate`, with the same leap rule.
 *
 * @example
 * isCalendarDay({ year: 2024, month: 2, day: 29 }) // => true
 * isCalendarDay({ year: 2023, month: 2, day: 29 }) // => false
 */
export const isCalendarDay = ({ year, month, day }: CalendarDate): boolean => {
  if (!Number.isInteger(year) || year < 1 || year > 9999) return false
  if (!Number.isInteger(month) || month < 1 || month > 12) return false
  return Number.isInteger(day) && day >= 1 && day <= daysInMonth(year, month)
}

const pad = (value: number, width: number): string => String(value).padStart(width, "0")

/**
 * Renders date fields as `YYYY-MM-DD`.
 *
 * @example
 * formatIsoDate({ year: 812, month: 1, day: 5 }) // => "0812-01-05"
 */
export const formatIsoDate = ({ year, month, day }: CalendarDate): string =>
  `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`

const FORMATS: ReadonlyArray<unknown> = DATE_SHAPES.map(([format]) => format)

/**
 * Converts a legacy calendar date to ISO `YYYY-MM-DD`.
 *
 * Text must use two-digit day and month and a four-digit year in one of
 * `dd.MM.yyyy`, `yyyyMMdd` or `yyyy-MM-dd` (surrounding whitespace is
 * ignored); the calendar is checked strictly, so `31.02.2024` is
 * `invalid_date` rather than rolling over to March.
 *
 * A JS `Date` is read with its **UTC** calendar fields, so the result does not
 * depend on the machine's time zone. A `Date` meant as local midnight east of
 * UTC (e.g. `2024-03-16T00:00+01:00`) therefore yields the previous day;
 * convert such values from text or normalise them to UTC midnight first.
 *
 * Error codes: `blank`, `invalid` (wrong shape or type), `invalid_date`
 * (no such day, or year 0000), `out_of_range` (Date outside years 1-9999),
 * `invalid_option`.
 *
 * @example
 * toIsoDate("05.03.2024") // => { ok: true, value: "2024-03-05" }
 * toIsoDate("20240305", { format: "yyyyMMdd" }) // => { ok: true, value: "2024-03-05" }
 * toIsoDate(new Date("2024-03-05T00:00:00Z")) // => { ok: true, value: "2024-03-05" }
 * toIsoDate("29.02.2023") // => { ok: false, error: { code: "invalid_date", ... } }
 *
 * @since 0.1.0
 */
export const toIsoDate = (value: unknown, options?: ToIsoDateOptions): ConversionResult<string> =>
  guard(() => {
    const format = options?.format
    if (format !== undefined && !FORMATS.includes(format)) return fail("invalid_option", `unknown format ${preview(format)}`)

    if (value instanceof Date) {
      const time = value.getTime()
      if (Number.isNaN(time)) return fail("invalid", "invalid Date")
      const fields = { year: value.getUTCFullYear(), month: value.getUTCMonth() + 1, day: value.getUTCDate() }
      if (!isCalendarDay(fields)) return fail("out_of_range", `${value.toISOString()} is outside the years 0001-9999`)
      return succeed(formatIsoDate(fields))
    }
    if (typeof value !== "string") return fail("invalid", `expected a date string or Date, got ${preview(value)}`)

    const text = value.trim()
    if (text === "") return fail("blank", "expected a date, got a blank string")
    for (const [shape, pattern, read] of DATE_SHAPES) {
      if (format !== undefined && shape !== format) continue
      const match = pattern.exec(text)
      if (match === null) continue
      const fields = read(match)
      return isCalendarDay(fields)
        ? succeed(formatIsoDate(fields))
        : fail("invalid_date", `${preview(value)} is not a day of the calendar`)
    }
    const configured = format === undefined ? "no format configured" : `configured format: ${format}`
    return fail("invalid", `${preview(value)} is not a date in an accepted format (${configured}; accepted: ${FORMATS.join(", ")})`)
  })
