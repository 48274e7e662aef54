/**
 * Cross-field rules shared by several resources, as Effect schema filters. Each failure is an issue with
 * its own stable `code`, reported at the field the contract names (the later field of a start/end pair).
 *
 * @module
 */
import { Schema, SchemaIssue } from "effect"

/** Builds an issue that carries a contract error code and a human-readable detail. */
export const codedIssue = (code: string, message: string, input?: unknown): SchemaIssue.Issue =>
  new SchemaIssue.InvalidValue({ code, message }, input)

/** An instant as whole seconds since the epoch plus a nine-digit fraction, so no precision is lost. */
interface Instant {
  readonly seconds: number
  readonly nanos: number
}

const toInstant = (datetime: string): Instant => {
  const seconds =
    Date.UTC(
      Number(datetime.slice(0, 4)),
      Number(datetime.slice(5, 7)) - 1,
      Number(datetime.slice(8, 10)),
      Number(datetime.slice(11, 13)),
      Number(datetime.slice(14, 16)),
      Number(datetime.slice(17, 19))
    ) / 1000
  const rest = datetime.slice(19)
  const fraction = rest.startsWith(".") ? /^\.(\d+)/u.exec(rest)?.[1] ?? "" : ""
  const zone = rest.slice(fraction.length === 0 ? 0 : fraction.length + 1)
  const offsetMinutes = zone === "Z"
    ? 0
    : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)))
  return { seconds: seconds - offsetMinutes * 60, nanos: Number(fraction.padEnd(9, "0")) }
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
  }, { code: "start_date_later_than_end_date" })
