/**
 * `data-import map`, run as a child process: the bundled legacy exports, rejected rows with their lines,
 * delimiters and encodings, NDJSON input, CSV records csv-parse refuses, and the exit codes.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write, WORKERS_ALWAYS } from "./run-cli.js"

const mappings = join(ROOT, "examples", "mappings")
const mapping = (name: string): string => join(mappings, `${name}.mapping.json`)
const csv = (name: string): string => join(mappings, `${name}.csv`)
const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const NOTES_HEADER = "Kundennummer;Erstellt;Text;Anhang;Angeheftet"

const dir = tempDir()

describe("map", () => {
  it("maps the bundled meter readings: payloads on stdout, the rejected row with its line and reason", async () => {
    const run = await runCli(["map", "--mapping", mapping("energy-amounts"), csv("energy-amounts")])
    expect(run.code).toBe(1)
    const payloads = lines(run.stdout)
    expect(payloads).toHaveLength(4)
    expect(payloads[0]).toMatchObject({ external_account_number: "KD-0045127", energy_amount: { quantity: "263.4175" } })
    expect(run.stderr).toContain('energy-amounts.csv:5 column "Zeitraum_von" = "31.03.2024 02:30" (energy_amount.period_start_at): nonexistent_time: ')
    expect(run.stderr).toContain("5 rows read = 4 in 4 payloads (energy-amount) + 1 rejected")
  })

  it("writes payloads to --out and rejected rows with lines, rows and reasons to --rejects", async () => {
    const out = join(dir, "notes.ndjson")
    const rejects = join(dir, "notes.rejects.ndjson")
    const run = await runCli(["map", "-m", mapping("notes"), "--out", out, "--rejects", rejects, csv("notes")])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    // KD-0045128's note without text is rejected alone; the account's other note goes out.
    expect(lines(readFileSync(out, "utf8"))).toEqual([
      expect.objectContaining({ external_account_number: "KD-0045127" }),
      expect.objectContaining({ external_account_number: "KD-0045128", notes: [expect.objectContaining({ body: "Ratenzahlung vereinbart." })] })
    ])
    const rejected = lines(readFileSync(rejects, "utf8"))
    expect(rejected).toEqual([{
      file: csv("notes"),
      lines: [4],
      rows: [expect.objectContaining({ Kundennummer: "KD-0045128", Text: "" })],
      raw: readFileSync(csv("notes"), "utf8").split("\n").slice(3, 4),
      errors: [expect.objectContaining({ attr: "notes.0", code: "note_body_or_document_path_not_found" })]
    }])
  })

  it("exits 0 when every row is mapped, and detects a comma delimiter from the header", async () => {
    const file = write(dir, "comma.csv", `Kundennummer,Erstellt,Text,Anhang,Angeheftet\nKD-1,"01.02.2024 10:00","Hallo, Welt",,N\n`)
    const run = await runCli(["map", "-m", mapping("notes"), file])
    expect(run.code).toBe(0)
    expect(lines(run.stdout)).toEqual([{
      import_supplier: "STADTWERKE_NORD",
      external_account_number: "KD-1",
      notes: [{ body: "Hallo, Welt", created_at: "2024-02-01T10:00:00+01:00", is_pinned: false }]
    }])
  })

  it("reads Windows-1252 with --encoding, and without it stops with one message naming the line, the byte and the fix", async () => {
    const file = write(dir, "latin.csv", Buffer.from(`${NOTES_HEADER}\r\nKD-1;01.02.2024 10:00;Gebühr erlassen;;N\r\n`, "latin1"))
    const decoded = await runCli(["map", "-m", mapping("notes"), "--encoding", "windows-1252", file])
    expect(decoded.code).toBe(0)
    expect(lines(decoded.stdout)[0]).toMatchObject({ notes: [{ body: "Gebühr erlassen" }] })
    const refused = await runCli(["map", "-m", mapping("notes"), file])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe("")
    // "KD-1;01.02.2024 10:00;Geb" is 25 bytes: the ü (0xFC) is byte 26 of line 2.
    expect(refused.stderr).toContain("line 2, byte 26 (0xFC) is not valid utf-8")
    expect(refused.stderr).toContain("--encoding windows-1252")
    expect(refused.stderr.trim().split("\n")).toHaveLength(1)
  })

  it("rejects a CSV row with the wrong number of cells at its line, and maps the rows after it", async () => {
    const file = write(dir, "ragged.csv", `${NOTES_HEADER}\nKD-1;01.02.2024 10:00;Eins;;N\nKD-2;x\n\nKD-3;01.02.2024 10:00;"Zwei\nZeilen";;N\nKD-4;01.02.2024 11:00;Drei;;N\n`)
    const rejects = join(dir, "ragged.rejects.ndjson")
    const run = await runCli(["map", "-m", mapping("notes"), "--rejects", rejects, file])
    expect(run.code).toBe(1)
    expect(lines(run.stdout).map((p) => p["external_account_number"])).toEqual(["KD-1", "KD-3", "KD-4"])
    expect(lines(readFileSync(rejects, "utf8"))).toEqual([expect.objectContaining({ lines: [3], errors: [expect.objectContaining({ code: "invalid_csv" })] })])
  })

  it("puts the rows of a group that comes back after another group into that group's payload", async () => {
    const file = write(dir, "split-group.csv", `${NOTES_HEADER}\nKD-1;01.02.2024 10:00;Eins;;N\nKD-2;01.02.2024 10:00;Zwei;;N\nKD-1;01.02.2024 11:00;Drei;;N\n`)
    const run = await runCli(["map", "-m", mapping("notes"), file])
    expect(run.code).toBe(0)
    expect(lines(run.stdout).map((p) => [p["external_account_number"], (p["notes"] as Array<{ body: string }>).map((n) => n.body)])).toEqual([
      ["KD-1", ["Eins", "Drei"]],
      ["KD-2", ["Zwei"]]
    ])
  })

  it("maps NDJSON records, and rejects lines that are not JSON objects", async () => {
    const file = write(dir, "records.ndjson", [
      JSON.stringify({ Kundennummer: "KD-1", Erstellt: "01.02.2024 10:00", Text: "Eins", Angeheftet: "N" }),
      "",
      "{not json",
      "[1]",
      JSON.stringify({ Kundennummer: "KD-2", Erstellt: "01.02.2024 10:00", Text: "Zwei" })
    ].join("\n"))
    const rejects = join(dir, "records.rejects.ndjson")
    const run = await runCli(["map", "-m", mapping("notes"), "-r", rejects, file])
    expect(lines(run.stdout).map((p) => p["external_account_number"])).toEqual(["KD-1", "KD-2"])
    expect(lines(readFileSync(rejects, "utf8")).map((r) => [r["lines"], (r["errors"] as Array<{ code: string }>)[0]!.code])).toEqual([
      [[3], "invalid_json"],
      [[4], "invalid"]
    ])
  })

  it("refuses an NDJSON file whose first record has none of the mapping's columns (its own payloads, say), writing nothing", async () => {
    const payloads = write(dir, "payloads-again.ndjson", `${JSON.stringify({ import_supplier: "SW", external_account_number: "KD-1", notes: [{ body: "Eins" }] })}\n`)
    const out = join(dir, "payloads-again.out.ndjson")
    const run = await runCli(["map", "-m", mapping("notes"), "-o", out, payloads])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`the mapping ${mapping("notes")} does not fit ${payloads}: its first record (line 1) has none of the columns the mapping reads`)
    expect(run.stderr).toContain(`its keys are "import_supplier", "external_account_number", "notes"`)
    expect(existsSync(out)).toBe(false)
  })

  it("exits 2 for a mapping that is not JSON or not usable, and 3 for files it cannot read", async () => {
    const notJson = write(dir, "bad.mapping.json", `{"endpoint": "notes",}`)
    const unusable = write(dir, "unusable.mapping.json", JSON.stringify({ endpoint: "nope", fields: {} }))
    const bad = await runCli(["map", "-m", notJson, csv("notes")])
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("line 1 column 22") as unknown])
    const notUsable = await runCli(["map", "-m", unusable, csv("notes")])
    expect([notUsable.code, notUsable.stderr]).toEqual([2, expect.stringContaining("endpoint: \"nope\" is not a valid choice") as unknown])
    expect((await runCli(["map", "-m", join(dir, "missing.json"), csv("notes")])).code).toBe(3)
    expect((await runCli(["map", "-m", mapping("notes"), join(dir, "missing.csv")])).code).toBe(3)
    expect((await runCli(["map", "-m", mapping("notes"), dir])).code).toBe(2)
    expect((await runCli(["map", csv("notes")])).code).toBe(2)
  })

  it("resolves a run of repeated autumn wall times that crosses a batch of rows by row order, in parallel too", async () => {
    // 1,000 rows are one batch: the repeated hour starts in the first batch and is repeated in the second.
    const header = readFileSync(csv("energy-amounts"), "utf8").split("\n")[0]!
    const day = (i: number): string => `${String(1 + (i % 28)).padStart(2, "0")}.${String(1 + Math.floor(i / 28) % 9).padStart(2, "0")}.2024`
    const rows = Array.from({ length: 998 }, (_, i) => [`KD-${i}`, 51238696781, `${day(i)} 00:00`, `${day(i)} 23:45`, "1-1:1.8.0", "1,5", "KWH", "", "Z18", ""].join(";"))
    const repeated = ["02:00", "02:30", "02:00", "02:30"]
    repeated.forEach((time, i) => rows.push([`KD-R${i}`, 51238696781, `27.10.2024 ${time}`, "27.10.2024 04:00", "1-1:1.8.0", "1,5", "KWH", "", "Z18", ""].join(";")))
    const input = write(dir, "autumn.csv", `${header}\n${rows.join("\n")}\n`)
    for (const jobs of ["1", "2"]) {
      const run = await runCli(["map", "--jobs", jobs, "-m", mapping("energy-amounts"), input], { env: WORKERS_ALWAYS })
      expect(run.code, run.stderr).toBe(0)
      const starts = lines(run.stdout).slice(-4).map((p) => (p["energy_amount"] as { period_start_at: string }).period_start_at)
      expect(starts).toEqual(["2024-10-27T02:00:00+02:00", "2024-10-27T02:30:00+02:00", "2024-10-27T02:00:00+01:00", "2024-10-27T02:30:00+01:00"])
    }
  })
})
