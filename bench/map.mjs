// Benchmark of `data-import map` (run with `npm run bench`, which builds first).
//
// Generates a legacy CSV export of meter readings (BENCH_ROWS, default 200,000 rows; `;`-separated,
// German decimals and dates, as examples/mappings/energy-amounts.csv) and measures, median of
// BENCH_REPEATS runs:
//   (a) csv-parse + JSON.stringify of every row   bench/csv-baseline.mjs
//   (b) data-import map --jobs 1 with examples/mappings/energy-amounts.mapping.json
//   (c) data-import map --jobs 2
//   (d) data-import map --jobs 1 on the same export written 4 times over: peak RSS must stay flat but
//       for the duplicate check's hash per payload (bench/seen-keys.mjs)
//   (e) (b) and (d) with --allow-duplicates: no hash per payload, so the streaming itself must be flat
//   (f) (e) at 4× under a 48 MB cap on V8's old space: RSS follows V8's heap sizing, so the proof that
//       nothing grows with the file is that the run completes under a cap smaller than the growth
import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { CLI, count, DATA_DIR, mb, measure, random, repeated, REPEATS, ROOT, writeLines } from "./lib.mjs"

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000)
const pad = (n, w = 2) => String(n).padStart(w, "0")
const DAY = 86_400_000

const generate = async (path, rows) => {
  if (existsSync(path) && process.env.BENCH_REGENERATE === undefined) return
  const rnd = random(7)
  const german = (d) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  await writeLines(path, rows, (i) => {
    // Readings of a day or a month, starting at midnight or on the quarter hour, over five years.
    const start = new Date(Date.UTC(2019, 0, 1) + Math.floor(rnd() * 1800) * DAY + (i % 3 === 0 ? Math.floor(rnd() * 96) * 900_000 : 0))
    const end = new Date(start.getTime() + (i % 2 === 0 ? DAY : 30 * DAY))
    const quantity = (rnd() * 20000).toFixed(3).replace(".", ",").replace(/\B(?=(\d{3})+(?!\d))/u, ".")
    return [`KD-${pad(i, 8)}`, 51238696781 + i, german(start), german(end), "1-1:1.8.0", quantity, "KWH", i % 50 === 0 ? "X" : "", "Z18", i % 4 === 0 ? "Z57,Z84" : ""].join(";")
  }, "Kundennummer;MaLo;Zeitraum_von;Zeitraum_bis;OBIS;Menge;Einheit;Storniert;Qualifier;Plausi")
}
const file = join(DATA_DIR, `energy-amounts-${ROWS}.csv`)
const file4 = join(DATA_DIR, `energy-amounts-${ROWS * 4}.csv`)
await generate(file, ROWS)
await generate(file4, ROWS * 4)
const mapping = join(ROOT, "examples/mappings/energy-amounts.mapping.json")
process.stderr.write(`map: ${count(ROWS)} rows, ${mb(statSync(file).size)}\n`)

const a = await repeated("(a) csv-parse + stringify", () => measure(process.execPath, [join(ROOT, "bench/csv-baseline.mjs"), file]))
const b = await repeated("(b) map --jobs 1", () => measure(process.execPath, [CLI, "map", "--jobs", "1", "-m", mapping, file], { okCodes: [0, 1] }))
const c = await repeated("(c) map --jobs 2", () => measure(process.execPath, [CLI, "map", "--jobs", "2", "-m", mapping, file], { okCodes: [0, 1] }))
const d = await repeated("(d) map --jobs 1, 4× the rows", () => measure(process.execPath, [CLI, "map", "--jobs", "1", "-m", mapping, file4], { okCodes: [0, 1] }))
const e1 = await repeated("(e) map --jobs 1 --allow-duplicates, 1×", () => measure(process.execPath, [CLI, "map", "--jobs", "1", "--allow-duplicates", "-m", mapping, file], { okCodes: [0, 1] }))
const e4 = await repeated("(e) map --jobs 1 --allow-duplicates, 4×", () => measure(process.execPath, [CLI, "map", "--jobs", "1", "--allow-duplicates", "-m", mapping, file4], { okCodes: [0, 1] }))
const f = await repeated("(f) map --jobs 1 --allow-duplicates, 4×, --max-old-space-size=48", () =>
  measure(process.execPath, ["--max-old-space-size=48", CLI, "map", "--jobs", "1", "--allow-duplicates", "-m", mapping, file4], { okCodes: [0, 1] }))
const lines = (r) => r.stdout.split("\n").filter((l) => l !== "").length
const rejected = /\+ (\d[\d,]*) rejected/u.exec(c.stderr)?.[1] ?? "?"

const rate = (r) => (ROWS * 1000) / r.ms
console.log(`
map: ${count(ROWS)} CSV rows (${mb(statSync(file).size)}), Node ${process.version}, median of ${REPEATS} runs, rows/s

| (a) csv-parse + stringify | (b) map --jobs 1 | (c) map --jobs 2 | b/a | c/a | peak RSS a / b / c |
|---:|---:|---:|---:|---:|---:|
| ${count(rate(a))} | ${count(rate(b))} | ${count(rate(c))} | ${(rate(b) / rate(a)).toFixed(2)} | ${(rate(c) / rate(a)).toFixed(2)} | ${mb(a.peakRss)} / ${mb(b.peakRss)} / ${mb(c.peakRss)} |

${count(lines(c))} payloads written; rows rejected: ${rejected} (readings that start in the hour skipped by the spring clock change).

Streaming memory, peak RSS of map --jobs 1 at 1× (${mb(statSync(file).size)}) and 4× (${mb(statSync(file4).size)}) the rows:
  with the duplicate check's hash per payload: ${mb(b.peakRss)} → ${mb(d.peakRss)} (ratio ${(d.peakRss / b.peakRss).toFixed(2)})
  --allow-duplicates (streaming alone):        ${mb(e1.peakRss)} → ${mb(e4.peakRss)} (ratio ${(e4.peakRss / e1.peakRss).toFixed(2)})
  --allow-duplicates at 4× with V8's old space capped at 48 MB: completed, peak RSS ${mb(f.peakRss)}`)
