// Benchmark of `data-import map`: part of `npm run bench` (bench/run.mjs, which builds first and prints
// one table of ratios); `node bench/map.mjs` after a build prints this part's own table.
//
// Generates a legacy CSV export of meter readings (BENCH_ROWS, default 200,000 rows; `;`-separated,
// German decimals and dates, as examples/mappings/energy-amounts.csv) and measures, median of
// BENCH_REPEATS runs:
// (a), (b) and (c) in turns, one run of each per round:
//   (a) csv-parse + JSON.stringify of every row   bench/csv-baseline.mjs
//   (b) data-import map --jobs 1 with examples/mappings/energy-amounts.mapping.json
//   (c) data-import map --jobs 2
//   (d) data-import map --jobs 1 on the same export written 4 times over: peak RSS must stay flat but
//       for the duplicate check's hash per payload (bench/seen-keys.mjs)
//   (e) (b) and (d) with --allow-duplicates: no hash per payload, so the streaming itself must be flat
//   (f) (e) at 4× under a 48 MB cap on V8's old space: RSS follows V8's heap sizing, so the proof that
//       nothing grows with the file is that the run completes under a cap smaller than the growth
import { closeSync, createReadStream, existsSync, openSync, statSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { CLI, count, DATA_DIR, interleaved, mb, measure, random, repeated, REPEATS, ROOT, writeLines } from "./lib.mjs"

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
/** The lines of a file, counted as it streams by. */
const linesOf = async (path) => {
  let lines = 0
  for await (const chunk of createReadStream(path)) for (const byte of chunk) if (byte === 10) lines++
  return lines
}

/** Runs the whole map benchmark; returns its measurements (rows/s, peak RSS). */
export const benchMap = async () => {
  const file = join(DATA_DIR, `energy-amounts-${ROWS}.csv`)
  const file4 = join(DATA_DIR, `energy-amounts-${ROWS * 4}.csv`)
  await generate(file, ROWS)
  await generate(file4, ROWS * 4)
  const mapping = join(ROOT, "examples/mappings/energy-amounts.mapping.json")
  process.stderr.write(`map: ${count(ROWS)} rows, ${mb(statSync(file).size)}\n`)
  // Each run writes its output to a file, as `map … > payloads.ndjson` does: a pipe into this process
  // would make the benchmark read and keep every byte, on the same two cores as the run it measures.
  const intoFile = async (name, command, args, okCodes = [0]) => {
    const fd = openSync(join(DATA_DIR, name), "w")
    try {
      return await measure(command, args, { okCodes, stdout: fd })
    } finally {
      closeSync(fd)
    }
  }
  // Exit code 1: some rows were rejected, as the export has some to reject.
  const map = (out, args, path, node = []) => intoFile(out, process.execPath, [...node, CLI, "map", ...args, "-m", mapping, path], [0, 1])

  const { a, b, c } = await interleaved({
    a: ["(a) csv-parse + stringify", () => intoFile("out-a.ndjson", process.execPath, [join(ROOT, "bench/csv-baseline.mjs"), file])],
    b: ["(b) map --jobs 1", () => map("out-b.ndjson", ["--jobs", "1"], file)],
    c: ["(c) map --jobs 2", () => map("out-c.ndjson", ["--jobs", "2"], file)]
  })
  const payloads = await linesOf(join(DATA_DIR, "out-c.ndjson"))
  const d = await repeated("(d) map --jobs 1, 4× the rows", () => map("out-d.ndjson", ["--jobs", "1"], file4))
  const e1 = await repeated("(e) map --jobs 1 --allow-duplicates, 1×", () => map("out-e.ndjson", ["--jobs", "1", "--allow-duplicates"], file))
  const e4 = await repeated("(e) map --jobs 1 --allow-duplicates, 4×", () => map("out-e.ndjson", ["--jobs", "1", "--allow-duplicates"], file4))
  const f = await repeated("(f) map --jobs 1 --allow-duplicates, 4×, --max-old-space-size=48", () => map("out-f.ndjson", ["--jobs", "1", "--allow-duplicates"], file4, ["--max-old-space-size=48"]))
  for (const [name, r, rows] of [["b", b, ROWS], ["c", c, ROWS], ["d", d, 4 * ROWS]]) {
    const read = /(\d[\d,]*) rows? read/u.exec(r.stderr)?.[1]?.replaceAll(",", "")
    if (Number(read) !== rows) throw new Error(`(${name}) read ${read} rows, not ${rows}`)
  }
  const rejected = /\+ (\d[\d,]*) rejected/u.exec(c.stderr)?.[1] ?? "?"
  const rate = (r) => (ROWS * 1000) / r.ms
  return { rows: ROWS, size: statSync(file).size, size4: statSync(file4).size, a, b, c, d, e1, e4, f, payloads, rejected, rates: { a: rate(a), b: rate(b), c: rate(c) } }
}

/** This part's own table (markdown). */
export const mapTable = (m) => `map: ${count(m.rows)} CSV rows (${mb(m.size)}), Node ${process.version}, median of ${REPEATS} runs, rows/s

| (a) csv-parse + stringify | (b) map --jobs 1 | (c) map --jobs 2 | b/a | c/a | peak RSS a / b / c |
|---:|---:|---:|---:|---:|---:|
| ${count(m.rates.a)} | ${count(m.rates.b)} | ${count(m.rates.c)} | ${(m.rates.b / m.rates.a).toFixed(2)} | ${(m.rates.c / m.rates.a).toFixed(2)} | ${mb(m.a.peakRss)} / ${mb(m.b.peakRss)} / ${mb(m.c.peakRss)} |

${count(m.payloads)} payloads written; rows rejected: ${m.rejected} (readings that start in the hour skipped by the spring clock change).

Streaming memory, peak RSS of map --jobs 1 at 1× (${mb(m.size)}) and 4× (${mb(m.size4)}) the rows:
  with the duplicate check's hash per payload: ${mb(m.b.peakRss)} → ${mb(m.d.peakRss)} (ratio ${(m.d.peakRss / m.b.peakRss).toFixed(2)})
  --allow-duplicates (streaming alone):        ${mb(m.e1.peakRss)} → ${mb(m.e4.peakRss)} (ratio ${(m.e4.peakRss / m.e1.peakRss).toFixed(2)})
  --allow-duplicates at 4× with V8's old space capped at 48 MB: completed, peak RSS ${mb(m.f.peakRss)}`

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(`\n${mapTable(await benchMap())}`)
