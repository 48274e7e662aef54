// Benchmark of `data-import map` over an archive of many small MSCONS interchanges, one a file, and over
// the one large MSCONS: part of `npm run bench` (bench/run.mjs, which builds first); `node bench/map-many-files.mjs`
// after a build prints this part's own table. See bench/README.md, "map-many-files.mjs".
//
// Many files: BENCH_MANY_FILES (default 10,000) constructed interchanges of about 5 KB
// (test/support/mscons-archive.ts, which Node 22 runs with its types stripped), given to map as a list
// (--files-from). Measured in turns, one run of each per round (BENCH_REPEATS rounds), the median:
//   (a) the reader alone: readEdifactRecords over every file, with the options map gives it (the same
//       cells, zone and checks)
//   (b) data-import map --jobs 1 --files-from LIST with examples/market-messages/mscons-energy-amounts.mapping.json
//   (c) the same with --jobs 2
// The large MSCONS: the interchange bench/edifact.mjs builds from test/fixtures/market-messages/
// de-2024-redispatch-2.4b-two-malos.edi.gz (BENCH_EDIFACT_COPIES copies of its messages, default 100):
//   (d) the reader plus JSON.stringify of every record, a line each to a file (as map writes its payloads)
//   (e) data-import map --jobs 1, payloads to a file
//   (f) the same with --jobs 2
// Goals (issue "Market data as real archives hold it"): b/a and c/a ≥ 0.5; e/d and f/d ≥ 0.5.
// BENCH_MAPPING: another mapping for (b), (c), (e) and (f), e.g. a copy of the example whose reader file
// has no "versions", to see what the versions cost.
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { CLI, count, DATA_DIR, interleaved, mb, measure, REPEATS, ROOT } from "./lib.mjs"
import { buildReader, generate, readerOptionsFile } from "./edifact.mjs"

const FILES = Number(process.env.BENCH_MANY_FILES ?? 10_000)
const COPIES = Number(process.env.BENCH_EDIFACT_COPIES ?? 100)
const MAPPING = process.env.BENCH_MAPPING ?? join(ROOT, "examples/market-messages/mscons-energy-amounts.mapping.json")

/** The archive: FILES interchanges in a folder of DATA_DIR and the list of their paths; reused when there. */
const archive = async () => {
  const folder = join(DATA_DIR, `mscons-archive-${FILES}`)
  const list = join(DATA_DIR, `mscons-archive-${FILES}.list`)
  if (!existsSync(list) || process.env.BENCH_REGENERATE !== undefined) {
    const { writeMsconsArchive } = await import(pathToFileURL(join(ROOT, "test/support/mscons-archive.ts")).href)
    const files = writeMsconsArchive(folder, { files: FILES })
    writeFileSync(list, `${files.map((f) => f.path).join("\n")}\n`)
  }
  const paths = readFileSync(list, "utf8").split("\n").filter((l) => l !== "")
  return { list, paths, bytes: paths.reduce((sum, p) => sum + statSync(p).size, 0) }
}

/** Runs the benchmark; returns its measurements. */
export const benchMapManyFiles = async () => {
  const { list, paths, bytes } = await archive()
  const big = join(DATA_DIR, `mscons-${COPIES}.edi`)
  generate(big, COPIES)
  const bigList = join(DATA_DIR, `mscons-${COPIES}.list`)
  writeFileSync(bigList, `${big}\n`)
  const reader = await buildReader()
  const optionsFile = await readerOptionsFile(reader, MAPPING)
  process.stderr.write(`map-many-files: ${count(paths.length)} interchanges, ${mb(bytes)}; the large MSCONS ${mb(statSync(big).size)}\n`)
  const intoFile = async (name, args, okCodes = [0]) => {
    const fd = openSync(join(DATA_DIR, name), "w")
    try {
      return await measure(process.execPath, args, { okCodes, stdout: fd })
    } finally {
      closeSync(fd)
    }
  }
  const baseline = (listFile, mode, out) => () => intoFile(out, [join(ROOT, "bench", "edifact-files.mjs"), reader, listFile, mode, optionsFile])
  const map = (jobs, inputs, out) => () => intoFile(out, [CLI, "map", "--jobs", String(jobs), "-m", MAPPING, ...inputs], [0, 1])
  const runs = await interleaved({
    a: ["(a) reader alone, many files", baseline(list, "records", "many-files-reader.txt")],
    b: ["(b) map --jobs 1, many files", map(1, ["--files-from", list], "many-files-1.ndjson")],
    c: ["(c) map --jobs 2, many files", map(2, ["--files-from", list], "many-files-2.ndjson")],
    d: ["(d) reader + JSON.stringify, large MSCONS", baseline(bigList, "records-json", "large-reader.ndjson")],
    e: ["(e) map --jobs 1, large MSCONS", map(1, [big], "large-1.ndjson")],
    f: ["(f) map --jobs 2, large MSCONS", map(2, [big], "large-2.ndjson")]
  })
  // Every run must have read everything: a record per QTY, a payload per record, the same bytes with one job or two.
  const expect = (name, actual, expected) => {
    if (actual !== expected) throw new Error(`${name}: ${actual}, not ${expected}`)
  }
  const quantities = paths.length * 56
  const bigQuantities = COPIES * 2 * 2972
  expect("(a) records", Number(readFileSync(join(DATA_DIR, "many-files-reader.txt"), "utf8")), quantities)
  expect("(d) records", Number(runs.d.stderr), bigQuantities)
  const payloadsOf = (key) => [...runs[key].stderr.matchAll(/rows read = ([\d,]+) in ([\d,]+) payloads/gu)].reduce((sum, m) => sum + Number(m[2].replaceAll(",", "")), 0)
  for (const key of ["b", "c"]) expect(`(${key}) payloads`, payloadsOf(key), quantities)
  for (const key of ["e", "f"]) expect(`(${key}) payloads`, payloadsOf(key), bigQuantities)
  const same = (x, y) => readFileSync(join(DATA_DIR, x)).equals(readFileSync(join(DATA_DIR, y)))
  if (!same("many-files-1.ndjson", "many-files-2.ndjson")) throw new Error("map --jobs 1 and --jobs 2 wrote different payloads for the many files")
  if (!same("large-1.ndjson", "large-2.ndjson")) throw new Error("map --jobs 1 and --jobs 2 wrote different payloads for the large MSCONS")
  return { files: paths.length, bytes, bigBytes: statSync(big).size, quantities, bigQuantities, runs }
}

/** The ratios this part is judged by. */
export const mapManyFilesRows = (m) => [
  { name: `map --jobs 1 of ${count(m.files)} small MSCONS files vs the reader alone`, measured: m.runs.a.ms / m.runs.b.ms, goal: 0.5, at: "least" },
  { name: `map --jobs 2 of ${count(m.files)} small MSCONS files vs the reader alone`, measured: m.runs.a.ms / m.runs.c.ms, goal: 0.5, at: "least" },
  { name: "map --jobs 1 of the large MSCONS vs the reader + JSON.stringify", measured: m.runs.d.ms / m.runs.e.ms, goal: 0.5, at: "least" },
  { name: "map --jobs 2 of the large MSCONS vs the reader + JSON.stringify", measured: m.runs.d.ms / m.runs.f.ms, goal: 0.5, at: "least" }
]

/** This part's own table (markdown). */
export const mapManyFilesTable = (m) => {
  const line = (key, label, base, size) => `| ${label} | ${(m.runs[key].ms / 1000).toFixed(2)} s | ${(size / 1e6 / (m.runs[key].ms / 1000)).toFixed(2)} | ${(m.runs[base].ms / m.runs[key].ms).toFixed(2)} | ${(m.runs[base].fastestMs / m.runs[key].fastestMs).toFixed(2)} | ${mb(m.runs[key].peakRss)} |`
  return `map-many-files: ${count(m.files)} interchanges (${mb(m.bytes)}, ${count(m.quantities)} QTYs) and the large MSCONS (${mb(m.bigBytes)}, ${count(m.bigQuantities)} QTYs), Node ${process.version}, median of ${REPEATS} runs, each a process of its own; also the ratio of the fastest runs

| | time | MB/s | vs its baseline | fastest vs fastest | peak RSS |
|---|---:|---:|---:|---:|---:|
${line("a", "(a) reader alone, many files", "a", m.bytes)}
${line("b", "(b) map --jobs 1, many files", "a", m.bytes)}
${line("c", "(c) map --jobs 2, many files", "a", m.bytes)}
${line("d", "(d) reader + JSON.stringify, large MSCONS", "d", m.bigBytes)}
${line("e", "(e) map --jobs 1, large MSCONS", "d", m.bigBytes)}
${line("f", "(f) map --jobs 2, large MSCONS", "d", m.bigBytes)}`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const m = await benchMapManyFiles()
  const rows = mapManyFilesRows(m)
  console.log(`\n| measurement | measured | goal | |\n|---|---:|---:|---|\n${rows.map((r) => `| ${r.name} | ${r.measured.toFixed(2)}× | ≥ ${r.goal.toFixed(2)}× | ${Number(r.measured.toFixed(2)) >= r.goal ? "pass" : "FAIL"} |`).join("\n")}\n\n${mapManyFilesTable(m)}`)
}
