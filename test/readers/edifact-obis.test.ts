/**
 * An OBIS code in PIA C212 whose ":" the sender did not release (`PIA+5+1-1:1.29.1:SRW`, seen in real
 * files): read as the code it is, with a located warning, never as item "1-1" of type "1.29.1".
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const OPTIONS: EdifactRecordOptions = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }

const interchange = (pia: string, quantities = 2): string => {
  const segments = ["UNH+1+MSCONS:D:04B:UN:2.4c", "BGM+7+MSI1+9", "UNS+D", "NAD+DP", "LOC+172+51238696781", "LIN+1", pia,
    ...Array.from({ length: quantities }, (_, i) => `QTY+220:${i}:KWH`)]
  return `UNA:+.? 'UNB+UNOC:3+S:14+R:14+220101:1200+IC1'${segments.join("'")}'UNT+${segments.length + 1}+1'UNZ+1+IC1'`
}

const read = async (text: string, options: EdifactRecordOptions = OPTIONS): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([text], options)) items.push(item)
  return items
}

/** Each item: a record's item number and type, or a notice's code and segment. */
const summary = (items: ReadonlyArray<EdifactRecordItem>) =>
  items.map((i) => (i.kind === "record" ? `${i.record["PIA+5.2.1"]} ${i.record["PIA+5.2.2"]}` : `${i.kind} ${i.code} ${i.at.segment}`))

describe("an OBIS code whose colon is not released", () => {
  it("is read as the code, with one warning at its PIA, with all cells or some", async () => {
    for (const options of [OPTIONS, { ...OPTIONS, columns: ["PIA+5.2.1", "PIA+5.2.2"] }]) {
      expect(summary(await read(interchange("PIA+5+1-1:1.29.1:SRW"), options))).toEqual(["warning unreleased_obis_colon 9", "1-1:1.29.1 SRW", "1-1:1.29.1 SRW"])
      expect(summary(await read(interchange("PIA+5+1-1?:1.29.1:SRW"), options))).toEqual(["1-1:1.29.1 SRW", "1-1:1.29.1 SRW"])
    }
    // Without its type: the code is read whole, and the missing type is for the mapping to refuse.
    expect(summary(await read(interchange("PIA+5+1-1:1.29.1", 1)))).toEqual(["warning unreleased_obis_colon 9", "1-1:1.29.1 undefined"])
    const [warning] = await read(interchange("PIA+5+1-0:1.8.0*255:Z02"))
    expect(warning).toMatchObject({ kind: "warning", code: "unreleased_obis_colon", raw: "PIA+5+1-0:1.8.0*255:Z02'", at: { message: 1, messageReference: "1" } })
    expect(warning!.kind === "warning" && warning!.detail).toContain(`"1-0:1.8.0*255"`)
  })

  it("leaves a C212 alone that is not an OBIS code cut at its colon", async () => {
    for (const pia of ["PIA+5+AUA:Z08", "PIA+5+ABC:Z02:89", "PIA+5+1-1:SRW:89", "PIA+5+11:1.29.1:SRW", "PIA+5+1-1:1.29:SRW"]) {
      const items = await read(interchange(pia, 1))
      expect(items.map((i) => i.kind)).toEqual(["record"])
    }
  })

  it("gives every OBIS code and type as written, released or not; a warning only when not", async () => {
    const n = fc.integer({ min: 0, max: 255 }).map(String)
    const obisArb = fc.tuple(n, n, n, n, n, fc.option(n, { nil: undefined })).map(([a, b, c, d, e, f]) => `${a}-${b}:${c}.${d}.${e}${f === undefined ? "" : `*${f}`}`)
    await fc.assert(fc.asyncProperty(obisArb, fc.constantFrom("SRW", "Z02", "Z08"), fc.boolean(), async (obis, type, released) => {
      const written = released ? obis.replace(":", "?:") : obis
      const items = await read(interchange(`PIA+5+${written}:${type}`, 1))
      expect(summary(items)).toEqual([...(released ? [] : ["warning unreleased_obis_colon 9"]), `${obis} ${type}`])
    }), { numRuns: 200 })
  })
})
