/**
 * `map --journal FILE` through the built CLI: the run, its rejected rows and each payload's lineage land
 * in the campaign's ledger, and `data-import report` reads them back (json by code, csv with the legacy
 * file, physical lines and raw text). A file that is no ledger is refused before anything is written.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const EXAMPLE = join(ROOT, "examples", "mappings", "energy-amounts.csv")
const MAPPING = join(ROOT, "examples", "mappings", "energy-amounts.mapping.json")

describe("map --journal", () => {
  it("records the example export's rejected row and lineage; report shows them by code and as a to-do row", async () => {
    const ledger = join(dir, "campaign.ledger")
    const out = join(dir, "amounts.ndjson")
    const mapped = await runCli(["map", "-m", MAPPING, "-o", out, "--journal", ledger, "--new-ledger", EXAMPLE])
    // Line 5 of the example is a wall time the spring clock change skips: rejected on purpose.
    expect(mapped.code).toBe(1)
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(4)

    const json = await runCli(["report", "--journal", ledger, "--format", "json"])
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(report.totals.map_rejected).toBe(1)
    const amounts = report.kinds.find((k: { endpoint: string }) => k.endpoint === "energy-amount")
    expect(amounts.codes.map_rejected).toEqual({ nonexistent_time: 1 })
    expect(report.map_runs).toEqual([expect.objectContaining({ input: EXAMPLE, output: out, endpoint: "energy-amount", rows_read: 5, payloads: 4, rows_rejected: 1 })])
    expect(report.runs.map((r: { command: string }) => r.command)).toEqual(["map"])

    const csv = await runCli(["report", "--journal", ledger, "--format", "csv"])
    expect(csv.code).toBe(1)
    const rows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      problem: "map_rejected",
      kind: "energy-amount",
      code: "nonexistent_time",
      supplier: "STADTWERKE_NORD",
      account: "KD-0045129",
      source_file: EXAMPLE,
      source_lines: "5",
      raw: "KD-0045129;51238696783;31.03.2024 02:30;31.03.2024 04:00;1-1:1.8.0;12,5;KWH;;Z18;"
    })
    expect(rows[0]!["detail"]).toContain("Zeitraum_von")
  })

  it("a rejected record keeps every physical line and its quoted raw text; the lineage points at the legacy lines", async () => {
    const ledger = join(dir, "notes.ledger")
    const out = join(dir, "notes.ndjson")
    const input = write(dir, "notes.csv", [
      "Kundennummer;Erstellt;Text;Anhang;Angeheftet",
      "KD-1;28.03.2024 09:15;Erste Notiz;;J",
      // A note whose text is a quoted line break: no text, across two physical lines; its account's
      // other note still goes out.
      "KD-2;03.01.2024 08:00;\"",
      "\";;N",
      "KD-2;05.01.2024 10:30;Zweite Notiz;;N",
      ""
    ].join("\n"))
    const mapped = await runCli(["map", "-m", join(ROOT, "examples", "mappings", "notes.mapping.json"), "-o", out, "--journal", ledger, "--new-ledger", input])
    expect(mapped.code).toBe(1)
    const csv = await runCli(["report", "--journal", ledger, "--format", "csv"])
    const rows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>
    expect(rows).toEqual([expect.objectContaining({ problem: "map_rejected", code: "note_body_or_document_path_not_found", account: "KD-2", source_lines: "3-4" })])
    expect(rows[0]!["raw"]).toBe("KD-2;03.01.2024 08:00;\"\n\";;N")
    const json = JSON.parse((await runCli(["report", "--journal", ledger, "--format", "json"])).stdout)
    expect(json.map_runs).toEqual([expect.objectContaining({ rows_read: 3, payloads: 2, rows_rejected: 1, endpoint: "notes" })])
    const db = new (loadSqlite().DatabaseSync)(ledger, { readOnly: true })
    try {
      expect(db.prepare("SELECT payload_file, payload_line, source_file, lines, raw FROM lineage").all()).toEqual([
        { payload_file: out, payload_line: 1, source_file: input, lines: "[2]", raw: "KD-1;28.03.2024 09:15;Erste Notiz;;J" },
        { payload_file: out, payload_line: 2, source_file: input, lines: "[5]", raw: "KD-2;05.01.2024 10:30;Zweite Notiz;;N" }
      ])
    } finally {
      db.close()
    }
  })

  it("report counts a map run of one row in the singular", async () => {
    const [header, first] = readFileSync(EXAMPLE, "utf8").split("\n")
    const input = write(dir, "one-row.csv", `${header}\n${first}\n`)
    const ledger = join(dir, "one-row.ledger")
    expect((await runCli(["map", "-m", MAPPING, "-o", join(dir, "one-row.ndjson"), "--journal", ledger, "--new-ledger", input])).code).toBe(0)
    const text = await runCli(["report", "--journal", ledger])
    expect(text.stdout).toContain(`one-row.csv → ${join(dir, "one-row.ndjson")}: 1 row read, 1 payload, 0 rows rejected\n`)
  })

  it("a file that is no database is an I/O error (exit 3): no payloads written, the file untouched", async () => {
    const notLedger = write(dir, "not-a-ledger.txt", "just text\n")
    const out = join(dir, "never.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "--journal", notLedger, EXAMPLE])
    expect(run.code).toBe(3)
    expect(run.stderr).toContain(notLedger)
    expect(existsSync(out)).toBe(false)
    expect(readFileSync(notLedger, "utf8")).toBe("just text\n")
  })

  it("a ledger in a folder that does not exist, or a folder, is named as such (exit 3), nothing written", async () => {
    const out = join(dir, "never-either.ndjson")
    const missing = join(dir, "elsewhere", "campaign.ledger")
    const astray = await runCli(["map", "-m", MAPPING, "-o", out, "--journal", missing, "--new-ledger", EXAMPLE])
    expect(astray.code).toBe(3)
    expect(astray.stderr).toBe(`data-import: the ledger ${missing} cannot be created: the folder ${join(dir, "elsewhere")} does not exist\n`)
    const folder = await runCli(["map", "-m", MAPPING, "-o", out, "--journal", dir, EXAMPLE])
    expect(folder.code).toBe(3)
    expect(folder.stderr).toBe(`data-import: the ledger ${dir} is a folder, not a file: give the path of the campaign's ledger file\n`)
    expect(existsSync(out)).toBe(false)
    expect(existsSync(join(dir, "elsewhere"))).toBe(false)
  })
})
