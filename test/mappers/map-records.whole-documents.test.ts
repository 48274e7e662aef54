/**
 * A payload is a whole document or nothing: a part that fails (an amount of a delivery note, a line item
 * or tax amount of an invoice, an article price of a price sheet) rejects every row of its document, the
 * failing row with its own reason and the others as `document_incomplete` naming it. Records of their
 * own (transactions, notes, statements, price sheets) still fail one by one.
 */
import { describe, expect, it } from "vitest"
import { defineMapping, mapRecords, type MappingEvent, type MappingResult } from "../../src/index.js"

const berlin = { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } as const

const deliveryNotes = defineMapping({
  endpoint: "delivery-note",
  groupBy: ["Konto", "Lieferschein"],
  fields: {
    import_supplier: { value: "STADTWERKE_NORD" },
    external_account_number: "Konto",
    "delivery_note.malo_number": "MaLo",
    "delivery_note.edifact_reference_number": "Lieferschein"
  },
  collections: [{
    path: "delivery_note.amounts",
    fields: {
      period_start_at: { column: "Von", convert: "datetime", options: berlin },
      period_end_at: { column: "Bis", convert: "datetime", options: berlin },
      product_identifier: "OBIS",
      product_identifier_type: { value: "SRW" },
      quantity: { column: "Menge", convert: "decimal", options: { locale: "de" } },
      quantity_unit: { value: "KWH" }
    }
  }]
})

const amount = (ls: string, von: string, bis: string, menge: string) =>
  ({ Konto: "KD-1", Lieferschein: ls, MaLo: "51238696781", Von: von, Bis: bis, OBIS: "1-1:1.8.0", Menge: menge })

const bySourceRows = (result: MappingResult) => [...result.rejected].sort((a, b) => a.sourceRows[0]! - b.sourceRows[0]!)

describe("a delivery note is whole or not at all", () => {
  const rows = [
    amount("LS-1", "01.01.2024 00:00", "31.03.2024 00:00", "812,5"),
    amount("LS-1", "31.03.2024 00:00", "30.06.2024 00:00", "sechs"),
    amount("LS-1", "30.06.2024 00:00", "30.09.2024 00:00", "640,25"),
    amount("LS-2", "01.07.2024 00:00", "30.09.2024 00:00", "1.020")
  ]

  it("a bad middle amount rejects all three rows of its note, the cause named; the next note goes out", () => {
    const result = mapRecords(deliveryNotes, rows)
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[3]])
    const [rest, cause] = bySourceRows(result)
    expect(cause).toEqual({ sourceRows: [1], errors: [expect.objectContaining({ column: "Menge", attr: "delivery_note.amounts.1.quantity" })] })
    expect(rest!.sourceRows).toEqual([0, 2])
    expect(rest!.errors).toHaveLength(1)
    expect(rest!.errors[0]!.code).toBe("document_incomplete")
    // Named by its place in the input (the second row) and its own reason.
    expect(rest!.errors[0]!.detail).toMatch(/^This delivery note goes out whole or not at all, and a part of it was rejected: row 2: delivery_note\.amounts\.1\.quantity invalid: "sechs" /u)
    expect(result.rejected.flatMap((r) => r.sourceRows).sort()).toEqual([0, 1, 2])
  })

  it("names the row as the caller asks (the CLI names the line), streamed the same as listed", async () => {
    const listed = mapRecords(deliveryNotes, rows, { rowName: (i) => `line ${i + 2}` })
    const events: Array<MappingEvent> = []
    for await (const e of mapRecords(deliveryNotes, (async function*() {
      yield* rows
    })(), { rowName: (i) => `line ${i + 2}` })) events.push(e)
    expect(events.filter((e) => e.kind === "rejected").map((e) => ({ sourceRows: e.sourceRows, errors: e.errors }))).toEqual(listed.rejected)
    expect(listed.rejected.find((r) => r.sourceRows.includes(0))!.errors[0]!.detail).toContain("rejected: line 3: delivery_note.amounts.1.quantity")
  })

  it("a row that matches no list of the document rejects the document too (it may be a lost amount)", () => {
    const filtered = defineMapping({ ...deliveryNotes, collections: [{ ...deliveryNotes.collections![0]!, when: { column: "Art", equals: "MENGE" } }] })
    const result = mapRecords(filtered, [{ ...rows[0]!, Art: "MENGE" }, { ...rows[2]!, Art: "Menge?" }])
    expect(result.payloads).toEqual([])
    expect(bySourceRows(result).map((r) => [r.sourceRows, r.errors.map((e) => e.code)])).toEqual([
      [[0], ["document_incomplete"]],
      [[1], ["unmatched_row"]]
    ])
  })
})

const invoices = defineMapping({
  endpoint: "market-participant-invoice",
  groupBy: ["Rechnung"],
  fields: {
    import_supplier: { value: "STADTWERKE_NORD" },
    external_account_number: "Konto",
    "market_participant_invoice.invoice_type": { value: "NETWORK_USAGE" },
    "market_participant_invoice.invoice_number": "Rechnung",
    "market_participant_invoice.issued_at": { value: "2024-11-05T10:00:00+01:00" },
    "market_participant_invoice.malo_number": "MaLo",
    "market_participant_invoice.period_start_at": { value: "2024-10-01T00:00:00+02:00" },
    "market_participant_invoice.period_end_at": { value: "2024-11-01T00:00:00+01:00" },
    "market_participant_invoice.amount_total": { column: "Summe", convert: "cents", options: { locale: "de" } },
    "market_participant_invoice.amount_due": { column: "Summe", convert: "cents", options: { locale: "de" } },
    "market_participant_invoice.sender_id": { value: 9900123456789 },
    "market_participant_invoice.recipient_id": { value: 9907654321098 }
  },
  collections: [
    {
      path: "market_participant_invoice.line_items",
      when: { column: "Art", equals: "POS" },
      fields: {
        position: { column: "Pos", convert: "integer" },
        article: "Artikel",
        quantity: { column: "Menge", convert: "decimal", options: { locale: "de" } },
        period_start_at: { value: "2024-10-01T00:00:00+02:00" },
        period_end_at: { value: "2024-11-01T00:00:00+01:00" },
        amount_net: { column: "Betrag", convert: "cents", options: { locale: "de" } },
        price: { column: "Preis", convert: "decimal", options: { locale: "de" } },
        tax_rate: { column: "Satz", convert: "decimal", options: { locale: "de", scale: 2 } }
      }
    },
    {
      path: "market_participant_invoice.tax_amounts",
      when: { column: "Art", equals: "UST" },
      fields: {
        tax_rate: { column: "Satz", convert: "decimal", options: { locale: "de", scale: 2 } },
        tax_amount_assessment_basis: { column: "Basis", convert: "cents", options: { locale: "de" } },
        tax_amount: { column: "Betrag", convert: "cents", options: { locale: "de" } }
      }
    }
  ]
})

describe("an invoice is whole or not at all", () => {
  const head = (nr: string) => ({ Rechnung: nr, Konto: "KD-1", MaLo: "51238696781", Summe: "34,52" })
  const invoice = (nr: string, changes: { readonly line?: Record<string, string>; readonly tax?: Record<string, string> } = {}) => [
    { ...head(nr), Art: "POS", Pos: "1", Artikel: "9990001000053", Menge: "263,4175", Betrag: "21,07", Preis: "7,998", Satz: "19" },
    { ...head(nr), Art: "POS", Pos: "2", Artikel: "9990001000079", Menge: "1", Betrag: "7,94", Preis: "7,94", Satz: "19", ...changes.line },
    { ...head(nr), Art: "UST", Basis: "29,01", Betrag: "5,51", Satz: "19", ...changes.tax }
  ]

  it.each([
    { part: "a line item", changes: { line: { Betrag: "7,945" } }, cause: 1, attr: "market_participant_invoice.line_items.1.amount_net" },
    { part: "a tax amount", changes: { tax: { Satz: "neunzehn" } }, cause: 2, attr: "market_participant_invoice.tax_amounts.0.tax_rate" }
  ])("a bad $part rejects the invoice with all of its rows; the good invoice after it goes out", ({ changes, cause, attr }) => {
    const result = mapRecords(invoices, [...invoice("R-1", changes), ...invoice("R-2")])
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[3, 4, 5]])
    const rejected = bySourceRows(result)
    expect(rejected.flatMap((r) => r.sourceRows).sort()).toEqual([0, 1, 2])
    const own = rejected.find((r) => r.sourceRows.includes(cause))!
    expect(own.sourceRows).toEqual([cause])
    expect(own.errors.map((e) => e.attr)).toEqual([attr])
    const rest = rejected.find((r) => r !== own)!
    expect(rest.sourceRows).toEqual([0, 1, 2].filter((i) => i !== cause))
    expect(rest.errors.map((e) => e.code)).toEqual(["document_incomplete"])
    expect(rest.errors[0]!.detail).toContain(`This invoice goes out whole or not at all, and a part of it was rejected: row ${cause + 1}: ${attr} `)
  })
})

describe("price sheets", () => {
  const sheet = (doc: string, mp: string, prices: ReadonlyArray<string>) =>
    prices.map((preis, i) => ({ MP: mp, Typ: "Z64", Dokument: doc, Ab: "01.01.2024 00:00", Artikel: `A${i + 1}`, Preis: preis }))
  const sheetFields = {
    market_participant_code: { column: "MP", convert: "integer" },
    price_sheet_type: "Typ",
    document_number: "Dokument",
    active_from: { column: "Ab", convert: "datetime", options: berlin }
  } as const
  const articlePrices = { article_id: "Artikel", price_cents: { column: "Preis", convert: "decimal", options: { locale: "de" } } } as const

  it("one price sheet per payload: a bad article price rejects the sheet, the cause named", () => {
    const mapping = defineMapping({
      endpoint: "market-participant-fees",
      groupBy: ["Dokument"],
      fields: Object.fromEntries(Object.entries(sheetFields).map(([k, v]) => [`price_sheets.0.${k}`, v])),
      collections: [{ path: "price_sheets.0.article_prices", fields: articlePrices }]
    })
    const result = mapRecords(mapping, [...sheet("P-1", "9900123456789", ["7,998", "x", "794"]), ...sheet("P-2", "9907654321098", ["8,1"])])
    expect(result.payloads.map((p) => [p.sourceRows, p.payload.price_sheets.map((s) => s.article_prices.length)])).toEqual([[[3], [1]]])
    expect(bySourceRows(result).map((r) => [r.sourceRows, r.errors.map((e) => e.code)])).toEqual([
      [[0, 2], ["document_incomplete"]],
      [[1], ["invalid"]]
    ])
    expect(bySourceRows(result)[0]!.errors[0]!.detail).toContain("This price sheet goes out whole or not at all, and a part of it was rejected: row 2: price_sheets.0.article_prices.1.price_cents invalid: ")
  })

  it("several price sheets in one payload: a bad article price costs its own sheet, the others go out", () => {
    const mapping = defineMapping({
      endpoint: "market-participant-fees",
      groupBy: [],
      fields: {},
      collections: [{ path: "price_sheets", groupBy: ["Dokument"], fields: sheetFields, collections: [{ path: "article_prices", fields: articlePrices }] }]
    })
    const result = mapRecords(mapping, [...sheet("P-1", "9900123456789", ["7,998", "x", "794"]), ...sheet("P-2", "9907654321098", ["8,1"])])
    expect(result.payloads.map((p) => [p.sourceRows, p.payload.price_sheets.map((s) => [s.document_number, s.article_prices.length])])).toEqual([[[3], [["P-2", 1]]]])
    // The sheet is all or nothing as any item is: all three of its rows, with the article price's reason.
    expect(result.rejected).toEqual([{ sourceRows: [0, 1, 2], errors: [expect.objectContaining({ attr: "price_sheets.0.article_prices.1.price_cents" })] }])
  })
})

describe("records of their own still fail one by one", () => {
  it("transactions grouped by account: a bad transaction is rejected alone, the others go out", () => {
    const mapping = defineMapping({
      endpoint: "transactions",
      groupBy: ["Konto"],
      fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
      collections: [{
        path: "transactions",
        fields: {
          transaction_id: "Nr",
          transaction_date: { column: "Datum", convert: "date", options: { format: "dd.MM.yyyy" } },
          amount: { column: "Betrag", convert: "number", options: { locale: "de" } },
          type: "Art"
        }
      }]
    })
    const rows = [
      { Konto: "KD-1", Nr: "BU-1", Datum: "15.01.2024", Betrag: "86,00", Art: "PAYMENT" },
      { Konto: "KD-1", Nr: "BU-2", Datum: "30.02.2024", Betrag: "12,50", Art: "CHARGE" },
      { Konto: "KD-1", Nr: "BU-3", Datum: "01.04.2024", Betrag: "1.204,50", Art: "CREDIT" }
    ]
    const result = mapRecords(mapping, rows)
    expect(result.payloads.map((p) => [p.sourceRows, p.payload.transactions.map((t) => t.transaction_id)])).toEqual([[[0, 2], ["BU-1", "BU-3"]]])
    expect(result.rejected).toEqual([{ sourceRows: [1], errors: [expect.objectContaining({ attr: "transactions.1.transaction_date", code: "invalid_date" })] }])
  })
})
