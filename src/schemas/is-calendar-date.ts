/**
 * Whether a date names a day of the calendar.
 *
 * @module
 */

// Stryker disable next-line Regex: equivalent, it only picks the fast path, which gives the general reading's answers for every well-formed date (the only input)
const WELL_FORMED_DATE_PREFIX = /^[0-9]{4}-[0-9]{2}-[0-9]{2}/u

/**
 * The days of a month (1-12) of a year of the proleptic Gregorian calendar: the one place of its leap rule,
 * for the schemas' dates and the mappers' converters alike.
 *
 * @example
 * daysInMonth(2024, 2) // => 29
 * daysInMonth(1900, 2) // => 28
 * daysInMonth(2023, 4) // => 30
 */
export const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
    : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** Whether the `YYYY-MM-DD` prefix of a well-formed date or datetime names a day that exists. */
export const isCalendarDate = (text: string): boolean => {
  // Digit arithmetic first: this runs for every date of every payload. Any other text takes the
  // general reading below, with the same answers.
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, a fast path with the same answers (the tests compare both readings)
  if (WELL_FORMED_DATE_PREFIX.test(text)) {
    const digit = (i: number): number => text.charCodeAt(i) - 48
    const month = digit(5) * 10 + digit(6)
    const day = digit(8) * 10 + digit(9)
    // Stryker disable next-line ArithmeticOperator: equivalent, only the year's leap-ness counts, which these sign changes keep for every year 0000-9999 (checked by brute force)
    const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
    return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
  }
  const year = Number(text.slice(0, 4))
  const month = Number(text.slice(5, 7))
  const day = Number(text.slice(8, 10))
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}
