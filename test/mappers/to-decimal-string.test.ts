import { BigDecimal } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toDecimalString } from "../../src/mappers/to-decimal-string.js"
import { expectOwnAnswer } from "../support/conversions.js"

const CANONICAL = /^-?(0|[1-9]\d*)(\.\d+)?$/

const failsWith = (code: string) => ({ ok: false, error: { code } })

/** Digits of unscaled / 10^scale, trailing zeros kept (scale 2 -> always two decimals). */
const split = (unscaled: bigint, scale: number) => {
  const negative = unscaled < 0n
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, "0")
  return { negative, integer: digits.slice(0, digits.length - scale), fraction: digits.slice(digits.length - scale) }
}

const canonicalOf = (unscaled: bigint, scale: number): string => {
  const { negative, integer, fraction } = split(unscaled, scale)
  return `${negative ? "-" : ""}${integer}${scale > 0 ? `.${fraction}` : ""}`
}

const group = (integer: string, separator: string): string => integer.replace(/\B(?=(\d{3})+(?!\d))/g, separator)

const render = (unscaled: bigint, scale: number, groupSeparator: string, decimalSeparator: string): string => {
  const { negative, integer, fraction } = split(unscaled, scale)
  return `${negative ? "-" : ""}${group(integer, groupSeparator)}${scale > 0 ? `${decimalSeparator}${fraction}` : ""}`
}

/** Reference rounding of unscaled/10^from to `to` decimals, in bigint arithmetic. */
const referenceRescale = (unscaled: bigint, from: number, to: number, rounding: "half-even" | "half-up"): string => {
  if (to >= from) return canonicalOf(unscaled * 10n ** BigInt(to - from), to)
  const divisor = 10n ** BigInt(from - to)
  const magnitude = unscaled < 0n ? -unscaled : unscaled
  const quotient = magnitude / divisor
  const twiceRemainder = 2n * (magnitude % divisor)
  const roundUp =
    twiceRemainder > divisor || (twiceRemainder === divisor && (rounding === "half-up" || quotient % 2n === 1n))
  const rounded = roundUp ? quotient + 1n : quotient
  return canonicalOf(unscaled < 0n ? -rounded : rounded, to)
}

// Small magnitudes hit the short, separator-sensitive shapes ("1.234"); large ones the long groupings.
const unscaledArb = fc.oneof(fc.bigInt({ min: -(10n ** 7n), max: 10n ** 7n }), fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }))

describe("toDecimalString: text", () => {
  it.each([
    ["1.234,56", "1234.56"],
    ["1,234.56", "1234.56"],
    [" 12,5 ", "12.5"],
    ["-0,5", "-0.5"],
    ["1,50", "1.50"],
    ["007", "7"],
    ["1.234.567", "1234567"],
    ["1,234,567", "1234567"],
    ["1.234.567,891", "1234567.891"],
    ["1,234,567.891", "1234567.891"],
    ["1234,567", "1234.567"],
    ["1234.567", "1234.567"],
    ["0,123", "0.123"],
    ["-0", "0"],
    ["-0,00", "0.00"],
    ["+5", "5"],
    ["1.234,56-", "-1234.56"],
    ["\t42\n", "42"]
  ])("auto: %j -> %j", (input, expected) => {
    expect(toDecimalString(input)).toEqual({ ok: true, value: expected })
  })

  it("refuses a single separator followed by three digits in auto mode", () => {
    expect(toDecimalString("1.234")).toMatchObject(failsWith("ambiguous_decimal"))
    expect(toDecimalString("1,234")).toMatchObject(failsWith("ambiguous_decimal"))
    expect(toDecimalString("-123,456")).toMatchObject(failsWith("ambiguous_decimal"))
  })

  it("reads the ambiguous case according to an explicit locale", () => {
    expect(toDecimalString("1.234", { locale: "de" })).toEqual({ ok: true, value: "1234" })
    expect(toDecimalString("1.234", { locale: "en" })).toEqual({ ok: true, value: "1.234" })
    expect(toDecimalString("1,234", { locale: "de" })).toEqual({ ok: true, value: "1.234" })
    expect(toDecimalString("1,234", { locale: "en" })).toEqual({ ok: true, value: "1234" })
  })

  it("holds each locale to its own separators", () => {
    expect(toDecimalString("1,234.56", { locale: "de" })).toMatchObject(failsWith("invalid"))
    expect(toDecimalString("1.234,56", { locale: "en" })).toMatchObject(failsWith("invalid"))
    expect(toDecimalString("1.5", { locale: "de" })).toMatchObject(failsWith("invalid"))
    expect(toDecimalString("1,5", { locale: "en" })).toMatchObject(failsWith("invalid"))
  })

  it("reads only digits and a point with locale plain: JSON numbers, pydantic's Decimal text", () => {
    expect(toDecimalString("12.345", { locale: "plain" })).toEqual({ ok: true, value: "12.345" })
    expect(toDecimalString("-0.500", { locale: "plain" })).toEqual({ ok: true, value: "-0.500" })
    expect(toDecimalString("1234", { locale: "plain" })).toEqual({ ok: true, value: "1234" })
    // A comma is never read as anything under plain: 12,345 could be 12.345 or 12345.
    for (const text of ["12,345", "1,234.5", "1.234,5", "1.234.567", "12,5", ".5", "5."]) {
      expect(toDecimalString(text, { locale: "plain" })).toMatchObject(failsWith("invalid"))
    }
  })

  it.each(["1.23.4", "1,23,4", "12.34.567", "1.2345,6", "1..234", ".5", ",5", "5,", "5.", "1,2,3.4", "1.234,5.6"])(
    "rejects malformed grouping %j",
    (input) => {
      expect(toDecimalString(input)).toMatchObject(failsWith("invalid"))
      expect(toDecimalString(input, { locale: "de" })).toMatchObject(failsWith("invalid"))
      expect(toDecimalString(input, { locale: "en" })).toMatchObject(failsWith("invalid"))
    }
  )

  it.each(["abc", "1e5", "1 234", "--1", "-1-", "+-1", "1-2", "١٢", "１２", "0x10", "Infinity", "NaN"])(
    "rejects non-numbers %j",
    (input) => {
      expect(toDecimalString(input)).toMatchObject(failsWith("invalid"))
    }
  )

  it("reports blank text separately", () => {
    expect(toDecimalString("")).toMatchObject(failsWith("blank"))
    expect(toDecimalString(" \t\n ")).toMatchObject(failsWith("blank"))
  })

  it("handles a megabyte of digits exactly", () => {
    const digits = `9${"0".repeat(1_000_000)}1`
    expect(toDecimalString(`${digits},5`)).toEqual({ ok: true, value: `${digits}.5` })
    expect(toDecimalString(`${digits},x`)).toMatchObject(failsWith("invalid"))
  })
})

describe("toDecimalString: numbers, bigints and BigDecimals", () => {
  it("uses the shortest round-trip text of a double", () => {
    expect(toDecimalString(0.1 + 0.2)).toEqual({ ok: true, value: "0.30000000000000004" })
    expect(toDecimalString(1e21)).toEqual({ ok: true, value: "1000000000000000000000" })
    expect(toDecimalString(1e-7)).toEqual({ ok: true, value: "0.0000001" })
    expect(toDecimalString(-1.5e-7)).toEqual({ ok: true, value: "-0.00000015" })
    expect(toDecimalString(-0)).toEqual({ ok: true, value: "0" })
    expect(toDecimalString(123.45)).toEqual({ ok: true, value: "123.45" })
  })

  it("expands the extreme doubles", () => {
    // MAX_VALUE is 1.7976931348623157e308: 17 significant digits, 309 integer digits.
    expect(toDecimalString(Number.MAX_VALUE)).toEqual({ ok: true, value: `17976931348623157${"0".repeat(292)}` })
    // MIN_VALUE is 5e-324: the 5 is the 324th decimal.
    expect(toDecimalString(Number.MIN_VALUE)).toEqual({ ok: true, value: `0.${"0".repeat(323)}5` })
  })

  it("refuses non-finite numbers", () => {
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(toDecimalString(n)).toMatchObject(failsWith("invalid"))
    }
  })

  it("ignores the locale for numbers", () => {
    expect(toDecimalString(1.234, { locale: "de" })).toEqual({ ok: true, value: "1.234" })
  })

  it("converts bigints exactly", () => {
    expect(toDecimalString(123456789012345678901234567890n)).toEqual({ ok: true, value: "123456789012345678901234567890" })
    expect(toDecimalString(-5n)).toEqual({ ok: true, value: "-5" })
  })

  it("converts BigDecimals keeping their scale", () => {
    expect(toDecimalString(BigDecimal.fromStringUnsafe("-1.50"))).toEqual({ ok: true, value: "-1.50" })
    expect(toDecimalString(BigDecimal.make(5n, 3))).toEqual({ ok: true, value: "0.005" })
    expect(toDecimalString(BigDecimal.make(123n, -5))).toEqual({ ok: true, value: "12300000" })
    expect(toDecimalString(BigDecimal.normalize(BigDecimal.fromStringUnsafe("12300000")))).toEqual({
      ok: true,
      value: "12300000"
    })
    expect(toDecimalString(BigDecimal.make(-1n, 1), { scale: 0, rounding: "half-up" })).toEqual({ ok: true, value: "0" })
  })

  // Each value wrapped: it.each would spread an array case ([] would be no argument at all).
  it.each<[unknown]>([null, undefined, {}, [], true, Symbol("x"), () => 1, new Date(0), new Number(1), { valueOf: () => 1 }].map((v) => [v]))(
    "refuses %o",
    (input) => {
      expect(toDecimalString(input)).toMatchObject(failsWith("invalid"))
    }
  )
})

/** A look-alike of a BigDecimal: the brand (on the prototype) with other own fields. */
const fakeBigDecimal = (fields: Record<string, unknown>): unknown =>
  Object.assign(Object.create(Object.getPrototypeOf(BigDecimal.make(1n, 0)) as object) as object, fields)

describe("toDecimalString: the reason of each refusal", () => {
  // The details name the reason; a refusal that fell through to a crash would read "value could not be converted".
  it.each<[string, unknown, Parameters<typeof toDecimalString>[1], string, RegExp]>([
    ["blank text", "  ", undefined, "blank", /^expected a decimal number, got a blank string$/],
    ["text that is no number", "abc", undefined, "invalid", /^"abc" is not a decimal number$/],
    ["a leading and a trailing sign", "-1-", undefined, "invalid", /^"-1-" is not a decimal number$/],
    ["a plus and a trailing minus", "+1,5-", { locale: "de" }, "invalid", /^"\+1,5-" is not a decimal number$/],
    ["separators the locale does not read (de)", "1.5", { locale: "de" }, "invalid", /^"1\.5" is not a decimal number$/],
    ["separators the locale does not read (en)", "1,5", { locale: "en" }, "invalid", /^"1,5" is not a decimal number$/],
    ["separators neither locale reads", "1.2.3,4.5", undefined, "invalid", /^"1\.2\.3,4\.5" is not a decimal number$/],
    ["a separator before three digits", "-1.234", undefined, "ambiguous_decimal", /^"-1\.234" reads as -1234 \(de\) or -1\.234 \(en\); pass locale "de" or "en"$/],
    ["a non-finite number", Number.NaN, undefined, "invalid", /^NaN is not a finite number$/],
    ["a BigDecimal look-alike with a non-bigint value", fakeBigDecimal({ value: 5, scale: 0 }), undefined, "invalid", /^malformed BigDecimal$/],
    ["a BigDecimal look-alike with a fractional scale", fakeBigDecimal({ value: 5n, scale: 0.5 }), undefined, "invalid", /^malformed BigDecimal$/],
    ["a value of another type", null, undefined, "invalid", /^expected a number, bigint, BigDecimal or string, got null$/],
    ["an unknown locale", "1", { locale: "fr" as "de" }, "invalid_option", /^unknown locale "fr"$/],
    ["an unknown rounding", "1", { rounding: "ceil" as "half-up" }, "invalid_option", /^unknown rounding "ceil"$/],
    ["a negative scale", "1", { scale: -1 }, "invalid_option", /^scale must be a non-negative integer, got -1$/],
    ["an unsafe scale", "1", { scale: 2 ** 53 }, "invalid_option", /^scale must be a non-negative integer, got 9007199254740992$/]
  ])("%s", (_, input, options, code, detail) => {
    const result = toDecimalString(input, options)
    expect(result).toMatchObject(failsWith(code))
    expect(result.ok ? "" : result.error.detail).toMatch(detail)
  })

  it("takes a scale of zero and a BigDecimal with a zero or negative scale", () => {
    expect(toDecimalString("1.5", { locale: "en", scale: 0 })).toEqual({ ok: true, value: "2" })
    expect(toDecimalString(fakeBigDecimal({ value: -15n, scale: 0 }))).toEqual({ ok: true, value: "-15" })
    expect(toDecimalString(fakeBigDecimal({ value: 15n, scale: -2 }))).toEqual({ ok: true, value: "1500" })
  })
})

describe("toDecimalString: scale and rounding", () => {
  it("breaks ties to even by default and away from zero with half-up", () => {
    // "2,345" alone is ambiguous (2345 in English notation), so the locale must be given.
    expect(toDecimalString("2,345", { scale: 2 })).toMatchObject(failsWith("ambiguous_decimal"))
    expect(toDecimalString("2,345", { locale: "de", scale: 2 })).toEqual({ ok: true, value: "2.34" })
    expect(toDecimalString("2,345", { locale: "de", scale: 2, rounding: "half-even" })).toEqual({ ok: true, value: "2.34" })
    expect(toDecimalString("2,345", { locale: "de", scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "2.35" })
    expect(toDecimalString("2,355", { locale: "de", scale: 2, rounding: "half-even" })).toEqual({ ok: true, value: "2.36" })
    expect(toDecimalString("-2,345", { locale: "de", scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "-2.35" })
    expect(toDecimalString("-2,345", { locale: "de", scale: 2, rounding: "half-even" })).toEqual({ ok: true, value: "-2.34" })
  })

  it("only treats an exact half as a tie", () => {
    expect(toDecimalString("2,3450001", { locale: "de", scale: 2 })).toEqual({ ok: true, value: "2.35" })
    expect(toDecimalString("2,3449999", { locale: "de", scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "2.34" })
    expect(toDecimalString("2,34500", { locale: "de", scale: 2 })).toEqual({ ok: true, value: "2.34" })
  })

  it("carries into the integer part and pads", () => {
    expect(toDecimalString("9,995", { locale: "de", scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "10.00" })
    expect(toDecimalString("999,5", { locale: "de", scale: 0 })).toEqual({ ok: true, value: "1000" })
    expect(toDecimalString("0,5", { locale: "de", scale: 0 })).toEqual({ ok: true, value: "0" })
    expect(toDecimalString("1,5", { locale: "de", scale: 0 })).toEqual({ ok: true, value: "2" })
    expect(toDecimalString("2,5", { locale: "de", scale: 0 })).toEqual({ ok: true, value: "2" })
    expect(toDecimalString("-0,5", { locale: "de", scale: 0 })).toEqual({ ok: true, value: "0" })
    expect(toDecimalString("-0,5", { locale: "de", scale: 0, rounding: "half-up" })).toEqual({ ok: true, value: "-1" })
    expect(toDecimalString("1", { locale: "de", scale: 3 })).toEqual({ ok: true, value: "1.000" })
    expect(toDecimalString("1,5", { locale: "de", scale: 4 })).toEqual({ ok: true, value: "1.5000" })
  })

  it("never produces negative zero", () => {
    expect(toDecimalString("-0.00", { scale: 2 })).toEqual({ ok: true, value: "0.00" })
    expect(toDecimalString("-0,004", { locale: "de", scale: 2 })).toEqual({ ok: true, value: "0.00" })
    expect(toDecimalString(-0.004, { scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "0.00" })
  })

  it("rounds a number from its shortest text, not from its binary value", () => {
    // The double nearest 1.005 is slightly below it, which is why (1.005).toFixed(2) is "1.00";
    // the producer wrote 1.005, so a tie it is.
    expect(toDecimalString(1.005, { scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "1.01" })
  })

  it("refuses malformed options", () => {
    expect(toDecimalString("1", { scale: -1 })).toMatchObject(failsWith("invalid_option"))
    expect(toDecimalString("1", { scale: 1.5 })).toMatchObject(failsWith("invalid_option"))
    expect(toDecimalString("1", { locale: "fr" as "de" })).toMatchObject(failsWith("invalid_option"))
    expect(toDecimalString("1", { rounding: "ceil" as "half-up" })).toMatchObject(failsWith("invalid_option"))
  })
})

describe("toDecimalString: properties", () => {
  it("reads German, English and plain renderings of a decimal back exactly", () => {
    fc.assert(
      fc.property(unscaledArb, fc.integer({ min: 0, max: 12 }), (unscaled, scale) => {
        const expected = canonicalOf(unscaled, scale)
        const german = render(unscaled, scale, ".", ",")
        const english = render(unscaled, scale, ",", ".")
        const plainGerman = render(unscaled, scale, "", ",")
        const plainEnglish = render(unscaled, scale, "", ".")
        expect(toDecimalString(german, { locale: "de" })).toEqual({ ok: true, value: expected })
        expect(toDecimalString(plainGerman, { locale: "de" })).toEqual({ ok: true, value: expected })
        expect(toDecimalString(english, { locale: "en" })).toEqual({ ok: true, value: expected })
        expect(toDecimalString(plainEnglish, { locale: "en" })).toEqual({ ok: true, value: expected })
        expect(plainEnglish).toBe(expected)
        for (const text of [german, english, plainGerman, plainEnglish]) {
          // Both readings are possible exactly when one separator is followed by three digits.
          const ambiguous = /^-?[1-9]\d{0,2}[.,]\d{3}$/.test(text)
          if (ambiguous) expect(toDecimalString(text)).toMatchObject(failsWith("ambiguous_decimal"))
          else expect(toDecimalString(text)).toEqual({ ok: true, value: expected })
        }
      }),
      { seed: 20240527, numRuns: 3000 }
    )
  })

  it("reads with locale plain exactly the point renderings without grouping, and refuses every other", () => {
    fc.assert(
      fc.property(unscaledArb, fc.integer({ min: 0, max: 12 }), (unscaled, scale) => {
        const expected = canonicalOf(unscaled, scale)
        expect(toDecimalString(render(unscaled, scale, "", "."), { locale: "plain" })).toEqual({ ok: true, value: expected })
        for (const text of [render(unscaled, scale, ".", ","), render(unscaled, scale, ",", "."), render(unscaled, scale, "", ",")]) {
          const read = toDecimalString(text, { locale: "plain" })
          // A comma, or a second point, is never plain; one point is the decimal point, whatever the
          // rendering meant by it (German "1.234" is read 1.234).
          if (text.includes(",") || text.split(".").length > 2) expect(read).toMatchObject(failsWith("invalid"))
          else expect(read).toEqual({ ok: true, value: text.replace(/^(-?)0+(?=\d)/, "$1") })
        }
      }),
      { seed: 20261127, numRuns: 2000 }
    )
  })

  it("round-trips every finite double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const result = toDecimalString(n)
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(result.value).toMatch(CANONICAL)
        expect(result.value).not.toMatch(/\.\d*0$/)
        expect(Number(result.value)).toBe(n === 0 ? 0 : n)
      }),
      { seed: 1337, numRuns: 5000 }
    )
  })

  it("rescales like a bigint reference implementation", () => {
    fc.assert(
      fc.property(
        unscaledArb,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom("half-even" as const, "half-up" as const),
        (unscaled, from, to, rounding) => {
          const expected = referenceRescale(unscaled, from, to, rounding)
          const options = { scale: to, rounding }
          expect(toDecimalString(canonicalOf(unscaled, from), { ...options, locale: "en" })).toEqual({ ok: true, value: expected })
          expect(toDecimalString(render(unscaled, from, ".", ","), { ...options, locale: "de" })).toEqual({
            ok: true,
            value: expected
          })
          expect(toDecimalString(BigDecimal.make(unscaled, from), options)).toEqual({ ok: true, value: expected })
        }
      ),
      { seed: 4242, numRuns: 3000 }
    )
  })

  it("builds ties on purpose and rounds them per mode", () => {
    // unscaled * 10 + 5 at one more decimal is exactly halfway between two neighbours.
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 6 }), (kept, scale) => {
        const tie = kept < 0n ? kept * 10n - 5n : kept * 10n + 5n
        const text = canonicalOf(tie, scale + 1)
        const awayFromZero = kept < 0n ? kept - 1n : kept + 1n
        const even = kept % 2n === 0n ? kept : awayFromZero
        expect(toDecimalString(text, { locale: "en", scale, rounding: "half-up" })).toEqual({ ok: true, value: canonicalOf(awayFromZero, scale) })
        expect(toDecimalString(text, { locale: "en", scale, rounding: "half-even" })).toEqual({ ok: true, value: canonicalOf(even, scale) })
      }),
      { seed: 99, numRuns: 1000 }
    )
  })

  it("only ever answers with canonical text for separator soup", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789.,-+ e"), maxLength: 16 }), (text) => {
        for (const locale of ["auto", "de", "en"] as const) {
          const result = toDecimalString(text, { locale })
          if (result.ok) expect(result.value).toMatch(CANONICAL)
          else expect(["blank", "invalid", "ambiguous_decimal"]).toContain(result.error.code)
        }
      }),
      { seed: 7, numRuns: 3000 }
    )
  })

  it("never throws, whatever the input and options", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }),
        fc.anything({ withNullPrototype: true }),
        (value, options) => {
          const isCanonical = (text: string): boolean => CANONICAL.test(text)
          expectOwnAnswer(toDecimalString(value), ["blank", "invalid", "ambiguous_decimal"], isCanonical)
          expectOwnAnswer(toDecimalString(value, options as never), ["blank", "invalid", "ambiguous_decimal", "invalid_option"], isCanonical)
        }
      ),
      { seed: 11, numRuns: 10_000 }
    )
  })
})

describe("toDecimalString: shift", () => {
  it("moves the point digit by digit: euros to cents, MWh to kWh, and back", () => {
    expect(toDecimalString("0.070125", { locale: "plain", shift: 2 })).toEqual({ ok: true, value: "7.0125" })
    expect(toDecimalString("0.0540", { locale: "plain", shift: 2 })).toEqual({ ok: true, value: "5.40" })
    expect(toDecimalString("12", { locale: "plain", shift: 2 })).toEqual({ ok: true, value: "1200" })
    expect(toDecimalString("1,5", { locale: "de", shift: 3 })).toEqual({ ok: true, value: "1500" })
    expect(toDecimalString("-0.001", { locale: "plain", shift: 2 })).toEqual({ ok: true, value: "-0.1" })
    expect(toDecimalString("7", { locale: "plain", shift: -2 })).toEqual({ ok: true, value: "0.07" })
    expect(toDecimalString("0.1", { shift: 2 })).toEqual({ ok: true, value: "10" })
  })

  it("applies before scale, and refuses a shift that is no integer", () => {
    expect(toDecimalString("0.070125", { locale: "plain", shift: 2, scale: 2, rounding: "half-up" })).toEqual({ ok: true, value: "7.01" })
    expect(toDecimalString("1", { shift: 1.5 })).toMatchObject({ ok: false, error: { code: "invalid_option" } })
    expect(toDecimalString("1", { shift: 101 })).toMatchObject({ ok: false, error: { code: "invalid_option" } })
  })

  it("property: shifting by n is multiplying by 10^n, exactly, and shifting back gives the value again", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (unscaled, decimals, n) => {
      const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(decimals + 1, "0")
      const text = `${unscaled < 0n ? "-" : ""}${decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`}`
      const up = toDecimalString(text, { locale: "plain", shift: n })
      expect(up.ok).toBe(true)
      if (!up.ok) return
      // value · 10^n with f = max(decimals − n, 0) decimals: its digits U satisfy U = unscaled · 10^(n − decimals + f).
      const [int, frac = ""] = up.value.replace("-", "").split(".") as [string, string?]
      expect(frac.length).toBe(Math.max(decimals - n, 0))
      const sign = up.value.startsWith("-") ? -1n : 1n
      expect(sign * BigInt(`${int}${frac}`)).toBe(unscaled * 10n ** BigInt(n - decimals + frac.length))
      // Back: the same value, with the decimals the shift left it (a point moved past the last digit leaves zeros).
      expect(toDecimalString(up.value, { locale: "plain", shift: -n })).toEqual(toDecimalString(text, { locale: "plain", scale: Math.max(decimals, n) }))
    }))
  })
})
