/**
 * The bundled legacy exports (examples/mappings): one per POST endpoint of the catalogue, each mapped with
 * its mapping by the built `data-import map`, and the payloads written checked by `data-import validate`.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { POST_ENDPOINT_IDS } from "../../src/schemas/endpoints/endpoint-id.js"
import { jsonReport, ROOT, runCli, tempDir } from "./run-cli.js"

const dir = tempDir()
const MAPPINGS = join(ROOT, "examples", "mappings")

/** The examples: each mapping file with its CSV, and the endpoint it names. */
const EXAMPLES = readdirSync(MAPPINGS)
  .filter((file) => file.endsWith(".mapping.json"))
  .map((file) => {
    const name = file.slice(0, -".mapping.json".length)
    return { name, endpoint: (JSON.parse(readFileSync(join(MAPPINGS, file), "utf8")) as { endpoint: string }).endpoint }
  })

/** The payloads each example makes and the rows rejected on purpose, counted by hand from its CSV. */
const COUNTED: Readonly<Record<string, { readonly payloads: number; readonly rejectedLines: ReadonlyArray<number> }>> = {
  "notes": { payloads: 2, rejectedLines: [4] },
  "delivery-notes": { payloads: 2, rejectedLines: [] },
  "energy-amounts": { payloads: 4, rejectedLines: [5] },
  "transactions": { payloads: 4, rejectedLines: [6] },
  "historical-statements": { payloads: 2, rejectedLines: [] },
  "market-participant-invoices": { payloads: 2, rejectedLines: [] },
  "payment-instructions": { payloads: 3, rejectedLines: [] },
  "market-participants": { payloads: 2, rejectedLines: [] },
  "market-participant-fees": { payloads: 1, rejectedLines: [] },
  "market-participant-definitions": { payloads: 1, rejectedLines: [] }
}

const ndjson = (path: string): Array<Record<string, unknown>> =>
  readFileSync(path, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

describe("examples/mappings", () => {
  it("holds a CSV and a mapping for each POST endpoint of the catalogue, and nothing else", () => {
    expect(readdirSync(MAPPINGS).sort()).toEqual(EXAMPLES.flatMap(({ name }) => [`${name}.csv`, `${name}.mapping.json`]).sort())
    expect([...new Set(EXAMPLES.map((e) => e.endpoint))].sort()).toEqual([...POST_ENDPOINT_IDS].sort())
    for (const name of Object.keys(COUNTED)) expect(EXAMPLES.map((e) => e.name)).toContain(name)
  })

  for (const { name, endpoint } of EXAMPLES) {
    const counted = COUNTED[name]
    it(`${name}: map writes its payloads (${endpoint}), and validate finds them valid, without warnings`, async () => {
      const out = join(dir, `${name}.ndjson`)
      const rejects = join(dir, `${name}.rejects.ndjson`)
      const map = await runCli(["map", "-m", join(MAPPINGS, `${name}.mapping.json`), "-o", out, "-r", rejects, join(MAPPINGS, `${name}.csv`)])
      const payloads = ndjson(out).length
      const rejectedLines = ndjson(rejects).flatMap((r) => r["lines"] as Array<number>)
      expect(map.code).toBe(rejectedLines.length === 0 ? 0 : 1)
      expect(payloads).toBeGreaterThan(0)
      if (counted !== undefined) {
        expect(payloads).toBe(counted.payloads)
        expect(rejectedLines).toEqual(counted.rejectedLines)
      }
      const run = await runCli(["validate", "--format", "json", out])
      expect(run.code).toBe(0)
      const report = jsonReport(run)
      expect(report.totals).toMatchObject({ records: payloads, valid: payloads, warnings: 0 })
      expect(report.byEndpoint).toEqual({ [endpoint]: payloads })
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
