/**
 * Date-only cells for date-time fields: a day (`31.03.2024`) read as the instant of that day the field
 * means — its start (00:00:00), its end (23:59:59), or the start of the next day (the exclusive end of a
 * period) — in the field's zone, with clock changes handled as for any other wall time.
 *
 * @module
 */
import { type ConversionResult, fail, guard, preview } from "./conversion-result.js"
import { type CalendarDate, formatIsoDate, isCalendarDay } from "./to-iso-date.js"

/** Layouts of a date without a time of day. */
export type DayFormat = "dd.MM.yyyy" | "yyyyMMdd" | "yyyy-MM-dd"

/** Which instant of a day a date-only cell means. */
export type DayTime = "start" | "end" | "next-start"

/** The date-only layouts, in the order they are tried. */
export const DAY_FORMATS: ReadonlyArray<DayFormat> = ["dd.MM.yyyy", "yyyyMMdd", "yyyy-MM-dd"]

/** The instants of a day a field may mean. */
export const DAY_TIMES: ReadonlyArray<DayTime> = ["start", "end", "next-start"]

/** The layouts of a date with a time of day, in the order they are tried. */
export const WALL_TIME_FORMATS = ["dd.MM.yyyy HH:mm", "dd.MM.yyyy HH:mm:ss", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-ddTHH:mm:ss", "yyyyMMddHHmmss"] as const

/** Whether `format` is a date-only layout. */
export const isDayFormat = (format: unknown): format is DayFormat => (DAY_FORMATS as ReadonlyArray<unknown>).includes(format)

const ZERO = 48
const NINE = 57

/** The day `text` writes in `layout` (`d M y` a digit each, other characters as they are), or `undefined`. */
const readDay = (text: string, layout: DayFormat): CalendarDate | undefined => {
  if (text.length !== layout.length) return undefined
  let day = 0
  let month = 0
  let year = 0
  for (let i = 0; i < layout.length; i++) {
    const code = text.charCodeAt(i)
    const field = layout[i]
    if (field !== "d" && field !== "M" && field !== "y") {
      if (code !== layout.charCodeAt(i)) return undefined
      continue
    }
    if (code < ZERO || code > NINE) return undefined
    if (field === "d") day = day * 10 + code - ZERO
    else if (field === "M") month = month * 10 + code - ZERO
    else year = year * 10 + code - ZERO
  }
  return { year, month, day }
}

/** The day after `day` (`undefined` after 9999-12-31). */
const nextDay = ({ year, month, day }: CalendarDate): CalendarDate | undefined => {
  if (isCalendarDay({ year, month, day: day + 1 })) return { year, month, day: day + 1 }
  if (month < 12) return { year, month: month + 1, day: 1 }
  return year < 9999 ? { year: year + 1, month: 1, day: 1 } : undefined
}

/**
 * The wall time (`yyyy-MM-ddTHH:mm:ss`) that `time` means on `day`, or `undefined` when it lies after
 * the year 9999.
 *
 * @example
 * dayWallTime({ year: 2024, month: 3, day: 31 }, "next-start") // => "2024-04-01T00:00:00"
 */
export const dayWallTime = (day: CalendarDate, time: DayTime): string | undefined => {
  if (time === "start") return `${formatIsoDate(day)}T00:00:00`
  if (time === "end") return `${formatIsoDate(day)}T23:59:59`
  const next = nextDay(day)
  return next === undefined ? undefined : `${formatIsoDate(next)}T00:00:00`
}

const TIMES_TEXT = DAY_TIMES.map((t) => JSON.stringify(t)).join(", ")

/**
 * The `invalid` failure of a cell in no format a date-time field accepts: it lists the formats accepted
 * and the one configured, and says so when the cell is a date whose field does not say which instant of
 * the day it means.
 */
export const unrecognisedDateTime = (value: unknown, format: string | undefined, time: unknown): ConversionResult<never> => {
  const text = typeof value === "string" ? value.trim() : ""
  if (time === undefined && (format === undefined || isDayFormat(format)) && DAY_FORMATS.some((layout) => readDay(text, layout) !== undefined)) {
    return fail("invalid", `${preview(value)} is a date without a time of day: set the option time (${TIMES_TEXT}) to say which instant of the day it means`)
  }
  const days = time === undefined ? `; date-only ${DAY_FORMATS.join(", ")} with the option time` : `, ${DAY_FORMATS.join(", ")}`
  const accepted = `${WALL_TIME_FORMATS.join(", ")}${days}`
  return fail(
    "invalid",
    format === undefined
      ? `${preview(value)} is in no date-time format this field accepts (no format configured; accepted: ${accepted})`
      : `${preview(value)} does not match the configured format ${format} (formats a datetime field accepts: ${accepted})`
  )
}

/** Options of a date-time conversion that this module reads. */
interface DayOptions {
  readonly format?: string | undefined
  readonly time?: DayTime | undefined
}

type Conversion = (value: unknown) => ConversionResult<string>

/**
 * A date-time conversion that also reads date-only cells as the instant `time` names: a date-only cell
 * goes to `make({ format: "yyyy-MM-ddTHH:mm:ss" })` as that wall time (so a clock change is handled as for
 * any wall time); a cell with a time of day to `make(options)`, unless `format` is a date-only one.
 */
export const dayAwareConversion = <O extends DayOptions>(options: O, make: (options: O) => Conversion): Conversion => {
  // Options are read once, here: a getter that answers differently each time cannot split the checks.
  const read = guard(() => ({ ok: true, value: { ...options } }) as const)
  if (!read.ok) return () => read
  return dayConversion(read.value, make)
}

const dayConversion = <O extends DayOptions>(options: O, make: (options: O) => Conversion): Conversion => {
  const { format, time } = options
  if (time === undefined) {
    const message = `format ${format} is a date without a time of day: set the option time (${TIMES_TEXT})`
    return () => fail("invalid_option", message)
  }
  if (!DAY_TIMES.includes(time)) return () => fail("invalid_option", `unknown time ${preview(time)}; use ${TIMES_TEXT}`)
  const layouts = format === undefined ? DAY_FORMATS : isDayFormat(format) ? [format] : []
  // `make` is the conversion of wall times with a time of day: it reads `time` only to word its errors.
  const withTimeOfDay = isDayFormat(format) ? undefined : make(options)
  const atWall = make({ ...options, format: "yyyy-MM-ddTHH:mm:ss" })
  return (value) =>
    guard(() => {
      const text = typeof value === "string" ? value.trim() : typeof value === "number" && Number.isSafeInteger(value) ? String(value) : undefined
      if (text !== undefined) {
        for (const layout of layouts) {
          const day = readDay(text, layout)
          if (day === undefined) continue
          if (!isCalendarDay(day)) return fail("invalid_date", `${preview(value)} is not a day of the calendar`)
          const wall = dayWallTime(day, time)
          return wall === undefined ? fail("out_of_range", `the day after ${preview(value)} lies after the year 9999`) : atWall(wall)
        }
      }
      return withTimeOfDay !== undefined ? withTimeOfDay(value) : unrecognisedDateTime(value, format, time)
    })
}
