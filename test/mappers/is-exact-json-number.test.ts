/**
 * `isExactJsonNumber`: whether the number a decimal string becomes is sent (by `JSON.stringify`) as the
 * same value. Checked against a reference that compares the two texts as exact rationals with bigints.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isExactJsonNumber } from "../../src/mappers/is-exact-json-number.js"

/** The value of a JSON number text as [numerator, power of ten], reduced; undefined for other text. */
const exactValue = (text: string): [bigint, number] | undefined => {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/u.exec(text)
  if (m === null) return undefined
  let digits = BigInt(`${m[2]}${m[3] ?? ""}`)
  let power = Number(m[4] ?? "0") - (m[3] ?? "").length
  if (digits === 0n) return [0n, 0]
  while (digits % 10n === 0n) {
    digits /= 10n
    power++
  }
  return [m[1] === "-" ? -digits : digits, power]
}

const reference = (decimal: string): boolean => {
  const wanted = exactValue(decimal)
  const n = Number(decimal)
  if (wanted === undefined || !Number.isFinite(n)) return false
  const sent = exactValue(JSON.stringify(n))
  return sent !== undefined && sent[0] === wanted[0] && sent[1] === wanted[1]
}

describe("isExactJsonNumber", () => {
  it.each<[string, boolean]>([
    ["12.50", true],
    ["0.1", true],
    ["-0.00", true],
    ["0", true],
    ["100", true],
    ["1e5", true],
    ["1E+2", true],
    ["-2.5e-3", true],
    ["9007199254740992", true],
    ["9007199254740993", false],
    ["9007199254740993.01", false],
    ["0.1000000000000000055511151231257827", false],
    [`1${"0".repeat(400)}`, false],
    [`0.${"0".repeat(400)}1`, false],
    [" 5", false],
    ["5 ", false],
    ["+5", false],
    [".5", false],
    ["5.", false],
    ["0x10", false],
    ["abc", false],
    ["", false],
    ["Infinity", false]
  ])("%s: %s", (decimal, exact) => {
    expect(isExactJsonNumber(decimal)).toBe(exact)
    expect(reference(decimal)).toBe(exact)
  })

  it("agrees with the exact comparison for any decimal text", () => {
    const digits = (max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: max })
    const decimal = fc.tuple(fc.constantFrom("", "-"), digits(20), fc.option(digits(20), { nil: undefined }))
      .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}`)
    let exact = 0
    fc.assert(
      fc.property(decimal, (text) => {
        const answer = isExactJsonNumber(text)
        if (answer) exact++
        expect(answer).toBe(reference(text))
      }),
      { numRuns: 2_000, seed: 12 }
    )
    expect(exact).toBeGreaterThan(0)
  })
})
