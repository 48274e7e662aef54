/**
 * Cross-field rules shared by several resources, as Effect schema filters. Each failure is an issue with
 * its own stable `code`, reported at the field the contract names (the later field of a start/end pair).
 *
 * @module
 */
import { Schema, SchemaIssue } from "effect"
import { CROSS_FIELD_RULE, type CrossFieldRule } from "./conventions.js"
import { compareDateTimes } from "./instant.js"

export { compareDateTimes }

/** Builds an issue that carries a contract error code and a human-readable detail. */
export const codedIssue = (code: string, message: string, input?: unknown): SchemaIssue.Issue =>
  new SchemaIssue.InvalidValue({ code, message }, input)

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
