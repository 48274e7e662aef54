/**
 * Natural keys as people read and write them: the instants of a key (kept as `@<seconds>` in a ledger) in
 * wall time of the campaign's zone with its offset, or in UTC; and the one form a key is compared in,
 * whichever of those spellings it was given in.
 *
 * @module
 */
import { offsetFormatFor, cachedOffsetSecondsAt } from "../zone-offsets.js"
import { ISO_DATETIME_RE } from "../patterns.js"
import { toInstant, wallClockOf } from "../instant.js"

/** The zone of the wall times of key texts: the zone of the German energy market's exports. */
export const KEY_ZONE = "Europe/Berlin"

/** An instant as a ledger keeps it in a key: `@` and the seconds since the epoch, with a fraction. */
const AT_INSTANT = /^@(-?\d+)(?:\.(\d+))?$/u

const offsetText = (seconds: number): string => {
  const sign = seconds < 0 ? "-" : "+"
  const magnitude = Math.abs(seconds)
  return `${sign}${String(Math.floor(magnitude / 3600)).padStart(2, "0")}:${String(Math.floor((magnitude % 3600) / 60)).padStart(2, "0")}`
}

/**
 * An instant (whole seconds since the epoch and a fraction's digits) in wall time of {@link KEY_ZONE}, with
 * its offset, and in UTC.
 *
 * @example
 * instantTexts(1730020500, "") // => { wall: "2024-10-27T10:15:00+01:00", utc: "2024-10-27T09:15:00Z" }
 * instantTexts(1727733600, "25").wall // => "2024-10-01T00:00:00.25+02:00"
 */
export const instantTexts = (seconds: number, fraction: string): { readonly wall: string; readonly utc: string } => {
  const offset = cachedOffsetSecondsAt(offsetFormatFor(KEY_ZONE)!, seconds * 1000)
  const tail = fraction === "" ? "" : `.${fraction}`
  return { wall: `${wallClockOf(seconds + offset)}${tail}${offsetText(offset)}`, utc: `${wallClockOf(seconds)}${tail}Z` }
}

/** A key value's instant: from the ledger's `@<seconds>` or an ISO datetime; `undefined` for any other value. */
const instantOf = (value: unknown): { readonly seconds: number; readonly fraction: string } | undefined => {
  if (typeof value !== "string") return undefined
  const at = AT_INSTANT.exec(value)
  if (at !== null) return { seconds: Number(at[1]), fraction: at[2] ?? "" }
  return ISO_DATETIME_RE.test(value) ? toInstant(value) : undefined
}

const parseKey = (text: string): ReadonlyArray<unknown> | undefined => {
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * A ledger's key (JSON text of its values) with its instants in wall time of {@link KEY_ZONE} and in UTC.
 *
 * @example
 * keyTexts('["energy-amount","S","A","51238696781","@1727733600"]')
 * // => { wall: '["energy-amount","S","A","51238696781","2024-10-01T00:00:00+02:00"]', utc: '["energy-amount","S","A","51238696781","2024-09-30T22:00:00Z"]' }
 */
export const keyTexts = (key: string): { readonly wall: string; readonly utc: string } => {
  const values = parseKey(key) ?? [key]
  const texts = values.map((value) => {
    const at = typeof value === "string" && AT_INSTANT.test(value) ? instantOf(value) : undefined
    return at === undefined ? { wall: value, utc: value } : instantTexts(at.seconds, at.fraction)
  })
  return { wall: JSON.stringify(texts.map((t) => t.wall)), utc: JSON.stringify(texts.map((t) => t.utc)) }
}

/**
 * The form keys are compared in: JSON text with every instant (`@<seconds>`, or a datetime with any offset)
 * in UTC; `undefined` for a text that is no key (no JSON array).
 *
 * @example
 * comparableKey('["notes","S","A","Call back","2024-05-01T12:00:00+02:00"]') === comparableKey('["notes","S","A","Call back","@1714557600"]')
 * // => true
 * comparableKey("KD-1") // => undefined
 */
export const comparableKey = (text: string): string | undefined => {
  const values = parseKey(text)
  if (values === undefined) return undefined
  return JSON.stringify(values.map((value) => {
    const instant = instantOf(value)
    return instant === undefined ? value : instantTexts(instant.seconds, instant.fraction).utc
  }))
}
