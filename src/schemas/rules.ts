/**
 * Cross-field rules shared by several resources, as Effect schema filters. Each failure is an issue with
 * its own stable `code`, reported at the field the contract names (the later field of a start/end pair).
 *
 * @module
 */
import { Schema, SchemaIssue } from "effect"
import { CROSS_FIELD_RULE, type CrossFieldRule } from "./conventions.js"

/** Builds an issue that carries a contract error code and a human-readable detail. */
export const codedIssue = (code: string, message: string, input?: unknown): SchemaIssue.Issue =>
  new SchemaIssue.InvalidValue({ code, message }, input)

/** An instant as whole seconds since the epoch plus a nine-digit fraction, so no precision is lost. */
interface Instant {
  readonly seconds: number
  readonly nanos: number
}

const DIGIT_0 = 48

/** The number written by the ASCII digits of `text` from `start` (inclusive) to `end` (exclusive). */
const digitsAt = (text: string, start: number, end: number): number => {
  let n = 0
  for (let i = start; i < end; i++) n = n * 10 + (text.charCodeAt(i) - DIGIT_0)
  return n
}

/**
 * Days from 1970-01-01 to a day of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
 * Integer arithmetic instead of `Date.UTC`: several times faster on the validation hot path, and exact
 * for the years 0000-0099, which `Date.UTC` would read as 1900-1999.
 */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

const toInstant = (datetime: string): Instant => {
  const local = daysFromCivil(digitsAt(datetime, 0, 4), digitsAt(datetime, 5, 7), digitsAt(datetime, 8, 10)) * 86_400 +
    digitsAt(datetime, 11, 13) * 3_600 + digitsAt(datetime, 14, 16) * 60 + digitsAt(datetime, 17, 19)
  let zoneAt = 19
  let nanos = 0
  if (datetime.charCodeAt(19) === 46 /* . */) {
    zoneAt = 20
    while (zoneAt < datetime.length && datetime.charCodeAt(zoneAt) >= DIGIT_0 && datetime.charCodeAt(zoneAt) <= DIGIT_0 + 9) zoneAt++
    nanos = Number(datetime.slice(20, zoneAt).padEnd(9, "0"))
  }
  const sign = datetime.charCodeAt(zoneAt) === 45 /* - */ ? -1 : 1
  const offsetMinutes = datetime.charCodeAt(zoneAt) === 90 /* Z */
    ? 0
    : sign * (digitsAt(datetime, zoneAt + 1, zoneAt + 3) * 60 + digitsAt(datetime, zoneAt + 4, zoneAt + 6))
  return { seconds: local - offsetMinutes * 60, nanos }
}

/**
 * Compares two well-formed ISO datetimes as instants (`2024-03-31T03:00:00+02:00` is before
 * `2024-03-31T02:30:00+01:00`). Returns a negative number, zero or a positive number.
 */
export const compareDateTimes = (a: string, b: string): number => {
  const x = toInstant(a)
  const y = toInstant(b)
  return x.seconds !== y.seconds ? x.seconds - y.seconds : x.nanos - y.nanos
}

/** Compares two well-formed `YYYY-MM-DD` dates. */
export const compareDates = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * A struct filter: when both keys are present, `start` must not be after `end`
 * (`start_date_later_than_end_date`, reported at the end key).
 */
export const startNotAfterEnd = <K extends string>(start: K, end: K, kind: "date" | "datetime") =>
  // Not expressible in JSON Schema: it compares two values (datetimes as instants, across offsets).
  Schema.makeFilter((value: { readonly [P in K]?: string | null | undefined }) => {
    const from = value[start]
    const to = value[end]
    if (typeof from !== "string" || typeof to !== "string") return undefined
    const order = kind === "date" ? compareDates(from, to) : compareDateTimes(from, to)
    return order <= 0
      ? undefined
      : {
        path: [end],
        issue: codedIssue("start_date_later_than_end_date", `${end} must not be earlier than ${start}.`, to)
      }
  }, {
    code: "start_date_later_than_end_date",
    [CROSS_FIELD_RULE]: { name: "start_date_later_than_end_date", fields: [start, end] } satisfies CrossFieldRule
  })
