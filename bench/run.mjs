// `npm run bench`: builds (in the npm script), runs bench/validate.mjs, bench/map.mjs, bench/map-groups.mjs, bench/edifact.mjs
// and bench/map-many-files.mjs,
// and prints one table of ratios, each against its goal, then the parts' own tables. Ratios compare runs of the
// same benchmark run on the same machine, never figures from elsewhere.
import { loadavg } from "node:os"
import { REPEATS } from "./lib.mjs"
import { benchEdifact, edifactRows, edifactTable } from "./edifact.mjs"
import { benchMap, mapTable } from "./map.mjs"
import { benchMapGroups, mapGroupsTable } from "./map-groups.mjs"
import { benchMapManyFiles, mapManyFilesRows, mapManyFilesTable } from "./map-many-files.mjs"
import { benchValidate, validateTable } from "./validate.mjs"
import { benchHostile, hostileTable } from "./hostile-inputs.mjs"

const load = () => loadavg().map((l) => l.toFixed(2)).join(", ")
const loadBefore = load()
const started = new Date()
const v = await benchValidate()
const m = await benchMap()
const g = await benchMapGroups()
const e = await benchEdifact()
const f = await benchMapManyFiles()
const h = benchHostile()

/** Peak RSS may grow by less than this when the input grows fourfold: "flat in file size". */
const FLAT = 1.25
/** Peak RSS of map with groupBy on an unsorted export of 1,000,000 rows must stay under this (MB). */
const GROUPS_RSS_MB = 300

const ratio = (x, unit = "×") => (unit === "×" ? `${x.toFixed(2)}×` : `${Math.round(x)}${unit}`)
const rows = [
  { name: "validate, valid records vs read + JSON.parse only", measured: v.rates.valid.b / v.rates.valid.a, goal: 0.8, at: "least" },
  { name: "validate, 10% broken vs read + JSON.parse only", measured: v.rates.broken.b / v.rates.broken.a, goal: 0.5, at: "least" },
  { name: "validate vs ajv on toJsonSchema (valid records)", measured: v.rates.valid.b / v.rates.valid.c, goal: 1.0, at: "least" },
  { name: "validate --jobs 2 vs --jobs 1 (valid records)", measured: v.rates.valid.d / v.rates.valid.b, goal: 1.4, at: "least" },
  { name: "map --jobs 1 vs csv-parse + JSON.stringify", measured: m.rates.b / m.rates.a, goal: 0.5, at: "least" },
  { name: "map --jobs 2 vs csv-parse + JSON.stringify", measured: m.rates.c / m.rates.a, goal: 0.5, at: "least" },
  { name: `validate --jobs 2 peak RSS, 4× vs 1× the file (${Math.round(v.big.peakRss / 2 ** 20)} / ${Math.round(v.valid.d.peakRss / 2 ** 20)} MB)`, measured: v.big.peakRss / v.valid.d.peakRss, goal: FLAT, at: "most" },
  { name: `map --allow-duplicates peak RSS, 4× vs 1× the rows (${Math.round(m.e4.peakRss / 2 ** 20)} / ${Math.round(m.e1.peakRss / 2 ** 20)} MB)`, measured: m.e4.peakRss / m.e1.peakRss, goal: FLAT, at: "most" },
  { name: "map groupBy, late rows appended vs the sorted export", measured: g.rates.b / g.rates.a, goal: 0.5, at: "least" },
  { name: "map groupBy, shuffled vs the sorted export", measured: g.rates.c / g.rates.a, goal: 0.5, at: "least" },
  { name: "map groupBy, unsorted: peak RSS (the higher of appended and shuffled)", measured: Math.max(g.b.peakRss, g.c.peakRss) / 2 ** 20, goal: GROUPS_RSS_MB, at: "most", unit: " MB" },
  ...edifactRows(e),
  ...mapManyFilesRows(f)
]
// Judged on the ratio as printed (two decimals), so that a row never reads "1.25× < 1.25× pass".
const pass = (r) => {
  const shown = Number(r.measured.toFixed(2))
  return r.at === "least" ? shown >= r.goal : shown < r.goal
}
const table = rows.map((r) => `| ${r.name} | ${ratio(r.measured, r.unit)} | ${r.at === "least" ? "≥" : "<"} ${ratio(r.goal, r.unit)} | ${pass(r) ? "pass" : "FAIL"} |`)

console.log(`
npm run bench, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, median of ${REPEATS} runs; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after

| measurement | measured | goal | |
|---|---:|---:|---|
${table.join("\n")}
| map --allow-duplicates, 4× the rows, V8's old space capped at 48 MB | completed | completes | pass |

${validateTable(v)}

${mapTable(m)}

${mapGroupsTable(g)}

${edifactTable(e)}

${mapManyFilesTable(f)}

${hostileTable(h)}`)
