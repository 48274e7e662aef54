import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { repeatedJsonKeys } from "../../src/readers/json/repeated-json-keys.js"

/** A JSON value written by hand, so that an object may repeat a key (JSON.stringify of an object cannot). */
type Written = { readonly kind: "scalar"; readonly text: string } | { readonly kind: "array"; readonly items: ReadonlyArray<Written> } | { readonly kind: "object"; readonly members: ReadonlyArray<readonly [string, boolean, Written]> }

const writtenArb: fc.Arbitrary<Written> = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.json(), fc.string().map((t) => JSON.stringify(t))).map((text) => ({ kind: "scalar" as const, text })),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => ({ kind: "array" as const, items })),
    // Keys from a small set, so that repeats happen; each written plainly or with \u escapes.
    fc.array(fc.tuple(fc.constantFrom("a", "b", "Menge", "\"q\"", "ä", ""), fc.boolean(), tie("value")), { maxLength: 4 }).map((members) => ({ kind: "object" as const, members }))
  )
})).value

const escapedKey = (key: string): string => `"${[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`
const textOf = (w: Written): string =>
  w.kind === "scalar" ? w.text
  : w.kind === "array" ? `[${w.items.map(textOf).join(", ")}]`
  : `{ ${w.members.map(([k, escaped, v]) => `${escaped ? escapedKey(k) : JSON.stringify(k)}: ${textOf(v)}`).join(",")} }`

/** The first key met a second time in one object, walking the value in the order it is written. */
const firstRepeat = (w: Written): string | undefined => {
  if (w.kind === "scalar") return undefined
  if (w.kind === "array") {
    for (const item of w.items) {
      const found = firstRepeat(item)
      if (found !== undefined) return found
    }
    return undefined
  }
  const seen = new Set<string>()
  for (const [key, , value] of w.members) {
    if (seen.has(key)) return key
    seen.add(key)
    const found = firstRepeat(value)
    if (found !== undefined) return found
  }
  return undefined
}

describe("repeatedJsonKeys", () => {
  it("finds the first key repeated in one object, at any depth, as a walk of the written value does", () => {
    let repeats = 0
    fc.assert(
      fc.property(writtenArb, (w) => {
        const text = textOf(w)
        expect(() => JSON.parse(text)).not.toThrow()
        const expected = firstRepeat(w)
        if (expected !== undefined) repeats++
        expect(repeatedJsonKeys(text)[0]?.key).toBe(expected)
      }),
      { numRuns: 2000 }
    )
    // Both kinds of text were drawn.
    expect(repeats).toBeGreaterThan(100)
    expect(repeats).toBeLessThan(1900)
  })

  it("names the repeated key of a legacy row, and leaves keys repeated only across objects alone", () => {
    expect(repeatedJsonKeys("{\"Konto\":\"KD-1\",\"Menge\":1,\"Menge\":2}")).toEqual([{ key: "Menge", element: undefined }])
    expect(repeatedJsonKeys("{\"A\":1,\"\\u0041\":2}")[0]?.key).toBe("A")
    expect(repeatedJsonKeys("{\"a\":{\"x\":1},\"b\":{\"x\":2},\"c\":[{\"x\":3},{\"x\":4}]}")).toEqual([])
    expect(repeatedJsonKeys("{\"text\":\"\\\"a\\\": 1, \\\"a\\\": 2\"}")).toEqual([])
  })

  it("names the first repeat of each element of a top-level array, by its index", () => {
    fc.assert(
      fc.property(fc.array(writtenArb, { maxLength: 6 }), (elements) => {
        const text = textOf({ kind: "array", items: elements })
        const expected = elements.flatMap((w, element) => {
          const key = firstRepeat(w)
          return key === undefined ? [] : [{ key, element }]
        })
        expect(repeatedJsonKeys(text)).toEqual(expected)
      }),
      { numRuns: 1000 }
    )
  })
})
