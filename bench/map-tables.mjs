// Benchmark of `data-import map` with value tables and date-only date-times (a variant of map.mjs):
// `node bench/map-tables.mjs` after a build. BENCH_ROWS (default 200,000) rows of an export of
// meter readings by month whose supplier comes from a Mandant column (an inline table), whose
// qualifier comes from a code in a CSV table file, whose unit from a combination of two columns (a JSON
// table file), and whose periods are date-only cells (time "start" and "next-start"). Median of
// BENCH_REPEATS runs, in turns:
//   (a) csv-parse + JSON.stringify of every row   bench/csv-baseline.mjs
//   (b) data-import map --jobs 1
//   (c) data-import map --jobs 2
import { closeSync, mkdirSync, openSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { CLI, count, DATA_DIR, interleaved, mb, measure, random, REPEATS, ROOT, writeLines } from "./lib.mjs"

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000)
const pad = (n, w = 2) => String(n).padStart(w, "0")

const file = join(DATA_DIR, `monthly-codes-${ROWS}.csv`)
mkdirSync(join(DATA_DIR, "codes"), { recursive: true })
writeFileSync(join(DATA_DIR, "codes", "qualifier.csv"), "Kennz;qualifier\nW;Z18\nE;Z19\nV;Z20\n")
writeFileSync(join(DATA_DIR, "codes", "unit.json"), JSON.stringify({ "1|A": "KWH", "1|B": "KWH", "2|A": "MWH", "2|B": "MWH" }))
const mapping = join(DATA_DIR, "monthly-codes.mapping.json")
writeFileSync(mapping, JSON.stringify({
  endpoint: "energy-amount",
  fields: {
    import_supplier: { column: "Mandant", values: { "1000": "STADTWERKE_NORD", "2000": "STADTWERKE_SUED" } },
    external_account_number: "Kundennummer",
    "energy_amount.malo_number": "MaLo",
    "energy_amount.period_start_at": { column: "Von", convert: "datetime", options: { format: "dd.MM.yyyy", timeZone: "Europe/Berlin", time: "start" } },
    "energy_amount.period_end_at": { column: "Bis", convert: "datetime", options: { format: "dd.MM.yyyy", timeZone: "Europe/Berlin", time: "next-start" } },
    "energy_amount.product_identifier": "OBIS",
    "energy_amount.product_identifier_type": { value: "SRW" },
    "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locale: "de" } },
    "energy_amount.quantity_unit": { columns: ["Skala", "Tarif"], values: { file: "codes/unit.json" } },
    "energy_amount.qualifier": { column: "Kennz", values: { file: "codes/qualifier.csv" } }
  }
}))

const rnd = random(11)
await writeLines(file, ROWS, (i) => {
  // Monthly readings over fifteen years: first and last day of a month.
  const month = Math.floor(rnd() * 180)
  const year = 2010 + Math.floor(month / 12)
  const m = (month % 12) + 1
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate()
  const quantity = (rnd() * 20000).toFixed(3).replace(".", ",")
  return [i % 2 === 0 ? "1000" : "2000", `KD-${pad(i, 8)}`, 51238696781 + i, `01.${pad(m)}.${year}`, `${pad(last)}.${pad(m)}.${year}`, "1-1:1.8.0", quantity, i % 3 === 0 ? "2" : "1", i % 2 === 0 ? "A" : "B", "WEV"[i % 3]].join(";")
}, "Mandant;Kundennummer;MaLo;Von;Bis;OBIS;Menge;Skala;Tarif;Kennz")

const intoFile = async (name, command, args, okCodes = [0]) => {
  const fd = openSync(join(DATA_DIR, name), "w")
  try {
    return await measure(command, args, { okCodes, stdout: fd })
  } finally {
    closeSync(fd)
  }
}
const map = (out, jobs) => intoFile(out, process.execPath, [CLI, "map", "--jobs", jobs, "-m", mapping, file])
process.stderr.write(`map with value tables and date-only periods: ${count(ROWS)} rows, ${mb(statSync(file).size)}\n`)
const { a, b, c } = await interleaved({
  a: ["(a) csv-parse + stringify", () => intoFile("out-ta.ndjson", process.execPath, [join(ROOT, "bench/csv-baseline.mjs"), file])],
  b: ["(b) map --jobs 1", () => map("out-tb.ndjson", "1")],
  c: ["(c) map --jobs 2", () => map("out-tc.ndjson", "2")]
})
for (const [name, r] of [["b", b], ["c", c]]) {
  const summary = /(\d[\d,]*) rows? read = (\d[\d,]*) in/u.exec(r.stderr)
  if (summary === null || summary[1] !== summary[2] || Number(summary[1].replaceAll(",", "")) !== ROWS) throw new Error(`(${name}) did not map every row: ${r.stderr}`)
}
const rate = (r) => (ROWS * 1000) / r.ms
console.log(`
map with value tables and date-only periods: ${count(ROWS)} CSV rows, Node ${process.version}, median of ${REPEATS} runs, rows/s

| (a) csv-parse + stringify | (b) map --jobs 1 | (c) map --jobs 2 | b/a | c/a |
|---:|---:|---:|---:|---:|
| ${count(rate(a))} | ${count(rate(b))} | ${count(rate(c))} | ${(rate(b) / rate(a)).toFixed(2)} | ${(rate(c) / rate(a)).toFixed(2)} |`)
