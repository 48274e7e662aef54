/**
 * The rule that a transaction is not dated in the future, and the day it counts as "today": the one rule
 * of transactions that needs the clock.
 *
 * @module
 */
import type { CrossFieldRule } from "../conventions.js"
import { dateOfDay, dayOfDate } from "../instant.js"

/** The first instant of the year 10000: from there on, ISO text writes a year in six digits and a sign. */
const YEAR_10000 = Date.UTC(10_000, 0, 1)

/**
 * Whether a transaction date lies after "today". Today is the calendar date at UTC+14, the earliest time
 * zone, so a date that is already today anywhere on Earth is never reported as in the future. Without a
 * clock (an invalid `Date`) and from the year 10000 on, no four-digit date is.
 *
 * @example
 * isTransactionDateInFuture("2024-07-01", new Date("2024-06-30T10:00:00Z")) // => false
 * isTransactionDateInFuture("2024-07-02", new Date("2024-06-30T10:00:00Z")) // => true
 */
export const isTransactionDateInFuture = (date: string, now: Date): boolean => {
  const latest = now.getTime() + 14 * 3_600_000
  // Also false for NaN. Past the year 9999 the text "+010000-…" would sort before every date.
  if (!(latest < YEAR_10000)) return false
  // Stryker disable next-line MethodExpression: equivalent, a date equal to today's is a prefix of the full text and sorts before it, which is not after it either
  return date > new Date(latest).toISOString().slice(0, 10)
}

/**
 * A transaction is not dated after today (`transaction_in_future`). It needs the clock, so a schema cannot
 * check it: validation does, with its `now`.
 */
export const transactionInFuture = {
  name: "transaction_in_future",
  description: "`transaction_date` after today (the clock is an option).",
  fields: ["transaction_date"],
  clock: true,
  check: (t, { now }) => {
    const date = t.transaction_date
    return typeof date === "string" && isTransactionDateInFuture(date, now)
      ? [{ path: ["transaction_date"], code: "transaction_in_future", detail: `The transaction date ${date} is in the future.` }]
      : []
  },
  // a date far enough ahead to be in the future on any clock the kit's payloads are checked with (its
  // days stay below the year 10000, where no date is in the future any more)
  breaker: (t, variant) => {
    const date = dateOfDay(dayOfDate("2200-01-01") + variant * 97 % 200_000)
    return { value: { ...t, transaction_date: date }, at: ["transaction_date"], detail: `transaction_date is ${date}` }
  }
} as const satisfies CrossFieldRule<{ readonly transaction_date?: unknown }>
