/**
 * mapRecords on the shapes the other tests do not reach: a stream without `groupBy` (every row its own
 * payload), the kind of every event, field paths with an index, `when` with a list of values, padded
 * cells, rows that are not records, and rows of one payload that disagree.
 */
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingEvent, mapRecords } from "../../src/index.js"

async function* streamOf<A>(items: ReadonlyArray<A>): AsyncGenerator<A> {
  for (const item of items) yield item
}

const eventsOf = async <P>(events: AsyncIterable<MappingEvent<P>>): Promise<Array<MappingEvent<P>>> => {
  const out: Array<MappingEvent<P>> = []
  for await (const event of events) out.push(event)
  return out
}

const readings = defineMapping({
  endpoint: "energy-amount",
  fields: {
    import_supplier: { value: "STADTWERKE_NORD" },
    external_account_number: "Konto",
    "energy_amount.malo_number": "MaLo",
    "energy_amount.period_start_at": { column: "Von", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } },
    "energy_amount.period_end_at": { column: "Bis", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } },
    "energy_amount.product_identifier": { value: "1-1:1.8.0" },
    "energy_amount.product_identifier_type": { value: "SRW" },
    "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locale: "de" } },
    "energy_amount.quantity_unit": { value: "KWH" }
  }
})

const reading = (konto: string, menge: string) =>
  ({ Konto: konto, MaLo: "51238696781", Von: "01.01.2024 00:00", Bis: "01.02.2024 00:00", Menge: menge })

describe("mapRecords without groupBy", () => {
  const rows = [reading("KD-1", "1,5"), reading("KD-1", "2,5"), null, reading("KD-2", "x"), reading("KD-1", "3")]

  it("streams every row as its own payload or rejection, in input order, with its kind", async () => {
    const events = await eventsOf(mapRecords(readings, streamOf(rows)))
    expect(events.map((e) => [e.kind, e.sourceRows])).toEqual([
      ["payload", [0]],
      ["payload", [1]],
      ["rejected", [2]],
      ["rejected", [3]],
      ["payload", [4]]
    ])
    const quantities = events.flatMap((e) => (e.kind === "payload" ? [e.payload.energy_amount.quantity] : []))
    expect(quantities).toEqual(["1.5", "2.5", "3"])
    expect(events[2]).toStrictEqual({
      kind: "rejected",
      sourceRows: [2],
      errors: [{ code: "invalid", detail: "A record must be an object of column → value." }]
    })
    expect(events[3]).toMatchObject({ kind: "rejected", errors: [{ column: "Menge", attr: "energy_amount.quantity", code: "invalid" }] })
  })

  it("gives the list form the same payloads and rejections", async () => {
    const events = await eventsOf(mapRecords(readings, streamOf(rows)))
    const listed = mapRecords(readings, rows)
    expect(listed.payloads).toStrictEqual(events.flatMap((e) => (e.kind === "payload" ? [{ payload: e.payload, sourceRows: e.sourceRows }] : [])))
    expect(listed.rejected).toStrictEqual(events.flatMap((e) => (e.kind === "rejected" ? [{ sourceRows: e.sourceRows, errors: e.errors }] : [])))
  })
})

describe("mapRecords: paths, filters and cells", () => {
  const notes = defineMapping({
    endpoint: "notes",
    groupBy: ["Konto"],
    fields: { import_supplier: { value: "STADTWERKE_NORD" }, external_account_number: "Konto" },
    collections: [{
      path: "notes",
      when: { column: "Art", equals: ["Notiz", "Vermerk "] },
      fields: {
        body: "Text",
        created_at: { column: "Erstellt", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } },
        "document_paths.0.document_path": "Anhang",
        "document_paths.1.document_path": "Anhang2"
      }
    }]
  })

  const rows = [
    { Konto: " KD-1", Art: "Notiz", Text: "a", Erstellt: "01.03.2024 10:00", Anhang: "n/a.pdf", Anhang2: "n/b.pdf" },
    { Konto: "KD-1 ", Art: " Vermerk", Text: "b", Erstellt: "02.03.2024 10:00", Anhang: "", Anhang2: "" },
    { Konto: "KD-1", Art: "Mahnung", Text: "c", Erstellt: "03.03.2024 10:00", Anhang: "", Anhang2: "" }
  ]

  it("builds lists at numeric path segments, takes each value of a `when` list (trimmed), and groups padded keys", () => {
    const result = mapRecords(notes, rows)
    expect(result.payloads).toStrictEqual([{
      payload: {
        import_supplier: "STADTWERKE_NORD",
        external_account_number: "KD-1",
        notes: [
          {
            body: "a",
            created_at: "2024-03-01T10:00:00+01:00",
            document_paths: [{ document_path: "n/a.pdf" }, { document_path: "n/b.pdf" }]
          },
          { body: "b", created_at: "2024-03-02T10:00:00+01:00" }
        ]
      },
      sourceRows: [0, 1]
    }])
    expect(Array.isArray(result.payloads[0]!.payload.notes[0]!.document_paths)).toBe(true)
  })

  it("rejects a row that matches no filter but carries list data, naming the filter", () => {
    expect(mapRecords(notes, rows).rejected).toStrictEqual([{
      sourceRows: [2],
      errors: [{
        code: "unmatched_row",
        detail: "This row carries data for a list but matches none of them (Art = [\"Notiz\",\"Vermerk \"]): its data would be lost."
      }]
    }])
  })
})

describe("mapRecords: rows of one payload or item that disagree", () => {
  it("rejects the whole group as inconsistent_group, naming both rows and values", () => {
    const mapping = defineMapping({
      endpoint: "notes",
      groupBy: ["Konto"],
      fields: { import_supplier: "Lieferant", external_account_number: "Konto" },
      collections: [{ path: "notes", fields: { body: "Text" } }]
    })
    const result = mapRecords(mapping, [
      { Konto: "KD-1", Lieferant: "NORD", Text: "a" },
      { Konto: "KD-1", Lieferant: "", Text: "b" },
      { Konto: "KD-1", Lieferant: "SUED", Text: "c" }
    ])
    expect(result.payloads).toEqual([])
    expect(result.rejected).toStrictEqual([{
      sourceRows: [0, 1, 2],
      errors: [{ column: "Lieferant", attr: "import_supplier", code: "inconsistent_group", detail: "\"SUED\" in row 3 differs from \"NORD\" in row 1 of the same payload" }]
    }])
  })
})
