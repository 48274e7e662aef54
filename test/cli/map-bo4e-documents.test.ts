/**
 * `data-import map` of BO4E documents with lists into one payload each, run as a child process:
 * examples/market-messages/bo4e-rechnung.mapping.json (Rechnung → market participant invoice, positions
 * → line items, Steuerbeträge → tax amounts) and bo4e-preisblatt.mapping.json (Preisblatt → price sheet,
 * each Preisstaffel of each Preisposition → article price). Expected values are read off the samples
 * in test/fixtures/bo4e by hand.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const EXAMPLES = join(ROOT, "examples", "market-messages")
const FIXTURES = join(ROOT, "test", "fixtures", "bo4e")
const dir = tempDir()

const map = async (mapping: string, name: string, input: string) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const result = await runCli(["map", "-m", join(EXAMPLES, mapping), "-o", out, "-r", rejects, input])
  return { ...result, payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")) }
}

describe("data-import map: BO4E Rechnung to a market participant invoice", () => {
  it("maps the real INVOIC 31002 BOneyComb to one valid invoice with its 10 positions and its tax amount", async () => {
    const result = await map("bo4e-rechnung.mapping.json", "invoic", join(FIXTURES, "boneycomb-invoic-31002-netznutzungsrechnung-gas.json"))
    expect(result.code).toBe(0)
    expect(result.rejected).toEqual([])
    expect(result.payloads.length).toBe(1)
    const payload = result.payloads[0]!
    expect(validatePayload("market-participant-invoice", payload).ok).toBe(true)
    expect(payload["external_account_number"]).toBe("KD-7007")
    const invoice = payload["market_participant_invoice"] as Record<string, unknown>
    expect(invoice).toMatchObject({
      invoice_type: "NETWORK_USAGE",
      invoice_sub_type: "JVR",
      invoice_document_type: "380",
      invoice_number: "Netznuzungsrechnung1234",
      issued_at: "2022-06-01T13:37:00+00:00",
      due_at: "2022-08-22T22:00:00+00:00",
      malo_number: "21131278279",
      period_start_at: "2021-04-30T04:00:00+00:00",
      period_end_at: "2022-05-31T04:00:00+00:00",
      amount_total: 271453,
      amount_due: 266453,
      interchange_reference: "Netznuzungsrechnung1234",
      // transaktionsdaten: absender bo4e://Marktteilnehmer/1234567890123, empfaenger …/9876543210987
      sender_id: 1234567890123,
      recipient_id: 9876543210987
    })
    const items = invoice["line_items"] as Array<Record<string, unknown>>
    expect(items.map((i) => i["position"])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(items.map((i) => i["amount_net"])).toEqual([222200, 222, 315, 476, 542, 653, 754, 895, 999, 1056])
    // Prices as written in the document, never through a float.
    expect(items.map((i) => i["price"])).toEqual(["49.2", "23.68", "0", "0.01608", "0.0003", "49.2", "23.68", "0", "0.01608", "0.0003"])
    expect(items.map((i) => `${String(i["quantity"])} ${String(i["quantity_unit"])}`)).toEqual(["1 ANZAHL", "1 ANZAHL", "1 ANZAHL", "46 KWH", "46 KWH", "1 ANZAHL", "1 ANZAHL", "1 ANZAHL", "46 KWH", "46 KWH"])
    expect(items[3]).toEqual({
      position: 4,
      article: "WIRKARBEIT",
      quantity: "46",
      quantity_unit: "KWH",
      period_start_at: "2021-04-30T04:00:00+00:00",
      period_end_at: "2021-12-30T05:00:00+00:00",
      amount_net: 476,
      price: "0.01608",
      tax_rate: "19.00",
      tax_rate_type: "S"
    })
    expect(invoice["tax_amounts"]).toEqual([
      { tax_rate: "19.00", tax_rate_type: "S", tax_amount_assessment_basis: 228112, tax_amount: 43341, amount_paid_in_advance: 5000, tax_amount_paid_in_advance: 952 }
    ])
    // The sample adds up: net lines = tax basis, basis + tax = total, total − prepaid 50.00 = due.
    expect(items.reduce((n, i) => n + (i["amount_net"] as number), 0)).toBe(228112)
    expect(228112 + 43341).toBe(invoice["amount_total"])
    expect((invoice["amount_total"] as number) - 5000).toBe(invoice["amount_due"])
  })

  it("a Rechnung with no Marktlokation (the real supplier-to-customer Abschlagsrechnung) is refused, every position and tax amount located", async () => {
    const result = await map("bo4e-rechnung.mapping.json", "abschlag", join(FIXTURES, "rechnung-testcase.json"))
    expect(result.code).not.toBe(0)
    expect(result.payloads).toEqual([])
    // The sample's input holds positions 2 to 9 (eight) and two Steuerbeträge.
    const text = JSON.stringify(result.rejected)
    expect(result.rejected.length).toBe(10)
    expect(text).toContain("input.rechnungspositionen[7]: no_account_for_location")
    expect(text).toContain("input.steuerbetraege[1]: no_account_for_location")
  })
})

describe("data-import map: BO4E Preisblatt to price sheets", () => {
  const input = join(FIXTURES, "preisblatt-pricat-27003-handmade.json")

  it("maps each Preisstaffel of each Preisposition to an article price of one valid price sheet", async () => {
    const result = await map("bo4e-preisblatt.mapping.json", "preisblatt", input)
    expect(result.code).toBe(0)
    expect(result.rejected).toEqual([])
    expect(result.payloads).toEqual([{
      price_sheets: [{
        market_participant_code: 9900000000003,
        price_sheet_type: "Z64",
        document_number: "PB-2025-0001",
        is_price_sheet_unused: false,
        active_from: "2024-12-31T23:00:00Z",
        article_prices: [
          { article_id: "1-01-6-005", price_cents: "7.0125", interval_zone: { lower_bound: 0, upper_bound: 2500 } },
          { article_id: "1-01-6-005", price_cents: "5.40", interval_zone: { lower_bound: 2500, upper_bound: 100000 } },
          { article_id: "1-01-9-001", price_cents: "6200" }
        ]
      }]
    }])
    expect(validatePayload("market-participant-fees", result.payloads[0]).ok).toBe(true)
  })

  it("a Preisposition priced in EUR becomes cents by moving the point two places, exactly", async () => {
    const euro = write(dir, "preisblatt-eur.json", readFileSync(input, "utf8").replace(`"preiseinheit": "CT",\n          "bezugsgroesse": "STUECK"`, `"preiseinheit": "EUR",\n          "bezugsgroesse": "STUECK"`))
    const result = await map("bo4e-preisblatt.mapping.json", "preisblatt-eur", euro)
    expect(result.code).toBe(0)
    expect(result.rejected).toEqual([])
    // The Grundpreis of 6200 read as EUR is 620000 cents; the CT positions come first (the example's CT list).
    const sheet = (result.payloads[0]!["price_sheets"] as Array<Record<string, unknown>>)[0]!
    expect(sheet["article_prices"]).toEqual([
      { article_id: "1-01-6-005", price_cents: "7.0125", interval_zone: { lower_bound: 0, upper_bound: 2500 } },
      { article_id: "1-01-6-005", price_cents: "5.40", interval_zone: { lower_bound: 2500, upper_bound: 100000 } },
      { article_id: "1-01-9-001", price_cents: "620000" }
    ])
  })
})
