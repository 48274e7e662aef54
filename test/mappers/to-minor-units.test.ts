import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fromMinorUnits, toMinorUnits } from "../../src/mappers/to-minor-units.js"
import { expectOwnAnswer } from "../support/conversions.js"

const failsWith = (code: string) => ({ ok: false, error: { code } })

/** Two-decimal text of an integer count of cents, written out by hand. */
const centsText = (cents: bigint): string => {
  const negative = cents < 0n
  const magnitude = negative ? -cents : cents
  const euros = magnitude / 100n
  const rest = magnitude % 100n
  return `${negative ? "-" : ""}${euros}.${rest < 10n ? "0" : ""}${rest}`
}

describe("toMinorUnits", () => {
  it.each([
    ["12.34", 1234],
    ["-0.05", -5],
    ["12.3", 1230],
    ["12", 1200],
    ["12.340", 1234],
    ["0", 0],
    ["0.01", 1],
    ["90071992547409.91", Number.MAX_SAFE_INTEGER],
    ["-90071992547409.91", -Number.MAX_SAFE_INTEGER]
  ])("%s -> %d cents", (input, expected) => {
    expect(toMinorUnits(input)).toEqual({ ok: true, value: expected })
  })

  it("never returns negative zero", () => {
    const result = toMinorUnits("-0.00")
    expect(result.ok && Object.is(result.value, 0)).toBe(true)
  })

  it("refuses to drop a fraction of a cent", () => {
    expect(toMinorUnits("12.345")).toMatchObject(failsWith("fraction_lost"))
    expect(toMinorUnits("0.001")).toMatchObject(failsWith("fraction_lost"))
    expect(toMinorUnits("12.3400000001")).toMatchObject(failsWith("fraction_lost"))
  })

  it("refuses amounts beyond the safe integer range", () => {
    expect(toMinorUnits("90071992547409.92")).toMatchObject(failsWith("out_of_range"))
    expect(toMinorUnits(`1${"0".repeat(100_000)}`)).toMatchObject(failsWith("out_of_range"))
  })

  it("uses the currency's number of digits", () => {
    expect(toMinorUnits("7", { digits: 0 })).toEqual({ ok: true, value: 7 })
    expect(toMinorUnits("7.5", { digits: 0 })).toMatchObject(failsWith("fraction_lost"))
    expect(toMinorUnits("1.5", { digits: 3 })).toEqual({ ok: true, value: 1500 })
    expect(toMinorUnits("1.2345", { digits: 3 })).toMatchObject(failsWith("fraction_lost"))
    expect(toMinorUnits("1", { digits: -1 })).toMatchObject(failsWith("invalid_option"))
    expect(toMinorUnits("1", { digits: 0.5 })).toMatchObject(failsWith("invalid_option"))
  })

  it.each(["", " 1.5", "1,5", "1e3", "+1", ".5", "5.", "1.2.3", "abc", "--1", "1_000"])("refuses %j", (input) => {
    expect(toMinorUnits(input)).toMatchObject(failsWith("invalid"))
  })

  it("refuses non-strings", () => {
    expect(toMinorUnits(12 as unknown as string)).toMatchObject(failsWith("invalid"))
  })
})

describe("fromMinorUnits", () => {
  it.each([
    [1234, "12.34"],
    [-5, "-0.05"],
    [5, "0.05"],
    [0, "0.00"],
    [-0, "0.00"],
    [100, "1.00"],
    [-100, "-1.00"],
    [Number.MAX_SAFE_INTEGER, "90071992547409.91"]
  ])("%o cents -> %s", (input, expected) => {
    expect(fromMinorUnits(input)).toEqual({ ok: true, value: expected })
  })

  it("accepts bigints of any size", () => {
    expect(fromMinorUnits(10n ** 30n)).toEqual({ ok: true, value: `1${"0".repeat(28)}.00` })
    expect(fromMinorUnits(-7n)).toEqual({ ok: true, value: "-0.07" })
  })

  it("uses the currency's number of digits", () => {
    expect(fromMinorUnits(7, { digits: 0 })).toEqual({ ok: true, value: "7" })
    expect(fromMinorUnits(-1234, { digits: 3 })).toEqual({ ok: true, value: "-1.234" })
    expect(fromMinorUnits(5, { digits: 3 })).toEqual({ ok: true, value: "0.005" })
  })

  it("refuses what is not a safe integer", () => {
    expect(fromMinorUnits(12.5)).toMatchObject(failsWith("invalid"))
    expect(fromMinorUnits(Number.NaN)).toMatchObject(failsWith("invalid"))
    expect(fromMinorUnits(Number.POSITIVE_INFINITY)).toMatchObject(failsWith("invalid"))
    expect(fromMinorUnits(2 ** 53)).toMatchObject(failsWith("out_of_range"))
    expect(fromMinorUnits("12" as unknown as number)).toMatchObject(failsWith("invalid"))
  })
})

describe("minor units: properties", () => {
  const safeCents = fc.bigInt({ min: -BigInt(Number.MAX_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) })

  it("round-trips every two-decimal amount through cents", () => {
    fc.assert(
      fc.property(safeCents, (cents) => {
        const text = centsText(cents)
        const units = toMinorUnits(text)
        expect(units).toEqual({ ok: true, value: Number(cents) })
        if (units.ok) expect(fromMinorUnits(units.value)).toEqual({ ok: true, value: text })
      }),
      { seed: 2024, numRuns: 5000 }
    )
  })

  it("round-trips every safe integer through text", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 6 }), (cents, digits) => {
        const text = fromMinorUnits(cents, { digits })
        expect(text.ok).toBe(true)
        if (!text.ok) return
        expect(text.value).toMatch(digits === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${digits}}$`))
        expect(toMinorUnits(text.value, { digits })).toEqual({ ok: true, value: cents === 0 ? 0 : cents })
      }),
      { seed: 77, numRuns: 5000 }
    )
  })

  it("never throws, whatever the input and options", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withNullPrototype: true, withBoxedValues: true }), fc.anything(), (value, options) => {
        const codes = ["invalid", "fraction_lost", "out_of_range"]
        const isUnits = (n: number): boolean => Number.isSafeInteger(n)
        const isDecimal = (text: string): boolean => /^-?\d+(?:\.\d+)?$/u.test(text)
        expectOwnAnswer(toMinorUnits(value as string, options as never), [...codes, "invalid_option"], isUnits)
        expectOwnAnswer(fromMinorUnits(value as number, options as never), [...codes, "invalid_option"], isDecimal)
        expectOwnAnswer(toMinorUnits(value as string), codes, isUnits)
        expectOwnAnswer(fromMinorUnits(value as number), codes, isDecimal)
      }),
      { seed: 5, numRuns: 10_000 }
    )
  })
})

describe("minor units: bounds and details", () => {
  it("takes 0 to 100 digits, and names a wrong count in its detail", () => {
    expect(toMinorUnits("1", { digits: 100 })).toEqual({ ok: false, error: { code: "out_of_range", detail: '"1" exceeds the safe integer range' } })
    expect(fromMinorUnits(5n, { digits: 100 })).toEqual({ ok: true, value: `0.${"0".repeat(99)}5` })
    expect(toMinorUnits("1", { digits: 101 })).toEqual({ ok: false, error: { code: "invalid_option", detail: "digits must be an integer 0..100, got 101" } })
    expect(fromMinorUnits(5, { digits: 101 })).toEqual({ ok: false, error: { code: "invalid_option", detail: "digits must be an integer 0..100, got 101" } })
    expect(fromMinorUnits(5, { digits: -1 })).toEqual({ ok: false, error: { code: "invalid_option", detail: "digits must be an integer 0..100, got -1" } })
  })

  it("says what it refused: a lost fraction, a value beyond the safe integers, a value of the wrong kind", () => {
    expect(toMinorUnits("12.345")).toEqual({ ok: false, error: { code: "fraction_lost", detail: '"12.345" has more than 2 significant decimals' } })
    // 16 digits, just above Number.MAX_SAFE_INTEGER (9007199254740991), and far beyond it.
    expect(toMinorUnits("90071992547409.92")).toEqual({ ok: false, error: { code: "out_of_range", detail: '"90071992547409.92" exceeds the safe integer range' } })
    expect(toMinorUnits("1".repeat(30))).toEqual({ ok: false, error: { code: "out_of_range", detail: `"${"1".repeat(30)}" exceeds the safe integer range` } })
    expect(fromMinorUnits("5" as never)).toEqual({ ok: false, error: { code: "invalid", detail: 'expected an integer number or bigint, got "5"' } })
  })

  it("counts leading zeros as nothing, however many", () => {
    expect(toMinorUnits(`${"0".repeat(30)}1.00`)).toEqual({ ok: true, value: 100 })
    expect(toMinorUnits(`-${"0".repeat(30)}90071992547409.91`)).toEqual({ ok: true, value: -9007199254740991 })
  })
})
