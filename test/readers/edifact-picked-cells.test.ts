import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"
import { EDIFACT_FIXTURES, fixtureBytes } from "./edifact-fixtures.js"

const OPTIONS: EdifactRecordOptions = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B", "MSCONS:D:04B:UN"], segmentCount: "warn" }

const read = async (input: string | Uint8Array, options: EdifactRecordOptions): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([input], options)) items.push(item)
  return items
}

/** A small MSCONS whose DTMs, STS and quantities vary, with cells of one name in several groups. */
const message = (quantities: ReadonlyArray<{ q: string; day: number; status: boolean }>): string => {
  const body = quantities.map(({ q, day, status }) =>
    `QTY+220:${q}:KWH'DTM+163:202403${String(day).padStart(2, "0")}2300?+00:303'DTM+164:202403${String(day + 1).padStart(2, "0")}2300?+00:303'${status ? "STS+Z32++Z88'" : ""}`
  ).join("")
  const segments = `UNH+1+MSCONS:D:04B:UN:2.4c'BGM+7+M1+9'DTM+137:202404010800?+00:303'UNS+D'NAD+DP'LOC+172+51238696781'DTM+163:202402292300?+00:303'LIN+1'PIA+5+1-1?:1.29.0:SRW'${body}`
  const count = segments.split("'").length
  return `UNA:+.? 'UNB+UNOC:3+S+R+240401:0800+I1'${segments}UNT+${count}+1'UNZ+1+I1'`
}

describe("readEdifactRecords with columns (only the cells a mapping reads)", () => {
  it("gives each wanted cell the value it has among all cells, for the real fixtures", async () => {
    let compared = 0
    for (const name of EDIFACT_FIXTURES) {
      const bytes = fixtureBytes(name)
      const all = await read(bytes, OPTIONS)
      const names = [...new Set(all.flatMap((i) => (i.kind === "record" ? Object.keys(i.record) : [])))]
      const wanted = [...names.filter((_, i) => i % 3 === 0), "DTM+163", "QTY.1.2", "NOT+A.1", "toString", "@account"]
      const picked = await read(bytes, { ...OPTIONS, columns: wanted })
      expect(picked.length).toBe(all.length)
      picked.forEach((item, i) => {
        const full = all[i]!
        expect(item.kind).toBe(full.kind)
        if (item.kind !== "record" || full.kind !== "record") return
        const expected = Object.fromEntries(Object.entries(full.record).filter(([k]) => wanted.includes(k) || k.startsWith("@")))
        expect(item.record).toEqual(expected)
        compared++
      })
    }
    expect(compared).toBeGreaterThan(5000)
  })

  it("agrees with all cells for any choice of columns on generated messages", async () => {
    const quantity = fc.record({ q: fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,3})?$/u), day: fc.integer({ min: 1, max: 27 }), status: fc.boolean() })
    await fc.assert(fc.asyncProperty(fc.array(quantity, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 12 }), async (quantities, choice) => {
      const text = message(quantities)
      const all = await read(text, OPTIONS)
      const records = all.filter((i) => i.kind === "record")
      expect(records.length).toBe(quantities.length)
      const names = [...new Set(records.flatMap((i) => (i.kind === "record" ? Object.keys(i.record) : [])))]
      const wanted = choice.map((n) => names[n % names.length]!)
      const picked = (await read(text, { ...OPTIONS, columns: wanted })).filter((i) => i.kind === "record")
      picked.forEach((item, i) => {
        const full = records[i]!
        if (item.kind !== "record" || full.kind !== "record") throw new Error("not a record")
        expect(item.record).toEqual(Object.fromEntries(Object.entries(full.record).filter(([k]) => wanted.includes(k) || k.startsWith("@"))))
        expect(item.record["QTY.1.2"] ?? quantities[i]!.q).toBe(quantities[i]!.q)
      })
    }), { numRuns: 60 })
  })
})
