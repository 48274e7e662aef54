// Benchmark of `data-import validate`: part of `npm run bench` (bench/run.mjs, which builds first and
// prints one table of ratios); `node bench/validate.mjs` after a build prints this part's own table.
//
// Generates an NDJSON file of energy-amount payloads (BENCH_RECORDS, default 500,000) twice, all valid
// and with 10% broken, and measures in one run:
//   (a) read + split + JSON.parse only            bench/parse-only.mjs
//   (b) data-import validate --jobs 1
//   (c) a plain Node script with ajv on toJsonSchema  bench/ajv.mjs
//   (d) data-import validate --jobs 2
// then peak RSS of (d) on the valid file and on that file four times over (flat in file size?).
// Each figure is the median of BENCH_REPEATS runs (default 3), (a) to (d) run in turns; peak RSS is the highest seen.
import { copyFileSync, createReadStream, createWriteStream, existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { pipeline } from "node:stream/promises"
import { CLI, count, DATA_DIR, interleaved, mb, measure, random, REPEATS, ROOT, writeLines } from "./lib.mjs"

const RECORDS = Number(process.env.BENCH_RECORDS ?? 500_000)
const example = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(join(ROOT, "examples/payloads/energy-amount.json"), "utf8")))

const pad = (n, w = 2) => String(n).padStart(w, "0")
const DAY = 86_400_000

/** The i-th payload: a month or a day of readings of one of many MaLos, valid. */
const payload = (i, rnd) => {
  const start = new Date(Date.UTC(2019, 0, 1) + Math.floor(rnd() * 2000) * DAY)
  const end = new Date(start.getTime() + (1 + Math.floor(rnd() * 30)) * DAY - 1000)
  const iso = (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`
  return {
    ...example,
    external_account_number: `KD-${pad(i, 8)}`,
    energy_amount: {
      ...example.energy_amount,
      malo_number: String(51238696781 + i),
      period_start_at: iso(start),
      period_end_at: iso(end),
      quantity: (rnd() * 5000).toFixed(1 + (i % 4)),
      line_item_identifier: `A${i % 97}`,
      preceding_reference: `EM-${pad(i, 9)}`,
      edifact_reference_number: `MSCONS-${pad(i % 1_000_000, 6)}-${pad(i % 1000, 6)}`
    }
  }
}

/** Ways a record is broken in the "10% broken" file, in turn. */
const BREAKS = [
  (p) => ({ ...p, energy_amount: { ...p.energy_amount, quantity: p.energy_amount.quantity.replace(".", ",") } }),
  (p) => ({ ...p, energy_amount: { ...p.energy_amount, zaehlernummer: "1ESY1160512345" } }),
  (p) => {
    const { malo_number: _, ...rest } = p.energy_amount
    return { ...p, energy_amount: rest }
  },
  (p) => ({ ...p, energy_amount: { ...p.energy_amount, period_start_at: p.energy_amount.period_start_at.replace("Z", "") } }),
  (p) => ({ ...p, energy_amount: { ...p.energy_amount, period_start_at: p.energy_amount.period_end_at, period_end_at: p.energy_amount.period_start_at } }),
  (p) => ({ ...p, import_supplier: "" })
]

const generate = async (name, brokenEvery) => {
  const path = join(DATA_DIR, name)
  if (existsSync(path) && process.env.BENCH_REGENERATE === undefined) return path
  const rnd = random(42)
  let broken = 0
  await writeLines(path, RECORDS, (i) => {
    const p = payload(i, rnd)
    return JSON.stringify(brokenEvery > 0 && i % brokenEvery === brokenEvery - 1 ? BREAKS[broken++ % BREAKS.length](p) : p)
  })
  return path
}

const rate = (records, ms) => (records * 1000) / ms

const run = async (label, file) => {
  const size = statSync(file).size
  process.stderr.write(`${label}: ${count(RECORDS)} records, ${mb(size)}\n`)
  // In turns, one run of each per round: the ratios compare runs made under the same conditions.
  const { a, b, c, d } = await interleaved({
    a: ["(a) parse only", () => measure(process.execPath, [join(ROOT, "bench/parse-only.mjs"), file])],
    b: ["(b) validate --jobs 1", () => measure(process.execPath, [CLI, "validate", "--jobs", "1", "--format", "json", "--max-errors", "0", file], { okCodes: [0, 1] })],
    c: ["(c) ajv", () => measure(process.execPath, [join(ROOT, "bench/ajv.mjs"), file])],
    d: ["(d) validate --jobs 2", () => measure(process.execPath, [CLI, "validate", "--jobs", "2", "--format", "json", "--max-errors", "0", file], { okCodes: [0, 1] })]
  })
  for (const [name, result] of [["a", a], ["b", b], ["c", c], ["d", d]]) {
    const records = JSON.parse(result.stdout).totals?.records ?? JSON.parse(result.stdout).records
    if (records !== RECORDS) throw new Error(`(${name}) counted ${records} records, not ${RECORDS}`)
  }
  const totals = JSON.parse(b.stdout).totals
  return { label, size, a, b, c, d, totals }
}

/** Runs the whole validate benchmark; returns its measurements (records/s, ratios, peak RSS). */
export const benchValidate = async () => {
  const valid = await run("all valid", await generate(`energy-amount-${RECORDS}.ndjson`, 0))
  const broken = await run("10% broken", await generate(`energy-amount-${RECORDS}-broken.ndjson`, 10))

  // Peak RSS against file size: the valid file, and the same four times over.
  const single = join(DATA_DIR, `energy-amount-${RECORDS}.ndjson`)
  const quadruple = join(DATA_DIR, `energy-amount-${RECORDS}-x4.ndjson`)
  if (!existsSync(quadruple) || process.env.BENCH_REGENERATE !== undefined) {
    copyFileSync(single, quadruple)
    for (let i = 0; i < 3; i++) await pipeline(createReadStream(single), createWriteStream(quadruple, { flags: "a" }))
  }
  process.stderr.write(`RSS: --jobs 2 on ${mb(statSync(quadruple).size)}\n`)
  const big = await measure(process.execPath, [CLI, "validate", "--jobs", "2", "--format", "json", "--max-errors", "0", quadruple])
  if (JSON.parse(big.stdout).totals.records !== 4 * RECORDS) throw new Error(`the 4× file counted ${JSON.parse(big.stdout).totals.records} records`)
  const rates = (r) => Object.fromEntries(["a", "b", "c", "d"].map((k) => [k, rate(RECORDS, r[k].ms)]))
  return { records: RECORDS, size: valid.size, bigSize: statSync(quadruple).size, valid, broken, rates: { valid: rates(valid), broken: rates(broken) }, big }
}

/** This part's own table (markdown). */
export const validateTable = (v) => {
  const row = (r, k) => {
    const { a, b, c, d } = v.rates[k]
    return `| ${r.label} | ${count(a)} | ${count(b)} | ${count(c)} | ${count(d)} | ${(b / a).toFixed(2)} | ${(b / c).toFixed(2)} | ${(d / b).toFixed(2)} | ${mb(r.b.peakRss)} / ${mb(r.d.peakRss)} |`
  }
  return `validate: ${count(v.records)} energy-amount payloads per file (${mb(v.size)}), Node ${process.version}, median of ${REPEATS} runs, records/s

| data | (a) parse only | (b) --jobs 1 | (c) ajv | (d) --jobs 2 | b/a | b/c | d/b | peak RSS b / d |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${row(v.valid, "valid")}
${row(v.broken, "broken")}

10% broken: ${count(v.broken.totals.invalid)} invalid records found, as generated.
Peak RSS of --jobs 2: ${mb(v.valid.d.peakRss)} on ${mb(v.size)}, ${mb(v.big.peakRss)} on ${mb(v.bigSize)} (${count(4 * v.records)} records).`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(`\n${validateTable(await benchValidate())}`)
