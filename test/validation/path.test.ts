/**
 * Paths into JSON values (`src/validation/path.ts`): reading a value at a path through own properties only,
 * JSON type names, and the document order of paths, checked against plain references.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compareOrderKeys, documentOrderKey, jsonTypeOf, valueAt } from "../../src/validation/path.js"

const SEED = 20_251_125

/** Lexicographic order of number lists, a list before its extensions: the reference for compareOrderKeys. */
const referenceOrder = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  const at = a.findIndex((n, i) => i >= b.length || n !== b[i])
  if (at === -1) return a.length === b.length ? 0 : -1
  if (at >= b.length) return 1
  return a[at]! < b[at]! ? -1 : 1
}

describe("compareOrderKeys", () => {
  it("orders number lists as the lexicographic reference does, a prefix first", () => {
    const key = fc.array(fc.nat({ max: 3 }), { maxLength: 4 })
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(Math.sign(compareOrderKeys(a, b))).toBe(referenceOrder(a, b))
      }),
      { numRuns: 2_000, seed: SEED }
    )
  })

  it("a shorter key that is a prefix comes first, and equal keys tie", () => {
    expect(compareOrderKeys([1], [1, 0])).toBeLessThan(0)
    expect(compareOrderKeys([1, 0], [1])).toBeGreaterThan(0)
    expect(compareOrderKeys([2, 5], [2, 5])).toBe(0)
    expect(compareOrderKeys([0, 9], [1])).toBeLessThan(0)
  })
})

describe("valueAt", () => {
  it("reads own properties and array items only, and nothing inside a string or a primitive", () => {
    const root = { a: [10, { b: "x" }], s: "abc" }
    expect(valueAt(root, ["a", 1, "b"])).toBe("x")
    expect(valueAt(root, ["a", 0])).toBe(10)
    expect(valueAt(root, [])).toBe(root)
    expect(valueAt(root, ["s", 0])).toBeUndefined()
    expect(valueAt(root, ["s", "length"])).toBeUndefined()
    expect(valueAt(root, ["toString"])).toBeUndefined()
    expect(valueAt(root, ["a", "length"])).toBe(2)
    expect(valueAt(root, ["a", 2])).toBeUndefined()
    expect(valueAt(null, ["a"])).toBeUndefined()
    expect(valueAt({ a: null }, ["a", "b"])).toBeUndefined()
  })

  it("gives back every leaf of a JSON value at its path", () => {
    const leaves = (value: unknown, path: Array<string | number> = []): Array<[Array<string | number>, unknown]> =>
      Array.isArray(value)
        ? value.flatMap((item, i) => leaves(item, [...path, i]))
        : value !== null && typeof value === "object"
        ? Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]))
        : [[path, value]]
    let checked = 0
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (json) => {
        for (const [path, leaf] of leaves(json)) {
          checked++
          expect(valueAt(json, path)).toStrictEqual(leaf)
        }
      }),
      { numRuns: 300, seed: SEED }
    )
    expect(checked).toBeGreaterThan(300)
  })
})

describe("jsonTypeOf", () => {
  it("names the JSON types", () => {
    expect([null, [], {}, 1, "x", true].map(jsonTypeOf)).toEqual(["null", "array", "object", "number", "string", "boolean"])
  })
})

describe("documentOrderKey", () => {
  it("is each step's position: array index, or the key's place among the object's keys; absent steps last", () => {
    const root = { z: 1, list: [{ q: 0, p: 1 }, 5], a: 2 }
    expect(documentOrderKey(root, ["z"])).toEqual([0])
    expect(documentOrderKey(root, ["a"])).toEqual([2])
    expect(documentOrderKey(root, ["list", 0, "p"])).toEqual([1, 0, 1])
    expect(documentOrderKey(root, ["list", 1])).toEqual([1, 1])
    expect(documentOrderKey(root, ["missing", "deeper"])).toEqual([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER])
    // A number step into an object is a key (integer-like keys come first in an object's key order).
    expect(documentOrderKey({ b: 0, 5: 1 }, [5])).toEqual([0])
    expect(documentOrderKey({ b: 0, 5: 1 }, ["b"])).toEqual([1])
    // Inherited keys are not keys of the object.
    expect(documentOrderKey(Object.assign(Object.create({ inherited: 1 }), { own: 1 }), ["inherited"])).toEqual([Number.MAX_SAFE_INTEGER])
  })

  it("an array step is the index itself, holes before it included; a key of an array that is no index is its place among the keys", () => {
    const sparse = [, , { a: 1 }]
    expect(documentOrderKey(sparse, [2, "a"])).toEqual([2, 0])
    // The digits of an index as a key name the same item, placed among the array's own keys.
    expect(documentOrderKey(["x", "y"], ["1"])).toEqual([1])
    const withNote = Object.assign(["x", "y"], { note: 1 })
    expect(documentOrderKey(withNote, ["note"])).toEqual([2])
  })

  it("a step below null or a primitive is absent", () => {
    expect(documentOrderKey({ a: null }, ["a", "b"])).toEqual([0, Number.MAX_SAFE_INTEGER])
    expect(documentOrderKey({ a: "text" }, ["a", 0])).toEqual([0, Number.MAX_SAFE_INTEGER])
  })

  it("sorts the paths of a JSON value in the order its text lists them", () => {
    const paths = (value: unknown, path: Array<string | number> = []): Array<Array<string | number>> =>
      Array.isArray(value)
        ? [path, ...value.flatMap((item, i) => paths(item, [...path, i]))]
        : value !== null && typeof value === "object"
        ? [path, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...path, k]))]
        : [path]
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (json) => {
        const inTextOrder = paths(json)
        const shuffled = [...inTextOrder].reverse()
        shuffled.sort((a, b) => compareOrderKeys(documentOrderKey(json, a), documentOrderKey(json, b)))
        expect(shuffled).toEqual(inTextOrder)
      }),
      { numRuns: 300, seed: SEED }
    )
  })
})
