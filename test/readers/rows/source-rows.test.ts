import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cellsByColumn } from "../../../src/readers/rows/source-rows.js"

describe("cellsByColumn", () => {
  it("gives every column its cell as an own property, in header order, whatever the names", () => {
    const name = fc.oneof(fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "", "Menge"), fc.string({ maxLength: 5 }))
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), fc.boolean(), (names, trailing) => {
        const fields = names.map((_, i) => `cell ${i}`)
        const record = cellsByColumn(names, trailing ? [...fields, ""] : fields)
        expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
        expect(Object.keys(record).sort()).toEqual([...names].sort())
        for (const [i, n] of names.entries()) {
          expect(Object.hasOwn(record, n), n).toBe(true)
          expect(record[n]).toBe(`cell ${i}`)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("keeps a column named __proto__ as a cell, not as the record's prototype", () => {
    const record = cellsByColumn(["Konto", "__proto__"], ["KD-1", "x"])
    expect(JSON.stringify(record)).toBe("{\"Konto\":\"KD-1\",\"__proto__\":\"x\"}")
  })
})
