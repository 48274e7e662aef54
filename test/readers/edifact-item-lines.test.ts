import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { EdifactItemLines } from "../../src/readers/edifact/item-lines.js"
import type { EdifactRecordItem } from "../../src/readers/edifact/records.js"
import { readEdifactRecordRuns } from "../../src/readers/edifact/records.js"
import { ItemSpool } from "../../src/mappers/run/item-spool.js"

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", "Zählpunkt ß", "€ 😀", "\u2028\n\"\\", "\ud800"))
const cellName = fc.oneof(fc.constantFrom("LOC+172.2.1", "DTM+163", "QTY.1.2", "@message", "constructor", "toString", "__proto__", "1", "a\"b"), fc.string({ maxLength: 6 }))
const cellValue = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }))

const record: fc.Arbitrary<EdifactRecordItem> = fc.record({
  kind: fc.constant("record" as const),
  record: fc.dictionary(cellName, cellValue, { maxKeys: 8 }),
  at: fc.oneof(
    fc.record({ offset: fc.nat(), segment: fc.nat(), message: fc.nat(), messageReference: text }),
    fc.record({ offset: fc.nat(), segment: fc.nat(), message: fc.nat(), messageReference: text, interchangeReference: text }),
    fc.record({ offset: fc.nat(), segment: fc.nat() })
  ),
  raw: text
}) as fc.Arbitrary<EdifactRecordItem>

const other: fc.Arbitrary<EdifactRecordItem> = fc.record({
  kind: fc.constantFrom("reject", "exclusion", "warning"),
  code: fc.string({ maxLength: 8 }),
  detail: text,
  at: fc.record({ offset: fc.nat(), segment: fc.nat() }),
  raw: text
}) as unknown as fc.Arbitrary<EdifactRecordItem>

/** JSON's view of a value: what a line of JSON can give back at all (a -0 is 0). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

describe("EdifactItemLines", () => {
  it("gives back every item as its JSON gives it, its cells and places in their order", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(record, record, other), { maxLength: 20 }), (items) => {
        const lines = new EdifactItemLines()
        const written = items.map((item) => lines.encode(item))
        for (const line of written) expect(line).not.toMatch(/[\n\r]/u)
        const back = written.map((line) => lines.decode(line))
        expect(back).toEqual(items.map(asJson))
        back.forEach((item, i) => {
          const given = items[i]!
          expect(Object.keys(item.at)).toEqual(Object.keys(given.at))
          if (item.kind === "record" && given.kind === "record") expect(Object.keys(item.record)).toEqual(Object.keys(given.record))
          expect(Object.getPrototypeOf(item.kind === "record" ? item.record : item.at)).toBe(Object.prototype)
        })
      }),
      { numRuns: 300 }
    )
  })

  it("gives back records of one shape whose values repeat, whatever repeats (property)", () => {
    const value = fc.oneof(fc.constantFrom("51238696781", "2024-01-01T00:15:00+01:00", "ab", "", "null", 1234567, 0), fc.string({ maxLength: 4 }))
    const sameShape = fc.record({ kind: fc.constant("record" as const), record: fc.record({ "LOC+172.2.1": value, "DTM+163": value, "QTY.1.2": value }), at: fc.record({ offset: fc.constantFrom(1, 22222), segment: fc.nat(3) }), raw: value.map(String) })
    fc.assert(fc.property(fc.array(fc.oneof(sameShape, sameShape, sameShape, other), { maxLength: 30 }), (items) => {
      const lines = new EdifactItemLines()
      const written = items.map((item) => lines.encode(item as EdifactRecordItem))
      expect(written.map((line) => lines.decode(line))).toEqual(items)
    }), { numRuns: 300 })
  })

  it("gives back series whose intervals start where the one before ended, and cells that repeat their place as text (property)", () => {
    // As the reader makes them: DTM+163 is the DTM+164 of the record before, @segment and @offset its place's
    // fields as text; and, drawn as often, any of these differing (by a leading zero, a digit, a sign too).
    const time = fc.constantFrom("2024-01-01T00:00:00+01:00", "2024-01-01T00:15:00+01:00", "2024-01-01T00:30:00+01:00", "abcd", "abc", "")
    const place = fc.record({ offset: fc.constantFrom(0, 7, 445), segment: fc.constantFrom(0, 19, 445) })
    const drawn = fc.record({ start: fc.option(time), end: time, at: place, segment: fc.option(fc.constantFrom("19", "445", "0", "", "019", "00", "4450", "45", "1e1")), offset: fc.option(fc.constantFrom("445", "7", "0", "0445", "-7", "7.0")), qty: fc.string({ maxLength: 5 }) })
    fc.assert(fc.property(fc.array(fc.oneof(drawn, drawn, drawn, other), { maxLength: 30 }), (draws) => {
      let end = "2024-01-01T00:00:00+01:00"
      const items = draws.map((d) => {
        if (!("end" in d)) return d as EdifactRecordItem
        const record = { "LOC+172.2.1": "51238696781", "DTM+163": d.start ?? end, "DTM+164": d.end, "@segment": d.segment ?? String(d.at.segment), "@offset": d.offset ?? String(d.at.offset), "QTY.1.2": d.qty }
        end = d.end
        return { kind: "record", record, at: d.at, raw: `QTY+220:${d.qty}'` } as EdifactRecordItem
      })
      const lines = new EdifactItemLines()
      const written = items.map((item) => lines.encode(item))
      expect(written.map((line) => lines.decode(line))).toEqual(items)
      // Through a spool, read twice: each line is read back after the one before it, whatever it left out.
      const spool = new ItemSpool<EdifactRecordItem>(0, new EdifactItemLines())
      spool.begin()
      for (const item of items) spool.write(item)
      spool.end()
      expect([...spool.read()].flat()).toEqual(items)
      spool.rewind()
      expect([...spool.read()].flat()).toEqual(items)
      spool.close()
    }), { numRuns: 300 })
  })

  it("writes an interval's start that the record before ended with as false, a cell repeating its place's field as true", () => {
    const lines = new EdifactItemLines()
    const record = (segment: number, start: string, end: string) =>
      ({ kind: "record", record: { "DTM+163": start, "DTM+164": end, "@segment": String(segment), "@offset": "1" }, at: { offset: segment * 10, segment }, raw: "QTY+220:1'" }) as const
    const items = [record(9, "2024-01-01T00:00:00+01:00", "2024-01-01T00:15:00+01:00"), record(12, "2024-01-01T00:15:00+01:00", "2024-01-01T00:30:00+01:00")]
    const written = items.map((item) => lines.encode(item))
    expect(written).toEqual([
      '[0,"QTY+220:1\'",90,9,"2024-01-01T00:00:00+01:00","2024-01-01T00:15:00+01:00",true,"1"]',
      // "@offset" is "1", not the place's 120: it stays.
      '[0,null,120,12,false,"2024-01-01T00:30:00+01:00",true,"1"]'
    ])
    expect(written.map((line) => lines.decode(line))).toEqual(items)
  })

  it("gives a record back with its own cells and fields only, where one is inherited", () => {
    const lines = new EdifactItemLines()
    const own = { kind: "record", record: { "QTY.1.1": "220", "QTY.1.2": "1" }, at: { segment: 1 }, raw: "QTY+220:1'" } as const
    // The names of the first record, the last of them inherited; and a record whose raw text is inherited.
    const cells = Object.assign(Object.create({ "QTY.1.2": "2" }) as Record<string, string>, { "QTY.1.1": "220" })
    const inheritedCell = { kind: "record", record: cells, at: { segment: 2 }, raw: "QTY+220'" } as const
    const inheritedRaw = Object.assign(Object.create({ raw: "QTY+220:3'" }) as object, { kind: "record", record: { "QTY.1.1": "220", "QTY.1.2": "3" }, at: { segment: 3 } })
    // And, after the first record again, one with the first of its names alone: a shape of its own.
    const fewer = { kind: "record", record: { "QTY.1.1": "220" }, at: { segment: 4 }, raw: "QTY+220'" } as const
    const written = [own, inheritedCell, own, fewer, inheritedRaw].map((item) => lines.encode(item as unknown as EdifactRecordItem))
    expect(written[3]).toBe('[1,"QTY+220\'",4,"220"]')
    const read = written.map((line) => lines.decode(line))
    expect(read[0]).toEqual(own)
    expect(Object.keys((read[1] as { readonly record: object }).record)).toEqual(["QTY.1.1"])
    expect(read[2]).toEqual(own)
    expect(read[3]).toEqual(fewer)
    expect(Object.keys(read[4]!)).toEqual(["kind", "record", "at"])
  })

  it("writes a record as its values after its shape's number, a cell named __proto__ as its JSON object", () => {
    const lines = new EdifactItemLines()
    const at = { offset: 70, segment: 12, message: 1, messageReference: "1" }
    const first = { kind: "record", record: { "LOC+172.2.1": "51238696781", "QTY.1.2": "4,5" }, at, raw: "QTY+220:4,5'" } as const
    const second = { ...first, record: { "LOC+172.2.1": "51238696781", "DTM+163": "2024-10-27T02:00:00+01:00" } }
    expect(lines.encode(first)).toBe('[0,"QTY+220:4,5\'",70,12,1,"1","51238696781","4,5"]')
    expect(lines.encode(second)).toBe('[1,"QTY+220:4,5\'",70,12,1,"1","51238696781","2024-10-27T02:00:00+01:00"]')
    expect(lines.encode(first)).toMatch(/^\[0,/u)
    const proto = JSON.parse('{"kind":"record","record":{"__proto__":"x"},"at":{"offset":1,"segment":1},"raw":""}') as EdifactRecordItem
    expect(lines.encode(proto)).toBe(JSON.stringify(proto))
    expect(Object.keys((lines.decode(lines.encode(proto)) as { record: object }).record)).toEqual(["__proto__"])
  })

  it("writes a text repeated from the record before as null, and reads it back whole, again after a rewind", () => {
    const lines = new EdifactItemLines()
    const record = (segment: number, start: string) => ({ kind: "record", record: { "LOC+172.2.1": "51238696781", "DTM+163": start, "QTY.1.1": "67" }, at: { offset: segment * 10, segment }, raw: "QTY+220:1'" }) as const
    const items = [record(9, "2024-01-01T00:00:00+01:00"), record(12, "2024-01-01T00:15:00+01:00"), record(15, "2024-01-01T00:15:00+01:00")]
    expect(items.map((item) => lines.encode(item))).toEqual([
      '[0,"QTY+220:1\'",90,9,"51238696781","2024-01-01T00:00:00+01:00","67"]',
      // A text of two characters is shorter than null.
      '[0,null,120,12,null,"2024-01-01T00:15:00+01:00","67"]',
      '[0,null,150,15,null,null,"67"]'
    ])
    const spool = new ItemSpool<EdifactRecordItem>(0, new EdifactItemLines())
    spool.begin()
    for (const item of items) spool.write(item)
    spool.begin()
    spool.write(items[2]!)
    spool.end()
    const readAll = () => [[...spool.read()].flat(), [...spool.read()].flat()]
    expect(readAll()).toEqual([items, [items[2]]])
    spool.rewind()
    expect(readAll()).toEqual([items, [items[2]]])
    spool.close()
  })

  it("holds a reader's MSCONS records in under half the characters of their JSON, and gives them back equal through a spool", async () => {
    const qty = (n: number) => `QTY+220:${n}.5'DTM+163:2024010100${String(n).padStart(2, "0")}?+00:303'DTM+164:2024010100${String(n + 1).padStart(2, "0")}?+00:303'`
    const message = `UNH+1+MSCONS:D:04B:UN:2.4c'BGM+7+DOC-1+9'DTM+137:202401020800?+00:303'UNS+D'NAD+DP'LOC+172+51238696781'LIN+1'PIA+5+1-1?:1.29.0:SRW'${[1, 2, 3].map(qty).join("")}UNT+18+1'`
    const text = `UNB+UNOC:3+SENDER+RECEIVER+240101:1200+1'${message}UNZ+1+1'`
    const items: Array<EdifactRecordItem> = []
    const columns = ["LOC+172.2.1", "PIA+5.2.1", "DTM+163", "DTM+164", "QTY.1.1", "QTY.1.2", "BGM.2.1", "@message", "@segment", "@offset"]
    for await (const run of readEdifactRecordRuns([text], { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"], columns })) items.push(...run)
    const records = items.filter((item) => item.kind === "record")
    expect(records).toHaveLength(3)
    const lines = new EdifactItemLines()
    const short = records.reduce((sum, item) => sum + lines.encode(item).length, 0)
    const long = records.reduce((sum, item) => sum + JSON.stringify(item).length, 0)
    expect(short).toBeLessThan(long / 2)
    for (const memory of [0, 1 << 20]) {
      const spool = new ItemSpool<EdifactRecordItem>(memory, new EdifactItemLines())
      spool.begin()
      for (const item of items) spool.write(item)
      spool.end()
      expect([...spool.read()].flat()).toEqual(items)
      spool.close()
    }
  })
})
