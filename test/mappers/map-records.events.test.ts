/**
 * Which events a group gives and in which order: every row of a group rejected gives no payload, a
 * stream's events come in the order of their first rows, rows outside the first collection ride with
 * the batch they come in, and a mapping without `groupBy` maps every row on its own, list or stream.
 */
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingEvent, mapRecords } from "../../src/index.js"
import { ledgerMapping } from "./ledger-mapping.js"

const valid = (Nr: string, Konto = "KD-1") => ({ Konto, Nr, Datum: "01.02.2024", Betrag: "1,00", Art: "CHARGE" })
const badDate = (Nr: string, Konto = "KD-1") => ({ ...valid(Nr, Konto), Datum: "31.02.2024" })

async function* streamOf<A>(items: ReadonlyArray<A>): AsyncGenerator<A> {
  for (const item of items) yield item
}

const events = async (stream: AsyncIterable<MappingEvent>): Promise<Array<[string, ReadonlyArray<number>]>> => {
  const out: Array<[string, ReadonlyArray<number>]> = []
  for await (const e of stream) out.push([e.kind, e.sourceRows])
  return out
}

describe("the events of a group", () => {
  it("a group whose every row is rejected gives no payload and no event without rows", () => {
    const result = mapRecords(ledgerMapping(10), [badDate("A"), badDate("B")])
    expect(result.payloads).toEqual([])
    expect(result.rejected.map((r) => r.sourceRows)).toEqual([[0], [1]])
    expect(result.rejected.flatMap((r) => r.errors.map((e) => e.code))).toEqual(["invalid_date", "invalid_date"])
  })

  it("a stream gives a group's events in the order of their first rows, batch after batch", async () => {
    const rows = [valid("A"), badDate("B"), valid("C"), badDate("D"), valid("E"), valid("F", "KD-2"), badDate("G", "KD-2")]
    expect(await events(mapRecords(ledgerMapping(10), streamOf(rows)))).toEqual([
      ["payload", [0, 2, 4]],
      ["rejected", [1]],
      ["rejected", [3]],
      ["payload", [5]],
      ["rejected", [6]]
    ])
    expect(await events(mapRecords(ledgerMapping(2), streamOf(rows)))).toEqual([
      ["payload", [0]],
      ["rejected", [1]],
      ["payload", [2]],
      ["rejected", [3]],
      ["payload", [4]],
      ["payload", [5]],
      ["rejected", [6]]
    ])
  })

  it("a stream refuses a value that is no record and goes on counting rows", async () => {
    const stream = mapRecords(ledgerMapping(10), streamOf<unknown>(["not a record", valid("A"), null, valid("B")]))
    const seen: Array<MappingEvent> = []
    for await (const e of stream) seen.push(e)
    expect(seen.map((e) => [e.kind, e.sourceRows])).toEqual([["rejected", [0]], ["rejected", [2]], ["payload", [1, 3]]])
    expect(seen[0]).toEqual({ kind: "rejected", sourceRows: [0], errors: [{ code: "invalid", detail: "A record must be an object of column → value." }] })
  })

  it("a late row of a stream is told which group and which columns to sort by", async () => {
    const stream = mapRecords(ledgerMapping(10, ["Konto", "Art"]), streamOf([valid("A"), valid("B", "KD-2"), valid("C")]))
    const rejected: Array<MappingEvent> = []
    for await (const e of stream) if (e.kind === "rejected") rejected.push(e)
    expect(rejected).toEqual([{
      kind: "rejected",
      sourceRows: [2],
      errors: [{
        code: "group_not_contiguous",
        detail: 'The rows of group ["KD-1","CHARGE"] are not contiguous: this row comes after another group; sort the input by Konto, Art.'
      }]
    }])
  })
})

describe("a mapping with collections and without groupBy", () => {
  const notes = defineMapping({
    endpoint: "notes",
    fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
    collections: [{ path: "notes", fields: { body: "Notiz" } }]
  })
  const rows = [{ Konto: "KD-1", Notiz: "eins" }, { Konto: "KD-1", Notiz: "zwei" }, { Konto: "KD-2", Notiz: "drei" }]

  it("makes every row a payload of its own, as a list and as a stream", async () => {
    const listed = mapRecords(notes, rows)
    expect(listed.rejected).toEqual([])
    expect(listed.payloads.map((p) => [p.sourceRows, p.payload.notes.map((n) => n.body)]))
      .toEqual([[[0], ["eins"]], [[1], ["zwei"]], [[2], ["drei"]]])
    expect(await events(mapRecords(notes, streamOf(rows)))).toEqual([["payload", [0]], ["payload", [1]], ["payload", [2]]])
  })
})
