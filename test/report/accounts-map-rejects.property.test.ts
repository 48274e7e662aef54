/**
 * An account is complete only when every record of it is stored and no legacy row of it was rejected or
 * warned about by the latest map run of its export: a rejected row is data of the account that the service
 * does not have, a warned one data to look at. A row whose supplier or account is unknown belongs to no
 * account: it is counted apart (`accounts.unknown`), never as an account. Random ledgers (records of a few
 * accounts in every state; rows rejected or warned about by an earlier and by the latest map run of two
 * exports, some of no known supplier or account) are counted here, account by account, and compared with
 * the report.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { campaignReport, openLedger, openReportSource } from "../../src/index.js"
import { MAP_JOURNAL_SCHEMA } from "../../src/ledger/map-journal.js"

const dir = mkdtempSync(join(tmpdir(), "report-accounts-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const SUPPLIERS = ["SW_NORD", "SW_SUED"] as const
const ACCOUNTS = ["A-1", "A-2", "A-3"] as const
const OUTCOMES = ["created", "already_existed", "blocked", "rejected", "invalid", "failed", "in_doubt"] as const
const STORED = new Set(["created", "already_existed", "moved"])

const recordArb = fc.record({ supplier: fc.constantFrom(...SUPPLIERS), account: fc.constantFrom(...ACCOUNTS), outcome: fc.constantFrom(...OUTCOMES) })
const rejectArb = fc.record({
  supplier: fc.constantFrom(...SUPPLIERS, null),
  account: fc.constantFrom(...ACCOUNTS, null),
  /** A warning about a row that went out, or a rejected row. */
  warning: fc.boolean(),
  input: fc.constantFrom("/legacy/a.csv", "/legacy/b.csv"),
  /** Rejected by the latest map run of its export (it counts), or by an earlier one (superseded). */
  latest: fc.boolean()
})

let n = 0
const build = (records: ReadonlyArray<typeof recordArb extends fc.Arbitrary<infer T> ? T : never>, rejects: ReadonlyArray<typeof rejectArb extends fc.Arbitrary<infer T> ? T : never>): string => {
  const path = join(dir, `ledger-${n++}.sqlite`)
  const ledger = openLedger(path)
  const run = ledger.startRun("send", null, {})
  records.forEach((r, i) => {
    ledger.inFlight({ identity: `i${i}`, endpoint: "energy-amount", key: `["${i}"]`, supplier: r.supplier, account: r.account, content: "c", file: "/p.ndjson", line: i + 1 }, run)
    ledger.settle(`i${i}`, { outcome: r.outcome, cause: r.outcome === "blocked" ? "supplier_not_ongoing" : null })
  })
  ledger.endRun(run, "completed", {})
  ledger.close()
  const db = new DatabaseSync(path)
  db.exec(MAP_JOURNAL_SCHEMA)
  // Map runs 2 and 3 of each export: 3 is the latest, whose rejects stand.
  const mapRun = db.prepare("INSERT INTO map_runs (run, input, output, endpoint) VALUES (?, ?, NULL, 'energy-amount')")
  for (const [run, input] of [[2, "/legacy/a.csv"], [3, "/legacy/a.csv"], [4, "/legacy/b.csv"], [5, "/legacy/b.csv"]] as const) mapRun.run(run, input)
  const reject = db.prepare("INSERT INTO map_rejects (run, file, first_line, lines, codes, detail, raw, endpoint, supplier, account) VALUES (?, ?, ?, ?, 'invalid_date', 'x', 'raw', 'energy-amount', ?, ?)")
  const warning = db.prepare("INSERT INTO map_warnings (run, file, first_line, lines, code, detail, raw, endpoint, supplier, account) VALUES (?, ?, ?, ?, 'duplicate_row', 'x', 'raw', 'energy-amount', ?, ?)")
  rejects.forEach((r, i) => (r.warning ? warning : reject).run(r.input === "/legacy/a.csv" ? (r.latest ? 3 : 2) : r.latest ? 5 : 4, r.input, i + 2, `[${i + 2}]`, r.supplier, r.account))
  db.close()
  return path
}

describe("accounts with rows rejected or warned about at map", () => {
  it("property: complete only with every record stored and no standing reject or warning; the rest listed with them; rows of no known account apart", () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 30 }), fc.array(rejectArb, { maxLength: 10 }), (records, rejects) => {
        const source = openReportSource(build(records, rejects))
        const report = (() => {
          try {
            return campaignReport(source, { parallel: false })
          } finally {
            source.close()
          }
        })()
        type Account = { records: number; stored: number; blocked: number; map_rejected: number; map_warning: number }
        const model = new Map<string, Account>()
        const of = (supplier: string, account: string) => {
          const key = JSON.stringify([supplier, account])
          let m = model.get(key)
          if (m === undefined) model.set(key, (m = { records: 0, stored: 0, blocked: 0, map_rejected: 0, map_warning: 0 }))
          return m
        }
        for (const r of records) {
          const m = of(r.supplier, r.account)
          m.records++
          if (STORED.has(r.outcome)) m.stored++
          if (r.outcome === "blocked") m.blocked++
        }
        let unknown = 0
        for (const r of rejects) {
          if (!r.latest) continue
          if (r.supplier === null || r.account === null) unknown++
          else of(r.supplier, r.account)[r.warning ? "map_warning" : "map_rejected"]++
        }
        const status = (m: Account) =>
          m.blocked > 0 ? "blocked" : m.stored === m.records && m.map_rejected === 0 && m.map_warning === 0 ? "complete" : m.stored > 0 ? "partly" : "not_stored"
        const statuses = [...model.values()].map(status)
        const countOf = (s: string) => statuses.filter((x) => x === s).length
        expect(report.accounts.totals).toEqual({ accounts: model.size, complete: countOf("complete"), blocked: countOf("blocked"), partly: countOf("partly"), not_stored: countOf("not_stored") })
        const listed = report.accounts.listed.map((a) => ({ key: JSON.stringify([a.supplier, a.account]), records: a.records, stored: a.stored, map_rejected: a.map_rejected, map_warning: a.map_warning, status: a.status })).sort((a, b) => a.key.localeCompare(b.key))
        const expected = [...model].filter(([, m]) => status(m) !== "complete").map(([key, m]) => ({ key, records: m.records, stored: m.stored, map_rejected: m.map_rejected, map_warning: m.map_warning, status: status(m) })).sort((a, b) => a.key.localeCompare(b.key))
        expect(listed).toEqual(expected)
        expect(report.accounts.unknown.rows).toBe(unknown)
        expect(report.accounts.unknown.listed).toHaveLength(unknown)
        for (const s of SUPPLIERS) {
          const own = [...model].filter(([key]) => JSON.parse(key)[0] === s).map(([, m]) => status(m))
          const supplier = report.suppliers.find((x) => x.supplier === s)
          if (own.length > 0) expect(supplier?.accounts.accounts).toBe(own.length)
        }
      }),
      { numRuns: 60 }
    )
  })
})
