import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toIsoDate } from "../../src/mappers/to-iso-date.js"
import { expectOwnAnswer } from "../support/conversions.js"

const failsWith = (code: string) => ({ ok: false, error: { code } })

const pad = (value: number, width: number): string => String(value).padStart(width, "0")

/** Days in a month according to the JS Date calendar (day 0 of the next month). */
const daysInMonth = (year: number, month: number): number => {
  const date = new Date(0)
  date.setUTCFullYear(year, month, 0)
  return date.getUTCDate()
}

describe("toIsoDate: text", () => {
  it.each([
    ["05.03.2024", "2024-03-05"],
    ["20240305", "2024-03-05"],
    ["2024-03-05", "2024-03-05"],
    [" 05.03.2024\t", "2024-03-05"],
    ["29.02.2024", "2024-02-29"],
    ["29.02.2000", "2000-02-29"],
    ["31.12.9999", "9999-12-31"],
    ["01.01.0001", "0001-01-01"],
    // Years below 100 are where Date.UTC would silently add 1900.
    ["07.06.0005", "0005-06-07"],
    ["29.02.0004", "0004-02-29"]
  ])("%j -> %s", (input, expected) => {
    expect(toIsoDate(input)).toEqual({ ok: true, value: expected })
  })

  it.each(["31.02.2024", "29.02.2023", "29.02.1900", "31.04.2024", "00.01.2024", "01.00.2024", "01.13.2024", "00000000", "01.01.0000", "2024-02-30"])(
    "refuses the impossible day %j",
    (input) => {
      expect(toIsoDate(input)).toMatchObject(failsWith("invalid_date"))
    }
  )

  it.each(["5.3.2024", "05.3.2024", "2024-3-5", "05/03/2024", "05.03.24", "2024030", "05.03.2024 10:00", "2024-03-05T00:00:00Z", "０５.０３.２０２４", "heute"])(
    "refuses the shape %j",
    (input) => {
      expect(toIsoDate(input)).toMatchObject(failsWith("invalid"))
    }
  )

  it("reports blank text separately", () => {
    expect(toIsoDate("")).toMatchObject(failsWith("blank"))
    expect(toIsoDate("   ")).toMatchObject(failsWith("blank"))
  })

  it("accepts only the requested format when one is given", () => {
    expect(toIsoDate("2024-03-05", { format: "dd.MM.yyyy" })).toMatchObject(failsWith("invalid"))
    expect(toIsoDate("05.03.2024", { format: "yyyyMMdd" })).toMatchObject(failsWith("invalid"))
    expect(toIsoDate("20240305", { format: "yyyyMMdd" })).toEqual({ ok: true, value: "2024-03-05" })
    expect(toIsoDate("05.03.2024", { format: "d.M.yyyy" as "dd.MM.yyyy" })).toMatchObject(failsWith("invalid_option"))
  })
})

describe("toIsoDate: Date objects", () => {
  it("uses the UTC calendar day", () => {
    expect(toIsoDate(new Date("2024-03-05T00:00:00Z"))).toEqual({ ok: true, value: "2024-03-05" })
    expect(toIsoDate(new Date("2024-03-05T23:59:59.999Z"))).toEqual({ ok: true, value: "2024-03-05" })
    // Local midnight in Berlin is still the previous day in UTC.
    expect(toIsoDate(new Date("2024-03-06T00:00:00+01:00"))).toEqual({ ok: true, value: "2024-03-05" })
    expect(toIsoDate(new Date("2024-03-05T23:30:00-02:00"))).toEqual({ ok: true, value: "2024-03-06" })
  })

  it("handles small and out-of-range years", () => {
    expect(toIsoDate(new Date("0005-06-07T12:00:00Z"))).toEqual({ ok: true, value: "0005-06-07" })
    expect(toIsoDate(new Date("+010000-01-01T00:00:00Z"))).toMatchObject(failsWith("out_of_range"))
    expect(toIsoDate(new Date("-000001-12-31T00:00:00Z"))).toMatchObject(failsWith("out_of_range"))
  })

  it("refuses invalid Dates and other types", () => {
    expect(toIsoDate(new Date(Number.NaN))).toMatchObject(failsWith("invalid"))
    expect(toIsoDate(20240305)).toMatchObject(failsWith("invalid"))
    expect(toIsoDate(null)).toMatchObject(failsWith("invalid"))
    expect(toIsoDate({ year: 2024, month: 3, day: 5 })).toMatchObject(failsWith("invalid"))
  })
})

describe("toIsoDate: properties", () => {
  const dateArb = fc.date({
    min: new Date("0001-01-01T00:00:00Z"),
    max: new Date("9999-12-31T23:59:59.999Z"),
    noInvalidDate: true
  })

  it("reads every real day back in all three formats", () => {
    fc.assert(
      fc.property(dateArb, (date) => {
        const expected = date.toISOString().slice(0, 10)
        const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
        const german = `${pad(day, 2)}.${pad(month, 2)}.${pad(year, 4)}`
        const compact = `${pad(year, 4)}${pad(month, 2)}${pad(day, 2)}`
        const iso = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`
        expect(toIsoDate(german)).toEqual({ ok: true, value: expected })
        expect(toIsoDate(german, { format: "dd.MM.yyyy" })).toEqual({ ok: true, value: expected })
        expect(toIsoDate(compact)).toEqual({ ok: true, value: expected })
        expect(toIsoDate(compact, { format: "yyyyMMdd" })).toEqual({ ok: true, value: expected })
        expect(toIsoDate(iso)).toEqual({ ok: true, value: expected })
        expect(toIsoDate(iso, { format: "yyyy-MM-dd" })).toEqual({ ok: true, value: expected })
        expect(toIsoDate(date)).toEqual({ ok: true, value: expected })
      }),
      { seed: 31, numRuns: 3000 }
    )
  })

  it("accepts a day exactly when the month has it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const text = `${pad(day, 2)}.${pad(month, 2)}.${pad(year, 4)}`
          if (day <= daysInMonth(year, month)) {
            expect(toIsoDate(text)).toEqual({ ok: true, value: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` })
          } else {
            expect(toIsoDate(text)).toMatchObject(failsWith("invalid_date"))
            expect(toIsoDate(`${pad(year, 4)}${pad(month, 2)}${pad(day, 2)}`)).toMatchObject(failsWith("invalid_date"))
          }
        }
      ),
      { seed: 1902, numRuns: 5000 }
    )
  })

  it("refuses every impossible day", () => {
    const impossible = fc
      .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 3 }))
      .map(([year, month, extra]) => ({ year, month, day: daysInMonth(year, month) + 1 + extra }))
      .filter(({ day }) => day <= 99)
    fc.assert(
      fc.property(impossible, ({ year, month, day }) => {
        expect(toIsoDate(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`)).toMatchObject(failsWith("invalid_date"))
      }),
      { seed: 4, numRuns: 1000 }
    )
  })

  it("never throws, whatever the input and options", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withNullPrototype: true, withBoxedValues: true }), fc.anything(), (value, options) => {
        const isIsoDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/u.test(text)
        const codes = ["blank", "invalid", "invalid_date", "out_of_range"]
        expectOwnAnswer(toIsoDate(value), codes, isIsoDate)
        expectOwnAnswer(toIsoDate(value, options as never), [...codes, "invalid_option"], isIsoDate)
      }),
      { seed: 8, numRuns: 10_000 }
    )
  })
})

describe("toIsoDate: each refusal says what it refused", () => {
  it.each<[string, unknown, Record<string, unknown> | undefined, unknown]>([
    ["an unknown format", "01.10.2024", { format: "MM/dd/yyyy" }, { code: "invalid_option", detail: 'unknown format "MM/dd/yyyy"' }],
    ["an invalid Date", new Date(Number.NaN), undefined, { code: "invalid", detail: "invalid Date" }],
    ["a Date after 9999", new Date(Date.UTC(10000, 0, 1)), undefined, { code: "out_of_range", detail: "+010000-01-01T00:00:00.000Z is outside the years 0001-9999" }],
    ["a number", 20241001, undefined, { code: "invalid", detail: "expected a date string or Date, got 20241001" }],
    ["a blank string", "  ", undefined, { code: "blank", detail: "expected a date, got a blank string" }],
    ["a day the month does not have", "31.02.2024", undefined, { code: "invalid_date", detail: '"31.02.2024" is not a day of the calendar' }],
    ["another layout than the one asked for", "2024-10-01", { format: "dd.MM.yyyy" }, { code: "invalid", detail: '"2024-10-01" is not a date in an accepted format (configured format: dd.MM.yyyy; accepted: dd.MM.yyyy, yyyyMMdd, yyyy-MM-dd)' }],
    ["no layout at all", "1.10.2024", undefined, { code: "invalid", detail: '"1.10.2024" is not a date in an accepted format (no format configured; accepted: dd.MM.yyyy, yyyyMMdd, yyyy-MM-dd)' }]
  ])("%s", (_, value, options, error) => {
    expect(toIsoDate(value, options as never)).toEqual({ ok: false, error })
  })

  it("reads a Date by its UTC day and pads small years", () => {
    expect(toIsoDate(new Date(Date.UTC(2024, 1, 29, 23, 59)))).toEqual({ ok: true, value: "2024-02-29" })
    expect(toIsoDate("01.01.0001")).toEqual({ ok: true, value: "0001-01-01" })
    expect(toIsoDate("09990102", { format: "yyyyMMdd" })).toEqual({ ok: true, value: "0999-01-02" })
    expect(toIsoDate("00000101")).toMatchObject({ ok: false, error: { code: "invalid_date" } })
  })

  it("reads a layout only when it is the whole text", () => {
    for (const text of ["x01.10.2024", "01.10.20245", "x20241001", "202410011", "x2024-10-01", "2024-10-011"]) {
      expect(toIsoDate(text), text).toMatchObject({ ok: false, error: { code: "invalid" } })
    }
  })
})
