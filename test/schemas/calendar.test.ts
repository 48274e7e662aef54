/**
 * The calendar of the schemas (`isCalendarDate`, `daysFromCivil`) against an independent reference over
 * every year 0001-9999: JavaScript's own proleptic Gregorian calendar (`Date#setUTCFullYear`, which takes
 * the years 0-99 as written), not a days-in-month formula like the implementation's.
 */
import { describe, expect, it } from "vitest"
import { isCalendarDate } from "../../src/schemas/conventions.js"
import { daysFromCivil } from "../../src/schemas/instant.js"

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

const MS_PER_DAY = 86_400_000

/** The UTC midnight JavaScript's calendar gives the year, month (1-12, or beyond, rolling over) and day. */
const referenceDate = (year: number, month: number, day: number): Date => {
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date
}

const referenceExists = (year: number, month: number, day: number): boolean => {
  const date = referenceDate(year, month, day)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const YEARS = Array.from({ length: 9999 }, (_, i) => i + 1)

describe("isCalendarDate over the years 0001-9999", () => {
  it("agrees with JavaScript's calendar on the last day of every month and the day after it", () => {
    const mismatches: Array<string> = []
    let checked = 0
    for (const year of YEARS) {
      for (let month = 1; month <= 12; month++) {
        // Day 0 of the next month is the last day of this one.
        const last = referenceDate(year, month + 1, 0).getUTCDate()
        const prefix = `${pad(year, 4)}-${pad(month, 2)}-`
        if (!isCalendarDate(`${prefix}${pad(last, 2)}`)) mismatches.push(`${prefix}${pad(last, 2)}`)
        if (isCalendarDate(`${prefix}${pad(last + 1, 2)}T00:00:00Z`)) mismatches.push(`${prefix}${pad(last + 1, 2)}`)
        if (isCalendarDate(`${prefix}00`) || !isCalendarDate(`${prefix}01`)) mismatches.push(`${prefix}00/01`)
        checked++
      }
      const y = pad(year, 4)
      if (isCalendarDate(`${y}-00-01`) || isCalendarDate(`${y}-13-01`)) mismatches.push(`${y}-00/13`)
    }
    expect(mismatches.slice(0, 10)).toEqual([])
    expect(checked).toBe(9999 * 12)
  })

  it("agrees with JavaScript's calendar on every day number 00-32 of every month of four-century samples", () => {
    const mismatches: Array<string> = []
    for (const year of [1, 4, 99, 100, 400, 1900, 2000, 2023, 2024, 9996, 9999]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`
          if (isCalendarDate(text) !== referenceExists(year, month, day)) mismatches.push(text)
        }
      }
    }
    expect(mismatches).toEqual([])
  })

  it("reads text that is not a zero-padded prefix (a space-padded year) as the same day, by the general reading", () => {
    const mismatches: Array<string> = []
    for (const year of [1, 4, 99, 100, 200, 400, 999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${String(year).padStart(4, " ")}-${pad(month, 2)}-${pad(day, 2)}`
          if (isCalendarDate(text) !== referenceExists(year, month, day)) mismatches.push(text)
        }
      }
    }
    expect(mismatches).toEqual([])
  })

  it("counts 97 leap days in every 400 years and 365 or 366 days in every year", () => {
    const leapYears = YEARS.filter((year) => isCalendarDate(`${pad(year, 4)}-02-29`))
    expect(leapYears.filter((year) => year <= 400)).toHaveLength(97)
    expect(leapYears.filter((year) => year > 2000 && year <= 2400)).toHaveLength(97)
    expect(leapYears).toEqual(YEARS.filter((year) => referenceExists(year, 2, 29)))
  })

  it("refuses the 31st of the four short months in every year, and takes it in the seven long ones", () => {
    for (const year of [1, 99, 100, 1900, 2024, 9999]) {
      const thirtyFirsts = Array.from({ length: 12 }, (_, i) => i + 1).filter((month) => isCalendarDate(`${pad(year, 4)}-${pad(month, 2)}-31`))
      expect(thirtyFirsts).toEqual([1, 3, 5, 7, 8, 10, 12])
    }
  })
})

describe("daysFromCivil over the years 0001-9999", () => {
  it("gives the days since 1970-01-01 of the first of every month, as JavaScript's calendar counts them", () => {
    const mismatches: Array<string> = []
    for (const year of YEARS) {
      for (let month = 1; month <= 12; month++) {
        const expected = referenceDate(year, month, 1).getTime() / MS_PER_DAY
        if (daysFromCivil(year, month, 1) !== expected) mismatches.push(`${pad(year, 4)}-${pad(month, 2)}`)
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([])
    expect(daysFromCivil(1970, 1, 1)).toBe(0)
  })

  it("counts every day of the year 0001, a leap year's February and the year 9999 one after another", () => {
    for (const [year, month] of [[1, 1], [4, 2], [2000, 2], [1900, 2], [9999, 12]] as const) {
      for (let day = 1; day <= 31; day++) {
        expect(daysFromCivil(year, month, day)).toBe(referenceDate(year, month, day).getTime() / MS_PER_DAY)
      }
    }
  })
})
