/**
 * The map side of the ledger: a map run in `runs` (command "map") with its totals, its rejected rows
 * (file, physical lines, codes, detail, raw text) and each payload's lineage; a later map run writing the
 * same payload file replaces that file's lineage; a ledger of send is extended, never refused.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { openLedger } from "../../src/index.js"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"

const dir = mkdtempSync(join(tmpdir(), "map-journal-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const query = (path: string, sql: string, ...args: Array<string | number>) => {
  const db = new (loadSqlite().DatabaseSync)(path, { readOnly: true })
  try {
    return db.prepare(sql).all(...args) as Array<Record<string, unknown>>
  } finally {
    db.close()
  }
}

describe("openMapJournal", () => {
  it("records the run, every reject and the lineage of every payload in the ledger", () => {
    const path = join(dir, "a.ledger")
    const ledger = openLedger(path, { service: "http://127.0.0.1:9/" })
    ledger.startRun("send", "http://127.0.0.1:9/", {})
    ledger.close()
    const journal = openMapJournal(path, { input: "/in/legacy.csv", output: "/out/p.ndjson", endpoint: "notes", options: { jobs: 2 } })
    expect(journal.run).toBe(2)
    // 2,500 payloads: more than one batch of writes.
    for (let i = 1; i <= 2500; i++) journal.lineage({ payloadLine: i, lines: [i + 1], raw: `row ${i}` })
    journal.rejected({ lines: [2502, 2503], codes: ["missing_value", "bad_date"], detail: "x", raw: "a;\"b\nc\"", supplier: "S", account: "K" })
    journal.end("completed", { rowsRead: 2501, payloads: 2500, rowsRejected: 1 })
    expect(query(path, "SELECT command, ended, counts FROM runs ORDER BY id")).toEqual([
      { command: "send", ended: null, counts: null },
      { command: "map", ended: "completed", counts: JSON.stringify({ rows_read: 2501, payloads: 2500, rows_rejected: 1 }) }
    ])
    expect(query(path, "SELECT input, output, endpoint, rows_read, payloads, rows_rejected FROM map_runs")).toEqual([
      { input: "/in/legacy.csv", output: "/out/p.ndjson", endpoint: "notes", rows_read: 2501, payloads: 2500, rows_rejected: 1 }
    ])
    expect(query(path, "SELECT file, first_line, lines, codes, raw, supplier, account FROM map_rejects")).toEqual([
      { file: "/in/legacy.csv", first_line: 2502, lines: "[2502,2503]", codes: "missing_value,bad_date", raw: "a;\"b\nc\"", supplier: "S", account: "K" }
    ])
    expect(query(path, "SELECT COUNT(*) AS n, MIN(payload_line) AS lo, MAX(payload_line) AS hi FROM lineage")).toEqual([{ n: 2500, lo: 1, hi: 2500 }])
    expect(query(path, "SELECT source_file, lines, raw FROM lineage WHERE payload_file = ? AND payload_line = 7", "/out/p.ndjson")).toEqual([
      { source_file: "/in/legacy.csv", lines: "[8]", raw: "row 7" }
    ])
    // The ledger still opens for send.
    openLedger(path, { service: "http://127.0.0.1:9/" }).close()
  })

  it("a new map run to the same payload file replaces its lineage; a ledger in use is refused", () => {
    const path = join(dir, "b.ledger")
    const first = openMapJournal(path, { input: "/in/x.csv", output: "/out/x.ndjson" })
    for (let i = 1; i <= 5; i++) first.lineage({ payloadLine: i, lines: [i + 1] })
    first.end("completed", { rowsRead: 5, payloads: 5, rowsRejected: 0 })
    const second = openMapJournal(path, { input: "/in/x2.csv", output: "/out/x.ndjson" })
    expect(() => openMapJournal(path, { input: "/in/y.csv", output: null })).toThrow(/in use/u)
    second.lineage({ payloadLine: 1, lines: [3, 4] })
    second.end("completed", { rowsRead: 1, payloads: 1, rowsRejected: 0 })
    expect(query(path, "SELECT payload_line, source_file, lines, run FROM lineage")).toEqual([{ payload_line: 1, source_file: "/in/x2.csv", lines: "[3,4]", run: 2 }])
  })
})
