/**
 * Rows map left out on purpose, in the report: counted by outcome and reason, listed, added up against
 * the map run's own count, and never a problem: an account whose only rows beside its stored records are
 * exclusions is complete. Ledgers built here with known counts.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, describe, expect, it } from "vitest"
import { campaignReport, openLedger, openReportSource } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"

const dir = mkdtempSync(join(tmpdir(), "report-exclusions-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let n = 0
/** Two records of A-1, both created; one map run of /legacy/a.edi that left three rows out, two of A-1 and one of no known account. */
const ledgerWithExclusions = (): string => {
  const path = join(dir, `ledger-${n++}.sqlite`)
  const ledger = openLedger(path)
  const run = ledger.startRun("send", null, {})
  for (const i of [1, 2]) {
    ledger.inFlight({ identity: `i${i}`, endpoint: "energy-amount", key: `["${i}"]`, supplier: "SW", account: "A-1", content: "c", file: "/p.ndjson", line: i }, run)
    ledger.settle(`i${i}`, { outcome: "created", cause: null })
  }
  ledger.endRun(run, "completed", {})
  ledger.close()
  const journal = openMapJournal(path, { input: "/legacy/a.edi", output: null, endpoint: "energy-amount" })
  journal.excluded({ lines: [28], outcome: "skipped", reason: "qualifier 187", detail: "qualifier 187 (Prognosewert) is not taken", raw: "QTY+187:1'", supplier: "SW", account: "A-1" })
  journal.excluded({ lines: [74], outcome: "skipped", reason: "PID 13007", detail: "PID 13007 (Gasbeschaffenheit) is not taken", raw: "QTY+220:11'", supplier: "SW", account: "A-1" })
  journal.excluded({ lines: [113], outcome: "skipped", reason: "no PID", detail: "the message has no Prüfidentifikator", raw: "QTY+220:2'", supplier: "SW", account: null })
  journal.end("completed", { rowsRead: 5, payloads: 2, rowsRejected: 0, rowsExcluded: 3 })
  return path
}

const reportOf = (path: string) => {
  const source = openReportSource(path)
  try {
    return campaignReport(source, { parallel: false })
  } finally {
    source.close()
  }
}

describe("report of rows left out on purpose", () => {
  it("counts them by outcome and reason and lists them; an account with exclusions beside its stored records is complete", () => {
    const report = reportOf(ledgerWithExclusions())
    expect(report.exclusions.total).toBe(3)
    expect(report.exclusions.counts).toEqual([
      { outcome: "skipped", reason: "PID 13007", count: 1 },
      { outcome: "skipped", reason: "no PID", count: 1 },
      { outcome: "skipped", reason: "qualifier 187", count: 1 }
    ])
    expect(report.exclusions.listed.map((e) => [e.source_lines, e.account])).toEqual([["28", "A-1"], ["74", "A-1"], ["113", null]])
    expect(report.accounts.totals).toEqual({ accounts: 1, complete: 1, blocked: 0, partly: 0, not_stored: 0 })
    // No row of no known account either: an exclusion is no problem to file.
    expect(report.accounts.unknown.rows).toBe(0)
    expect(report.totals.map_rejected).toBe(0)
    expect(report.complete).toBe(true)
    expect(report.map_runs).toEqual([{ run: 2, input: "/legacy/a.edi", output: null, endpoint: "energy-amount", rows_read: 5, payloads: 2, rows_rejected: 0, rows_excluded: 3 }])
  })

  it("refuses to print figures when a completed map run recorded another number of exclusions than it counted", () => {
    const path = ledgerWithExclusions()
    const db = new DatabaseSync(path)
    db.exec("DELETE FROM map_exclusions WHERE first_line = 74")
    db.close()
    expect(() => reportOf(path)).toThrow("map run #2: 3 rows excluded, 2 recorded")
  })

  it("a ledger whose map runs came before the exclusions' table reports none, and the next map run adds it", () => {
    const path = join(dir, "older.sqlite")
    openLedger(path).close()
    const db = new DatabaseSync(path)
    db.exec(`CREATE TABLE map_runs (run INTEGER PRIMARY KEY, input TEXT NOT NULL, output TEXT, mapping TEXT, endpoint TEXT,
      rows_read INTEGER NOT NULL DEFAULT 0, payloads INTEGER NOT NULL DEFAULT 0, rows_rejected INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE map_rejects (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, file TEXT NOT NULL, first_line INTEGER NOT NULL,
      lines TEXT NOT NULL, codes TEXT NOT NULL, detail TEXT NOT NULL, raw TEXT, endpoint TEXT, supplier TEXT, account TEXT);
      CREATE TABLE lineage (payload_file TEXT NOT NULL, payload_line INTEGER NOT NULL, run INTEGER NOT NULL,
      source_file TEXT NOT NULL, lines TEXT NOT NULL, raw TEXT, PRIMARY KEY (payload_file, payload_line)) WITHOUT ROWID;
      INSERT INTO runs (id, command, options, started_at, ended_at, ended) VALUES (1, 'map', '{}', 1, 2, 'completed');
      INSERT INTO map_runs (run, input, endpoint, rows_read, payloads) VALUES (1, '/legacy/old.csv', 'energy-amount', 4, 4);`)
    db.close()
    const before = reportOf(path)
    expect(before.exclusions).toEqual({ total: 0, counts: [], limit: 500, listed: [] })
    expect(before.map_runs.map((m) => m.rows_excluded)).toEqual([0])
    const journal = openMapJournal(path, { input: "/legacy/b.edi", output: null, endpoint: "energy-amount" })
    journal.excluded({ lines: [9], outcome: "skipped", reason: "qualifier 20", detail: "qualifier 20 (Nicht verwendbarer Wert) is not taken" })
    journal.end("completed", { rowsRead: 1, payloads: 0, rowsRejected: 0, rowsExcluded: 1 })
    const after = reportOf(path)
    expect(after.exclusions.counts).toEqual([{ outcome: "skipped", reason: "qualifier 20", count: 1 }])
    expect(after.map_runs.map((m) => [m.input, m.rows_excluded])).toEqual([["/legacy/old.csv", 0], ["/legacy/b.edi", 1]])
  })
})
