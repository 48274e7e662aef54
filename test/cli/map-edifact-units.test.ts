/**
 * `data-import map` of MSCONS whose quantities carry no unit, as real archives hold them, through the
 * example mapping (examples/market-messages): each quantity gets the unit its OBIS code implies, a given
 * unit is kept or converted exactly, power maxima, calorific values and unknown codes are located rejects
 * with their reason, and every `STS+Z33` and `STS+10` of a value becomes a list. The fixtures are constructed
 * (test/fixtures/market-messages/constructed/units/README.md names the fact each reproduces).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const MAPPING = join(ROOT, "examples", "market-messages", "mscons-energy-amounts.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "units")
const dir = tempDir()

const lines = (text: string): Array<Record<string, unknown>> => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

/** `map` of one fixture: exit code, stderr, payloads, and each reject as its line and detail. */
const map = async (fixture: string) => {
  const out = join(dir, `${fixture}.ndjson`)
  const rejects = join(dir, `${fixture}.rejects.ndjson`)
  const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, fixture], { cwd: FIXTURES })
  const rejected = lines(readFileSync(rejects, "utf8")).map((r) => ({ lines: r["lines"], detail: (r["errors"] as Array<{ detail: string }>).map((e) => e.detail) }))
  return { code: run.code, stderr: run.stderr, payloads: lines(readFileSync(out, "utf8")), rejected }
}

/** An energy amount of MaLo 51238696781 (account KD-3003 from 2020 on) with the fields given. */
const amount = (document: string, fields: Record<string, unknown>) => ({
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-3003",
  energy_amount: { malo_number: "51238696781", ...fields, product_identifier_type: "SRW", edifact_reference_number: `${document}-DOC` }
})

/** A quarter hour of 1 March 2024 in Berlin (+01:00), from minute `from`. */
const quarter = (from: number) => ({
  period_start_at: `2024-03-01T${String(Math.floor(from / 60)).padStart(2, "0")}:${String(from % 60).padStart(2, "0")}:00+01:00`,
  period_end_at: `2024-03-01T${String(Math.floor((from + 15) / 60)).padStart(2, "0")}:${String((from + 15) % 60).padStart(2, "0")}:00+01:00`
})
const february = { period_start_at: "2024-02-01T00:00:00+01:00", period_end_at: "2024-03-01T00:00:00+01:00" }
const MEASURES_TAKEN = "(this reader takes active energy, reactive energy, gas energy, gas volume)"

describe("map of MSCONS quantities without a unit (examples/market-messages)", () => {
  it("a load profile without units: every quantity in kWh, both plausibility notes of a value as a list", async () => {
    const result = await map("qty-without-unit.edi")
    expect(result.code).toBe(0)
    expect(result.rejected).toEqual([])
    const load = (from: number, quantity: string, qualifier: string, more: Record<string, unknown> = {}) =>
      amount("UNITS1", { ...quarter(from), product_identifier: "1-1:1.29.0", quantity, quantity_unit: "KWH", qualifier, line_item_identifier: "1", ...more })
    expect(result.payloads).toEqual([
      load(0, "1.25", "220"),
      load(15, "0.75", "220"),
      load(30, "2", "67", { estimate_method: "Z92", plausibility_indications: ["Z84", "Z87"] }),
      load(45, "1.5", "220")
    ])
    for (const payload of result.payloads) expect(validatePayload("energy-amount", payload).ok).toBe(true)
  })

  it("reactive energy in kvarh (K3), never kWh, with the unreleased colon read as the code", async () => {
    const result = await map("reactive-energy.edi")
    expect(result.code).toBe(0)
    const reactive = (obis: string, line: string, from: number, quantity: string) =>
      amount("UNITS2", { ...quarter(from), product_identifier: obis, quantity, quantity_unit: "K3", qualifier: "220", line_item_identifier: line })
    expect(result.payloads).toEqual([reactive("1-1:3.29.0", "1", 0, "0.312"), reactive("1-1:3.29.0", "1", 15, "0.298"), reactive("1-1:4.29.0", "2", 0, "0.041")])
    expect(result.rejected).toEqual([])
    // K3 is not among the units the spec lists (KWH appears): a warning of each payload, never a silent kWh.
    expect(result.stderr).toContain(`reactive-energy.edi:14 energy_amount.quantity_unit unknown_choice "K3" is not among the values the spec lists (KWH).`)
    expect(result.stderr).toContain(`segment 21 at byte 449: unreleased_obis_colon`)
  })

  it("an energy quantity with both measurement classifications is sent; its power maximum is refused with the reason", async () => {
    const result = await map("energy-and-power-maximum.edi")
    expect(result.code).toBe(1)
    expect(result.payloads).toEqual([
      amount("UNITS3", { ...february, product_identifier: "1-1:1.9.0", quantity: "1234.567", quantity_unit: "KWH", qualifier: "220", line_item_identifier: "1", measurement_classifications: ["Z36", "Z37"] })
    ])
    expect(result.rejected).toEqual([{
      lines: [21],
      detail: [`energy-and-power-maximum.edi: message "1" (#1), segment 21 at byte 422: measure_not_accepted: the OBIS code "1-1:1.6.0" measures active power maximum (active power import (+), maximum, in KWT): a maximum is not an energy amount ${MEASURES_TAKEN}`]
    }])
    expect(result.stderr).toContain("2 rows read = 1 in 1 payload (energy-amount) + 1 rejected")
  })

  it("a unit given is kept, MWh converted to kWh exactly; kWh on a reactive code is refused", async () => {
    const result = await map("given-units.edi")
    expect(result.code).toBe(1)
    // 12.3456789 MWh = 12,345.6789 kWh; the product identifier as written, its *255 suffix kept.
    expect(result.payloads).toEqual([
      amount("UNITS4", { ...february, product_identifier: "1-1:1.9.0*255", quantity: "12345.6789", quantity_unit: "KWH", qualifier: "220", line_item_identifier: "1" })
    ])
    expect(result.rejected).toEqual([{
      lines: [19],
      detail: [`given-units.edi: message "1" (#1), segment 19 at byte 407: unit_contradicts_obis: the unit "KWH" (QTY.1.3, kilowatt hour: energy) contradicts the OBIS code "1-1:3.29.0", which measures reactive energy positive (Q+), load profile (Zeitintegral 5) (reactive energy, in K3); which of the two is wrong is not known`]
    }])
  })

  it("an OBIS code the table does not know, without a unit: each quantity a reject naming the code", async () => {
    const result = await map("unknown-obis.edi")
    expect(result.code).toBe(1)
    expect(result.payloads).toEqual([])
    const unknown = (segment: number, byte: number) => ({
      lines: [segment],
      detail: [`unknown-obis.edi: message "1" (#1), segment ${segment} at byte ${byte}: unknown_obis: the OBIS code "1-1:9.99.0" (PIA+5.2.1) is not in the OBIS unit table, and QTY.1.3 gives no unit: its unit is not known`]
    })
    expect(result.rejected).toEqual([unknown(14, 292), unknown(17, 365)])
  })

  it("gas: a volume in m³ and an energy in kWh are sent, a calorific value is refused", async () => {
    const result = await map("gas-volume.edi")
    expect(result.code).toBe(1)
    expect(result.payloads).toEqual([
      amount("UNITS6", { ...february, product_identifier: "7-0:3.21.0", quantity: "123.4", quantity_unit: "MTQ", qualifier: "220", line_item_identifier: "1" }),
      amount("UNITS6", { ...february, product_identifier: "7-0:33.86.0", quantity: "1350.2", quantity_unit: "KWH", qualifier: "220", line_item_identifier: "2" })
    ])
    expect(result.rejected).toEqual([{
      lines: [24],
      detail: [`gas-volume.edi: message "1" (#1), segment 24 at byte 503: measure_not_accepted: the OBIS code "7-0:54.0.22" measures calorific value (calorific value (Brennwert, kWh/m³), average): a calorific value is not an energy amount ${MEASURES_TAKEN}`]
    }])
  })

  it("refuses a reader file whose units cannot work, before reading", async () => {
    const mapping = JSON.parse(readFileSync(MAPPING, "utf8")) as Record<string, unknown>
    const reader = JSON.parse(readFileSync(join(ROOT, "examples", "market-messages", "mscons-energy-amounts.reader.json"), "utf8")) as Record<string, unknown>
    write(dir, "accounts.csv", readFileSync(join(ROOT, "examples", "market-messages", "accounts.csv")))
    write(dir, "mscons-energy-amounts.reader.json", JSON.stringify({ ...reader, units: { ...(reader["units"] as object), accept: ["active energy", "power"], convert: { MWH: "KWT" } } }))
    const mappingPath = write(dir, "units.mapping.json", JSON.stringify(mapping))
    const run = await runCli(["map", "-m", mappingPath, "-o", join(dir, "bad-units.ndjson"), join(FIXTURES, "qty-without-unit.edi")])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`units.accept: "power" is not a measure`)
    expect(run.stderr).toContain("units.convert: MWH (energy) cannot become KWT (power)")
  })
})
