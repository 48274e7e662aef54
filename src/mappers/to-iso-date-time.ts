import { type ConversionResult, fail, guard, preview, succeed } from "./conversion-result.js"
import { daysFromCivil } from "../schemas/instant.js"
import { cachedOffsetSecondsAt, instantsFor, offsetFormatFor, soleOffsetAt } from "../schemas/zone-offsets.js"
import { offsetText, usualDateTimeReader } from "./usual-date-time.js"
import { type CalendarDate, formatIsoDate, isCalendarDay } from "./to-iso-date.js"
import { dayAwareConversion, type DayFormat, type DayTime, isDayFormat, unrecognisedDateTime, WALL_TIME_FORMATS } from "./day-instant.js"

/**
 * Text layouts of legacy wall-clock date-times (a date-only one needs `time`).
 *
 * @since 0.1.0
 */
export type DateTimeFormat = (typeof WALL_TIME_FORMATS)[number] | DayFormat

/**
 * Options of {@link toIsoDateTime}: the layout, the zone of the wall time, and the form of the result.
 *
 * @since 0.1.0
 */
export interface ToIsoDateTimeOptions {
  /** Only accept this layout. Default: any of them, recognised by shape. */
  readonly format?: DateTimeFormat
  /** IANA zone (or fixed offset such as `"+01:00"`) the wall time was recorded in. Default `"Europe/Berlin"`. */
  readonly timeZone?: string
  /** Which instant a wall time repeated by a backward clock change means. Default `"reject"`. */
  readonly ambiguous?: "earlier" | "later" | "reject"
  /** `"offset"`: local time with the zone's offset (`+02:00`); `"utc"`: the instant in UTC (`Z`). Default `"offset"`. */
  readonly output?: "offset" | "utc"
  /** The instant of the day a date-only cell means: `"start"` 00:00:00, `"end"` 23:59:59, `"next-start"` 00:00:00 of the next day. */
  readonly time?: DayTime
}

interface WallTime extends CalendarDate {
  readonly hour: number
  readonly minute: number
  readonly second: number
}

// Strings that already carry `Z` or an offset are deliberately not accepted:
// this converter is for zone-less legacy wall times only.
const FORMATS: ReadonlyArray<DateTimeFormat> = WALL_TIME_FORMATS

const DIGIT_0 = 48
const DIGIT_9 = 57

/**
 * The wall time `text` writes in `layout` (a format read as a pattern: each of `d M y H m s` stands for one
 * ASCII digit of its field, any other character for itself), or `undefined` when it does not fit. One
 * pass over the characters: a date-time is read for every row.
 */
const readWall = (text: string, layout: string): WallTime | undefined => {
  if (text.length !== layout.length) return undefined
  let day = 0
  let month = 0
  let year = 0
  let hour = 0
  let minute = 0
  let second = 0
  for (let i = 0; i < layout.length; i++) {
    const code = text.charCodeAt(i)
    const field = layout[i]
    if (field !== "d" && field !== "M" && field !== "y" && field !== "H" && field !== "m" && field !== "s") {
      if (code !== layout.charCodeAt(i)) return undefined
      continue
    }
    if (code < DIGIT_0 || code > DIGIT_9) return undefined
    const digit = code - DIGIT_0
    if (field === "d") day = day * 10 + digit
    else if (field === "M") month = month * 10 + digit
    else if (field === "y") year = year * 10 + digit
    else if (field === "H") hour = hour * 10 + digit
    else if (field === "m") minute = minute * 10 + digit
    else second = second * 10 + digit
  }
  return { year, month, day, hour, minute, second }
}

const AMBIGUOUS_MODES: ReadonlyArray<unknown> = ["earlier", "later", "reject"]
const OUTPUTS: ReadonlyArray<unknown> = ["offset", "utc"]

// Integer arithmetic (the wall time is a checked calendar day of the years 0001-9999), no Date object.
const wallToEpochMs = (wall: WallTime): number =>
  ((daysFromCivil(wall.year, wall.month, wall.day) * 24 + wall.hour) * 60 + wall.minute) * 60_000 + wall.second * 1000

const epochMsToWall = (epochMs: number): WallTime => {
  const date = new Date(epochMs)
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds()
  }
}

const TWO_DIGITS: ReadonlyArray<string> = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"))
// Only hours, minutes and seconds of a wall time (0-59) are padded here.
const pad2 = (value: number): string => TWO_DIGITS[value]!

const render = (
  instant: number,
  offsetSeconds: number,
  output: "offset" | "utc",
  timeZone: string
): ConversionResult<string> => {
  const wall = epochMsToWall(output === "utc" ? instant : instant + offsetSeconds * 1000)
  if (!isCalendarDay(wall)) return fail("out_of_range", "the result lies outside the years 0001-9999")
  if (output === "utc") return succeed(`${wallText(wall, "T")}Z`)
  if (offsetSeconds % 60 !== 0) {
    // Local mean time before standard time (Berlin until 1893: +00:53:28)
    // cannot be written as ±HH:MM without changing the instant.
    return fail("unsupported_offset", `${timeZone} used a sub-minute offset then; use output "utc"`)
  }
  return succeed(isoWithOffset(wall, offsetSeconds))
}

const wallText = (wall: WallTime, separator: " " | "T"): string =>
  `${formatIsoDate(wall)}${separator}${pad2(wall.hour)}:${pad2(wall.minute)}:${pad2(wall.second)}`

const D0 = 48
const digitAt = (value: number, unit: number): number => D0 + (Math.floor(value / unit) % 10)

/**
 * A wall time with its whole-minute offset as ISO text (`2024-07-01T12:00:00+02:00`), written character by
 * character into one flat string: joined from pieces it would be a rope, which costs again wherever the
 * text is read (hashed, stringified, looked up).
 */
const isoWithOffset = (wall: WallTime, offsetSeconds: number): string => {
  const { year, month, day, hour, minute, second } = wall
  const magnitude = Math.abs(offsetSeconds) / 60
  const offsetHours = Math.floor(magnitude / 60)
  const offsetMinutes = magnitude % 60
  return String.fromCharCode(
    digitAt(year, 1000), digitAt(year, 100), digitAt(year, 10), D0 + (year % 10), 45,
    digitAt(month, 10), D0 + (month % 10), 45, digitAt(day, 10), D0 + (day % 10), 84,
    digitAt(hour, 10), D0 + (hour % 10), 58, digitAt(minute, 10), D0 + (minute % 10), 58, digitAt(second, 10), D0 + (second % 10),
    offsetSeconds < 0 ? 45 : 43, digitAt(offsetHours, 10), D0 + (offsetHours % 10), 58, digitAt(offsetMinutes, 10), D0 + (offsetMinutes % 10)
  )
}

const describeWall = (wall: WallTime): string => wallText(wall, " ")

/**
 * Converts a legacy wall-clock date-time recorded in an IANA time zone to an
 * ISO 8601 timestamp: `2024-07-01T12:00:00+02:00` (the real offset of that
 * instant in the zone) or, with `output: "utc"`, `2024-07-01T10:00:00Z`.
 *
 * Clock changes are never papered over: a wall time skipped by a forward
 * change (`31.03.2024 02:30` in Europe/Berlin) is `nonexistent_time`; one that
 * occurs twice after a backward change (`27.10.2024 02:30`) is
 * `ambiguous_time` unless `ambiguous` picks the `"earlier"` (summer time) or
 * `"later"` instant.
 *
 * A date-only cell (`dd.MM.yyyy`, `yyyyMMdd`, `yyyy-MM-dd`) is read when
 * `time` says which instant of the day it means: `"start"` (00:00:00),
 * `"end"` (23:59:59) or `"next-start"` (00:00:00 of the next day, the
 * exclusive end of a period).
 *
 * A JS `Date` is an instant: it is rendered in the zone as is; it must have
 * whole seconds (`fraction_lost` otherwise), since the output has no
 * sub-second part.
 *
 * Error codes: `blank`, `invalid` (shape, type, hour > 23, minute or
 * second > 59), `invalid_date`, `nonexistent_time`, `ambiguous_time`,
 * `invalid_time_zone`, `fraction_lost`, `out_of_range`, `unsupported_offset`,
 * `invalid_option`.
 *
 * @example
 * toIsoDateTime("01.07.2024 12:00") // => { ok: true, value: "2024-07-01T12:00:00+02:00" }
 * toIsoDateTime("27.10.2024 02:30", { ambiguous: "later" }) // => { ok: true, value: "2024-10-27T02:30:00+01:00" }
 * toIsoDateTime("20240101120000", { output: "utc" }) // => { ok: true, value: "2024-01-01T11:00:00Z" }
 * toIsoDateTime("31.03.2024 02:30") // => { ok: false, error: { code: "nonexistent_time", ... } }
 * toIsoDateTime("31.03.2024", { time: "next-start" }) // => { ok: true, value: "2024-04-01T00:00:00+02:00" }
 *
 * @since 0.1.0
 */
export const toIsoDateTime = (value: unknown, options?: ToIsoDateTimeOptions): ConversionResult<string> =>
  isoDateTimeConverter(options)(value)

/**
 * {@link toIsoDateTime} with its options read once, for converting many values alike (a column of an
 * export): the same answer for every value, without checking the options again each time.
 *
 * @example
 * const fromSap = isoDateTimeConverter({ format: "dd.MM.yyyy HH:mm" })
 * fromSap("01.07.2024 12:00") // => { ok: true, value: "2024-07-01T12:00:00+02:00" }
 */
export const isoDateTimeConverter = (options?: ToIsoDateTimeOptions): ((value: unknown) => ConversionResult<string>) => {
  const dated = guard(() => succeed(options?.time !== undefined || isDayFormat(options?.format)))
  if (!dated.ok) return () => dated
  return dated.value ? dayAwareConversion(options!, wallTimeConverter) : wallTimeConverter(options)
}

/** {@link isoDateTimeConverter} for cells with a time of day. */
const wallTimeConverter = (options?: ToIsoDateTimeOptions): ((value: unknown) => ConversionResult<string>) => {
  const checked = guard((): ConversionResult<Settings> => {
    const settings = settingsOf(options)
    return "ok" in settings ? settings : succeed(settings)
  })
  if (!checked.ok) return () => checked
  const settings = checked.value
  return (value) => guard(() => convertWith(settings, value))
}

/** The options of a conversion, checked, with the zone's offset reader. */
interface Settings {
  readonly format: DateTimeFormat | undefined
  /** Read only to word the error of a cell in no accepted format. */
  readonly time: unknown
  readonly timeZone: string
  readonly ambiguous: "earlier" | "later" | "reject"
  readonly output: "offset" | "utc"
  readonly zone: Intl.DateTimeFormat
  /** The one-pass reader of the usual wall time, for a known format written with its offset. */
  readonly usual: ((text: string) => string | undefined) | undefined
}

const settingsOf = (options: ToIsoDateTimeOptions | undefined): Settings | ConversionResult<never> => {
  const format = options?.format
  const timeZone = options?.timeZone ?? "Europe/Berlin"
  const ambiguous = options?.ambiguous ?? "reject"
  const output = options?.output ?? "offset"
  if (format !== undefined && !FORMATS.includes(format)) return fail("invalid_option", `unknown format ${preview(format)}`)
  if (!AMBIGUOUS_MODES.includes(ambiguous)) return fail("invalid_option", `unknown ambiguous mode ${preview(ambiguous)}`)
  if (!OUTPUTS.includes(output)) return fail("invalid_option", `unknown output ${preview(output)}`)
  const zone = typeof timeZone === "string" ? offsetFormatFor(timeZone) : undefined
  if (zone === undefined) return fail("invalid_time_zone", `unknown time zone ${preview(timeZone)}`)
  const usual = format !== undefined && output === "offset" ? usualDateTimeReader(format, zone) : undefined
  return { format, time: options?.time, timeZone, ambiguous, output, zone, usual }
}

const convertWith = (settings: Settings, value: unknown): ConversionResult<string> => {
  const { format, timeZone, ambiguous, output, zone } = settings
  if (value instanceof Date) {
    const instant = value.getTime()
    if (Number.isNaN(instant)) return fail("invalid", "invalid Date")
    if (instant % 1000 !== 0) return fail("fraction_lost", `${value.toISOString()} has milliseconds`)
    return render(instant, cachedOffsetSecondsAt(zone, instant), output, timeZone)
  }
  if (typeof value !== "string") return fail("invalid", `expected a date-time string or Date, got ${preview(value)}`)

  const text = value.trim()
  if (text === "") return fail("blank", "expected a date-time, got a blank string")
  const usual = settings.usual?.(text)
  if (usual !== undefined) return succeed(usual)
  let wall: WallTime | undefined
  for (const layout of FORMATS) {
    if (format !== undefined && layout !== format) continue
    wall = readWall(text, layout)
    if (wall !== undefined) break
  }
  if (wall === undefined) return unrecognisedDateTime(value, format, settings.time)
  if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) {
    return fail("invalid", `${preview(value)} is not a time of day`)
  }
  if (!isCalendarDay(wall)) return fail("invalid_date", `${preview(value)} is not a day of the calendar`)

  const wallMs = wallToEpochMs(wall)
  const sole = soleOffsetAt(zone, wallMs)
  // Stryker disable next-line StringLiteral,ArithmeticOperator,BlockStatement: equivalent, they only skip a shortcut; the general path below renders the same instant with the same offset
  if (sole !== null && output === "offset" && sole % 60 === 0) {
    // The one instant, rendered in the zone: the wall time as read, with its offset.
    return succeed(isoWithOffset(wall, sole))
  }
  const instants = sole !== null ? [wallMs - sole * 1000] : instantsFor(zone, wallMs)
  if (instants.length === 0) {
    return fail("nonexistent_time", `${describeWall(wall)} does not exist in ${timeZone} (skipped by a clock change)`)
  }
  if (instants.length > 1 && ambiguous === "reject") {
    const offsets = instants.map((instant) => offsetText((wallMs - instant) / 1000)).join(" and ")
    return fail(
      "ambiguous_time",
      `${describeWall(wall)} occurs twice in ${timeZone} (${offsets}); set ambiguous to "earlier" or "later"`
    )
  }
  const instant = ambiguous === "later" ? instants[instants.length - 1]! : instants[0]!
  return render(instant, (wallMs - instant) / 1000, output, timeZone)
}
