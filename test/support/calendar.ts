/**
 * JavaScript's own proleptic Gregorian calendar as the reference of the tests of dates: `setUTCFullYear`
 * takes the years 0001-0099 as written (`Date.UTC` would read them as 1901-1999).
 */
import fc from "fast-check"

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, by JavaScript's calendar. */
export const referenceDay = (text: string): number => {
  const at = new Date(0)
  at.setUTCFullYear(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)))
  return at.getTime() / 86_400_000
}

/** A date the calendar has, `YYYY-MM-DD`, of the years 0001 to 9999 (29 February and the 31sts included). */
export const calendarDate: fc.Arbitrary<string> = fc
  .record({ y: fc.integer({ min: 1, max: 9999 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`)
  .filter((text) => {
    const at = new Date(referenceDay(text) * 86_400_000)
    return at.getUTCDate() === Number(text.slice(8, 10))
  })
