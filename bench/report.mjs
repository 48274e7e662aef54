/**
 * `data-import report` on big ledgers: a ledger of BENCH_REPORT_RECORDS records (default 1,000,000) and
 * one of a quarter of that, generated in SQL (INSERT … SELECT from a recursive CTE: 100,000 accounts of 5
 * suppliers, 4 kinds, about 5 % problems, a lineage row per record, 1,000 map rejects, 100 conflicts).
 * Measured in turns, each a process of its own (wall time, peak RSS): `report --format html`,
 * `report --format text`, and a plain `SELECT endpoint, outcome, COUNT(*) … GROUP BY` over the same file.
 * Goals: report ≤ 3× the plain query; peak RSS flat in the ledger's size (1M vs 250k < 1.25×).
 *
 *   npm run build && npm exec -- node bench/report.mjs
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { CLI, count, DATA_DIR, interleaved, mb, ROOT } from "./lib.mjs"

const RECORDS = Number(process.env.BENCH_REPORT_RECORDS ?? 1_000_000)
const { openLedger } = await import(join(ROOT, "dist", "index.js"))

/** Run 1 of the ledger at `path`: a map run of an export without rows, which gives the ledger its map tables. */
const recordEmptyMapRun = (path) => {
  const mappings = join(ROOT, "examples", "mappings")
  const legacy = join(DATA_DIR, "legacy.csv")
  writeFileSync(legacy, readFileSync(join(mappings, "energy-amounts.csv"), "utf8").split("\n")[0] + "\n")
  const args = ["map", "--mapping", join(mappings, "energy-amounts.mapping.json"), "--journal", path, "--allow-empty", "--out", "/dev/null", legacy]
  execFileSync(process.execPath, [CLI, ...args], { stdio: ["ignore", "ignore", "pipe"] })
}

const generate = (records) => {
  let path = join(DATA_DIR, `report-${records}.ledger`)
  if (existsSync(path) && process.env.BENCH_REGENERATE !== "1") return path
  // Written under another name and renamed when complete: a broken run leaves nothing to reuse.
  const final = path
  path = `${final}.part`
  for (const p of [path, `${path}-wal`, `${path}-shm`, final]) rmSync(p, { force: true })
  openLedger(path, { service: "http://127.0.0.1:9/" }).close()
  recordEmptyMapRun(path)
  const db = new DatabaseSync(path)
  const start = Date.UTC(2025, 0, 6, 8)
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; BEGIN")
  for (let run = 2; run <= 5; run++) {
    db.prepare("INSERT INTO runs (id, command, service, options, started_at, ended_at, ended, counts) VALUES (?, 'send', 'http://127.0.0.1:9/', '{}', ?, ?, 'completed', '{}')")
      .run(run, start + (run - 2) * 15_000_000, start + (run - 1) * 15_000_000)
  }
  db.exec("INSERT INTO services (url, first_run, last_run) VALUES ('http://127.0.0.1:9/', 2, 5)")
  // A record every 60 ms: 1M records span about 17 hours, in four runs.
  db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
    r AS (SELECT i,
      CASE i % 4 WHEN 0 THEN 'energy-amount' WHEN 1 THEN 'transactions' WHEN 2 THEN 'notes' ELSE 'delivery-note' END AS endpoint,
      CASE i % 1000 WHEN 0 THEN 'pending' WHEN 1 THEN 'in_flight' ELSE 'done' END AS state,
      CASE i % 100 WHEN 2 THEN 'blocked' WHEN 3 THEN 'rejected' WHEN 4 THEN 'invalid' WHEN 5 THEN 'failed' WHEN 6 THEN 'in_doubt' WHEN 7 THEN 'already_existed' ELSE 'created' END AS outcome,
      CASE i % 100 WHEN 2 THEN (CASE i % 3 WHEN 0 THEN 'supplier_not_ongoing' WHEN 1 THEN 'account_not_imported' ELSE 'account_unknown' END)
        WHEN 3 THEN 'TRANSACTION_IMPORT_ERROR' WHEN 4 THEN 'invalid' END AS cause,
      CASE i % 100 WHEN 3 THEN 400 WHEN 2 THEN 404 ELSE 201 END AS status
      FROM n)
    INSERT INTO records (identity, endpoint, key, supplier, account, content, state, outcome, cause, http_status, detail, attempts, file, line, run, updated_at)
    SELECT 'id-' || i, endpoint, '["' || endpoint || '","S' || (i / 10 % 5) || '","ACC-' || (i / 10) || '",' || i || ']',
      'SUPPLIER_' || (i / 10 % 5), 'ACC-' || (i / 10), printf('%016x', i * 2654435761),
      state, CASE WHEN state = 'done' THEN outcome END, CASE WHEN state = 'done' THEN cause END, CASE WHEN state = 'done' THEN status END,
      CASE WHEN cause IS NULL OR state <> 'done' THEN NULL ELSE '[{"attr":"x","code":"' || cause || '","detail":"record ' || i || ' refused"}]' END,
      1, '/data/export-' || (i / 100000) || '.ndjson', i % 100000 + 1, 2 + (i * 4 - 1) / CAST(? AS INTEGER), CAST(? AS INTEGER) + i * 60
    FROM r`).run(records, records, start)
  db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
    INSERT INTO lineage (payload_file, payload_line, run, source_file, lines, raw)
    SELECT '/data/export-' || (i / 100000) || '.ndjson', i % 100000 + 1, 1, '/data/legacy-' || (i / 100000) || '.csv', '[' || (i % 100000 + 2) || ']', 'SUPPLIER;ACC-' || (i / 10) || ';' || i FROM n`).run(records)
  db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
    INSERT INTO map_rejects (run, file, first_line, lines, codes, detail, raw, endpoint, supplier, account)
    SELECT 1, '/data/legacy.csv', i * 7, '[' || (i * 7) || ']', CASE i % 2 WHEN 0 THEN 'invalid_date' ELSE 'missing_value' END, 'row ' || i, 'raw;' || i, 'energy-amount', 'SUPPLIER_' || (i % 5), 'ACC-' || i FROM n`).run()
  db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
    INSERT INTO conflicts (identity, content, file, line, run) SELECT 'id-' || (i * 1009 + 8), 'other-' || i, '/data/fix.ndjson', i, 5 FROM n`).run()
  db.exec("COMMIT; PRAGMA wal_checkpoint(TRUNCATE);")
  db.close()
  renameSync(path, final)
  return final
}

const plain = (path) => [
  process.execPath,
  ["-e", `const { DatabaseSync } = require("node:sqlite"); const db = new DatabaseSync(${JSON.stringify(path)}, { readOnly: true });
    console.log(db.prepare("SELECT endpoint, outcome, COUNT(*) AS n FROM records GROUP BY endpoint, outcome").all().length)`]
]
const report = (path, format) => [process.execPath, [CLI, "report", "--journal", path, "--format", format, "--out", "/dev/null"]]

const sizes = [Math.round(RECORDS / 4), RECORDS]
const results = {}
for (const size of sizes) {
  process.stderr.write(`ledger of ${count(size)} records: generating…\n`)
  const started = Date.now()
  const path = generate(size)
  process.stderr.write(`  ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  const { measure } = await import("./lib.mjs")
  results[size] = await interleaved({
    plain: ["plain GROUP BY", () => measure(...plain(path), { stdout: "pipe" })],
    html: ["report --format html", () => measure(...report(path, "html"), { okCodes: [1] })],
    text: ["report --format text", () => measure(...report(path, "text"), { okCodes: [1] })]
  })
}
const big = results[RECORDS]
const small = results[sizes[0]]
const line = (label, value, goal, ok) => `| ${label} | ${value} | ${goal} | ${ok ? "pass" : "FAIL"} |`
console.log(`report benchmark, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}`)
console.log("| measure | value | goal | |\n|---|---|---|---|")
for (const size of sizes) {
  const r = results[size]
  console.log(`| ${count(size)} records: plain query / html / text | ${(r.plain.ms / 1000).toFixed(2)} s / ${(r.html.ms / 1000).toFixed(2)} s / ${(r.text.ms / 1000).toFixed(2)} s (RSS ${mb(r.plain.peakRss)} / ${mb(r.html.peakRss)} / ${mb(r.text.peakRss)}) | | |`)
}
console.log(line("html / plain at 1M", `${(big.html.ms / big.plain.ms).toFixed(2)}×`, "≤ 3×", big.html.ms <= 3 * big.plain.ms))
console.log(line("text / plain at 1M", `${(big.text.ms / big.plain.ms).toFixed(2)}×`, "≤ 3×", big.text.ms <= 3 * big.plain.ms))
console.log(line("html peak RSS 1M / 250k", `${(big.html.peakRss / small.html.peakRss).toFixed(2)}×`, "< 1.25×", big.html.peakRss / small.html.peakRss < 1.25))
console.log(line("text peak RSS 1M / 250k", `${(big.text.peakRss / small.text.peakRss).toFixed(2)}×`, "< 1.25×", big.text.peakRss / small.text.peakRss < 1.25))
