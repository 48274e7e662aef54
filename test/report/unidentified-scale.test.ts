/**
 * Lines that named no record (not JSON, not UTF-8: a legacy export sent in the wrong encoding makes every
 * line one) are counted and listed by the report, each place once: 20,000 of them beside 20,000 records.
 * That the time grows with their number, not with its square (the old correlated query took minutes at
 * 100,000), is measured by bench/ledger-scale.mjs, not here.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { campaignReport, openLedger, openReportSource } from "../../src/index.js"

const dir = mkdtempSync(join(tmpdir(), "report-unidentified-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("many lines that named no record", () => {
  it("are counted and listed, each place once, those read later as records left out", () => {
    const path = join(dir, "broken.ledger")
    const ledger = openLedger(path, { service: "http://127.0.0.1:9/" })
    const first = ledger.startRun("send", "http://127.0.0.1:9/", {})
    const second = ledger.startRun("send", "http://127.0.0.1:9/", {})
    const lines = 20_000
    ledger.batch(() => {
      for (let line = 1; line <= lines; line++) ledger.unidentified(first, "/data/latin1.ndjson", line, "The line is not valid UTF-8.")
      // Met again by the second run: still one place each.
      for (let line = 1; line <= 100; line++) ledger.unidentified(second, "/data/latin1.ndjson", line, "The line is not valid UTF-8.")
      // Records elsewhere, and 50 read later at places that named none before (a fixed line, read again).
      for (let i = 1; i <= lines; i++) {
        const at = i <= 50 ? { file: "/data/latin1.ndjson", line: lines - i + 1 } : { file: "/data/other.ndjson", line: i }
        ledger.inFlight({ identity: `i${i}`, endpoint: "energy-amount", key: `["${i}"]`, supplier: "S", account: "A", content: "c", ...at }, second)
        ledger.settle(`i${i}`, { outcome: "created" })
      }
    })
    ledger.endRun(first, "completed", {})
    ledger.endRun(second, "completed", {})
    ledger.close()

    const source = openReportSource(path)
    const report = (() => {
      try {
        return campaignReport(source, { parallel: false, limit: 100_000 })
      } finally {
        source.close()
      }
    })()
    expect(report.totals.invalid).toBe(lines - 50)
    expect(report.totals.records).toBe(lines + lines - 50)
    const listed = report.problems.listed.filter((p) => p.code === "unidentified")
    expect(listed).toHaveLength(lines - 50)
    expect(new Set(listed.map((p) => p.payload_line)).size).toBe(lines - 50)
  })

  it("property: a place counts once, from the latest run that met it, unless a later run read a record there", () => {
    let n = 0
    const place = fc.record({ file: fc.constantFrom("/a.ndjson", "/b.ndjson"), line: fc.integer({ min: 1, max: 6 }), run: fc.integer({ min: 1, max: 4 }) })
    fc.assert(
      fc.property(fc.array(place, { maxLength: 25 }), fc.array(place, { maxLength: 25 }), (unidentified, records) => {
        const path = join(dir, `model-${n++}.ledger`)
        const ledger = openLedger(path)
        for (let run = 1; run <= 4; run++) ledger.startRun("send", null, {})
        unidentified.forEach((u) => ledger.unidentified(u.run, u.file, u.line, `at ${u.run}`))
        records.forEach((r, i) => {
          ledger.inFlight({ identity: `i${i}`, endpoint: "notes", key: `["${i}"]`, supplier: "S", account: "A", content: "c", file: r.file, line: r.line }, r.run)
          ledger.settle(`i${i}`, { outcome: "created" })
        })
        ledger.close()
        // The model: per place, the latest run that met it, and whether a record was read there by a later run.
        const latest = new Map<string, number>()
        for (const u of unidentified) latest.set(`${u.file}:${u.line}`, Math.max(latest.get(`${u.file}:${u.line}`) ?? 0, u.run))
        const open = [...latest].filter(([at, run]) => !records.some((r) => `${r.file}:${r.line}` === at && r.run > run)).map(([at]) => at).sort()
        const source = openReportSource(path)
        try {
          const report = campaignReport(source, { parallel: false })
          expect(report.totals.invalid).toBe(open.length)
          const listed = report.problems.listed.filter((p) => p.code === "unidentified")
          expect(listed.map((p) => `${p.payload_file}:${p.payload_line}`).sort()).toEqual(open)
          for (const p of listed) expect(p.detail).toBe(`at ${latest.get(`${p.payload_file}:${p.payload_line}`)}`)
        } finally {
          source.close()
        }
      }),
      { numRuns: 60 }
    )
  })
})
