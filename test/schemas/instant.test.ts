/**
 * Datetimes read as instants (`toInstant`, `compareDateTimes`, `isInstantInRange`) against JavaScript's
 * own calendar: the exact second and the fraction's digits, not only the order of two instants.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compareDateTimes, dateOfDay, dayOfDate, isInstantInRange, toInstant } from "../../src/schemas/instant.js"
import { calendarDate, referenceDay } from "../support/calendar.js"

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

interface Parts {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly fraction: string
  readonly offset: number | "Z"
}

const parts: fc.Arbitrary<Parts> = fc.record({
  year: fc.integer({ min: 1, max: 9999 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 59 }),
  fraction: fc.stringMatching(/^(?:\.[0-9]{1,12})?$/u),
  offset: fc.oneof(fc.constant("Z" as const), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }))
})

const text = (p: Parts): string => {
  const zone = p.offset === "Z" ? "Z" : `${p.offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(p.offset) / 60))}:${pad(Math.abs(p.offset) % 60)}`
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${p.fraction}${zone}`
}

/** Seconds since the epoch by JavaScript's calendar (`setUTCFullYear` takes the years 0-99 as written). */
const referenceSeconds = (p: Parts): number => {
  const date = new Date(0)
  date.setUTCFullYear(p.year, p.month - 1, p.day)
  date.setUTCHours(p.hour, p.minute, p.second, 0)
  return date.getTime() / 1000 - (p.offset === "Z" ? 0 : p.offset * 60)
}

describe("toInstant", () => {
  it("gives the second JavaScript's calendar gives, and the fraction's digits without trailing zeros", () => {
    fc.assert(fc.property(parts, (p) => {
      expect(toInstant(text(p))).toEqual({ seconds: referenceSeconds(p), fraction: p.fraction.slice(1).replace(/0+$/u, "") })
    }), { numRuns: 1000, seed: 15 })
  })

  it("reads the documented example", () => {
    expect(toInstant("1970-01-01T01:00:00.250+01:00")).toEqual({ seconds: 0, fraction: "25" })
    expect(toInstant("1970-01-01T00:00:00.000Z")).toEqual({ seconds: 0, fraction: "" })
    expect(toInstant("1970-01-01T00:00:00.0501-00:01")).toEqual({ seconds: 60, fraction: "0501" })
  })
})

describe("compareDateTimes", () => {
  it("is zero exactly for the same instant, however written, and otherwise orders by second, then fraction", () => {
    fc.assert(fc.property(parts, parts, (a, b) => {
      const [x, y] = [referenceSeconds(a), referenceSeconds(b)]
      const fa = a.fraction.slice(1).padEnd(12, "0")
      const fb = b.fraction.slice(1).padEnd(12, "0")
      const expected = x !== y ? Math.sign(x - y) : fa < fb ? -1 : fa > fb ? 1 : 0
      expect(Math.sign(compareDateTimes(text(a), text(b)))).toBe(expected)
    }), { numRuns: 1000, seed: 16 })
  })

  it("holds one instant written in two zones, or with trailing zeros, equal", () => {
    expect(compareDateTimes("2024-01-01T01:00:00+01:00", "2024-01-01T00:00:00Z")).toBe(0)
    expect(compareDateTimes("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.500000Z")).toBe(0)
    expect(compareDateTimes("2024-01-01T00:00:00.05Z", "2024-01-01T00:00:00.5Z")).toBeLessThan(0)
    expect(compareDateTimes("2024-01-01T00:00:01Z", "2024-01-01T00:00:00.999999999Z")).toBeGreaterThan(0)
    expect(compareDateTimes("0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z")).toBeLessThan(0)
  })

  it("reads the instants whenever the texts differ after the seconds, even where one text ends as the other does", () => {
    // "Z" ends both texts, but one has a fraction: as text "." sorts before "Z".
    expect(compareDateTimes("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00Z")).toBeGreaterThan(0)
    expect(compareDateTimes("2024-01-01T00:00:00Z", "2024-01-01T00:00:00.5Z")).toBeLessThan(0)
    // Same length, different zones: as text they are equal up to the zone.
    expect(compareDateTimes("2024-01-01T00:00:00+01:00", "2024-01-01T00:00:00+02:00")).toBeGreaterThan(0)
    // Same fraction and zone: the text's order.
    expect(compareDateTimes("2024-01-01T00:00:00.25+05:30", "2024-01-01T00:00:01.25+05:30")).toBeLessThan(0)
    expect(compareDateTimes("2024-01-01T00:00:01.25+05:30", "2024-01-01T00:00:01.25+05:30")).toBe(0)
  })
})

describe("dayOfDate and dateOfDay", () => {
  it("count the days as JavaScript's calendar does, and back, over the years 0001 to 9999", () => {
    fc.assert(fc.property(calendarDate, (text) => {
      expect(dayOfDate(text)).toBe(referenceDay(text))
      expect(dateOfDay(dayOfDate(text))).toBe(text)
    }), { numRuns: 3000 })
  })

  it("hold the first and last days of the 400-year cycle and of its centuries", () => {
    for (const text of ["0001-01-01", "2000-02-29", "2000-03-01", "2100-02-28", "2100-03-01", "2400-02-29", "2400-03-01", "9999-12-31"]) {
      expect(dateOfDay(referenceDay(text))).toBe(text)
    }
  })
})

describe("isInstantInRange", () => {
  it.each([
    ["0001-01-01T00:00:00Z", true],
    ["0001-01-01T00:00:00-00:01", true],
    ["0001-01-01T00:00:00+00:01", false],
    ["0001-01-01T00:59:59+01:00", false],
    ["9999-12-31T23:59:59.999999Z", true],
    ["9999-12-31T23:59:59+00:01", true],
    ["9999-12-31T23:59:59-00:01", false],
    ["9999-12-31T23:00:00-01:00", false],
    ["2024-06-01T12:00:00+02:00", true]
  ])("%s: %s", (datetime, expected) => {
    expect(isInstantInRange(datetime)).toBe(expected)
  })
})
