/**
 * `data-import map` of BO4E in the three shapes found in the field, through the shipped example mappings,
 * run as a child process: Hochfrequenz's BOneyComb (`stammdaten[]`, `boTyp`), the official flavour
 * (`_typ`/`_version`, `obisKennzahl`, `zuZahlen`, Preisstaffel `preis`) and conuti's wrapper
 * (`data.stammdaten.<TYP>[]` with `data.transaktionsdaten`); `messwertstatus` as the QTY qualifier, with
 * forecasts and the like left out as counted exclusions; Marktteilnehmer roles from the mapping's table;
 * prices in EUR shifted to cents. The fixtures are constructed (test/fixtures/bo4e/constructed/README.md
 * names the fact each reproduces); every expected value is read off them by hand.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const EXAMPLES = join(ROOT, "examples", "market-messages")
const CONSTRUCTED = join(ROOT, "test", "fixtures", "bo4e", "constructed")
const dir = tempDir()

const map = async (mapping: string, fixture: string) => {
  const out = join(dir, `${fixture}.ndjson`)
  const rejects = join(dir, `${fixture}.rejects.ndjson`)
  const result = await runCli(["map", "-m", join(EXAMPLES, mapping), "-o", out, "-r", rejects, join(CONSTRUCTED, fixture)])
  const read = /(\d+) rows? read/u.exec(result.stderr)
  return { ...result, rowsRead: read === null ? undefined : Number(read[1]), payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")) }
}

/** An energy amount of the example mapping, as it must come out. */
const amount = (account: string, malo: string, start: string, end: string, obis: string, quantity: string, qualifier?: string) => ({
  import_supplier: "STADTWERKE_NORD",
  external_account_number: account,
  energy_amount: {
    malo_number: malo,
    period_start_at: start,
    period_end_at: end,
    product_identifier: obis,
    product_identifier_type: "SRW",
    quantity,
    quantity_unit: "KWH",
    ...(qualifier !== undefined ? { qualifier } : {})
  }
})

const quarter = (i: number): [string, string] => {
  const at = (n: number) => `2024-03-01T${String(Math.floor(n / 4)).padStart(2, "0")}:${String((n % 4) * 15).padStart(2, "0")}:00Z`
  return [at(i), at(i + 1)]
}

describe("BO4E Energiemenge in three shapes → energy amounts", () => {
  it("the official flavour (list shape, v202401 and v202501): every Verbrauch maps, obisKennzahl read, messwertstatus as qualifier", async () => {
    const result = await map("bo4e-energiemenge.mapping.json", "energiemenge-official-v202401-v202501.json")
    expect(result.rejected).toEqual([])
    expect(result.code).toBe(0)
    const a = [["1.25", "220"], ["1.5", "220"], ["0.75", "220"], ["2", "220"], ["1.125", "67"], ["0.875", "Z18"]] as const
    const b = ["0.5", "0.25", "0", "0.125", "3"]
    expect(result.payloads).toEqual([
      ...a.map(([q, status], i) => amount("KD-8001", "51238696781", ...quarter(i), "1-1:1.29.0", q, status)),
      ...b.map((q, i) => amount("KD-8001", "51238696781", ...quarter(i), "1-1:2.29.0", q, "220"))
    ])
    for (const payload of result.payloads) expect(validatePayload("energy-amount", payload).ok).toBe(true)
  })

  it("the conuti wrapper: data.stammdaten.ENERGIEMENGE[] is read; its spelling VOLAEUFIGERWERT is Z18; a Verbrauch without einheit is a located reject", async () => {
    const result = await map("bo4e-energiemenge.mapping.json", "energiemenge-conuti-wrapper.json")
    expect(result.payloads).toEqual([
      amount("KD-8002", "41373559241", ...quarter(0), "1-1:1.29.0", "4.5", "220"),
      amount("KD-8002", "41373559241", ...quarter(1), "1-1:1.29.0", "4.25", "67"),
      amount("KD-8002", "41373559241", ...quarter(2), "1-1:1.29.0", "3.875", "Z18")
    ])
    expect(result.rejected.length).toBe(1)
    const reject = JSON.stringify(result.rejected[0])
    expect(reject).toContain("quantity_unit")
    expect(reject).toContain("data.stammdaten.ENERGIEMENGE[0].energieverbrauch[3]")
    expect(result.code).not.toBe(0)
  })

  it("a meter reading (PID 13017 in transaktionsdaten) is a listed skip by its PID, not a reject for want of an account", async () => {
    const out = join(dir, "meter-reading.ndjson")
    const excluded = join(dir, "meter-reading.excluded.ndjson")
    const input = join(CONSTRUCTED, "energiemenge-conuti-meter-reading.json")
    const result = await runCli(["map", "-m", join(EXAMPLES, "bo4e-energiemenge.mapping.json"), "-o", out, "--excluded", excluded, input])
    expect(result.code).toBe(0)
    // Document 2 (13025): one quarter-hour of MaLo 41373559241, KD-8002 in bo4e-accounts.csv.
    expect(lines(readFileSync(out, "utf8"))).toEqual([amount("KD-8002", "41373559241", ...quarter(0), "1-1:1.29.0", "0.625", "220")])
    expect(lines(readFileSync(excluded, "utf8")).map((e) => [e["outcome"], e["reason"]])).toEqual([["skipped", "pruefidentifikator 13017"]])
    expect(result.stderr).toContain("2 rows read = 1 in 1 payload (energy-amount) + 0 rejected + 1 excluded")
  })

  it("forecasts, not-usable, missing, proposed and Lieferschein values are counted exclusions; true, substitute and summed values map with their qualifier", async () => {
    const result = await map("bo4e-energiemenge.mapping.json", "energiemenge-forecasts-and-substitutes.json")
    expect(result.rejected).toEqual([])
    expect(result.code).toBe(0)
    // 12 Verbrauch: 3 ABGELESEN, 2 ERSATZWERT, 1 ENERGIEMENGESUMMIERT map; 2 PROGNOSEWERT, NICHT_VERWENDBAR,
    // FEHLT, VORSCHLAGSWERT and ANGABE_FUER_LIEFERSCHEIN (6) are left out, counted as read.
    expect(result.rowsRead).toBe(12)
    expect(result.payloads).toEqual([
      amount("KD-8003", "57685676748", ...quarter(0), "1-1:1.29.0", "1.1", "220"),
      amount("KD-8003", "57685676748", ...quarter(2), "1-1:1.29.0", "1.2", "67"),
      amount("KD-8003", "57685676748", ...quarter(4), "1-1:1.29.0", "1.3", "220"),
      amount("KD-8003", "57685676748", ...quarter(7), "1-1:1.29.0", "1.4", "67"),
      amount("KD-8003", "57685676748", ...quarter(10), "1-1:1.29.0", "1.6", "220"),
      amount("KD-8003", "57685676748", "2024-03-01T00:00:00Z", "2024-03-01T03:00:00Z", "1-1:1.29.0", "7.5", "79")
    ])
  })
})

describe("BO4E Marktteilnehmer roles from the mapping's table", () => {
  it("NB and UENB become NETWORK_OPERATOR; LF, MSB, BKV and ESA are refused, each naming its role", async () => {
    const result = await map("bo4e-marktteilnehmer.mapping.json", "marktteilnehmer-official-roles.ndjson")
    expect(result.payloads).toEqual([
      { code: 9900000000003, code_type: "BDEW", name: "Netz Nord GmbH", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" },
      { code: 1000000000009, code_type: "BDEW", name: "Uebertragung Ost GmbH", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" }
    ])
    for (const payload of result.payloads) expect(validatePayload("market-participant", payload).ok).toBe(true)
    expect(result.rejected.length).toBe(4)
    for (const [i, role] of [[1, "LF"], [2, "MSB"], [4, "BKV"], [5, "ESA"]] as const) {
      const reject = JSON.stringify(result.rejected.find((r) => JSON.stringify(r).includes(`document ${i + 1} (line ${i + 1})`) || JSON.stringify(r).includes(`"@document":"${i + 1}"`)))
      expect(reject).toContain("refused_value")
      expect(reject).toContain(`marktrolle \\"${role}\\" is refused`)
    }
    expect(result.code).not.toBe(0)
  })

  it("the conuti wrapper: data.stammdaten.MARKTTEILNEHMER[] is read, name1 as the name", async () => {
    const result = await map("bo4e-marktteilnehmer.mapping.json", "marktteilnehmer-conuti-wrapper.json")
    expect(result.payloads).toEqual([{ code: 9900000000003, code_type: "BDEW", name: "Netz Nord GmbH", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" }])
    expect(result.rejected.length).toBe(1)
    expect(JSON.stringify(result.rejected[0])).toContain("marktrolle \\\"MSB\\\" is refused")
  })
})

describe("BO4E Preisblatt: EUR to cents, official and conuti shapes", () => {
  it("the conuti wrapper in EUR: each price moves two places, exactly; a CT position is taken as written", async () => {
    const result = await map("bo4e-preisblatt.mapping.json", "preisblatt-conuti-wrapper-eur.json")
    expect(result.rejected).toEqual([])
    expect(result.code).toBe(0)
    expect(result.payloads).toEqual([{
      price_sheets: [{
        market_participant_code: 9900000000003,
        price_sheet_type: "Z64",
        document_number: "PB-2025-0002",
        is_price_sheet_unused: false,
        active_from: "2024-12-31T23:00:00Z",
        article_prices: [
          { article_id: "1-01-6-006", price_cents: "1.95" },
          { article_id: "1-01-6-005", price_cents: "7.0125", interval_zone: { lower_bound: 0, upper_bound: 2500 } },
          { article_id: "1-01-6-005", price_cents: "5.40", interval_zone: { lower_bound: 2500, upper_bound: 100000 } },
          { article_id: "1-01-9-001", price_cents: "6200" }
        ]
      }]
    }])
    expect(validatePayload("market-participant-fees", result.payloads[0]).ok).toBe(true)
  })

  it("the official flavour (v202607): preis and the Preisstaffel's artikelId are read; its Zeitraum date is refused as active_from, nothing else", async () => {
    const result = await map("bo4e-preisblatt.mapping.json", "preisblatt-official-v202607.json")
    expect(result.payloads).toEqual([])
    const text = JSON.stringify(result.rejected)
    expect(text).toContain("active_from")
    expect(text).not.toContain("price_cents")
    expect(text).not.toContain("article_id")
    expect(text).not.toContain("market_participant_code")
    expect(text).not.toContain("document_number")
  })
})

describe("BO4E Rechnung in the official flavour", () => {
  it("reads zuZahlen, the Marktlokation and the codes of transaktionsdaten; only the official Zeitraum dates are refused", async () => {
    const result = await map("bo4e-rechnung.mapping.json", "rechnung-official-v202501.json")
    expect(result.payloads).toEqual([])
    const text = JSON.stringify(result.rejected)
    expect(text).toContain("period_start_at")
    expect(text).toContain("period_end_at")
    for (const read of ["amount_due", "amount_total", "malo_number", "sender_id", "recipient_id", "no_account_for_location", "line_items", "tax_amounts"]) expect(text).not.toContain(read)
  })
})
