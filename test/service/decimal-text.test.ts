/** `toDecimalText`: money echoed as a decimal string, exact, never with an exponent. */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DECIMAL_RE } from "../../src/schemas/conventions.js"
import { toDecimalText } from "../../src/service/decimal-text.js"

describe("toDecimalText", () => {
  it("any finite number: a decimal string of the same value, with at least two decimals", () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      const text = toDecimalText(n)
      expect(text).toMatch(DECIMAL_RE)
      expect(Number(text)).toBe(n === 0 ? 0 : n)
      expect(text.split(".")[1]!.length).toBeGreaterThanOrEqual(2)
    }), { numRuns: 2_000 })
  })

  it.each([
    [86, "86.00"],
    [12.5, "12.50"],
    [0.3124, "0.3124"],
    [-3, "-3.00"],
    [-0, "0.00"],
    [1.5e-7, "0.00000015"],
    [1e21, "1000000000000000000000.00"],
    [-2.5e-10, "-0.00000000025"]
  ])("%s → %s", (n, text) => {
    expect(toDecimalText(n)).toBe(text)
  })
})
