/**
 * Generators of dates and zoned datetimes: calendar dates (leap days included), datetimes with `Z` and with
 * offsets, and start/end pairs that are ordered as instants across offsets. Day and second arithmetic is
 * the calendar module's (src/schemas/instant.ts).
 *
 * @module
 */
import * as fc from "fast-check"
import { dateOfDay, dayOfDate, wallClockOf } from "../schemas/instant.js"
import { oneof } from "./arbitrary-values.js"

const FIRST_DAY = dayOfDate("2015-01-01")
const LAST_DAY = dayOfDate("2030-12-31")

/** A calendar date between `from` and `to` (inclusive, `YYYY-MM-DD`); leap days included. */
export const isoDate = (from = "2015-01-01", to = "2030-12-31"): fc.Arbitrary<string> =>
  fc.integer({ min: dayOfDate(from), max: dayOfDate(to) }).map(dateOfDay)

/** Two dates, the second not before the first: same day, a month, a year or longer apart. */
export const isoDatePair: fc.Arbitrary<readonly [string, string]> = fc.tuple(
  fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
  oneof(fc.constant(0), fc.integer({ min: 27, max: 31 }), fc.integer({ min: 0, max: 400 }))
).map(([start, length]) => [dateOfDay(start), dateOfDay(start + length)] as const)

/** An instant: whole seconds since the epoch, nanoseconds, and how many fraction digits to write. */
interface Instant {
  readonly seconds: number
  readonly nanos: number
  readonly fractionDigits: number
}

/** Zones as payloads use them: mostly `Z` and German time, sometimes other offsets (minutes east of UTC). */
const zone: fc.Arbitrary<{ readonly text: string; readonly minutes: number }> = oneof(
  { weight: 3, arbitrary: fc.constant({ text: "Z", minutes: 0 }) },
  { weight: 4, arbitrary: fc.constantFrom({ text: "+01:00", minutes: 60 }, { text: "+02:00", minutes: 120 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { text: "+00:00", minutes: 0 },
      { text: "-05:00", minutes: -300 },
      { text: "+05:30", minutes: 330 },
      { text: "-03:30", minutes: -210 },
      { text: "+14:00", minutes: 840 },
      { text: "-12:00", minutes: -720 }
    )
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

/** An instant: on a quarter hour (as meter data is), or any second. */
const instant: fc.Arbitrary<Instant> = fc.tuple(
  oneof(
    { weight: 2, arbitrary: fc.integer({ min: FIRST_SECOND / 900, max: Math.floor(LAST_SECOND / 900) }).map((q) => q * 900) },
    { weight: 1, arbitrary: fc.integer({ min: FIRST_SECOND, max: LAST_SECOND }) }
  ),
  fraction
).map(([seconds, f]) => ({ seconds, ...f }))

/** Writes an instant in a zone: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. */
export const formatInstant = (at: Instant, zoneText: string, zoneMinutes: number): string => {
  const local = wallClockOf(at.seconds + zoneMinutes * 60)
  const fractionText = at.fractionDigits === 0 ? "" : `.${String(at.nanos).padStart(9, "0").slice(0, at.fractionDigits)}`
  return `${local}${fractionText}${zoneText}`
}

/** A zoned datetime (`2024-10-01T00:00:00+02:00`, `2024-10-31T22:00:00Z`, `…T10:15:00.123-05:00`). */
export const isoDateTime: fc.Arbitrary<string> = fc.tuple(instant, zone)
  .map(([at, z]) => formatInstant(at, z.text, z.minutes))

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
  return [formatInstant(start, startZone.text, startZone.minutes), formatInstant(end, endZone.text, endZone.minutes)] as const
})
