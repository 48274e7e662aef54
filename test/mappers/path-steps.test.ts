/**
 * The steps of a mapping field's dot path, and a value set along them: a step is an array index exactly
 * when it is written in decimal digits only.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { setAtSteps, stepsOf } from "../../src/mappers/path-steps.js"

describe("stepsOf", () => {
  it.each([
    ["energy_amount.quantity", [false, false]],
    ["notes.0.body", [true, false, false]],
    ["document_paths.12.document_path", [true, false, false]],
    ["a.1x.b", [false, false, false]],
    ["a.x1.b", [false, false, false]],
    ["a.0", [true, false]],
    ["a.", [false, false]]
  ])("%s: whether each step is followed by an index", (path, nextIsIndex) => {
    expect(stepsOf(path)).toEqual(path.split(".").map((key, i) => ({ key, nextIsIndex: nextIsIndex[i] })))
  })

  it("keeps every key of any path, and knows a following index by its digits alone", () => {
    const key = fc.oneof(fc.stringMatching(/^[a-z_]{1,6}$/u), fc.nat({ max: 999 }).map(String), fc.constantFrom("1a", "a1", "-1", "1.5", " 1"))
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 6 }), (keys) => {
        const steps = stepsOf(keys.join("."))
        expect(steps.map((s) => s.key)).toEqual(keys.join(".").split("."))
        steps.forEach((step, i) => {
          const next = steps[i + 1]?.key
          expect(step.nextIsIndex).toBe(next !== undefined && next.length > 0 && [...next].every((c) => c >= "0" && c <= "9"))
        })
      }),
      { numRuns: 300, seed: 17 }
    )
  })
})

describe("setAtSteps", () => {
  it("makes a list before an index step, and leaves the indexes before it empty", () => {
    const target: Record<string, unknown> = {}
    setAtSteps(target, stepsOf("notes.1.body"), "B")
    expect(Array.isArray(target["notes"])).toBe(true)
    const notes = target["notes"] as Array<unknown>
    expect(notes).toHaveLength(2)
    expect(Object.keys(notes)).toEqual(["1"])
    expect(notes[1]).toEqual({ body: "B" })
  })

  it("adds to the objects already on the way, and replaces a null or a plain value found there", () => {
    const target: Record<string, unknown> = { a: { kept: 1 }, b: null, c: "text" }
    setAtSteps(target, stepsOf("a.x"), 1)
    setAtSteps(target, stepsOf("b.y"), 2)
    setAtSteps(target, stepsOf("c.z"), 3)
    expect(target).toEqual({ a: { kept: 1, x: 1 }, b: { y: 2 }, c: { z: 3 } })
  })

  it("sets a key named __proto__ as data", () => {
    const target: Record<string, unknown> = {}
    setAtSteps(target, stepsOf("__proto__.x"), 1)
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype)
    expect(Object.hasOwn(target, "__proto__")).toBe(true)
    expect(target["__proto__"]).toEqual({ x: 1 })
  })
})
