/**
 * `compareDateTimes` and `isCalendarDate` are on the validation hot path and compute with digits instead
 * of `Date.UTC` and `Number(slice)`: they must give the answers of the straightforward readings.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { CROSS_FIELD_RULE, isCalendarDate } from "../../src/schemas/conventions.js"
import { compareDateTimes } from "../../src/schemas/instant.js"
import { compareDates, ruleFilter, startNotAfterEndRule } from "../../src/schemas/rules.js"
import { issueToPathErrors } from "../../src/validation/issue-to-errors.js"
import { calendarDate, referenceDay } from "../support/calendar.js"

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** A well-formed ISO datetime with an optional fraction and a zone. */
const datetime = (minYear: number) =>
  fc.record({
    year: fc.integer({ min: minYear, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^\d{1,9}$/u), { nil: undefined }),
    zone: fc.oneof(fc.constant("Z"), fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`))
  }).map((d) =>
    `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}T${pad(d.hour, 2)}:${pad(d.minute, 2)}:${pad(d.second, 2)}` +
    `${d.fraction !== undefined ? `.${d.fraction}` : ""}${d.zone}`
  )

/** The reading the hot path replaced: Date.UTC, valid for the years 100 and later. */
const referenceInstant = (text: string): [number, number] => {
  const seconds = Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)),
    Number(text.slice(11, 13)), Number(text.slice(14, 16)), Number(text.slice(17, 19))) / 1000
  const fraction = /^\.(\d+)/u.exec(text.slice(19))?.[1] ?? ""
  const zone = text.slice(19 + (fraction === "" ? 0 : fraction.length + 1))
  const offset = zone === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)))
  return [seconds - offset * 60, Number(fraction.padEnd(9, "0"))]
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0)

describe("compareDateTimes", () => {
  it("orders datetimes as instants, as Date.UTC does for the years 100 to 9999", () => {
    fc.assert(fc.property(datetime(100), datetime(100), (a, b) => {
      const [x, xn] = referenceInstant(a)
      const [y, yn] = referenceInstant(b)
      expect(sign(compareDateTimes(a, b))).toBe(sign(x !== y ? x - y : xn - yn))
    }), { numRuns: 2000, seed: 3 })
  })

  it("compares across offsets and fractions", () => {
    expect(compareDateTimes("2024-03-31T03:00:00+02:00", "2024-03-31T02:30:00+01:00")).toBeLessThan(0)
    expect(compareDateTimes("2024-10-27T02:30:00+01:00", "2024-10-27T02:30:00+02:00")).toBeGreaterThan(0)
    expect(compareDateTimes("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.499999999Z")).toBeGreaterThan(0)
    expect(compareDateTimes("2024-01-01T01:00:00+01:00", "2024-01-01T00:00:00Z")).toBe(0)
  })

  it("reads the years 0000 to 0099 as such (Date.UTC would take them for 1900 to 1999)", () => {
    expect(compareDateTimes("0050-01-01T00:00:00Z", "1949-01-01T00:00:00Z")).toBeLessThan(0)
    expect(compareDateTimes("0099-12-31T23:59:59Z", "0100-01-01T00:00:00Z")).toBeLessThan(0)
    expect(compareDateTimes("0000-03-01T00:00:00Z", "0000-02-29T00:00:00Z")).toBeGreaterThan(0)
  })
})

describe("compareDates", () => {
  it("gives -1, 0 or 1 as the first date is before, on or after the second", () => {
    fc.assert(fc.property(calendarDate, calendarDate, (a, b) => {
      expect(compareDates(a, b)).toBe(sign(referenceDay(a) - referenceDay(b)))
      expect(compareDates(a, a)).toBe(0)
    }), { numRuns: 1000 })
    expect(compareDates("2024-01-31", "2024-02-01")).toBe(-1)
    expect(compareDates("2024-02-01", "2024-01-31")).toBe(1)
    expect(compareDates("2024-02-01", "2024-02-01")).toBe(0)
  })
})

describe("ruleFilter", () => {
  const Pair = Schema.Struct({ a: Schema.Number })
  const alwaysFinds = { path: ["a"], code: "always", detail: "always found" }

  it("reports a rule's findings, and takes what it finds nothing in", () => {
    const rule = { name: "a_positive", description: "`a` not positive.", fields: ["a"], check: (v: { readonly a: number }) => (v.a > 0 ? [] : [{ ...alwaysFinds, code: "a_not_positive" }]) }
    const schema = Pair.check(ruleFilter(rule))
    expect(Schema.is(schema)({ a: 1 })).toBe(true)
    const result = Schema.decodeUnknownResult(schema)({ a: 0 })
    expect(result._tag === "Failure" ? issueToPathErrors(result.failure.issue, { a: 0 }).map((e) => [e.path.join("."), e.code, e.detail]) : [])
      .toEqual([["a", "a_not_positive", "always found"]])
  })

  it("passes a rule that needs the clock without running it: a schema has no clock", () => {
    let runs = 0
    const rule = { name: "clocked", description: "Reads the clock.", fields: ["a"], clock: true as const, check: () => (runs++, [alwaysFinds]) }
    expect(Schema.is(Pair.check(ruleFilter(rule)))({ a: 1 })).toBe(true)
    expect(runs).toBe(0)
  })

  it("runs a rule without the clock with an unknown time, never the time of the day", () => {
    const seen: Array<number> = []
    const rule = { name: "reads_now", description: "Reads the time.", fields: ["a"], check: (_: unknown, options: { readonly now: Date }) => (seen.push(options.now.getTime()), []) }
    expect(Schema.is(Pair.check(ruleFilter(rule)))({ a: 1 })).toBe(true)
    expect(seen).toEqual([Number.NaN])
  })
})

describe("startNotAfterEndRule, as a schema filter", () => {
  const pair = (kind: "date" | "datetime") =>
    Schema.Struct({ from: Schema.optionalKey(Schema.NullOr(Schema.String)), to: Schema.optionalKey(Schema.NullOr(Schema.String)) })
      .check(ruleFilter(startNotAfterEndRule("from", "to", kind)))
  const codes = (kind: "date" | "datetime", value: unknown): Array<string> => {
    const result = Schema.decodeUnknownResult(pair(kind))(value)
    return result._tag === "Success" ? [] : issueToPathErrors(result.failure.issue, value).map((e) => `${toAttrText(e.path)}:${e.code}`)
  }
  const toAttrText = (path: ReadonlyArray<string | number>): string => path.join(".")

  it("refuses a start after the end at the end's key, and takes equal or ordered ones", () => {
    expect(codes("date", { from: "2024-02-01", to: "2024-01-31" })).toEqual(["to:start_date_later_than_end_date"])
    expect(codes("date", { from: "2024-02-01", to: "2024-02-01" })).toEqual([])
    expect(codes("date", { from: "2024-01-31", to: "2024-02-01" })).toEqual([])
    expect(codes("datetime", { from: "2024-01-01T01:00:00+01:00", to: "2024-01-01T00:00:00Z" })).toEqual([])
    expect(codes("datetime", { from: "2024-01-01T01:00:01+01:00", to: "2024-01-01T00:00:00Z" })).toEqual(["to:start_date_later_than_end_date"])
  })

  it("leaves a pair alone while either side is missing or null", () => {
    for (const kind of ["date", "datetime"] as const) {
      for (const value of [{}, { from: "2024-02-01" }, { to: "2024-01-01" }, { from: null, to: "2024-01-01" }, { from: "2024-02-01", to: null }]) {
        expect(codes(kind, value)).toEqual([])
      }
    }
  })

  it("declares its rule for the tools that look for it", () => {
    const check = ruleFilter(startNotAfterEndRule("from", "to", "date"))
    expect(check.annotations).toMatchObject({
      [CROSS_FIELD_RULE]: { name: "start_date_later_than_end_date", fields: ["from", "to"] }
    })
  })
})

describe("isCalendarDate", () => {
  const reference = (text: string): boolean => {
    const year = Number(text.slice(0, 4))
    const month = Number(text.slice(5, 7))
    const day = Number(text.slice(8, 10))
    const days = month === 2 ? ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
    return month >= 1 && month <= 12 && day >= 1 && day <= days
  }

  it("answers as the reading with Number(slice) on dates and on any other text", () => {
    const dateLike = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.string({ maxLength: 12 }))
      .map(([y, m, d, rest]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${rest}`)
    fc.assert(fc.property(fc.oneof(dateLike, fc.string({ maxLength: 14 })), (text) => {
      expect(isCalendarDate(text)).toBe(reference(text))
    }), { numRuns: 3000, seed: 5 })
  })

  it("knows leap years", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true)
    expect(isCalendarDate("2023-02-29")).toBe(false)
    expect(isCalendarDate("1900-02-29")).toBe(false)
    expect(isCalendarDate("2000-02-29")).toBe(true)
    expect(isCalendarDate("2024-04-31T00:00:00Z")).toBe(false)
  })
})
