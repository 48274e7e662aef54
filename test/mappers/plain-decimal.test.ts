import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { plainDecimal } from "../../src/mappers/plain-decimal.js"
import { decimalStringConverter, toDecimalString } from "../../src/mappers/to-decimal-string.js"

const LOCALES = {
  de: { decimal: ",", group: ".", codes: [44, 46] },
  en: { decimal: ".", group: ",", codes: [46, 44] }
} as const

/** Text made of the characters an amount is written with, and a few that it is not. */
const amountLike = fc.string({ unit: fc.constantFrom("0", "1", "5", "9", ".", ",", "-", "+", " ", "e", "\u00a0"), maxLength: 14 })

/** A well-formed amount: digits (leading zeros allowed when not grouped), grouped by threes or not, a fraction or not, a sign or not. */
const wellFormed = fc.record({
  negative: fc.boolean(),
  integer: fc.bigInt({ min: 0n, max: 10n ** 20n }),
  zeros: fc.integer({ min: 0, max: 3 }),
  grouped: fc.boolean(),
  fraction: fc.option(fc.stringMatching(/^\d{1,6}$/u), { nil: undefined })
})

describe("plainDecimal", () => {
  it("reads documented cases", () => {
    expect(plainDecimal("1.234,56", 44, 46)).toBe("1234.56")
    expect(plainDecimal("-0,00", 44, 46)).toBe("0.00")
    expect(plainDecimal("-0,01", 44, 46)).toBe("-0.01")
    expect(plainDecimal("0007", 44, 46)).toBe("7")
    expect(plainDecimal("1,234.5", 46, 44)).toBe("1234.5")
    expect(plainDecimal("12.345.678", 44, 46)).toBe("12345678")
    // A group separator after the decimal one is no plain amount.
    expect(plainDecimal("1,234.567", 44, 46)).toBeUndefined()
    expect(plainDecimal("1.234,567", 46, 44)).toBeUndefined()
    expect(plainDecimal("1,2.345", 44, 46)).toBeUndefined()
    // A decimal comma before three digits is a fraction, never a grouping.
    expect(plainDecimal("12,345", 44, 46)).toBe("12.345")
    expect(plainDecimal("-1.000,001", 44, 46)).toBe("-1000.001")
  })

  it("leaves to the general reading what is not a plain amount", () => {
    for (const text of ["", "-", ",5", "5,", "1.23", "1.2345", "0.123", "1..234", "1,2,3", "+1", "1-", " 1", "1,5.000", "1.234.56", "١٢", ".500", "-.500", "1234.567", "0.123.456", "12a", "1.2a4", "1.2.345", "1.23.456"]) {
      expect(plainDecimal(text, 44, 46), text).toBeUndefined()
    }
  })

  for (const [name, { decimal, group, codes }] of Object.entries(LOCALES)) {
    it(`${name}: every well-formed amount is read, to its value`, () => {
      fc.assert(
        fc.property(wellFormed, ({ negative, integer, zeros, grouped, fraction }) => {
          const digits = grouped ? integer.toString().replace(/\B(?=(\d{3})+(?!\d))/gu, group) : `${"0".repeat(zeros)}${integer}`
          const text = `${negative ? "-" : ""}${digits}${fraction !== undefined ? `${decimal}${fraction}` : ""}`
          const isZero = integer === 0n && !/[1-9]/u.test(fraction ?? "")
          const expected = `${negative && !isZero ? "-" : ""}${integer}${fraction !== undefined ? `.${fraction}` : ""}`
          expect(plainDecimal(text, codes[0], codes[1])).toBe(expected)
        }),
        { numRuns: 2000 }
      )
    })

    it(`${name}: whatever it reads, toDecimalString reads alike`, () => {
      let drawn = 0
      let read = 0
      fc.assert(
        fc.property(fc.oneof(amountLike, fc.string()), (text) => {
          drawn++
          const plain = plainDecimal(text, codes[0], codes[1])
          if (plain === undefined) return
          read++
          expect(toDecimalString(text, { locale: name as "de" | "en" })).toEqual({ ok: true, value: plain })
        }),
        { numRuns: 5000 }
      )
      // Counted against the inputs drawn (a mutation run tries fewer): about one text in twenty is a plain amount.
      expect(read).toBeGreaterThan(drawn / 50)
    })
  }
})

describe("decimalStringConverter", () => {
  const options = fc.record(
    {
      locale: fc.constantFrom("de", "en", "plain", "auto", "fr"),
      scale: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(-1)),
      rounding: fc.constantFrom("half-even", "half-up", "up")
    },
    { requiredKeys: [] }
  )
  const value = fc.oneof(amountLike, fc.string(), fc.double(), fc.integer(), fc.bigInt(), fc.constant(null), fc.constant(undefined))

  it("gives toDecimalString's answer for any options and value", () => {
    fc.assert(
      fc.property(options, fc.array(value, { minLength: 1, maxLength: 5 }), (opts, values) => {
        const convert = decimalStringConverter(opts as never)
        for (const v of values) expect(convert(v)).toEqual(toDecimalString(v, opts as never))
      }),
      { numRuns: 3000 }
    )
  })

  it.each<[Record<string, unknown> | undefined, unknown, unknown]>([
    // Where the two locales read the same text differently, and options that leave the plain reading out.
    [{ locale: "en" }, "1.234", { ok: true, value: "1.234" }],
    [{ locale: "de" }, "1.234", { ok: true, value: "1234" }],
    [{ locale: "en" }, "1,234", { ok: true, value: "1234" }],
    [{ locale: "de" }, "1,234", { ok: true, value: "1.234" }],
    [{ locale: "plain" }, "-0012.340", { ok: true, value: "-12.340" }],
    [{ locale: "plain" }, "1,234", { ok: false, error: expect.objectContaining({ code: "invalid" }) }],
    [{ locale: "de", scale: 2 }, "1,235", { ok: true, value: "1.24" }],
    [{ locale: "de", scale: 2, rounding: "half-up" }, "1,225", { ok: true, value: "1.23" }],
    [{ locale: "de", rounding: "up" }, "1,5", { ok: false, error: expect.objectContaining({ code: "invalid_option" }) }],
    [{ locale: "auto" }, "1.234", { ok: false, error: expect.objectContaining({ code: "ambiguous_decimal" }) }],
    [undefined, "12.50", { ok: true, value: "12.50" }]
  ])("%j reads %s as toDecimalString does", (opts, text, expected) => {
    expect(decimalStringConverter(opts as never)(text)).toEqual(expected)
    expect(toDecimalString(text, opts as never)).toEqual(expected)
  })

  it("answers for options that throw when read, as toDecimalString does", () => {
    const hostile = new Proxy({}, { get: () => { throw new Error("no") } })
    expect(decimalStringConverter(hostile)("1,5")).toEqual(toDecimalString("1,5", hostile))
    expect(decimalStringConverter(hostile)("1,5")).toMatchObject({ ok: false, error: { code: "invalid" } })
  })
})
