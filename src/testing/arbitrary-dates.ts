/**
 * Generators of dates and zoned datetimes: calendar dates (leap days and turns of the year drawn more
 * often than their share), datetimes with `Z` and with offsets (some around Berlin's clock changes, in
 * Berlin's offset on either side), and start/end pairs that are ordered as instants across offsets. Day
 * and second arithmetic is the calendar module's (src/schemas/instant.ts).
 *
 * @module
 */
import * as fc from "fast-check"
import { dateOfDay, dayOfDate, daysFromCivil, wallClockOf } from "../schemas/instant.js"
import { daysInMonth } from "../schemas/is-calendar-date.js"
import { oneof } from "./arbitrary-values.js"

const FIRST_DAY = dayOfDate("2015-01-01")
const LAST_DAY = dayOfDate("2030-12-31")

/**
 * The days between `first` and `last` (day numbers, inclusive) where date handling goes wrong: leap days,
 * and the last and first day of each year. Uniform days would make a leap day one date in 1,461.
 */
const boundaryDays = (first: number, last: number): { readonly leap: Array<number>; readonly turns: Array<number> } => {
  const leap: Array<number> = []
  const turns: Array<number> = []
  for (let year = Number(dateOfDay(first).slice(0, 4)); year <= Number(dateOfDay(last).slice(0, 4)); year++) {
    if (daysInMonth(year, 2) === 29) leap.push(daysFromCivil(year, 2, 29))
    turns.push(daysFromCivil(year, 12, 31), daysFromCivil(year, 1, 1))
  }
  const inRange = (day: number) => day >= first && day <= last
  return { leap: leap.filter(inRange), turns: turns.filter(inRange) }
}

/** A day between `first` and `last` (inclusive): any day, or now and then a leap day or a turn of the year. */
const dayBetween = (first: number, last: number): fc.Arbitrary<number> => {
  const any = fc.integer({ min: first, max: last })
  const { leap, turns } = boundaryDays(first, last)
  const special = [leap, turns].filter((days) => days.length > 0).map((days) => ({ weight: 1, arbitrary: fc.constantFrom(...days) }))
  return special.length === 0 ? any : oneof({ weight: 8, arbitrary: any }, ...special)
}

/** A calendar date between `from` and `to` (inclusive, `YYYY-MM-DD`); leap days and turns of the year included. */
export const isoDate = (from = "2015-01-01", to = "2030-12-31"): fc.Arbitrary<string> =>
  dayBetween(dayOfDate(from), dayOfDate(to)).map(dateOfDay)

/** Two dates, the second not before the first: same day, a month, a year or longer apart. */
export const isoDatePair: fc.Arbitrary<readonly [string, string]> = fc.tuple(
  dayBetween(FIRST_DAY, LAST_DAY),
  oneof(fc.constant(0), fc.integer({ min: 27, max: 31 }), fc.integer({ min: 0, max: 400 }))
).map(([start, length]) => [dateOfDay(start), dateOfDay(start + length)] as const)

/** An instant: whole seconds since the epoch, nanoseconds, and how many fraction digits to write. */
interface Instant {
  readonly seconds: number
  readonly nanos: number
  readonly fractionDigits: number
}

/** A zone: an offset (minutes east of UTC) and how it is written. */
interface Zone {
  readonly text: string
  readonly minutes: number
}

/** The last Sunday of a month (1-based) as a day number: the EU changes its clocks on such a day. */
const lastSundayOf = (year: number, month: number): number => {
  const last = daysFromCivil(year, month + 1, 1) - 1
  // Day 0 (1970-01-01) was a Thursday: (day + 4) % 7 is 0 on Sundays.
  return last - ((last + 4) % 7 + 7) % 7
}

/**
 * The instants of Berlin's clock changes in a year (EU rule, since 1996): at 01:00 UTC on the last Sunday
 * of March (02:00 CET becomes 03:00 CEST) and of October (03:00 CEST becomes 02:00 CET).
 */
const clockChangesOf = (year: number): readonly [number, number] =>
  [lastSundayOf(year, 3) * 86_400 + 3_600, lastSundayOf(year, 10) * 86_400 + 3_600]

/** Berlin's offset at an instant: +02:00 in summer time, else +01:00. */
const berlinZoneAt = (seconds: number): Zone => {
  const year = Number(wallClockOf(seconds).slice(0, 4))
  const [spring, autumn] = clockChangesOf(year)
  return seconds >= spring && seconds < autumn ? { text: "+02:00", minutes: 120 } : { text: "+01:00", minutes: 60 }
}

/**
 * Zones as payloads use them: mostly `Z` and German time (Berlin's offset at the instant, or either German
 * offset), sometimes other offsets. A function of the instant, for Berlin's.
 */
const zone: fc.Arbitrary<(seconds: number) => Zone> = oneof(
  { weight: 3, arbitrary: fc.constant(() => ({ text: "Z", minutes: 0 })) },
  { weight: 2, arbitrary: fc.constant(berlinZoneAt) },
  { weight: 2, arbitrary: fc.constantFrom({ text: "+01:00", minutes: 60 }, { text: "+02:00", minutes: 120 }).map((z) => () => z) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { text: "+00:00", minutes: 0 },
      { text: "-05:00", minutes: -300 },
      { text: "+05:30", minutes: 330 },
      { text: "-03:30", minutes: -210 },
      { text: "+14:00", minutes: 840 },
      { text: "-12:00", minutes: -720 }
    ).map((z) => () => z)
  }
)

/** A fraction of a second: none (usually), milliseconds, or nanoseconds. */
const fraction: fc.Arbitrary<{ readonly nanos: number; readonly fractionDigits: number }> = oneof(
  { weight: 6, arbitrary: fc.constant({ nanos: 0, fractionDigits: 0 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 999 }).map((ms) => ({ nanos: ms * 1_000_000, fractionDigits: 3 })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 999_999_999 }).map((nanos) => ({ nanos, fractionDigits: 9 })) }
)

const FIRST_SECOND = FIRST_DAY * 86_400
const LAST_SECOND = (LAST_DAY + 1) * 86_400 - 1

/**
 * Within three hours of one of Berlin's clock changes, on a quarter hour or any second: the missing hour
 * of spring and the repeated hour of autumn, where conversions to and from German wall-clock time go wrong.
 */
const nearClockChange: fc.Arbitrary<number> = fc.tuple(
  fc.integer({ min: Number(dateOfDay(FIRST_DAY).slice(0, 4)), max: Number(dateOfDay(LAST_DAY).slice(0, 4)) }),
  fc.boolean(),
  oneof(fc.integer({ min: -12, max: 12 }).map((q) => q * 900), fc.integer({ min: -3 * 3_600, max: 3 * 3_600 }))
).map(([year, autumn, delta]) => clockChangesOf(year)[autumn ? 1 : 0] + delta)

/** An instant: on a quarter hour (as meter data is), or any second, or near a clock change. */
const instant: fc.Arbitrary<Instant> = fc.tuple(
  oneof(
    { weight: 4, arbitrary: fc.integer({ min: FIRST_SECOND / 900, max: Math.floor(LAST_SECOND / 900) }).map((q) => q * 900) },
    { weight: 2, arbitrary: fc.integer({ min: FIRST_SECOND, max: LAST_SECOND }) },
    { weight: 1, arbitrary: nearClockChange }
  ),
  fraction
).map(([seconds, f]) => ({ seconds, ...f }))

/** Writes an instant in a zone: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. */
export const formatInstant = (at: Instant, zoneText: string, zoneMinutes: number): string => {
  const local = wallClockOf(at.seconds + zoneMinutes * 60)
  const fractionText = at.fractionDigits === 0 ? "" : `.${String(at.nanos).padStart(9, "0").slice(0, at.fractionDigits)}`
  return `${local}${fractionText}${zoneText}`
}

/** Writes an instant in the zone `zoneOf` gives for it. */
const inZone = (at: Instant, zoneOf: (seconds: number) => Zone): string => {
  const z = zoneOf(at.seconds)
  return formatInstant(at, z.text, z.minutes)
}

/**
 * A zoned datetime (`2024-10-01T00:00:00+02:00`, `2024-10-31T22:00:00Z`, `…T10:15:00.123-05:00`), some
 * around Berlin's clock changes (`2024-10-27T02:30:00+02:00`, then `2024-10-27T02:30:00+01:00`).
 */
export const isoDateTime: fc.Arbitrary<string> = fc.tuple(instant, zone).map(([at, zoneOf]) => inZone(at, zoneOf))

/**
 * Two datetimes, the second not before the first as instants, each written in its own zone: equal
 * instants, a quarter hour, a day or a month apart, across offsets (`…T00:00:00+02:00` then `…T22:00:00Z`).
 */
export const isoDateTimePair: fc.Arbitrary<readonly [string, string]> = fc.tuple(
  instant,
  oneof(fc.constant(0), fc.constant(900), fc.constant(86_400), fc.integer({ min: 0, max: 40 * 86_400 })),
  fraction,
  zone,
  zone
).map(([start, seconds, delta, startZone, endZone]) => {
  const nanos = start.nanos + delta.nanos
  const end: Instant = {
    seconds: start.seconds + seconds + Math.floor(nanos / 1_000_000_000),
    nanos: nanos % 1_000_000_000,
    fractionDigits: Math.max(start.fractionDigits, delta.fractionDigits)
  }
  return [inZone(start, startZone), inZone(end, endZone)] as const
})
