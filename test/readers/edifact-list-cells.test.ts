/**
 * List cells (`STS+Z33.3.1[]`): every repeat of a tag and qualifier in the nearest group that has one,
 * where the plain name gives the first only. Real MSCONS sends several `STS+Z33` (plausibility notes) and
 * `STS+10` (measurement classifications) on one value.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CONVERTERS } from "../../src/mappers/converters.js"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const OPTIONS: EdifactRecordOptions = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }

/** One message: the LOC group's segments, then one QTY per entry with the segments after it. */
const interchange = (loc: ReadonlyArray<string>, quantities: ReadonlyArray<ReadonlyArray<string>>): string => {
  const segments = ["UNH+1+MSCONS:D:04B:UN:2.4c", "BGM+7+MSI1+9", "UNS+D", "NAD+DP", "LOC+172+51238696781", ...loc, "LIN+1", "PIA+5+1-1?:1.29.0:SRW",
    ...quantities.flatMap((after, i) => [`QTY+220:${i}`, ...after])]
  return `UNA:+.? 'UNB+UNOC:3+S:14+R:14+240101:1200+IC1'${segments.join("'")}'UNT+${segments.length + 1}+1'UNZ+1+IC1'`
}

const read = async (text: string, options: EdifactRecordOptions = OPTIONS): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([text], options)) items.push(item)
  return items
}

const cellsOf = (items: ReadonlyArray<EdifactRecordItem>, names: ReadonlyArray<string>) =>
  items.map((i) => (i.kind === "record" ? Object.fromEntries(names.map((n) => [n, i.record[n]])) : `${i.kind} ${i.code} ${i.at.segment}`))

describe("list cells", () => {
  const text = interchange(["STS+Z33++Z85"], [
    ["DTM+163:202402292300?+00:303", "STS+Z32++Z92", "STS+Z33++Z84", "STS+10+Z36", "STS+Z33++Z87", "STS+10+Z37"],
    ["DTM+163:202402292315?+00:303"],
    ["STS+Z33++", "STS+Z33++ZC3"]
  ])
  const names = ["STS+Z33.3.1[]", "STS+Z33.3.1", "STS+10.2.1[]", "STS+10.2[]", "STS.1[]", "STS+Z32.3.1[]"]

  it("hold every repeat of the nearest group that has one, in order; the plain name the first", async () => {
    const expected = [
      { "STS+Z33.3.1[]": "Z84;Z87", "STS+Z33.3.1": "Z84", "STS+10.2.1[]": "Z36;Z37", "STS+10.2[]": "Z36;Z37", "STS.1[]": "Z32;Z33;10;Z33;10", "STS+Z32.3.1[]": "Z92" },
      // No STS of its own: the location's STS+Z33, never a sibling quantity's.
      { "STS+Z33.3.1[]": "Z85", "STS+Z33.3.1": "Z85", "STS+10.2.1[]": undefined, "STS+10.2[]": undefined, "STS.1[]": "Z33", "STS+Z32.3.1[]": undefined },
      // A blank item is left out; the plain name still gives the first segment's component, empty.
      { "STS+Z33.3.1[]": "ZC3", "STS+Z33.3.1": "", "STS+10.2.1[]": undefined, "STS+10.2[]": undefined, "STS.1[]": "Z33;Z33", "STS+Z32.3.1[]": undefined }
    ]
    expect(cellsOf(await read(text), names)).toEqual(expected)
    expect(cellsOf(await read(text, { ...OPTIONS, columns: names }), names)).toEqual(expected)
  })

  it("reject a record whose item holds the separator, when the list cell is read", async () => {
    const withSemicolon = interchange([], [["STS+Z33++A;B"], ["STS+Z33++Z84"]])
    expect(cellsOf(await read(withSemicolon, { ...OPTIONS, columns: ["STS+Z33.3.1[]"] }), ["STS+Z33.3.1[]"])).toEqual(["reject invalid_list_item 10", { "STS+Z33.3.1[]": "Z84" }])
    const [reject] = await read(withSemicolon, { ...OPTIONS, columns: ["STS+Z33.3.1[]"] })
    expect(reject!.kind === "reject" && reject!.detail).toBe(`STS+Z33.3.1[] "A;B": an item (segment 11) holds ";", which separates the items of a list cell`)
    // The plain cell is not a list: its text is taken whole.
    expect(cellsOf(await read(withSemicolon, { ...OPTIONS, columns: ["STS+Z33.3.1"] }), ["STS+Z33.3.1"])).toEqual([{ "STS+Z33.3.1": "A;B" }, { "STS+Z33.3.1": "Z84" }])
  })

  it("give the list converter back every code, in order, with all cells or some", async () => {
    const code = fc.stringMatching(/^[A-Z0-9]{1,3}$/u)
    await fc.assert(fc.asyncProperty(fc.array(fc.array(code, { maxLength: 4 }), { minLength: 1, maxLength: 4 }), async (perQuantity) => {
      const text = interchange([], perQuantity.map((codes) => codes.map((c) => `STS+Z33++${c}`)))
      for (const options of [OPTIONS, { ...OPTIONS, columns: ["STS+Z33.3.1[]"] }]) {
        const items = await read(text, options)
        expect(items.map((i) => i.kind)).toEqual(perQuantity.map(() => "record"))
        items.forEach((item, i) => {
          const cell = item.kind === "record" ? item.record["STS+Z33.3.1[]"] : undefined
          if (perQuantity[i]!.length === 0) expect(cell).toBeUndefined()
          else expect(CONVERTERS.list.convert(cell!, {})).toEqual({ ok: true, value: perQuantity[i] })
        })
      }
    }), { numRuns: 100 })
  })
})
