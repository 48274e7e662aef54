/**
 * `data-import map`, run as a child process: warnings of rows that pass (counted by code, the first ones
 * located by physical line) in the text and JSON reports, exact repeats of a row (`duplicate_row`),
 * `--fail-on-warnings`, and physical lines after a quoted row over several lines.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const energy = join(ROOT, "examples", "mappings", "energy-amounts.mapping.json")
const EA_HEADER = "Kundennummer;MaLo;Zeitraum_von;Zeitraum_bis;OBIS;Menge;Einheit;Storniert;Qualifier;Plausi"
const eaRow = (account: string, unit = "KWH"): string => `${account};51238696781;01.10.2024 00:00;31.10.2024 23:59;1-1:1.8.0;12,5;${unit};;Z18;`
const ndjson = (text: string): Array<Record<string, unknown>> => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)
const mappingFile = (name: string, spec: unknown): string => write(dir, `${name}.mapping.json`, JSON.stringify(spec))

/** Notes grouped by account; the supplier comes from a column, so rows of one account can disagree on it. */
const notes = mappingFile("notes", {
  endpoint: "notes",
  groupBy: ["Konto"],
  fields: { import_supplier: "Lieferant", external_account_number: "Konto" },
  collections: [{ path: "notes", fields: { body: "Text" } }]
})

describe("map: warnings", () => {
  it("counts the warnings of rows that pass by code, and locates the first ones, in the text and the JSON report", async () => {
    const input = write(dir, "units.csv", `${EA_HEADER}\n${eaRow("KD-1", "XYZ")}\n${eaRow("KD-2")}\n${eaRow("KD-3", "ABC")}\n`)
    const text = await runCli(["map", "-m", energy, "-o", join(dir, "units.out"), input])
    expect(text.code).toBe(0)
    expect(text.stderr).toContain("unknown_choice 2")
    expect(text.stderr).toContain(`${input}:2 energy_amount.quantity_unit unknown_choice`)
    expect(text.stderr).toContain(`${input}:4 energy_amount.quantity_unit unknown_choice`)
    expect(text.stderr).toContain("3 rows read = 3 in 3 payloads (energy-amount) + 0 rejected; 2 warnings")
    const json = await runCli(["map", "-m", energy, "-o", join(dir, "units.out"), "--format", "json", input])
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout) as Record<string, unknown>
    expect(report).toMatchObject({ ok: true, warnings: 2, warningsByCode: { unknown_choice: 2 } })
    expect(report["firstWarnings"]).toEqual([
      expect.objectContaining({ file: input, line: 2, lines: [2], attr: "energy_amount.quantity_unit", code: "unknown_choice" }),
      expect.objectContaining({ file: input, line: 4, lines: [4], attr: "energy_amount.quantity_unit", code: "unknown_choice" })
    ])
  })

  it("rejects a row with warnings under --fail-on-warnings, and writes the others", async () => {
    const input = write(dir, "strict.csv", `${EA_HEADER}\n${eaRow("KD-1")}\n${eaRow("KD-2", "XYZ")}\n`)
    const out = join(dir, "strict.out")
    const rejects = join(dir, "strict.rejects")
    const run = await runCli(["map", "-m", energy, "-o", out, "-r", rejects, "--fail-on-warnings", input])
    expect(run.code).toBe(1)
    expect(ndjson(readFileSync(out, "utf8")).map((p) => p["external_account_number"])).toEqual(["KD-1"])
    expect(ndjson(readFileSync(rejects, "utf8"))).toEqual([expect.objectContaining({ lines: [3], errors: [expect.objectContaining({ code: "unknown_choice" })] })])
  })
})

describe("map: exact repeats of a row", () => {
  it("warns duplicate_row naming both lines where a group would take the repeat in silently", async () => {
    const input = write(dir, "repeat.csv", "Konto;Lieferant;Text\nKD-1;SW;Rückruf\nKD-1;SW;Zählerwechsel\nKD-1;SW;Rückruf\n")
    const out = join(dir, "repeat.out")
    const run = await runCli(["map", "-m", notes, "-o", out, "--format", "json", input])
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as Record<string, unknown>
    expect(report).toMatchObject({ warnings: 1, warningsByCode: { duplicate_row: 1 } })
    expect(report["firstWarnings"]).toEqual([expect.objectContaining({ line: 4, lines: [2, 4], code: "duplicate_row" })])
    expect((report["firstWarnings"] as Array<{ detail: string }>)[0]!.detail).toContain("Line 4 repeats line 2")
  })

  it("tells a repeat by its cells, not its quoting, and rejects its payload with --fail-on-warnings", async () => {
    const input = write(dir, "repeat-quoted.csv", "Konto;Lieferant;Text\nKD-1;SW;Rückruf\nKD-2;SW;Neu\n\"KD-2\";SW;\"Neu\"\n")
    const out = join(dir, "repeat-quoted.out")
    const rejects = join(dir, "repeat-quoted.rejects")
    const run = await runCli(["map", "-m", notes, "-o", out, "-r", rejects, "--fail-on-warnings", input])
    expect(run.code).toBe(1)
    expect(ndjson(readFileSync(out, "utf8")).map((p) => p["external_account_number"])).toEqual(["KD-1"])
    const [reject] = ndjson(readFileSync(rejects, "utf8"))
    expect(reject).toMatchObject({ lines: [3, 4], errors: [expect.objectContaining({ code: "duplicate_row" })] })
    expect(JSON.stringify(reject)).toContain("Line 4 repeats line 3")
  })

  it("warns a repeated row that is its own payload when duplicates are allowed", async () => {
    const input = write(dir, "repeat-alone.csv", `${EA_HEADER}\n${eaRow("KD-1")}\n${eaRow("KD-2")}\n${eaRow("KD-1")}\n`)
    const run = await runCli(["map", "-m", energy, "-o", join(dir, "repeat-alone.out"), "--allow-duplicates", input])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain("duplicate_row Line 4 repeats line 2")
  })
})

describe("map: physical lines", () => {
  it("names physical lines after a quoted row over several lines, in conflicts between rows and in warnings", async () => {
    // Line 2–3 is one row (a quoted text over two lines); lines 4 and 5 follow it.
    const input = write(dir, "lines.csv", "Konto;Lieferant;Text\nKD-1;SW;\"Zeile eins\nZeile zwei\"\nKD-1;XX;kurz\nKD-2;SW;ok\n")
    const rejects = join(dir, "lines.rejects")
    const run = await runCli(["map", "-m", notes, "-o", join(dir, "lines.out"), "-r", rejects, input])
    expect(run.code).toBe(1)
    const [reject] = ndjson(readFileSync(rejects, "utf8"))
    expect(reject).toMatchObject({ lines: [2, 3, 4], errors: [expect.objectContaining({ code: "inconsistent_group" })] })
    const detail = (reject!["errors"] as Array<{ detail: string }>)[0]!.detail
    expect(detail).toContain("in line 4 differs from \"SW\" in line 2")
    expect(detail).not.toContain("row ")
  })
})
