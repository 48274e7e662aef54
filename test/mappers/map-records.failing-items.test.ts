/**
 * A payload of many rows that fails validation inside its items: a failing record (a note, a transaction)
 * is rejected with its own rows and the rest of its payload goes out; a failing part of a document (an
 * invoice's line item) rejects the whole document, the other rows as `document_incomplete` naming the
 * failing row; an error outside every item rejects every row.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingEvent, type MappingResult, mapRecords, validatePayload } from "../../src/index.js"
import { ledgerMapping } from "./ledger-mapping.js"

const berlin = { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } as const

const notes = defineMapping({
  endpoint: "notes",
  groupBy: ["Konto"],
  fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
  collections: [{
    path: "notes",
    when: { column: "Art", equals: "NOTIZ" },
    fields: {
      body: "Text",
      created_at: { column: "Erstellt", convert: "datetime", options: berlin },
      is_pinned: { value: true },
      unpin_at: { column: "Bis", convert: "datetime", options: berlin }
    }
  }]
})

const note = (konto: string, text: string, erstellt: string, bis: string) => ({ Konto: konto, Art: "NOTIZ", Text: text, Erstellt: erstellt, Bis: bis })

const settled = (result: MappingResult): Array<number> =>
  [...result.payloads.flatMap((p) => p.sourceRows), ...result.rejected.flatMap((r) => r.sourceRows)].sort((a, b) => a - b)

const bodies = (payload: unknown): Array<unknown> => (payload as { notes: Array<{ body?: unknown }> }).notes.map((n) => n.body)

describe("a failing record of a payload is rejected alone", () => {
  const rows = [
    note("KD-1", "Erste", "01.02.2024 10:00", "01.03.2024 10:00"),
    // Unpinned a month before it was written: valid cells, an invalid note.
    note("KD-1", "Zweite", "01.02.2024 10:00", "01.01.2024 10:00"),
    note("KD-1", "Dritte", "02.02.2024 10:00", "02.03.2024 10:00"),
    note("KD-2", "Andere", "03.02.2024 10:00", "03.03.2024 10:00")
  ]

  it("notes: the other notes of the account go out, the bad note's row is rejected with the rule's code", () => {
    const result = mapRecords(notes, rows)
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[0, 2], [3]])
    expect(bodies(result.payloads[0]!.payload)).toEqual(["Erste", "Dritte"])
    expect(result.rejected).toEqual([{
      sourceRows: [1],
      errors: [expect.objectContaining({ attr: "notes.1.unpin_at", code: "note_unpin_at_earlier_than_creation_date" })]
    }])
    for (const p of result.payloads) expect(validatePayload("notes", p.payload).ok).toBe(true)
  })

  it("streams the same events as the list gives", async () => {
    const events: Array<MappingEvent> = []
    for await (const e of mapRecords(notes, (async function*() {
      yield* rows
    })())) events.push(e)
    const listed = mapRecords(notes, rows)
    expect(events.filter((e) => e.kind === "payload").map((e) => e.sourceRows)).toEqual(listed.payloads.map((p) => p.sourceRows))
    expect(events.filter((e) => e.kind === "rejected").map((e) => ({ sourceRows: e.sourceRows, errors: e.errors }))).toEqual(listed.rejected)
  })

  it("transactions: a repeated transaction_id rejects the later transaction, the first goes out", () => {
    const result = mapRecords(ledgerMapping(10), [
      { Konto: "KD-1", Nr: "B-1", Datum: "01.01.2024", Betrag: "1,00", Art: "CHARGE" },
      { Konto: "KD-1", Nr: "B-2", Datum: "02.01.2024", Betrag: "2,00", Art: "CHARGE" },
      { Konto: "KD-1", Nr: "B-1", Datum: "03.01.2024", Betrag: "3,00", Art: "CHARGE" }
    ])
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[0, 1]])
    expect(result.payloads[0]!.payload.transactions.map((t) => [t.transaction_id, t.amount])).toEqual([["B-1", 1], ["B-2", 2]])
    expect(result.rejected).toEqual([{
      sourceRows: [2],
      errors: [expect.objectContaining({ attr: "transactions.2.transaction_id", code: "duplicate_transaction_ids" })]
    }])
  })

  it("an item sharing a row with a failing one goes with it (a row is never both rejected and sent)", () => {
    // Each row is a note of its own and, with the rows of its topic, part of a topic note.
    const topics = defineMapping({ ...notes, collections: [notes.collections![0]!, { path: "notes", groupBy: ["Thema"], fields: { body: "Thema" } }] })
    const result = mapRecords(topics, [
      { ...rows[1]!, Thema: "Zähler" },
      { ...rows[0]!, Thema: "Zähler" },
      { ...rows[2]!, Thema: "Tarif" }
    ])
    expect(result.payloads.map((p) => [p.sourceRows, bodies(p.payload)])).toEqual([[[2], ["Dritte", "Tarif"]]])
    expect(result.rejected).toEqual([
      { sourceRows: [0], errors: [expect.objectContaining({ attr: "notes.0.unpin_at", code: "note_unpin_at_earlier_than_creation_date" })] },
      { sourceRows: [1], errors: [expect.objectContaining({ attr: "notes.3", code: "rejected_with_row", detail: expect.stringContaining("(row 1)") })] }
    ])
  })

  it("a payload left with no notes is rejected with the rows that remain, each row settled once", () => {
    const header = { Konto: "KD-1", Art: "KOPF", Text: "", Erstellt: "", Bis: "" }
    const result = mapRecords(notes, [header, note("KD-1", "", "01.02.2024 10:00", ""), note("KD-1", "Zweite", "01.02.2024 10:00", "01.01.2024 10:00")])
    expect(result.payloads).toEqual([])
    expect(settled(result)).toEqual([0, 1, 2])
    const byRow = (i: number) => result.rejected.find((r) => r.sourceRows.includes(i))!
    expect(byRow(1).errors.map((e) => e.code)).toEqual(["note_body_or_document_path_not_found"])
    expect(byRow(2).errors.map((e) => e.code)).toEqual(["note_unpin_at_earlier_than_creation_date"])
    // The header row alone makes a payload without notes, which the API refuses at the list itself.
    expect(byRow(0).sourceRows).toEqual([0])
    expect(byRow(0).errors.map((e) => e.attr)).toContain("notes")
  })

  it("an error outside every item still rejects every row, each saying which error", () => {
    const blank = defineMapping({ ...notes, fields: { ...notes.fields, import_supplier: "Lieferant" } })
    const result = mapRecords(blank, [{ ...rows[0]!, Lieferant: "" }, { ...rows[1]!, Lieferant: "" }])
    expect(result.payloads).toEqual([])
    expect(result.rejected).toHaveLength(1)
    expect(result.rejected[0]!.sourceRows).toEqual([0, 1])
    expect(result.rejected[0]!.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ attr: "import_supplier" }),
      // The error inside a note names the row of that note.
      expect.objectContaining({ attr: "notes.1.unpin_at", code: "note_unpin_at_earlier_than_creation_date", detail: expect.stringContaining("(notes.1: row 2)") })
    ]))
  })
})

describe("a failing part of a document rejects the whole document", () => {
  const invoices = defineMapping({
    endpoint: "market-participant-invoice",
    groupBy: ["Rechnung"],
    fields: {
      import_supplier: { value: "SW" },
      external_account_number: { value: "KD-1" },
      "market_participant_invoice.invoice_type": { value: "NETWORK_USAGE" },
      "market_participant_invoice.invoice_number": "Rechnung",
      "market_participant_invoice.issued_at": { value: "2024-11-05T10:00:00+01:00" },
      "market_participant_invoice.malo_number": { value: "51238696781" },
      "market_participant_invoice.period_start_at": { value: "2024-10-01T00:00:00+02:00" },
      "market_participant_invoice.period_end_at": { value: "2024-11-01T00:00:00+01:00" },
      "market_participant_invoice.amount_total": { value: 119 },
      "market_participant_invoice.amount_due": { value: 119 },
      "market_participant_invoice.sender_id": { value: 9900123456789 },
      "market_participant_invoice.recipient_id": { value: 9907654321098 }
    },
    collections: [
      {
        path: "market_participant_invoice.line_items",
        when: { column: "Art", equals: "POS" },
        fields: {
          position: { column: "Pos", convert: "integer" },
          article: { value: "9990001000053" },
          quantity: { value: "1" },
          period_start_at: { column: "Von", convert: "datetime", options: berlin },
          period_end_at: { column: "Bis", convert: "datetime", options: berlin },
          amount_net: { column: "Betrag", convert: "cents", options: { locale: "de" } },
          price: { value: "1" },
          tax_rate: { value: "19" }
        }
      },
      {
        path: "market_participant_invoice.tax_amounts",
        when: { column: "Art", equals: "UST" },
        fields: { tax_rate: { value: "19" }, tax_amount_assessment_basis: { value: 100 }, tax_amount: { column: "Betrag", convert: "cents", options: { locale: "de" } } }
      }
    ]
  })
  const line = (rechnung: string, pos: string, von: string, bis: string) => ({ Rechnung: rechnung, Art: "POS", Pos: pos, Von: von, Bis: bis, Betrag: "0,50" })
  const rows = [
    line("R-1", "1", "01.10.2024 00:00", "01.11.2024 00:00"),
    // Ends before it starts: cells that convert, a line item the API refuses.
    line("R-1", "2", "01.11.2024 00:00", "01.10.2024 00:00"),
    { Rechnung: "R-1", Art: "UST", Pos: "", Von: "", Bis: "", Betrag: "0,19" },
    line("R-2", "1", "01.10.2024 00:00", "01.11.2024 00:00")
  ]

  it("an invoice whose line item fails validation: every row rejected, the good ones as document_incomplete naming the bad one", () => {
    const result = mapRecords(invoices, rows, { rowName: (i) => `line ${i + 2}` })
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[3]])
    expect(settled(result)).toEqual([0, 1, 2, 3])
    const cause = result.rejected.find((r) => r.sourceRows.includes(1))!
    expect(cause).toEqual({
      sourceRows: [1],
      errors: [expect.objectContaining({ attr: "market_participant_invoice.line_items.1.period_end_at", code: "start_date_later_than_end_date" })]
    })
    const rest = result.rejected.find((r) => r.sourceRows.includes(0))!
    expect(rest.sourceRows).toEqual([0, 2])
    expect(rest.errors).toEqual([expect.objectContaining({ code: "document_incomplete" })])
    expect(rest.errors[0]!.detail).toMatch(/^This invoice goes out whole or not at all, and a part of it was rejected: line 3: market_participant_invoice\.line_items\.1\.period_end_at start_date_later_than_end_date: /u)
  })
})

describe("notes payloads with random invalid notes", () => {
  /** A note row: valid, or without text, or unpinned before it was written (days of January 2024). */
  const noteRow = fc.record({
    Konto: fc.constantFrom("KD-1", "KD-2", "KD-3"),
    text: fc.boolean(),
    created: fc.integer({ min: 10, max: 20 }),
    unpin: fc.integer({ min: 1, max: 31 })
  })
  const day = (d: number) => `${String(d).padStart(2, "0")}.01.2024 12:00`

  it("the payload that goes out validates and holds exactly the notes whose rows were not rejected", () => {
    let dropped = 0
    let sent = 0
    fc.assert(
      fc.property(fc.array(noteRow, { minLength: 1, maxLength: 12 }), (specs) => {
        const rows = specs.map((s, i) => note(s.Konto, s.text ? `Notiz ${i}` : "", day(s.created), day(s.unpin)))
        const invalid = new Set(specs.flatMap((s, i) => (!s.text || s.unpin < s.created ? [i] : [])))
        const result = mapRecords(notes, rows)
        expect(settled(result)).toEqual(rows.map((_, i) => i))
        expect(result.rejected.flatMap((r) => r.sourceRows).sort((a, b) => a - b)).toEqual([...invalid])
        for (const r of result.rejected) {
          for (const e of r.errors) expect(["note_body_or_document_path_not_found", "note_unpin_at_earlier_than_creation_date"]).toContain(e.code)
        }
        for (const p of result.payloads) {
          expect(validatePayload("notes", p.payload).ok).toBe(true)
          const account = rows[p.sourceRows[0]!]!.Konto
          const kept = rows.flatMap((r, i) => (r.Konto === account && !invalid.has(i) ? [i] : []))
          expect(p.sourceRows).toEqual(kept)
          expect(bodies(p.payload)).toEqual(kept.map((i) => `Notiz ${i}`))
        }
        // Every account with a valid note has its payload.
        expect(result.payloads.length).toBe(new Set(rows.flatMap((r, i) => (invalid.has(i) ? [] : [r.Konto]))).size)
        if (result.payloads.some((p) => p.sourceRows.length < rows.filter((r) => r.Konto === rows[p.sourceRows[0]!]!.Konto).length)) dropped++
        sent += result.payloads.length
      }),
      { numRuns: 300 }
    )
    // Payloads that lost a note but went out were met, not only all-good or all-bad accounts.
    expect(dropped).toBeGreaterThan(0)
    expect(sent).toBeGreaterThan(0)
  })
})
