/**
 * Records of several tags (`"record": ["LIN", "TAX"]`), each with its tag as the cell `@record`, and
 * groups from the message's start (`"detail": "UNH"`), where a `UNS` closes every open group: the
 * segments expected are counted from the generated text, never from the reader.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const read = async (text: string, options: EdifactRecordOptions): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([text], options)) items.push(item)
  return items
}

const INVOIC: EdifactRecordOptions = { record: ["LIN", "TAX"], groups: ["LIN"], detail: "UNH", messages: ["INVOIC:D:06A"] }

/** An invoice of two lines, each with its tax, and a summary with the total and one tax (segment 1 is the UNB). */
const invoice = [
  "UNB+UNOC:3+9900000000001:500+9900000000002:500+240401:0800+I1",
  "UNH+1+INVOIC:D:06A:UN:2.8e", // 2
  "BGM+380+R-1+9",
  "DTM+137:20240401:102",
  "RFF+Z13:31002", // 5
  "NAD+MS+9900000000001::293",
  "LIN+1++9990001000798:Z09", // 7
  "QTY+47:100:KWH",
  "MOA+203:25.00",
  "PRI+CAL:0.25", // 10
  "TAX+7+VAT+++:::19+S",
  "LIN+2++9990001000811:Z09", // 12
  "QTY+47:1",
  "MOA+203:10.00",
  "TAX+7+VAT+++:::19+S", // 15
  "UNS+S",
  "MOA+77:41.65",
  "TAX+7+VAT+++:::19+S", // 18
  "MOA+124:6.65",
  "MOA+125:35.00", // 20
  "UNT+20+1",
  "UNZ+1+I1"
]
const text = (segments: ReadonlyArray<string>): string => segments.map((s) => `${s}'`).join("")

const cellsOf = (items: ReadonlyArray<EdifactRecordItem>): Array<Record<string, unknown>> => items.map((i) => (i.kind === "record" ? i.record : { [i.kind]: i.code, at: i.at.segment }))
/** The records alone (a message outside any interchange also gives a warning). */
const recordsOf = (items: ReadonlyArray<EdifactRecordItem>): Array<Record<string, unknown>> => items.flatMap((i) => (i.kind === "record" ? [i.record] : []))

describe("readEdifactRecords: records of several tags", () => {
  it("makes a record of each LIN and each TAX, lines' taxes with their line, the summary's with the totals only", async () => {
    const items = await read(text(invoice), INVOIC)
    const records = cellsOf(items)
    expect(records.map((r) => [r["@record"], r["@segment"]])).toEqual([["LIN", "7"], ["TAX", "11"], ["LIN", "12"], ["TAX", "15"], ["TAX", "18"]])
    const header = { "BGM.2": "R-1", "RFF+Z13.1.2": "31002", "NAD+MS.2.1": "9900000000001", "@message": "1", "@interchange": "I1" }
    // A line: its own segments up to its TAX, and the header.
    expect(records[0]).toMatchObject({ ...header, "LIN.1.1": "1", "LIN.3.1": "9990001000798", "QTY+47.1.2": "100", "MOA+203.1.2": "25.00", "PRI+CAL.1.2": "0.25" })
    expect(records[0]).not.toHaveProperty("TAX.5.4")
    expect(records[0]).not.toHaveProperty("MOA+77.1.2")
    // A line's tax: its own TAX, with the cells of the line it is in.
    expect(records[1]).toMatchObject({ ...header, "TAX.5.4": "19", "TAX.6": "S", "LIN.1.1": "1", "MOA+203.1.2": "25.00" })
    // The second line has nothing of the first (no PRI).
    expect(records[2]).toMatchObject({ ...header, "LIN.1.1": "2", "MOA+203.1.2": "10.00" })
    expect(records[2]).not.toHaveProperty("PRI+CAL.1.2")
    expect(records[3]).toMatchObject({ "TAX.5.4": "19", "LIN.1.1": "2" })
    // The summary's tax: after the UNS, in no line; the totals before it are its cells.
    expect(records[4]).toMatchObject({ ...header, "UNS.1.1": "S", "MOA+77.1.2": "41.65", "MOA+124.1.2": "6.65", "MOA+125.1.2": "35.00", "TAX.5.4": "19" })
    expect(records[4]).not.toHaveProperty("LIN.1.1")
    expect(records[4]).not.toHaveProperty("MOA+203.1.2")
    for (const r of records.slice(0, 4)) expect(r).not.toHaveProperty("UNS.1.1")
    expect(items[4]!.raw).toBe("TAX+7+VAT+++:::19+S'MOA+124:6.65'MOA+125:35.00'")
  })

  it("gives the same records with only the wanted cells as with all of them", async () => {
    const columns = ["@record", "LIN.1.1", "TAX.5.4", "MOA+77.1.2", "UNS.1.1"]
    const all = cellsOf(await read(text(invoice), INVOIC))
    const picked = cellsOf(await read(text(invoice), { ...INVOIC, columns }))
    expect(picked).toEqual(all.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => columns.includes(k) || ["@message", "@interchange", "@segment", "@offset"].includes(k)))))
  })

  it("by default opens groups after the UNS only: the lines before it are rejected record_before_uns, located", async () => {
    const { detail: _, ...options } = INVOIC
    const items = await read(text(invoice), options)
    expect(cellsOf(items)).toEqual([
      { reject: "record_before_uns", at: 7 },
      { reject: "record_before_uns", at: 11 },
      { reject: "record_before_uns", at: 12 },
      { reject: "record_before_uns", at: 15 },
      expect.objectContaining({ "@record": "TAX", "@segment": "18", "MOA+77.1.2": "41.65" })
    ])
    expect(items[2]).toMatchObject({ detail: "the LIN segment is before the UNS, in the message's header, where no group holds it", raw: "LIN+2++9990001000811:Z09'" })
  })

  it("rejects every record segment of a damaged message, whatever its tag, and only that message", async () => {
    const second = invoice.slice(1, 21).map((s) => s.replace("UNH+1+", "UNH+2+").replace("UNT+20+1", "UNT+20+2"))
    const damaged = invoice.slice(1, 21).map((s) => (s === "UNT+20+1" ? "UNT+19+1" : s))
    const items = await read(text([invoice[0]!, ...damaged, ...second, "UNZ+2+I1"]), INVOIC)
    expect(items.map((i) => (i.kind === "record" ? `record ${i.at.segment}` : `${i.kind} ${i.kind === "reject" ? i.code : ""} ${i.at.segment}`))).toEqual([
      "reject segment_count_mismatch 7",
      "reject segment_count_mismatch 11",
      "reject segment_count_mismatch 12",
      "reject segment_count_mismatch 15",
      "reject segment_count_mismatch 18",
      "record 27",
      "record 31",
      "record 32",
      "record 35",
      "record 38"
    ])
    expect(items[5]!.at).toMatchObject({ message: 2, messageReference: "2" })
  })

  it("reads a record tag that is not a group tag as a group inside every listed one", async () => {
    // NAD opens groups; QTY, not listed, is inside the nearest NAD; a QTY before any NAD is in the header.
    const segments = ["UNH+1+INVOIC:D:06A:UN:2.8e", "BGM+380+R-1+9", "QTY+1:5", "NAD+MS+A", "QTY+1:6", "DTM+137:20240401:102", "QTY+1:7", "UNT+8+1"]
    const items = await read(text(segments), { record: ["QTY"], groups: ["NAD"], detail: "UNH", messages: ["INVOIC:D:06A"] })
    expect(recordsOf(items).map((r) => [r["QTY.1.2"], r["NAD.2.1"], r["DTM+137"]])).toEqual([["5", undefined, undefined], ["6", "A", "2024-04-01T00:00:00+02:00"], ["7", "A", undefined]])
  })

  it("reads \"record\": \"QTY\" and \"record\": [\"QTY\"] alike, each record's @record its tag", async () => {
    const mscons = ["UNH+M1+MSCONS:D:04B:UN:2.4c", "BGM+7+DOC-1+9", "UNS+D", "NAD+DP", "LOC+172+MELO-1", "LIN+1", "QTY+220:4.5", "QTY+220:7", "UNT+9+M1"]
    const options = { groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }
    const one = recordsOf(await read(text(mscons), { ...options, record: "QTY" }))
    expect(one).toHaveLength(2)
    expect(recordsOf(await read(text(mscons), { ...options, record: ["QTY"] }))).toEqual(one)
    expect(one.map((r) => [r["@record"], r["QTY.1.2"], r["LOC+172.2.1"]])).toEqual([["QTY", "4.5", "MELO-1"], ["QTY", "7", "MELO-1"]])
    // No interchange: no @interchange.
    expect(one[0]).not.toHaveProperty("@interchange")
  })
})

const TAGS = ["LIN", "TAX", "MOA", "QTY", "NAD"] as const
const BODY: Record<string, ReadonlyArray<string>> = {
  LIN: ["LIN+1++A:Z09", "LIN+2"],
  TAX: ["TAX+7+VAT+++:::19+S"],
  MOA: ["MOA+203:1.5", "MOA+77:2"],
  QTY: ["QTY+47:3"],
  NAD: ["NAD+MS+9900000000001::293"],
  DTM: ["DTM+137:20240401:102"],
  UNS: ["UNS+S"]
}
const segmentArb = fc.constantFrom(...Object.values(BODY).flat())

/** A message of generated segments; `damage`: none, a wrong UNT count, a bad release character in one segment, another message type. */
const messageArb = fc.record({
  body: fc.array(segmentArb, { maxLength: 14 }),
  damage: fc.constantFrom("none", "none", "count", "release", "type"),
  at: fc.nat()
})

describe("readEdifactRecords: every record segment of any listed tag in exactly one record or reject (property)", () => {
  it("holds for any tags, groups, detail and damage", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...TAGS], { minLength: 1 }),
        fc.subarray([...TAGS]).chain((g) => fc.shuffledSubarray(g, { minLength: g.length, maxLength: g.length })),
        fc.constantFrom<"UNS" | "UNH" | undefined>("UNS", "UNH", undefined),
        fc.array(messageArb, { minLength: 1, maxLength: 4 }),
        async (record, groups, detail, messages) => {
          const segments: Array<string> = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1"]
          messages.forEach(({ body, damage, at }, m) => {
            const reference = String(m + 1)
            const inner = [`UNH+${reference}+${damage === "type" ? "ORDERS:D:96A:UN:EAN008" : "INVOIC:D:06A:UN:2.8e"}`, "BGM+380+R+9", ...body]
            if (damage === "release" && body.length > 0) inner[2 + (at % body.length)] += "?x"
            segments.push(...inner, `UNT+${inner.length + (damage === "count" ? 2 : 1)}+${reference}`)
          })
          segments.push(`UNZ+${messages.length}+I1`)
          const expected = segments.flatMap((s, i) => (record.some((tag) => s.startsWith(`${tag}+`)) ? [i + 1] : []))
          const options: EdifactRecordOptions = { record, groups, messages: ["INVOIC:D:06A"], ...(detail !== undefined ? { detail } : {}) }
          const items = await read(text(segments), options)
          const out = items.filter((i) => i.kind === "record" || (i.kind === "reject" && record.some((tag) => i.raw.startsWith(tag))))
          expect(out.map((i) => i.at.segment).sort((a, b) => a - b)).toEqual(expected)
          for (const i of out) if (i.kind === "record") expect(`${i.record["@record"]}+`).toBe(segments[i.at.segment - 1]!.slice(0, 4))
        }
      ),
      { numRuns: 300 }
    )
  })
})
