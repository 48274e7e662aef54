import { describe, expect, it } from "vitest"
import { defineMapping, mapRecords, toIsoDateTime, validatePayload } from "../../src/index.js"

const berlin = { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } as const

describe("mapRecords groups rows the way each endpoint nests them", () => {
  it("delivery-note: amount rows under their delivery note", () => {
    const mapping = defineMapping({
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
    const row = (ls: string, von: string, bis: string, menge: string) =>
      ({ Konto: "KD-1", Lieferschein: ls, MaLo: "51238696781", Von: von, Bis: bis, OBIS: "1-1:1.8.0", Menge: menge })
    const result = mapRecords(mapping, [
      row("LS-1", "01.01.2024 00:00", "31.03.2024 00:00", "812,5"),
      row("LS-1", "31.03.2024 00:00", "30.06.2024 00:00", "640,25"),
      row("LS-2", "01.07.2024 00:00", "30.09.2024 00:00", "1.020")
    ])
    expect(result.rejected).toEqual([])
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[0, 1], [2]])
    const first = result.payloads[0]!.payload
    expect(first.delivery_note.amounts.map((a) => [a.period_end_at, a.quantity])).toEqual([
      ["2024-03-31T00:00:00+01:00", "812.5"],
      ["2024-06-30T00:00:00+02:00", "640.25"]
    ])
    // "1.020" in German style is one thousand and twenty.
    expect(result.payloads[1]!.payload.delivery_note.amounts[0]!.quantity).toBe("1020")
  })

  it("market-participant-invoice: line rows and tax rows of one invoice, picked by a column", () => {
    const mapping = defineMapping({
      endpoint: "market-participant-invoice",
      groupBy: ["Rechnung"],
      fields: {
        import_supplier: { value: "STADTWERKE_NORD" },
        external_account_number: "Konto",
        "market_participant_invoice.invoice_type": { value: "NETWORK_USAGE" },
        "market_participant_invoice.invoice_number": "Rechnung",
        "market_participant_invoice.issued_at": { column: "Datum", convert: "datetime", options: berlin },
        "market_participant_invoice.malo_number": "MaLo",
        "market_participant_invoice.period_start_at": { value: "2024-10-01T00:00:00+02:00" },
        "market_participant_invoice.period_end_at": { value: "2024-11-01T00:00:00+01:00" },
        "market_participant_invoice.amount_total": { column: "Summe", convert: "cents", options: { locale: "de" } },
        "market_participant_invoice.amount_due": { column: "Summe", convert: "cents", options: { locale: "de" } },
        "market_participant_invoice.sender_id": { column: "Sender", convert: "integer" },
        "market_participant_invoice.recipient_id": { column: "Empfaenger", convert: "integer" }
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
    const head = { Rechnung: "NNR-1", Konto: "KD-1", Datum: "05.11.2024 10:00", MaLo: "51238696781", Summe: "34,52", Sender: "9900123456789", Empfaenger: "9907654321098" }
    const rows = [
      { ...head, Art: "POS", Pos: "1", Artikel: "9990001000053", Menge: "263,4175", Betrag: "21,07", Preis: "7,998", Satz: "19" },
      { ...head, Art: "POS", Pos: "2", Artikel: "9990001000079", Menge: "1", Betrag: "7,94", Preis: "7,94", Satz: "19" },
      { ...head, Art: "UST", Basis: "29,01", Betrag: "5,51", Satz: "19" }
    ]
    const result = mapRecords(mapping, rows)
    expect(result.rejected).toEqual([])
    expect(result.payloads).toHaveLength(1)
    const invoice = (result.payloads[0]!.payload as { market_participant_invoice: Record<string, unknown> }).market_participant_invoice
    expect(invoice["amount_total"]).toBe(3452)
    expect(invoice["issued_at"]).toBe("2024-11-05T10:00:00+01:00")
    expect((invoice["line_items"] as Array<Record<string, unknown>>).map((l) => [l["position"], l["amount_net"], l["tax_rate"]]))
      .toEqual([[1, 2107, "19.00"], [2, 794, "19.00"]])
    expect(invoice["tax_amounts"]).toEqual([{ tax_rate: "19.00", tax_amount_assessment_basis: 2901, tax_amount: 551 }])
    expect(result.payloads[0]!.sourceRows).toEqual([0, 1, 2])
    // Cut after each line item: the tax row, no item of the first collection, stays with the batch it comes in.
    const cut = mapRecords(defineMapping({ ...mapping, batchSize: 1 }), rows)
    expect([...cut.payloads, ...cut.rejected].map((e) => e.sourceRows).sort((a, b) => a[0]! - b[0]!)).toEqual([[0], [1, 2]])
  })

  it("market-participant-fees: article prices under their price sheet, all sheets in one payload", () => {
    const mapping = defineMapping({
      endpoint: "market-participant-fees",
      groupBy: [],
      fields: {},
      collections: [{
        path: "price_sheets",
        groupBy: ["Dokument"],
        fields: {
          market_participant_code: { column: "MP", convert: "integer" },
          price_sheet_type: "Typ",
          document_number: "Dokument",
          active_from: { column: "Ab", convert: "datetime", options: berlin }
        },
        collections: [{
          path: "article_prices",
          fields: {
            article_id: "Artikel",
            price_cents: { column: "Preis", convert: "decimal", options: { locale: "de" } },
            "interval_zone.lower_bound": { column: "Von", convert: "number" },
            "interval_zone.upper_bound": { column: "Bis", convert: "number" }
          }
        }]
      }]
    })
    const result = mapRecords(mapping, [
      { MP: "9900123456789", Typ: "Z64", Dokument: "P-1", Ab: "01.01.2024 00:00", Artikel: "A1", Preis: "7,998", Von: "0", Bis: "100000" },
      { MP: "9900123456789", Typ: "Z64", Dokument: "P-1", Ab: "01.01.2024 00:00", Artikel: "A2", Preis: "794", Von: "", Bis: "" },
      { MP: "9907654321098", Typ: "Z64", Dokument: "P-2", Ab: "01.07.2024 00:00", Artikel: "A1", Preis: "8,1", Von: "", Bis: "" }
    ])
    expect(result.rejected).toEqual([])
    const body = result.payloads[0]!.payload
    expect(body.price_sheets.map((s) => [s.document_number, s.article_prices.length])).toEqual([["P-1", 2], ["P-2", 1]])
    expect(body.price_sheets[0]!.article_prices[0]).toEqual({ article_id: "A1", price_cents: "7.998", interval_zone: { lower_bound: 0, upper_bound: 100000 } })
    // Empty bounds carry no data: the interval zone is left out, not sent half-filled.
    expect(body.price_sheets[0]!.article_prices[1]).toEqual({ article_id: "A2", price_cents: "794" })
  })

  it("market-participant-definitions: registers under their definition, computed fields in TypeScript", () => {
    const mapping = defineMapping({
      endpoint: "market-participant-definitions",
      groupBy: ["NB"],
      fields: { network_operator_code: "NB" },
      collections: [{
        path: "definitions",
        groupBy: ["Code"],
        fields: {
          valid_from: { column: "Ab", convert: "date", options: { format: "dd.MM.yyyy" } },
          version_datetime: { from: (row) => toIsoDateTime(`${String(row["Ab"])} 00:00`, berlin) },
          definition_type: { value: "SCHALTZEIT" },
          definition_code: "Code"
        },
        collections: [{
          path: "registers",
          fields: { register_code: "Register", low_load_capable: { column: "NT", convert: "boolean" } }
        }]
      }]
    })
    const result = mapRecords(mapping, [
      { NB: "9900123456789", Code: "HT-NT", Ab: "01.01.2024", Register: "1-1:1.8.1", NT: "" },
      { NB: "9900123456789", Code: "HT-NT", Ab: "01.01.2024", Register: "1-1:1.8.2", NT: "X" },
      { NB: "9900123456789", Code: "ET", Ab: "01.07.2024", Register: "1-1:1.8.0", NT: "N" }
    ])
    expect(result.rejected).toEqual([])
    const body = result.payloads[0]!.payload
    expect(body.definitions?.[0]!.registers).toEqual([
      { register_code: "1-1:1.8.1", low_load_capable: false },
      { register_code: "1-1:1.8.2", low_load_capable: true }
    ])
    expect(body.definitions?.map((d) => d.version_datetime)).toEqual(["2024-01-01T00:00:00+01:00", "2024-07-01T00:00:00+02:00"])
    expect(validatePayload("market-participant-definitions", body).ok).toBe(true)
  })
})
