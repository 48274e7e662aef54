/**
 * `data-import map` of conuti's `statuszusatzinformationen[{ art, status }]` through the shipped
 * Energiemenge example, run as a child process: each `art` fills its field of the energy amount as the
 * MSCONS example's STS categories do (PLAUSIBILISIERUNGSHINWEIS = STS+Z33 → `plausibility_indications`,
 * MESSKLASSIFIZIERUNG = STS+10 → `measurement_classifications`, ERSATZWERTBILDUNGSVERFAHREN = Z32 →
 * `estimate_method`, GRUND_ERSATZWERTBILDUNGSVERFAHREN = Z40 → `estimate_reason`, KORREKTURGRUND = Z34 →
 * `correction_reason`), each status name as its EDIFACT code (examples/market-messages/bo4e-status.json).
 * The fixture is constructed (test/fixtures/bo4e/constructed/README.md); every expected value is worked
 * out by hand from it and the code list.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "bo4e-energiemenge.mapping.json")
const FIXTURE = join(ROOT, "test", "fixtures", "bo4e", "constructed", "energiemenge-conuti-status.json")
const dir = tempDir()

/** The quarter-hour `i` of 1 April 2024 (UTC), as the fixture writes it. */
const quarter = (i: number): { period_start_at: string; period_end_at: string } => {
  const at = (n: number) => `2024-04-01T${String(Math.floor(n / 4)).padStart(2, "0")}:${String((n % 4) * 15).padStart(2, "0")}:00Z`
  return { period_start_at: at(i), period_end_at: at(i + 1) }
}

/** An energy amount of MaLo 41373559241 (account KD-8002 in bo4e-accounts.csv), OBIS 1-1:1.29.0, in kWh. */
const amount = (i: number, quantity: string, qualifier: string, status: Record<string, unknown> = {}) => ({
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-8002",
  energy_amount: {
    malo_number: "41373559241",
    ...quarter(i),
    product_identifier: "1-1:1.29.0",
    product_identifier_type: "SRW",
    quantity,
    quantity_unit: "KWH",
    qualifier,
    ...status
  }
})

const VERBRAUCH = "data.stammdaten.ENERGIEMENGE[0].energieverbrauch"

describe("BO4E statuszusatzinformationen → the status fields of an energy amount", () => {
  it("each art fills its field with the EDIFACT codes of its statuses; an unknown status and two estimate methods are located rejects; a forecast stays left out", async () => {
    const out = join(dir, "status.ndjson")
    const rejects = join(dir, "status.rejects.ndjson")
    const excluded = join(dir, "status.excluded.ndjson")
    const result = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, FIXTURE])
    // 8 Verbrauch: 5 payloads, 2 rejects, 1 forecast left out.
    expect(result.stderr).toContain("8 rows read = 5 in 5 payloads (energy-amount) + 2 rejected + 1 excluded")
    expect(result.code).not.toBe(0)
    const payloads = lines(readFileSync(out, "utf8"))
    expect(payloads).toEqual([
      // Two plausibility notes, in their order: Kundenselbstablesung Z83, plausibel wg. Kundenhinweis Z87.
      amount(0, "2.5", "220", { plausibility_indications: ["Z83", "Z87"] }),
      // A substitute value: method Interpolation Z92, reason Kommunikationsstörung Z75 (listed first in the list).
      amount(1, "2.25", "67", { estimate_method: "Z92", estimate_reason: "Z75" }),
      // A correction: fehlerhafte Ablesung ZA4, and the note Rechenwert ZR5.
      amount(2, "2.125", "220", { correction_reason: "ZA4", plausibility_indications: ["ZR5"] }),
      // Meter reading at the start there (Z36), none at the end (Z39).
      amount(3, "2", "220", { measurement_classifications: ["Z36", "Z39"] }),
      // No statuszusatzinformationen: no status field.
      amount(4, "1.875", "220")
    ])
    for (const payload of payloads) expect(validatePayload("energy-amount", payload).ok).toBe(true)

    const rejected = lines(readFileSync(rejects, "utf8"))
    expect(rejected.map((r) => (r["rows"] as Array<Record<string, unknown>>)[0]!["@path"])).toEqual([`${VERBRAUCH}[5]`, `${VERBRAUCH}[6]`])
    const errors = rejected.map((r) => (r["errors"] as Array<Record<string, unknown>>).map(({ column, cell, attr, code }) => ({ column, cell, attr, code })))
    expect(errors).toEqual([
      // GESCHEITERT is in conuti's Status enum, but no STS code is known for it: named, never dropped.
      [{ column: "energieverbrauch[].statuszusatzinformationen[0].status", cell: "GESCHEITERT", attr: "energy_amount.estimate_reason", code: "unknown_value" }],
      [{ column: "energieverbrauch[].statuszusatzinformationen[*].status", cell: undefined, attr: "energy_amount.estimate_method", code: "conflicting_columns" }]
    ])
    const details = rejected.map((r) => (r["errors"] as Array<Record<string, unknown>>)[0]!["detail"])
    expect(details[0]).toMatch(/^energieverbrauch\[\]\.statuszusatzinformationen\[0\]\.status "GESCHEITERT" is not in the value table/u)
    expect(details[1]).toBe(
      "energieverbrauch[].statuszusatzinformationen[0].status \"INTERPOLATION\" and energieverbrauch[].statuszusatzinformationen[1].status \"HALTEWERT\" differ: which one is meant is not known"
    )

    // The forecast is left out by its messwertstatus before its statuses are read: no reject for its GESCHEITERT.
    const left = lines(readFileSync(excluded, "utf8"))
    expect(left.map((e) => [e["outcome"], e["reason"]])).toEqual([["skipped", "messwertstatus PROGNOSEWERT"]])
    expect(String(left[0]!["detail"])).toContain(`${VERBRAUCH}[7]`)
  })
})
