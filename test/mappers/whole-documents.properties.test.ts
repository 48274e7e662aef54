/**
 * Over random documents with random bad cells: a payload of a whole-document kind has a part for every
 * row of its group (or is not emitted), and every row ends in exactly one payload or one rejection.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingResult, mapRecords } from "../../src/index.js"

const berlin = { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } as const

const deliveryNotes = defineMapping({
  endpoint: "delivery-note",
  groupBy: ["Lieferschein"],
  fields: { import_supplier: { value: "SW" }, external_account_number: { value: "KD-1" }, "delivery_note.malo_number": { value: "51238696781" }, "delivery_note.edifact_reference_number": "Lieferschein" },
  collections: [{
    path: "delivery_note.amounts",
    fields: {
      period_start_at: { column: "Von", convert: "datetime", options: berlin },
      period_end_at: { value: "2025-01-01T00:00:00+01:00" },
      product_identifier: { value: "1-1:1.8.0" },
      product_identifier_type: { value: "SRW" },
      quantity: { column: "Menge", convert: "decimal", options: { locale: "de" } },
      quantity_unit: { value: "KWH" }
    }
  }]
})

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
    "market_participant_invoice.amount_total": { value: 100 },
    "market_participant_invoice.amount_due": { value: 100 },
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
        period_start_at: { value: "2024-10-01T00:00:00+02:00" },
        period_end_at: { value: "2024-11-01T00:00:00+01:00" },
        amount_net: { column: "Betrag", convert: "cents", options: { locale: "de" } },
        price: { value: "1" },
        tax_rate: { value: "19" }
      }
    },
    {
      path: "market_participant_invoice.tax_amounts",
      when: { column: "Art", equals: "UST" },
      fields: {
        tax_rate: { value: "19" },
        tax_amount_assessment_basis: { value: 100 },
        tax_amount: { column: "Betrag", convert: "cents", options: { locale: "de" } }
      }
    }
  ]
})

/** A cell that converts, or (rarely) one that does not. */
const cell = (good: fc.Arbitrary<string>, bad: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: fc.constantFrom(...bad), weight: 1 })

const amountRow = fc.record({
  Von: cell(fc.integer({ min: 1, max: 28 }).map((d) => `${String(d).padStart(2, "0")}.01.2024 00:00`), ["31.02.2024 00:00", "gestern"]),
  Menge: cell(fc.integer({ min: 0, max: 99_999 }).map((n) => `${n},5`), ["x", "1,2,3"])
})

const invoiceRow = fc.record({
  Art: fc.constantFrom("POS", "POS", "UST"),
  Pos: cell(fc.integer({ min: 1, max: 99 }).map(String), ["eins"]),
  Betrag: cell(fc.integer({ min: 0, max: 9_999 }).map((n) => `${n},25`), ["7,945", "viel"])
})

/** Documents of 1 to 5 rows each, keyed by `key`, their rows in a random order (a list is grouped wherever its rows are). */
const documents = <R extends object>(key: string, part: fc.Arbitrary<R>) =>
  fc.array(fc.array(part, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }).chain((docs) => {
    const rows = docs.flatMap((parts, d) => parts.map((p) => ({ ...p, [key]: `D-${d}` })))
    return fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length })
  })

/** Checks a result: every row once, and each payload built from all the rows of its group, one part a row. */
const checkWhole = (rows: ReadonlyArray<Record<string, string>>, key: string, result: MappingResult, partsOf: (payload: unknown) => number): { payloads: number; broken: number } => {
  const settled = [...result.payloads.flatMap((p) => p.sourceRows), ...result.rejected.flatMap((r) => r.sourceRows)].sort((a, b) => a - b)
  expect(settled).toEqual(rows.map((_, i) => i))
  const groupOf = (i: number) => rows.flatMap((r, j) => (r[key] === rows[i]![key] ? [j] : []))
  for (const p of result.payloads) {
    const group = groupOf(p.sourceRows[0]!)
    expect(p.sourceRows).toEqual(group)
    expect(partsOf(p.payload)).toBe(group.length)
  }
  // A document rejected because of other rows names them, and those rows are rejected with their own reasons.
  for (const r of result.rejected) {
    if (r.errors[0]!.code !== "document_incomplete") continue
    const named = [...r.errors[0]!.detail.matchAll(/row (\d+): /gu)].map((m) => Number(m[1]) - 1)
    expect(named.length).toBeGreaterThan(0)
    for (const i of named) {
      expect(groupOf(r.sourceRows[0]!)).toContain(i)
      expect(result.rejected.find((other) => other.sourceRows.includes(i))!.errors[0]!.code).not.toBe("document_incomplete")
    }
  }
  return { payloads: result.payloads.length, broken: result.rejected.filter((r) => r.errors[0]!.code === "document_incomplete").length }
}

describe("whole documents, over random documents with random bad cells", () => {
  it("delivery notes: every payload has an amount for each row of its note, every row is settled once", () => {
    const seen = { payloads: 0, broken: 0 }
    fc.assert(
      fc.property(documents("Lieferschein", amountRow), (rows) => {
        const counts = checkWhole(rows, "Lieferschein", mapRecords(deliveryNotes, rows), (p) => (p as { delivery_note: { amounts: Array<unknown> } }).delivery_note.amounts.length)
        seen.payloads += counts.payloads
        seen.broken += counts.broken
      }),
      { numRuns: 300 }
    )
    // Both outcomes were met: the property did not pass on documents that are all good or all bad.
    expect(seen.payloads).toBeGreaterThan(0)
    expect(seen.broken).toBeGreaterThan(0)
  })

  it("invoices: every payload has a line item or tax amount for each row of its invoice, every row is settled once", () => {
    const seen = { payloads: 0, broken: 0 }
    fc.assert(
      fc.property(documents("Rechnung", invoiceRow), (rows) => {
        const result = mapRecords(invoices, rows)
        const counts = checkWhole(rows, "Rechnung", result, (p) => {
          const invoice = (p as { market_participant_invoice: { line_items: Array<unknown>; tax_amounts?: Array<unknown> } }).market_participant_invoice
          return invoice.line_items.length + (invoice.tax_amounts?.length ?? 0)
        })
        seen.payloads += counts.payloads
        seen.broken += counts.broken
      }),
      { numRuns: 300 }
    )
    expect(seen.payloads).toBeGreaterThan(0)
    expect(seen.broken).toBeGreaterThan(0)
  })
})
