import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SeenRows } from "../../../src/mappers/run/seen-rows.js"

describe("SeenRows", () => {
  it("answers as a Map of first lines does, through the growth of its tables", () => {
    // 2,000 to 6,000 rows, most of them distinct: the 64 tables of 16 slots each take 12 rows before they
    // first grow, so every run grows most tables once and the longest ones several times.
    const key = fc.oneof(fc.nat(20_000).map((n) => `KD-${n};51238696781`), fc.string({ maxLength: 6 }))
    const line = fc.oneof(fc.nat(1000), fc.integer({ min: 0, max: 0xfffffffe }))
    fc.assert(
      fc.property(fc.array(fc.tuple(key, line), { minLength: 2000, maxLength: 6000, size: "max" }), (steps) => {
        const seen = new SeenRows()
        const model = new Map<string, number>()
        const answers: Array<number | undefined> = []
        const expected: Array<number | undefined> = []
        for (const [k, at] of steps) {
          answers.push(seen.see(k, at))
          expected.push(model.get(k))
          if (!model.has(k)) model.set(k, at)
        }
        expect(answers).toEqual(expected)
        expect(seen.size).toBe(model.size)
        expect([...model.keys()].map((k) => seen.see(k, 0))).toEqual([...model.values()])
        expect(seen.size).toBe(model.size)
      }),
      { numRuns: 60 }
    )
  })

  it("holds 300,000 distinct rows and finds each at its own line", () => {
    const seen = new SeenRows()
    const row = (i: number): string => `KD-${i};51238696781;01.01.2024 00:00`
    let repeats = 0
    for (let i = 0; i < 300_000; i++) if (seen.see(row(i), i + 2) !== undefined) repeats++
    expect(repeats).toBe(0)
    expect(seen.size).toBe(300_000)
    const found = Array.from({ length: 301 }, (_, k) => seen.see(row(k * 997), 1))
    expect(found).toEqual(Array.from({ length: 301 }, (_, k) => k * 997 + 2))
    expect(seen.size).toBe(300_000)
  })

  it("keeps a row's first line, and lines up to 2^32 - 2 exactly", () => {
    const seen = new SeenRows()
    for (const [key, line] of [["a", 0], ["b", 2 ** 31 - 1], ["c", 2 ** 31], ["d", 2 ** 32 - 2]] as const) {
      expect(seen.see(key, line)).toBeUndefined()
      expect(seen.see(key, 7)).toBe(line)
    }
  })

  it("refuses a line it cannot hold", () => {
    const seen = new SeenRows()
    for (const line of [-1, 1.5, 2 ** 32 - 1, Number.NaN]) expect(() => seen.see("a", line)).toThrow(RangeError)
    expect(seen.size).toBe(0)
  })
})
