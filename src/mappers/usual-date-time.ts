/**
 * The usual date-time cell of a legacy export, converted in one pass over its characters: a wall time in
 * a known layout, on a half day whose wall times all have one whole-minute offset in the zone (every half
 * day but those around a clock change). Each day's offsets are looked up once; the ISO text is written
 * from the cell's own digits. Anything else is left to `toIsoDateTime`'s general path, which gives the
 * same answer for what this converts.
 *
 * @module
 */
import { daysFromCivil } from "../schemas/instant.js"
import { isCalendarDay } from "./to-iso-date.js"
import { soleOffsetAt } from "../schemas/zone-offsets.js"

/**
 * Where a layout keeps each field: the place of its first digit (every field is a run of digits; a
 * layout without seconds has `second` -1), and the places of the other characters.
 */
interface Places {
  readonly length: number
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  /** Place and character code of each other character, in turn. */
  readonly others: Int32Array
}

const FIELDS = "yMdHms"

const placesOf = (layout: string): Places => {
  const chars = [...layout]
  return {
    length: layout.length,
    year: layout.indexOf("y"),
    month: layout.indexOf("M"),
    day: layout.indexOf("d"),
    hour: layout.indexOf("H"),
    minute: layout.indexOf("m"),
    second: layout.indexOf("s"),
    others: Int32Array.from(chars.flatMap((c, i) => (FIELDS.includes(c) ? [] : [i, layout.charCodeAt(i)])))
  }
}

const ZERO = 48
const NINE = 57
const HALF_DAY_MS = 43_200_000
const DAY_MS = 2 * HALF_DAY_MS
const MAX_DAYS = 100_000

/** A day's offset text (`+01:00`) before noon and from noon on, read as UTC; `undefined` where the general path must answer. */
type DayOffsets = readonly [morning: string | undefined, afternoon: string | undefined]

// Stryker disable next-line ArrayDeclaration: equivalent, an empty pair reads undefined at both halves too
const NO_DAY: DayOffsets = [undefined, undefined]

/**
 * An offset in seconds east of UTC as `±HH:MM` (whole minutes only).
 *
 * @example
 * offsetText(-9000) // => "-02:30"
 */
export const offsetText = (offsetSeconds: number): string => {
  const magnitude = Math.abs(offsetSeconds)
  const hours = Math.floor(magnitude / 3600)
  const minutes = Math.floor((magnitude % 3600) / 60)
  return `${offsetSeconds < 0 ? "-" : "+"}${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`
}

const halfDay = (zone: Intl.DateTimeFormat, wallMs: number): string | undefined => {
  const sole = soleOffsetAt(zone, wallMs)
  return sole !== null && sole % 60 === 0 ? offsetText(sole) : undefined
}

const dayOffsetsOf = (zone: Intl.DateTimeFormat, year: number, month: number, day: number): DayOffsets => {
  if (!isCalendarDay({ year, month, day })) return NO_DAY
  const midnight = daysFromCivil(year, month, day) * DAY_MS
  return [halfDay(zone, midnight), halfDay(zone, midnight + HALF_DAY_MS)]
}

const zoneDays = new Map<Intl.DateTimeFormat, Map<number, DayOffsets>>()

const daysOf = (zone: Intl.DateTimeFormat): Map<number, DayOffsets> => {
  let days = zoneDays.get(zone)
  if (days === undefined) {
    days = new Map()
    zoneDays.set(zone, days)
  }
  return days
}

const digit = (code: number): boolean => code >= ZERO && code <= NINE

/** The number two digits (char codes) write. */
const number = (tens: number, ones: number): number => (tens - ZERO) * 10 + ones - ZERO

/**
 * The reader of the usual date-times of one layout (a format: `d M y H m s` a digit each) in the zone
 * whose offsets `zone` tells: for a (trimmed) text, the ISO date-time with offset that `toIsoDateTime`
 * gives for it, or `undefined` when the general path must answer: text of another shape, a time or day
 * that does not exist, or a half day with a clock change or a sub-minute offset.
 *
 * @example
 * const read = usualDateTimeReader("dd.MM.yyyy HH:mm", new Intl.DateTimeFormat("en-US", { timeZone: "Europe/Berlin", timeZoneName: "longOffset" }))
 * read("01.07.2024 12:00") // => "2024-07-01T12:00:00+02:00"
 * read("31.03.2024 02:30") // => undefined
 */
export const usualDateTimeReader = (layout: string, zone: Intl.DateTimeFormat): ((text: string) => string | undefined) => {
  const { length, others, year: y, month: mo, day: d, hour: h, minute: mi, second: s } = placesOf(layout)
  const noSeconds = s === -1
  const days = daysOf(zone)
  // Each character is read once, into a local: a date-time is read for every row.
  return (text) => {
    if (text.length !== length) return undefined
    for (let k = 0; k < others.length; k += 2) if (text.charCodeAt(others[k]!) !== others[k + 1]) return undefined
    const y0 = text.charCodeAt(y), y1 = text.charCodeAt(y + 1), y2 = text.charCodeAt(y + 2), y3 = text.charCodeAt(y + 3)
    const mo0 = text.charCodeAt(mo), mo1 = text.charCodeAt(mo + 1), d0 = text.charCodeAt(d), d1 = text.charCodeAt(d + 1)
    const h0 = text.charCodeAt(h), h1 = text.charCodeAt(h + 1), mi0 = text.charCodeAt(mi), mi1 = text.charCodeAt(mi + 1)
    const s0 = noSeconds ? ZERO : text.charCodeAt(s), s1 = noSeconds ? ZERO : text.charCodeAt(s + 1)
    if (!(digit(y0) && digit(y1) && digit(y2) && digit(y3) && digit(mo0) && digit(mo1) && digit(d0) && digit(d1))) return undefined
    if (!(digit(h0) && digit(h1) && digit(mi0) && digit(mi1) && digit(s0) && digit(s1))) return undefined
    const hour = number(h0, h1)
    if (hour > 23 || number(mi0, mi1) > 59 || number(s0, s1) > 59) return undefined
    const key = ((number(y0, y1) * 100 + number(y2, y3)) * 100 + number(mo0, mo1)) * 100 + number(d0, d1)
    let offsets = days.get(key)
    if (offsets === undefined) {
      offsets = dayOffsetsOf(zone, Math.floor(key / 10_000), Math.floor(key / 100) % 100, key % 100)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the bound only keeps memory small (a day forgotten is worked out again)
      if (days.size >= MAX_DAYS) days.clear()
      days.set(key, offsets)
    }
    const offset = offsets[hour < 12 ? 0 : 1]
    if (offset === undefined) return undefined
    return String.fromCharCode(
      y0, y1, y2, y3, 45, mo0, mo1, 45, d0, d1, 84, h0, h1, 58, mi0, mi1, 58, s0, s1,
      offset.charCodeAt(0), offset.charCodeAt(1), offset.charCodeAt(2), 58, offset.charCodeAt(4), offset.charCodeAt(5)
    )
  }
}
