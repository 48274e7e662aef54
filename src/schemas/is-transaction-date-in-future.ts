/**
 * Whether a transaction date lies after "today", the rule `transaction_in_future` of the transactions
 * request.
 *
 * @module
 */

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
