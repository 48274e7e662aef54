import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ItemSpool } from "../../../src/mappers/run/item-spool.js"

type Item = { readonly kind: string; readonly raw: string; readonly cells: Record<string, string | Array<string>>; readonly at: { readonly segment: number } }

const item = fc.record({
  kind: fc.constantFrom("record", "warning", "exclusion"),
  // Latin-1 as the reader reads EDIFACT, and beyond (a converted cell, a detail): every character comes back.
  raw: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }), fc.constantFrom("QTY+220:4,5'", "Zählpunkt ß\u00ff", "\u2028\n\"\\", "€ 😀")),
  cells: fc.dictionary(fc.constantFrom("LOC+172.2.1", "DTM+163", "STS+Z33.3.1[]"), fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }))),
  at: fc.record({ segment: fc.nat() })
})

/** Writes `inputs` into a spool that holds `memoryChars` in memory, reads them back: the items of each input, in order. */
const roundTrip = (inputs: ReadonlyArray<ReadonlyArray<Item>>, memoryChars: number, twice = false): Array<Array<Item>> => {
  const spool = new ItemSpool<Item>(memoryChars)
  try {
    for (const items of inputs) {
      spool.begin()
      for (const i of items) spool.write(i)
    }
    spool.end()
    const readAll = (): Array<Array<Item>> => inputs.map(() => [...spool.read()].flat())
    if (twice) {
      readAll()
      spool.rewind()
    }
    return readAll()
  } finally {
    spool.close()
  }
}

describe("ItemSpool", () => {
  it("gives back each input's items in order, equal to those written, in memory or through its file", () => {
    fc.assert(
      fc.property(fc.array(fc.array(item, { maxLength: 30 }), { maxLength: 6 }), fc.constantFrom(0, 1, 200, 100_000), fc.boolean(), (inputs, memoryChars, twice) => {
        expect(roundTrip(inputs, memoryChars, twice)).toEqual(inputs)
      }),
      { numRuns: 150 }
    )
  })

  it("reads a line longer than its piece of the file, and many inputs of none", () => {
    const long: Item = { kind: "record", raw: "Ä".repeat(5 * 1024 * 1024), cells: { "DTM+163": "2024-10-27T02:00:00+01:00" }, at: { segment: 3 } }
    const inputs = [[], [long, { ...long, raw: "QTY+220:1'" }], [], []]
    expect(roundTrip(inputs, 10)).toEqual(inputs)
  })

  it("reads back lines decoded in pieces: lines across each 64 KB piece, and lines longer than one, in memory or through its file", () => {
    // Lengths around the piece of 64 KB, with characters of 1 to 4 bytes, so that piece ends fall in lines of every kind.
    const lengths = [1, 65_535, 65_536, 65_537, 30_000, 40_000, 70_000, 3, 200_000, 12, 64 * 1024 - 40, 50]
    const chars = ["a", "Ä", "€", "😀"]
    const items: Array<Item> = lengths.map((n, i) => ({ kind: "record", raw: chars[i % 4]!.repeat(Math.ceil(n / chars[i % 4]!.length)), cells: { "DTM+163": String(i) }, at: { segment: i } }))
    const small: Array<Item> = Array.from({ length: 3000 }, (_, i) => ({ kind: "record", raw: `QTY+220:${i}'`, cells: {}, at: { segment: i } }))
    const inputs = [items, small, [...small.slice(0, 700), ...items.slice(0, 4)]]
    expect(roundTrip(inputs, Number.MAX_SAFE_INTEGER)).toEqual(inputs)
    expect(roundTrip(inputs, 10)).toEqual(inputs)
  })

  it("gives back megabytes of lines through many blocks: in memory, then through its file, whose block is written again", () => {
    // About 6 MB of lines: more than one block of 1 MB, more than one read of the file (4 MB), lines across both.
    const inputs: Array<Array<Item>> = [0, 1, 2].map((input) =>
      Array.from({ length: 20_000 }, (_, i) => ({ kind: "record", raw: `QTY+220:${input}.${i}'${"Ä".repeat(i % 97)}`, cells: { "DTM+163": `${input}-${i}` }, at: { segment: i } }))
    )
    for (const memoryChars of [0, 3 * 1024 * 1024, Number.MAX_SAFE_INTEGER]) {
      expect(roundTrip(inputs, memoryChars)).toEqual(inputs)
      expect(roundTrip(inputs, memoryChars, true)).toEqual(inputs)
    }
  })

  it("gives items in runs of at most 512, and refuses to read an input it does not hold", () => {
    const spool = new ItemSpool<number>()
    spool.begin()
    for (let i = 0; i < 1100; i++) spool.write(i)
    spool.end()
    const runs = [...spool.read()]
    expect(runs.map((r) => r.length)).toEqual([512, 512, 76])
    expect(runs.flat()).toEqual(Array.from({ length: 1100 }, (_, i) => i))
    expect(() => [...spool.read()]).toThrow("the spool holds no more inputs")
    spool.close()
  })
})
