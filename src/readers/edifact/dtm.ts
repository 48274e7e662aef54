/**
 * EDIFACT date/time values (DTM C507, format qualifier 2379) as ISO 8601 text in a time zone: `303`
 * (`CCYYMMDDHHMMZZZ`, `?+00` written as `+00`) and `304` (with seconds) name their own offset, and the
 * instant is written with the zone's offset at that instant (UTC `202203270100+00` → Berlin
 * `2022-03-27T03:00:00+02:00`); `203` (`CCYYMMDDHHMM`) and `102` (`CCYYMMDD`, midnight) are wall times of
 * the zone; `610` (`CCYYMM`) is a month. `2400` is the end of its day, `0000` of the next.
 *
 * @module
 */
import { resolveWallTime, type WallTimeResolver } from "../../mappers/field-source.js"
import { cachedOffsetSecondsAt, instantsFor, offsetFormatFor } from "../../schemas/zone-offsets.js"

const pad = (n: number): string => String(Math.abs(n)).padStart(2, "0")

const offsetText = (seconds: number): string => `${seconds < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(seconds) / 3600))}:${pad(Math.trunc((Math.abs(seconds) % 3600) / 60))}`

/** The instant written with the zone's offset at it. */
const inZone = (format: Intl.DateTimeFormat, instant: number): string => {
  const offset = cachedOffsetSecondsAt(format, instant)
  return `${new Date(instant + offset * 1000).toISOString().slice(0, 19)}${offsetText(offset)}`
}

/** The largest UTC offset a zone has (+14:00, Kiribati; the smallest is -12:00). */
const MAX_OFFSET_SECONDS = 14 * 3600

const VALUE = /^(\d+)([+-]\d{2}(?:\d{2})?)?$/u

/** The result: ISO text, or why not. */
export type DtmResult = { readonly ok: true; readonly iso: string } | { readonly ok: false; readonly detail: string }

/**
 * A DTM value as ISO text in `zone`.
 *
 * @example
 * dtmToIso("202203270100+00", "303", "Europe/Berlin") // => { ok: true, iso: "2022-03-27T03:00:00+02:00" }
 */
export const dtmToIso = (value: string, qualifier: string, zone: string): DtmResult => {
  const format = offsetFormatFor(zone)
  if (format === undefined) return { ok: false, detail: `unknown time zone ${JSON.stringify(zone)}` }
  if (qualifier === "610" && /^\d{6}$/u.test(value)) return { ok: true, iso: `${value.slice(0, 4)}-${value.slice(4, 6)}` }
  const lengths: Record<string, number> = { "102": 8, "203": 12, "303": 12, "304": 14 }
  const length = lengths[qualifier]
  if (length === undefined) return { ok: false, detail: `DTM format ${JSON.stringify(qualifier)} is not read (102, 203, 303, 304, 610 are)` }
  const zoned = qualifier === "303" || qualifier === "304"
  const m = VALUE.exec(value)
  if (m === null || m[1]!.length !== length || zoned !== (m[2] !== undefined)) {
    return { ok: false, detail: `${JSON.stringify(value)} is not a DTM value of format ${qualifier}` }
  }
  const digits = m[1]!
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((i) => Number(digits.slice(i, i + (i === 0 ? 4 : 2)) || "0")) as [number, number, number, number, number, number]
  // Not Date.UTC: it reads the years 0–99 as 1900–1999, and "0050" would become 1950.
  const back = new Date(0)
  back.setUTCFullYear(y, mo - 1, d)
  // 24:00 (exactly) is the end of the day: 00:00 of the next one, as ISO 8601 has it. The date is checked first.
  const endOfDay = h === 24 && mi === 0 && s === 0
  back.setUTCHours(endOfDay ? 0 : h, mi, s, 0)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || (h > 23 && !endOfDay) || mi > 59 || s > 59) return { ok: false, detail: `${JSON.stringify(value)} is not a calendar date and time` }
  const wall = back.getTime() + (endOfDay ? 24 * 3600 * 1000 : 0)
  if (zoned) {
    const z = m[2]!
    const minutes = Number(z.slice(3, 5) || "0")
    const offset = (z[0] === "-" ? -1 : 1) * (Number(z.slice(1, 3)) * 3600 + minutes * 60)
    // UTC offsets run from -12:00 to +14:00: anything else is damage, never an instant days away.
    if (minutes > 59 || Math.abs(offset) > MAX_OFFSET_SECONDS) return { ok: false, detail: `${JSON.stringify(value)} has the offset ${z}, which is not a UTC offset` }
    return { ok: true, iso: inZone(format, wall - offset * 1000) }
  }
  const instants = instantsFor(format, wall)
  if (instants.length !== 1) {
    return { ok: false, detail: `${JSON.stringify(value)} (format ${qualifier}, no zone) is ${instants.length === 0 ? "skipped" : "repeated"} by the clock change in ${zone}` }
  }
  return { ok: true, iso: inZone(format, instants[0]!) }
}

/** What a DTM of format 203 in the hour an autumn clock change repeats means, as the `datetime` converter's `ambiguous`. */
export const AMBIGUOUS = ["reject", "earlier", "later", "by-order"] as const

/** A value of {@link AMBIGUOUS}. */
export type Ambiguous = (typeof AMBIGUOUS)[number]

/**
 * A reader of DTM values of format 203 (no zone) that resolves the repeated autumn hour as `ambiguous`
 * says, by the `datetime` converter's own resolver (`resolveWallTime`, one for each DTM qualifier):
 * `"earlier"` or `"later"` for every value, or `"by-order"`: within a run of values of one qualifier
 * that fall in the repeated hour, the first occurrence of a wall time takes the earlier offset and its
 * repeat the later one; any other value ends the run. Make one for each message: a run never crosses
 * messages. `undefined` for a value read as {@link dtmToIso} reads it (`2400`, which ends a run, and a value
 * that is not 12 digits).
 *
 * @example
 * const read = repeatedHourReader("Europe/Berlin", "by-order")
 * read("202410270230", "163") // => "2024-10-27T02:30:00+02:00"
 * read("202410270230", "163") // => "2024-10-27T02:30:00+01:00"
 * read("202410270300", "163") // => "2024-10-27T03:00:00+01:00"
 */
export const repeatedHourReader = (zone: string, ambiguous: Exclude<Ambiguous, "reject">): ((value: string, qualifier: string) => string | undefined) => {
  const resolvers = new Map<string, WallTimeResolver>()
  return (value, qualifier) => {
    if (!/^\d{12}$/u.test(value)) return undefined
    // 24:00 is never repeated (no zone changes its clock at midnight into the day before): it ends a run.
    if (value.endsWith("2400")) {
      resolvers.get(qualifier)?.blank()
      return undefined
    }
    let resolver = resolvers.get(qualifier)
    if (resolver === undefined) {
      resolver = resolveWallTime({ format: "yyyy-MM-ddTHH:mm:ss", timeZone: zone, ambiguous })
      resolvers.set(qualifier, resolver)
    }
    const wall = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}T${value.slice(8, 10)}:${value.slice(10, 12)}:00`
    const result = resolver.convert(wall, {})
    // A value that cannot be read stays as written (as dtmToIso leaves it), so the payload's check rejects it.
    return result.ok ? result.value : value
  }
}
