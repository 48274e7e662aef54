/**
 * Records a run left in flight: the run was killed (SIGKILL, a crash, a second Ctrl-C), so each of them
 * may or may not be stored. Until a later run reads them again, the report and `status --journal` must
 * say so (in doubt, and on the to-do list), not count them as "not yet sent". While a run is in progress
 * (it holds the ledger's lock), its own records in flight are just that: in flight.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { campaignReport, openLedger, openReportSource } from "../../src/index.js"
import { readSupplierStanding } from "../../src/report/supplier-standing.js"

const dir = mkdtempSync(join(tmpdir(), "report-stopped-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0

const record = (i: number) => ({
  identity: `id-${i}`,
  endpoint: "energy-amount",
  key: `["k${i}"]`,
  supplier: "SW_NORD",
  account: "KD-1",
  content: `c${i}`,
  file: "/data/amounts.ndjson",
  line: i
})

/** A ledger of a killed run: one record stored, two still marked in flight, the run never ended. */
const killedRun = (): string => {
  const path = join(dir, `killed-${n++}.ledger`)
  const ledger = openLedger(path, { service: "http://127.0.0.1:9/" })
  const run = ledger.startRun("send", "http://127.0.0.1:9/", {})
  for (const i of [1, 2, 3]) ledger.inFlight(record(i), run)
  ledger.settle("id-1", { outcome: "created", httpStatus: 201 })
  ledger.close()
  return path
}

describe("records in flight when a run was killed", () => {
  it("are in doubt in the report and listed as problems, not 'not yet sent'", () => {
    const source = openReportSource(killedRun())
    const report = (() => {
      try {
        return campaignReport(source, { parallel: false })
      } finally {
        source.close()
      }
    })()
    expect(report.totals).toMatchObject({ records: 3, created: 1, in_doubt: 2, in_flight: 0, pending: 0 })
    expect(report.kinds[0]?.codes).toEqual({ in_doubt: { in_flight_when_a_run_stopped: 2 } })
    expect(report.problems.counts.in_doubt).toBe(2)
    const listed = report.problems.listed.filter((p) => p.problem === "in_doubt")
    expect(listed.map((p) => [p.code, p.payload_line])).toEqual([["in_flight_when_a_run_stopped", 2], ["in_flight_when_a_run_stopped", 3]])
    expect(report.complete).toBe(false)
    // The run itself: killed, not "not ended" as if it were still going.
    expect(report.runs.map((r) => [r.id, r.ended])).toEqual([[1, "killed"]])
  })

  it("a conflict with such a record names it in doubt, not in flight", () => {
    const path = killedRun()
    const ledger = openLedger(path)
    const run = ledger.startRun("send", "http://127.0.0.1:9/", {})
    ledger.conflict("id-2", "other content", "/data/fixed.ndjson", 7, run)
    ledger.endRun(run, "completed", {})
    ledger.close()
    const source = openReportSource(path)
    try {
      const conflict = campaignReport(source, { parallel: false }).problems.listed.find((p) => p.problem === "conflict")
      expect(conflict?.detail).toBe("other content than the version the ledger holds (in_doubt, from /data/amounts.ndjson:2); not sent")
    } finally {
      source.close()
    }
  })

  it("are in doubt in status --journal's standing of the supplier", () => {
    expect(readSupplierStanding(killedRun(), "SW_NORD")).toEqual({ supplier: "SW_NORD", records: 3, stored: 1, open: { in_doubt: 2 }, open_since: { in_doubt: expect.any(Number) } })
  })

  it("stay in flight while their run holds the ledger (a send in progress)", () => {
    const path = join(dir, `live-${n++}.ledger`)
    const ledger = openLedger(path, { service: "http://127.0.0.1:9/" })
    try {
      const run = ledger.startRun("send", "http://127.0.0.1:9/", {})
      for (const i of [1, 2]) ledger.inFlight(record(i), run)
      const source = openReportSource(path)
      try {
        const report = campaignReport(source, { parallel: false })
        expect(report.totals).toMatchObject({ records: 2, in_flight: 2, in_doubt: 0 })
        expect(report.problems.counts.in_doubt).toBe(0)
        expect(report.runs.map((r) => [r.id, r.ended])).toEqual([[run, null]])
      } finally {
        source.close()
      }
      expect(readSupplierStanding(path, "SW_NORD").open).toEqual({ not_sent: 2 })
    } finally {
      ledger.close()
    }
  })
})
