// How the ledger's work on lines that named no record grows with their number: `send` forgetting them
// when a fixed file is sent again, and `report` counting and listing them. Each is timed at N and at 4N
// lines in the same run; time growing with the lines makes the ratio about 4, with their square 16.
// `node bench/ledger-scale.mjs` after a build; BENCH_LINES sets N (default 5,000).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { campaignReport, openLedger, openReportSource, sendRecords } from "../dist/index.js"

const N = Number(process.env.BENCH_LINES ?? 5_000)
const dir = mkdtempSync(join(tmpdir(), "bench-ledger-scale-"))

/** Milliseconds `send` takes to forget `lines` places that named no record, as every line now names one. */
const forgetting = async (lines) => {
  const path = join(dir, `forget-${lines}.ledger`)
  const ledger = openLedger(path)
  try {
    const file = "/data/export.ndjson"
    const broken = ledger.startRun("send", null, {})
    ledger.batch(() => {
      for (let line = 1; line <= lines; line++) ledger.unidentified(broken, file, line, "The line is not valid UTF-8.")
    })
    ledger.endRun(broken, "completed", {})
    const note = (i) => JSON.stringify({ import_supplier: "S", external_account_number: `A-${i}`, notes: [{ is_pinned: true }] })
    const client = { send: () => Promise.reject(new Error("nothing is sent")), authenticate: () => Promise.resolve() }
    const began = performance.now()
    const summary = await sendRecords(Array.from({ length: lines }, (_, i) => ({ file, line: i + 1, text: note(i) })), { ledger, client })
    const took = performance.now() - began
    if (summary.outcomes.invalid !== lines || ledger.unidentifiedPlaces().length !== 0) throw new Error("send did not forget every place")
    return took
  } finally {
    ledger.close()
  }
}

/** Milliseconds `report` takes over `lines` places that named no record beside `lines` records. */
const reporting = (lines) => {
  const path = join(dir, `report-${lines}.ledger`)
  const ledger = openLedger(path, { service: "http://127.0.0.1:9/" })
  const run = ledger.startRun("send", "http://127.0.0.1:9/", {})
  ledger.batch(() => {
    for (let line = 1; line <= lines; line++) ledger.unidentified(run, "/data/latin1.ndjson", line, "The line is not valid UTF-8.")
    for (let i = 1; i <= lines; i++) {
      ledger.inFlight({ identity: `i${i}`, endpoint: "energy-amount", key: `["${i}"]`, supplier: "S", account: "A", content: "c", file: "/data/other.ndjson", line: i }, run)
      ledger.settle(`i${i}`, { outcome: "created" })
    }
  })
  ledger.endRun(run, "completed", {})
  ledger.close()
  const began = performance.now()
  const source = openReportSource(path)
  try {
    const report = campaignReport(source, { parallel: false, limit: 10 * lines })
    if (report.totals.invalid !== lines) throw new Error("the report did not count every place")
  } finally {
    source.close()
  }
  return performance.now() - began
}

/** The ratio of 4N to N, each the median of three. */
const growth = async (measure) => {
  const median = async (lines) => {
    const times = []
    for (let k = 0; k < 3; k++) times.push(await measure(lines))
    return times.sort((a, b) => a - b)[1]
  }
  const small = await median(N)
  const large = await median(4 * N)
  return { small, large, ratio: large / small }
}

try {
  const send = await growth(forgetting)
  const report = await growth(reporting)
  console.log(`| ledger work on lines that named no record, ${N} → ${4 * N} lines | ${N} | ${4 * N} | ratio | goal |
|---|---:|---:|---:|---:|
| send forgets them | ${send.small.toFixed(0)} ms | ${send.large.toFixed(0)} ms | ${send.ratio.toFixed(1)}× | < 8× |
| report counts and lists them | ${report.small.toFixed(0)} ms | ${report.large.toFixed(0)} ms | ${report.ratio.toFixed(1)}× | < 8× |`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
