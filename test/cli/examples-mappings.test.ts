/**
 * The bundled legacy exports (examples/mappings): one per POST endpoint, each mapped with its mapping by
 * the built `data-import map`, and the payloads written checked by `data-import validate`.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { jsonReport, ROOT, runCli, tempDir } from "./run-cli.js"

const dir = tempDir()
const MAPPINGS = join(ROOT, "examples", "mappings")

/** Each example: its endpoint, the payloads it makes and the rows rejected on purpose (read from the CSVs). */
const EXPECTED: Readonly<Record<string, { readonly endpoint: string; readonly payloads: number; readonly rejectedLines: ReadonlyArray<number> }>> = {
  "notes": { endpoint: "notes", payloads: 2, rejectedLines: [4] },
  "delivery-notes": { endpoint: "delivery-note", payloads: 2, rejectedLines: [] },
  "energy-amounts": { endpoint: "energy-amount", payloads: 4, rejectedLines: [5] },
  "transactions": { endpoint: "transactions", payloads: 4, rejectedLines: [6] },
  "historical-statements": { endpoint: "historical-statements", payloads: 2, rejectedLines: [] },
  "market-participant-invoices": { endpoint: "market-participant-invoice", payloads: 2, rejectedLines: [] },
  "payment-instructions": { endpoint: "payment-instruction", payloads: 3, rejectedLines: [] },
  "market-participants": { endpoint: "market-participant", payloads: 2, rejectedLines: [] },
  "market-participant-fees": { endpoint: "market-participant-fees", payloads: 1, rejectedLines: [] },
  "market-participant-definitions": { endpoint: "market-participant-definitions", payloads: 1, rejectedLines: [] }
}

const POST_ENDPOINTS = [
  "notes", "delivery-note", "energy-amount", "transactions", "historical-statements", "market-participant-invoice",
  "payment-instruction", "market-participant", "market-participant-fees", "market-participant-definitions"
]

const ndjson = (path: string): Array<Record<string, unknown>> =>
  readFileSync(path, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

describe("examples/mappings", () => {
  it("holds a CSV and a mapping for each of the 10 POST endpoints, and nothing else", () => {
    const files = readdirSync(MAPPINGS).sort()
    expect(files).toEqual(Object.keys(EXPECTED).flatMap((name) => [`${name}.csv`, `${name}.mapping.json`]).sort())
    const endpoints = Object.keys(EXPECTED).map((name) => (JSON.parse(readFileSync(join(MAPPINGS, `${name}.mapping.json`), "utf8")) as { endpoint: string }).endpoint)
    expect(endpoints.sort()).toEqual([...POST_ENDPOINTS].sort())
  })

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: map writes ${expected.payloads} payloads (${expected.endpoint}), and validate finds them valid, without warnings`, async () => {
      const out = join(dir, `${name}.ndjson`)
      const rejects = join(dir, `${name}.rejects.ndjson`)
      const map = await runCli(["map", "-m", join(MAPPINGS, `${name}.mapping.json`), "-o", out, "-r", rejects, join(MAPPINGS, `${name}.csv`)])
      expect(map.code).toBe(expected.rejectedLines.length === 0 ? 0 : 1)
      expect(ndjson(out)).toHaveLength(expected.payloads)
      expect(ndjson(rejects).flatMap((r) => r["lines"] as Array<number>)).toEqual(expected.rejectedLines)
      const run = await runCli(["validate", "--format", "json", out])
      expect(run.code).toBe(0)
      const report = jsonReport(run)
      expect(report.totals).toMatchObject({ records: expected.payloads, valid: expected.payloads, warnings: 0 })
      expect(report.byEndpoint).toEqual({ [expected.endpoint]: expected.payloads })
    })
  }

  it("the invoices: German amounts as cents, date-only periods as Berlin instants, and totals that add up", async () => {
    const out = join(dir, "invoices-detail.ndjson")
    const map = await runCli(["map", "-m", join(MAPPINGS, "market-participant-invoices.mapping.json"), "-o", out, join(MAPPINGS, "market-participant-invoices.csv")])
    expect(map.code).toBe(0)
    const [first] = ndjson(out).map((p) => p["market_participant_invoice"] as Record<string, unknown>)
    expect(first).toMatchObject({
      amount_total: 3452,
      period_start_at: "2024-10-01T00:00:00+02:00",
      period_end_at: "2024-11-01T00:00:00+01:00",
      tax_amounts: [{ tax_rate: "19.00", tax_rate_type: "S", tax_amount_assessment_basis: 2901, tax_amount: 551 }]
    })
    expect((first!["line_items"] as Array<Record<string, unknown>>).map((l) => [l["position"], l["amount_net"], l["quantity"], l["price"]]))
      .toEqual([[1, 2107, "263.4175", "7.998"], [2, 794, "1", "7.94"]])
  })

  it("the time definitions: registers under their definition, entries across the spring change", async () => {
    const out = join(dir, "definitions-detail.ndjson")
    const map = await runCli(["map", "-m", join(MAPPINGS, "market-participant-definitions.mapping.json"), "-o", out, join(MAPPINGS, "market-participant-definitions.csv")])
    expect(map.code).toBe(0)
    const [body] = ndjson(out) as Array<{ definitions: Array<{ registers: unknown }>; rolled_out_definitions: Array<{ entries: Array<{ period_start: string; period_end: string }> }> }>
    expect(body!.definitions[0]!.registers).toEqual([{ register_code: "1-1:1.8.1", low_load_capable: false }, { register_code: "1-1:1.8.2", low_load_capable: true }])
    expect(body!.rolled_out_definitions[0]!.entries.map((e) => [e.period_start, e.period_end])).toEqual([
      ["2024-03-31T00:00:00+01:00", "2024-03-31T06:00:00+02:00"],
      ["2024-03-31T06:00:00+02:00", "2024-03-31T22:00:00+02:00"],
      ["2024-03-31T22:00:00+02:00", "2024-04-01T00:00:00+02:00"]
    ])
  })
})
