/**
 * The report's figures against an independent count: random ledgers (records of a few kinds, suppliers
 * and accounts in every state, outcome and cause, over several runs; the last run killed, or still in
 * progress and holding the ledger) are written straight into a ledger file, counted here record by record
 * in plain TypeScript, and compared with what `campaignReport` computes in SQL.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type CampaignReport, campaignReport, openLedger, openReportSource } from "../../src/index.js"

const dir = mkdtempSync(join(tmpdir(), "report-property-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const OUTCOMES = ["created", "already_existed", "moved", "blocked", "rejected", "invalid", "failed", "in_doubt"] as const
const STORED = new Set(["created", "already_existed", "moved"])
const PROBLEMS = new Set(["blocked", "rejected", "invalid", "failed", "in_doubt"])

const recordArb = fc.record({
  endpoint: fc.constantFrom("energy-amount", "notes", "transactions"),
  supplier: fc.constantFrom("SW_NORD", "SW_SUED", null),
  account: fc.constantFrom("A-1", "A-2", "A-3", "B-1", null),
  state: fc.constantFrom("done", "done", "done", "pending", "in_flight"),
  outcome: fc.constantFrom(...OUTCOMES),
  cause: fc.constantFrom(null, "supplier_not_ongoing", "account_unknown", "x_code,y_code"),
  run: fc.integer({ min: 1, max: 3 }),
  minute: fc.integer({ min: 0, max: 600 })
})
type Row = typeof recordArb extends fc.Arbitrary<infer T> ? T : never

const START = Date.UTC(2026, 0, 5, 8)
let ledgers = 0

/** Run 3 has not ended: `live`, it holds the ledger (a send in progress); otherwise it was killed. */
const writeLedger = (rows: ReadonlyArray<Row>): string => {
  const path = join(dir, `ledger-${ledgers++}.sqlite`)
  openLedger(path, { service: "http://127.0.0.1:9/" }).close()
  const db = new DatabaseSync(path)
  const run = db.prepare("INSERT INTO runs (id, command, service, options, started_at, ended_at, ended, counts) VALUES (?, 'send', 'http://127.0.0.1:9/', '{}', ?, ?, ?, '{}')")
  for (const id of [1, 2, 3]) run.run(id, START + (id - 1) * 200 * 60_000, id === 3 ? null : START + id * 200 * 60_000, id === 3 ? null : "completed")
  const insert = db.prepare(
    `INSERT INTO records (identity, endpoint, key, supplier, account, content, state, outcome, cause, http_status, detail, attempts, file, line, run, updated_at)
     VALUES (?, ?, '[]', ?, ?, 'c', ?, ?, ?, NULL, NULL, 1, 'f.ndjson', ?, ?, ?)`
  )
  rows.forEach((r, i) => insert.run(`id-${i}`, r.endpoint, r.supplier, r.account, r.state, r.state === "done" ? r.outcome : null, r.state === "done" ? r.cause : null, i + 1, r.run, START + r.minute * 60_000))
  db.close()
  return path
}

/** In flight in a run that is over (killed), a record is in doubt: only the run in progress has records in flight. */
const stopped = (r: Row, live: boolean): boolean => r.state === "in_flight" && !(live && r.run === 3)

/** What a tally says of one record: the key it counts under. */
const tallyKey = (r: Row, live: boolean): string =>
  stopped(r, live) ? "in_doubt" : r.state === "in_flight" ? "in_flight" : r.state === "pending" ? "pending" : r.outcome

const groupBy = <T,>(rows: ReadonlyArray<T>, key: (row: T) => string): Record<string, Array<T>> => {
  const out: Record<string, Array<T>> = {}
  for (const row of rows) (out[key(row)] ??= []).push(row)
  return out
}

const TALLIED = [...OUTCOMES, "pending", "in_flight"] as const

const countBy = <T,>(rows: ReadonlyArray<T>, key: (row: T) => string): Record<string, number> => {
  const out: Record<string, number> = {}
  for (const row of rows) out[key(row)] = (out[key(row)] ?? 0) + 1
  return out
}

describe("campaignReport", () => {
  it("counts every record once: by kind, supplier, outcome, cause, account, run and interval", () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 120 }), fc.boolean(), (rows, live) => {
        const path = writeLedger(rows)
        const holder = live ? openLedger(path) : undefined
        const source = (() => {
          try {
            return openReportSource(path)
          } finally {
            holder?.close()
          }
        })()
        const [report, alone] = (() => {
          try {
            // The scan of accounts in a worker thread and on the report's own connection: the same figures.
            return [true, false].map((parallel) => campaignReport(source, { now: () => START + 600 * 60_000, parallel }))
          } finally {
            source.close()
          }
        })() as [CampaignReport, CampaignReport]
        expect(alone).toEqual(report)

        expect(report.totals.records).toBe(rows.length)
        const expectedTotals = countBy(rows, (r) => tallyKey(r, live))
        for (const key of TALLIED) expect(report.totals[key], key).toBe(expectedTotals[key] ?? 0)
        // Every record in doubt is on the to-do list (fewer than the limit), those of a killed run among them.
        const inDoubt = report.problems.listed.filter((p) => p.problem === "in_doubt")
        expect(inDoubt).toHaveLength(expectedTotals["in_doubt"] ?? 0)
        expect(inDoubt.filter((p) => p.code === "in_flight_when_a_run_stopped")).toHaveLength(rows.filter((r) => stopped(r, live)).length)

        const byKind = groupBy(rows, (r) => r.endpoint)
        expect(report.kinds.map((k) => k.endpoint)).toEqual(Object.keys(byKind).sort())
        for (const kind of report.kinds) {
          const own = byKind[kind.endpoint] ?? []
          const counts = countBy(own, (r) => tallyKey(r, live))
          for (const key of TALLIED) expect(kind.tally[key], `${kind.endpoint} ${key}`).toBe(counts[key] ?? 0)
          const codes: Record<string, Record<string, number>> = {}
          for (const r of own) {
            if (stopped(r, live)) {
              const inDoubt = (codes["in_doubt"] ??= {})
              inDoubt["in_flight_when_a_run_stopped"] = (inDoubt["in_flight_when_a_run_stopped"] ?? 0) + 1
              continue
            }
            if (r.state !== "done" || !PROBLEMS.has(r.outcome)) continue
            for (const code of (r.cause ?? r.outcome).split(",")) (codes[r.outcome] ??= {})[code] = (codes[r.outcome]?.[code] ?? 0) + 1
          }
          expect(kind.codes).toEqual(codes)
        }

        const bySupplier = groupBy(rows, (r) => r.supplier ?? "(none)")
        expect(report.suppliers.map((s) => s.supplier)).toEqual(Object.keys(bySupplier).sort())
        for (const supplier of report.suppliers) {
          const own = bySupplier[supplier.supplier] ?? []
          expect(supplier.tally.records).toBe(own.length)
          const accounts = Object.values(groupBy(own.filter((r) => r.account !== null), (r) => r.account!)).map((records = []) => {
            const stored = records.filter((r) => r.state === "done" && STORED.has(r.outcome)).length
            const blocked = records.some((r) => r.state === "done" && r.outcome === "blocked")
            return stored === records.length ? "complete" : blocked ? "blocked" : stored > 0 ? "partly" : "not_stored"
          })
          const status = countBy(accounts, (s) => s)
          expect(supplier.accounts).toEqual({
            accounts: accounts.length,
            complete: status["complete"] ?? 0,
            blocked: status["blocked"] ?? 0,
            partly: status["partly"] ?? 0,
            not_stored: status["not_stored"] ?? 0
          })
        }

        // Every account short of complete is listed (there are fewer than the limit), with its blocked records' causes.
        const incomplete = Object.entries(groupBy(rows.filter((r) => r.account !== null), (r) => JSON.stringify([r.supplier ?? "(none)", r.account])))
          .map(([key, records]) => {
            const [supplier, account] = JSON.parse(key) as [string, string]
            const stored = records.filter((r) => r.state === "done" && STORED.has(r.outcome)).length
            const blocked = records.filter((r) => r.state === "done" && r.outcome === "blocked")
            const causes = [...new Set(blocked.flatMap((r) => (r.cause === null ? [] : r.cause.split(","))))].sort()
            return { supplier, account, records: records.length, stored, causes }
          })
          .filter((a) => a.stored < a.records)
        const listed = report.accounts.listed.map(({ supplier, account, records, stored, causes }) => ({ supplier, account, records, stored, causes }))
        const order = (a: { supplier: string; account: string }, b: { supplier: string; account: string }) => `${a.supplier} ${a.account}`.localeCompare(`${b.supplier} ${b.account}`)
        expect(listed.sort(order)).toEqual(incomplete.sort(order))

        expect(report.runs.map((r) => r.ended)).toEqual(["completed", "completed", live ? null : "killed"])
        const perRun = countBy(rows, (r) => String(r.run))
        for (const run of report.runs) expect(run.records, `run ${run.id}`).toBe(perRun[String(run.id)] ?? 0)
        const points = countBy(rows, (r) => String(Math.floor((START + r.minute * 60_000) / report.timeline.bucket_ms) * report.timeline.bucket_ms))
        expect(Object.fromEntries(report.timeline.points.map((p) => [String(p.at), p.records]))).toEqual(points)
      }),
      { numRuns: 40 }
    )
  })
})
