/**
 * Records left out on purpose, through the built CLI: the example MSCONS reader file selects messages by
 * Prüfidentifikator and quantities by qualifier; what it leaves out is counted by reason in `map`'s
 * summary (text and `--format json`), listed in `--excluded FILE`, recorded by `map --journal` and shown
 * by `report` (json, csv, text), never among the rejects. The fixture's counts are worked out in its
 * README (test/fixtures/market-messages/constructed/selection).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const EXAMPLES = join(ROOT, "examples", "market-messages")
const MAPPING = join(EXAMPLES, "mscons-energy-amounts.mapping.json")
const ARCHIVE = join(ROOT, "test", "fixtures", "market-messages", "constructed", "selection", "archive-mixed-pids.edi")

const lines = (text: string): Array<Record<string, unknown>> => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

/** By hand from the fixture (one segment a line, UNA being line 1). */
const SKIPPED = {
  "qualifier 187": 1,
  "qualifier 20": 1,
  "qualifier Z30": 1,
  "qualifier 201": 1,
  "qualifier Z31": 1,
  "PID 13007": 2,
  "PID 13022": 2,
  "PID 13023": 1,
  "no PID": 1
}
const SKIPPED_LINES = [28, 31, 34, 37, 57, 74, 77, 94, 97, 113, 130]
const PAYLOAD_LINES = [16, 19, 22, 25, 54]

describe("map of MSCONS with a selection by PID and qualifier", () => {
  it("maps load profiles and energy quantities, and lists every other QTY with its reason, apart from the rejects", async () => {
    const out = join(dir, "archive.ndjson")
    const rejects = join(dir, "archive.rejects.ndjson")
    const excluded = join(dir, "archive.excluded.ndjson")
    const lineage = join(dir, "archive.lineage.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, "--lineage", lineage, ARCHIVE])
    expect(run.code).toBe(0)
    const payloads = lines(readFileSync(out, "utf8"))
    expect(payloads.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"])).toEqual(["1.250", "1.375", "1.500", "1.125", "412.7"])
    expect(payloads.map((p) => (p["energy_amount"] as Record<string, string>)["qualifier"])).toEqual(["220", "220", "67", "Z18", "220"])
    expect(lines(readFileSync(lineage, "utf8")).map((l) => (l["lines"] as Array<number>)[0])).toEqual(PAYLOAD_LINES)
    expect(readFileSync(rejects, "utf8")).toBe("")

    const listed = lines(readFileSync(excluded, "utf8"))
    expect(listed.map((l) => l["lines"])).toEqual(SKIPPED_LINES.map((n) => [n]))
    expect(listed.every((l) => l["file"] === ARCHIVE && l["outcome"] === "skipped")).toBe(true)
    const byReason: Record<string, number> = {}
    for (const l of listed) byReason[l["reason"] as string] = (byReason[l["reason"] as string] ?? 0) + 1
    expect(byReason).toEqual(SKIPPED)
    // Each names its code and what it means, where it is, and carries its raw segments.
    const at = (line: number) => listed.find((l) => (l["lines"] as Array<number>)[0] === line)!
    expect(at(28)["detail"]).toBe(`${ARCHIVE}: message "M1" (#1), segment 28 at byte ${readFileSync(ARCHIVE, "latin1").indexOf("QTY+187")}: qualifier 187 (Prognosewert) is not among the qualifiers the reader file takes (220, 67, Z18, 79)`)
    expect(at(57)["detail"]).toContain("qualifier Z31 (Angabe für Lieferschein)")
    expect(at(74)["detail"]).toContain("PID 13007 (Gasbeschaffenheit) is not among the PIDs")
    expect(at(94)["detail"]).toContain("PID 13022 (Redispatch 2.0 Einzelzeitreihe Ausfallarbeit)")
    expect(at(113)["reason"]).toBe("no PID")
    expect(at(113)["detail"]).toContain("the message has no Prüfidentifikator (RFF+Z13)")
    expect(at(28)["raw"]).toBe("QTY+187:1,300:KWH'DTM+163:202411050000?+00:303'DTM+164:202411050015?+00:303'")

    // The summary: rows read = in payloads + rejected + excluded, and the exclusions by outcome and reason.
    expect(run.stderr).toContain(`${ARCHIVE}: 16 rows read = 5 in 5 payloads (energy-amount) + 0 rejected + 11 excluded`)
    expect(run.stderr).toContain("excluded by outcome and reason (11):\n  skipped: PID 13007 2, PID 13022 2, PID 13023 1, no PID 1, qualifier 187 1, qualifier 20 1, qualifier 201 1, qualifier Z30 1, qualifier Z31 1\n")
  })

  it("--format json carries the exclusions by outcome and reason, counted in the conservation check", async () => {
    const run = await runCli(["map", "-m", MAPPING, "-o", join(dir, "json.ndjson"), "--format", "json", ARCHIVE])
    expect(run.code).toBe(0)
    const summary = JSON.parse(run.stdout) as Record<string, unknown>
    expect(summary).toMatchObject({ ok: true, rowsRead: 16, rowsInPayloads: 5, rowsRejected: 0, rowsExcluded: 11, payloads: 5, linesRead: 16, linesInPayloads: 5, linesRejected: 0, linesExcluded: 11 })
    expect(summary["excluded"]).toEqual({ skipped: SKIPPED, superseded: {}, cancelled: {} })
    // Without --excluded (or --journal), the text summary counts them and says where they are listed.
    const text = await runCli(["map", "-m", MAPPING, "-o", join(dir, "text.ndjson"), ARCHIVE])
    expect(text.code).toBe(0)
    expect(text.stderr).toContain("  (each with its lines, reason and raw text: --excluded FILE)\n")
  })

  it("the ledger and report show the same exclusions, under their account where the table knows it", async () => {
    const ledger = join(dir, "campaign.ledger")
    const mapped = await runCli(["map", "-m", MAPPING, "-o", join(dir, "journal.ndjson"), "--journal", ledger, "--new-ledger", ARCHIVE])
    expect(mapped.code).toBe(0)
    const { DatabaseSync } = loadSqlite()
    const db = new DatabaseSync(ledger, { readOnly: true })
    const rows = db.prepare("SELECT first_line, outcome, reason, supplier, account, endpoint FROM map_exclusions ORDER BY first_line").all() as Array<Record<string, unknown>>
    const run = db.prepare("SELECT rows_read, payloads, rows_rejected, rows_excluded FROM map_runs").all()
    db.close()
    expect(run).toEqual([{ rows_read: 16, payloads: 5, rows_rejected: 0, rows_excluded: 11 }])
    expect(rows.map((r) => r["first_line"])).toEqual(SKIPPED_LINES)
    // accounts.csv: 51238696781 is KD-3003 (M1, M3), 51481308456 KD-4004 (M2, M4, M6); M5's MaLo is in no table.
    expect(rows.map((r) => r["account"])).toEqual(["KD-3003", "KD-3003", "KD-3003", "KD-3003", "KD-4004", "KD-3003", "KD-3003", "KD-4004", "KD-4004", null, "KD-4004"])
    expect(rows.every((r) => r["supplier"] === "STADTWERKE_NORD" && r["outcome"] === "skipped" && r["endpoint"] === "energy-amount")).toBe(true)

    const json = await runCli(["report", "--journal", ledger, "--format", "json"])
    const report = JSON.parse(json.stdout)
    expect(report.exclusions.total).toBe(11)
    const counted: Record<string, number> = {}
    for (const c of report.exclusions.counts as Array<{ outcome: string; reason: string; count: number }>) {
      expect(c.outcome).toBe("skipped")
      counted[c.reason] = c.count
    }
    expect(counted).toEqual(SKIPPED)
    expect(report.exclusions.listed.map((e: { source_lines: string }) => e.source_lines)).toEqual(SKIPPED_LINES.map(String))
    expect(report.map_runs).toEqual([expect.objectContaining({ rows_read: 16, payloads: 5, rows_rejected: 0, rows_excluded: 11 })])
    // Not problems: nothing of them is rejected at map, nor on the to-do list's problems.
    expect(report.totals.map_rejected).toBe(0)
    expect(report.problems.listed).toEqual([])

    const csv = await runCli(["report", "--journal", ledger, "--format", "csv"])
    const table = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>
    expect(table).toHaveLength(11)
    expect(table.map((r) => r["source_lines"])).toEqual(SKIPPED_LINES.map(String))
    expect(table[0]).toMatchObject({ problem: "skipped", kind: "energy-amount", code: "qualifier 187", supplier: "STADTWERKE_NORD", account: "KD-3003", source_file: ARCHIVE })
    expect(table[0]!["advice"]).toContain("Nothing to fix")

    const text = await runCli(["report", "--journal", ledger])
    expect(text.stdout).toContain("Left out on purpose: 11 rows (skipped: PID 13007 2, PID 13022 2, PID 13023 1, no PID 1, qualifier 187 1, qualifier 20 1, qualifier 201 1, qualifier Z30 1, qualifier Z31 1)")
  })

  it("an interchange whose every QTY is outside the selection ends well: no payload, every QTY listed (the real redispatch sample)", async () => {
    const sample = gunzipSync(readFileSync(join(ROOT, "test", "fixtures", "market-messages", "de-2024-redispatch-2.4b-two-malos.edi.gz")))
    const qtys = sample.toString("latin1").split("'").filter((s) => s.trim().startsWith("QTY+")).length
    const input = write(dir, "redispatch.edi", sample)
    const out = join(dir, "redispatch.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "--format", "json", input])
    expect(run.code).toBe(0)
    expect(readFileSync(out, "utf8")).toBe("")
    const summary = JSON.parse(run.stdout) as Record<string, unknown>
    expect(summary).toMatchObject({ ok: true, rowsRead: qtys, payloads: 0, rowsRejected: 0, rowsExcluded: qtys })
    expect(summary["excluded"]).toEqual({ skipped: { "PID 13022": qtys }, superseded: {}, cancelled: {} })
  })

  it("map --help names --excluded and the third outcome", async () => {
    const help = await runCli(["map", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("--excluded <FILE>")
    expect(help.stdout).toContain("one record left out on purpose")
  })

  it("refuses a reader file whose pids or qualifiers are not lists of codes, before reading", async () => {
    const reader = write(dir, "bad.reader.json", JSON.stringify({ ...JSON.parse(readFileSync(join(EXAMPLES, "mscons-energy-amounts.reader.json"), "utf8")), accounts: undefined, pids: "13025", qualifiers: [] }))
    const mapping = write(dir, "bad.mapping.json", JSON.stringify({ ...JSON.parse(readFileSync(MAPPING, "utf8")), reader: reader, fields: { ...JSON.parse(readFileSync(MAPPING, "utf8")).fields, external_account_number: { value: "KD-1" } } }))
    const run = await runCli(["map", "-m", mapping, "-o", join(dir, "bad.ndjson"), ARCHIVE])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("pids: a list of Prüfidentifikatoren (RFF+Z13) taken")
    expect(run.stderr).toContain("qualifiers: a list of QTY qualifiers taken")
  })
})
