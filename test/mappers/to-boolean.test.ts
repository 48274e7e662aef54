import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toBoolean } from "../../src/mappers/to-boolean.js"
import { expectOwnAnswer } from "../support/conversions.js"

const failsWith = (code: string) => ({ ok: false, error: { code } })

const DEFAULT_TRUE = ["true", "1", "j", "ja", "y", "yes", "x"]
const DEFAULT_FALSE = ["false", "0", "n", "nein", "no", ""]

describe("toBoolean: defaults", () => {
  it("reads SAP flags: X is true, blank is false", () => {
    expect(toBoolean("X")).toEqual({ ok: true, value: true })
    expect(toBoolean("")).toEqual({ ok: true, value: false })
    expect(toBoolean("   ")).toEqual({ ok: true, value: false })
  })

  it.each(["true", "TRUE", " True ", "1", "j", "J", "ja", "JA", "y", "Yes", "x", "\tx\n"])("%j is true", (input) => {
    expect(toBoolean(input)).toEqual({ ok: true, value: true })
  })

  it.each(["false", "FALSE", "0", "n", "N", "nein", "Nein", "no", "NO", " 0 "])("%j is false", (input) => {
    expect(toBoolean(input)).toEqual({ ok: true, value: false })
  })

  it("passes booleans through and reads 1/0", () => {
    expect(toBoolean(true)).toEqual({ ok: true, value: true })
    expect(toBoolean(false)).toEqual({ ok: true, value: false })
    expect(toBoolean(1)).toEqual({ ok: true, value: true })
    expect(toBoolean(0)).toEqual({ ok: true, value: false })
    expect(toBoolean(-0)).toEqual({ ok: true, value: false })
  })

  it.each(["maybe", "2", "-1", "yess", "t", "f", "on", "off", "1.0", "x x", "ö"])("%j is invalid", (input) => {
    expect(toBoolean(input)).toMatchObject(failsWith("invalid"))
  })

  // Each value wrapped: it.each would spread an array case ([] would be no argument at all).
  it.each<[unknown]>([2, -1, 0.5, Number.NaN, null, undefined, {}, [], 1n, new Boolean(true), Symbol("x")].map((v) => [v]))("%o is invalid", (input) => {
    expect(toBoolean(input)).toMatchObject(failsWith("invalid"))
  })
})

describe("toBoolean: custom lists", () => {
  it("replaces the default lists", () => {
    const options = { trueValues: ["T"], falseValues: ["F"] }
    expect(toBoolean("t", options)).toEqual({ ok: true, value: true })
    expect(toBoolean(" F ", options)).toEqual({ ok: true, value: false })
    expect(toBoolean("X", options)).toMatchObject(failsWith("invalid"))
    expect(toBoolean("1", options)).toMatchObject(failsWith("invalid"))
    expect(toBoolean(0, options)).toMatchObject(failsWith("invalid"))
    expect(toBoolean(true, options)).toEqual({ ok: true, value: true })
  })

  it("reports a blank that neither list contains", () => {
    expect(toBoolean("", { trueValues: ["T"], falseValues: ["F"] })).toMatchObject(failsWith("blank"))
  })

  it("keeps the other default when only one list is given", () => {
    expect(toBoolean("J", { trueValues: ["J"] })).toEqual({ ok: true, value: true })
    expect(toBoolean("X", { trueValues: ["J"] })).toMatchObject(failsWith("invalid"))
    expect(toBoolean("nein", { trueValues: ["J"] })).toEqual({ ok: true, value: false })
  })

  it("refuses a spelling listed as both true and false", () => {
    expect(toBoolean("0", { trueValues: ["0"] })).toMatchObject(failsWith("invalid_option"))
    expect(toBoolean("a", { trueValues: ["A"], falseValues: [" a "] })).toMatchObject(failsWith("invalid_option"))
  })

  it("refuses lists that are not string arrays", () => {
    expect(toBoolean("x", { trueValues: "x" as unknown as string[] })).toMatchObject(failsWith("invalid_option"))
    expect(toBoolean("x", { falseValues: [1] as unknown as string[] })).toMatchObject(failsWith("invalid_option"))
  })
})

describe("toBoolean: properties", () => {
  const padding = fc.constantFrom("", " ", "\t", "  ")
  const randomCase = (text: string, mask: ReadonlyArray<boolean>) =>
    [...text].map((char, i) => (mask[i % Math.max(mask.length, 1)] ? char.toUpperCase() : char)).join("")

  it("reads every default spelling in any case and padding", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DEFAULT_TRUE.map((t) => [t, true] as const), ...DEFAULT_FALSE.map((f) => [f, false] as const)),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        padding,
        padding,
        ([spelling, expected], mask, left, right) => {
          expect(toBoolean(`${left}${randomCase(spelling, mask)}${right}`)).toEqual({ ok: true, value: expected })
        }
      ),
      { seed: 3, numRuns: 1000 }
    )
  })

  it("refuses every other string", () => {
    const known = new Set([...DEFAULT_TRUE, ...DEFAULT_FALSE])
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), (text) => {
        const result = toBoolean(text)
        const normalised = text.trim().toLowerCase()
        if (known.has(normalised)) expect(result).toEqual({ ok: true, value: DEFAULT_TRUE.includes(normalised) })
        else expect(result).toMatchObject(failsWith("invalid"))
      }),
      { seed: 12, numRuns: 3000 }
    )
  })

  it("never throws, whatever the input and options", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withNullPrototype: true, withBoxedValues: true }), fc.anything(), (value, options) => {
        const isBoolean = (b: boolean): boolean => typeof b === "boolean"
        expectOwnAnswer(toBoolean(value), ["invalid", "blank"], isBoolean)
        expectOwnAnswer(toBoolean(value, options as never), ["invalid", "blank", "invalid_option"], isBoolean)
      }),
      { seed: 10, numRuns: 10_000 }
    )
  })
})

describe("toBoolean: its own lists", () => {
  it("refuses a list with an entry that is no string, naming both options", () => {
    expect(toBoolean("J", { trueValues: ["J", 1] as never })).toEqual({ ok: false, error: { code: "invalid_option", detail: "trueValues and falseValues must be arrays of strings" } })
    expect(toBoolean("J", { falseValues: [null] as never })).toEqual({ ok: false, error: { code: "invalid_option", detail: "trueValues and falseValues must be arrays of strings" } })
  })

  it("refuses a spelling in both lists, also when only one list is given and the other is the default", () => {
    expect(toBoolean("n", { falseValues: ["Ja", "n"] })).toEqual({ ok: false, error: { code: "invalid_option", detail: '"ja" is listed as both true and false' } })
    expect(toBoolean("j", { trueValues: ["j", "NEIN"] })).toEqual({ ok: false, error: { code: "invalid_option", detail: '"nein" is listed as both true and false' } })
  })

  it("tells a blank flag that neither list has apart from an unknown one", () => {
    expect(toBoolean("  ", { falseValues: ["N"] })).toEqual({ ok: false, error: { code: "blank", detail: "blank flag is neither in trueValues nor in falseValues" } })
  })
})
