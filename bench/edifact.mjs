// Benchmark of the EDIFACT reader and of `data-import map` of MSCONS (see bench/README.md, "edifact.mjs").
// Part of `npm run bench` (bench/run.mjs, which builds first); `node bench/edifact.mjs` after a build
// prints this part's own table.
//
// Generates an MSCONS interchange from the real German sample (test/fixtures/market-messages, two
// messages of 2,972 quarter-hour quantities each), its messages repeated BENCH_EDIFACT_COPIES times
// (default 100: 43 MB, 200 messages, 594,400 quantities), each copy with its own message references
// and document numbers so that no payload repeats. Measures, each run a process of its own reading the
// file in its stream's chunks, in turns (one run of each per round, BENCH_REPEATS rounds), the median:
//   (a)  npm edifact's Parser, each segment built from its events (tag, elements, components)
//   (a0) npm edifact's Parser, segments counted from its events, nothing built
//   (b)  our reader: SegmentScanner, segments with elements, byte offset, segment number and raw text
//   (b1) readSegments: (b) through an async generator, one step per segment
//   (b2) readMessages: (b) with the UNB/UNZ and UNH/UNT envelopes checked, a message at a time
//   (b3) readEdifactRecords with the options map gives it for the example mapping: the records `map` reads
//   (c)  data-import map --jobs 1 with examples/market-messages/mscons-energy-amounts.mapping.json
//        (the account of each MaLo from its table), payloads to a file: the built CLI, startup included
//   (c2) the same with --jobs 2 (the default on two cores): the main thread reads, two workers map
// The reader is not part of the library's entry point: it is built here from src/readers/edifact/ with
// esbuild (the bundler tsup runs for dist/), into BENCH_DIR.
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { gunzipSync } from "node:zlib"
import { build } from "esbuild"
import { CLI, count, DATA_DIR, interleaved, mb, measure, REPEATS, ROOT } from "./lib.mjs"

const COPIES = Number(process.env.BENCH_EDIFACT_COPIES ?? 100)
const MAPPING = join(ROOT, "examples/market-messages/mscons-energy-amounts.mapping.json")

/** The sample's messages `copies` times in one interchange, each copy with its own references and year (also bench/map-many-files.mjs). */
export const generate = (path, copies) => {
  if (existsSync(path) && process.env.BENCH_REGENERATE === undefined) return
  // A redispatch interchange (PID 13022), which the example reader file skips: measured as the load profile (13025) it is laid out like.
  const sample = gunzipSync(readFileSync(join(ROOT, "test/fixtures/market-messages/de-2024-redispatch-2.4b-two-malos.edi.gz"))).toString("latin1").replaceAll("RFF+Z13:13022'", "RFF+Z13:13025'")
  const head = sample.slice(0, sample.indexOf("UNH+"))
  const body = sample.slice(sample.indexOf("UNH+"), sample.indexOf("UNZ+"))
  const parts = [head]
  for (let i = 0; i < copies; i++) {
    parts.push(body
      .replace(/(UNH\+|UNT\+\d+\+)([12])([+'])/gu, (_, before, m, after) => `${before}${2 * i + Number(m)}${after}`)
      .replaceAll("E-121808993A-", `E-121808993A-${i + 1}-`)
      // Each copy in a year of its own: the same quarter-hours again would be versions of one value, and
      // the example reader file keeps only the latest of them. UTC instants, so no clock change moves.
      .replace(/(DTM\+16[34]:)2022/gu, (_, tag) => `${tag}${2022 + i}`))
  }
  parts.push(`UNZ+${2 * copies}+E-121808993A'`)
  writeFileSync(path, parts.join(""), "latin1")
}

/** Builds the reader (and edifactReadingOptions) from the sources into DATA_DIR; returns the module's path. */
export const buildReader = async () => {
  const outdir = join(DATA_DIR, "edifact-reader")
  await build({
    stdin: {
      contents: [
        "export { SegmentScanner, readSegments } from './src/readers/edifact/segments.ts'",
        "export { readMessages } from './src/readers/edifact/messages.ts'",
        "export { readEdifactRecords } from './src/readers/edifact/records.ts'",
        "export { edifactReadingOptions } from './src/readers/edifact/edifact-source.ts'"
      ].join("\n"),
      resolveDir: ROOT,
      loader: "ts"
    },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    outfile: join(outdir, "reader.mjs"),
    external: ["effect", "date-fns", "@date-fns/tz", "fast-check", "commander", "csv-parse"],
    logLevel: "warning"
  })
  return join(outdir, "reader.mjs")
}

/**
 * Writes the options `map` gives the record reader for `mapping` (with its reader file: the same cells,
 * zone and checks) to a file in DATA_DIR, for the baselines of the reader alone; returns its path.
 */
export const readerOptionsFile = async (reader, mapping) => {
  const { edifactReadingOptions } = await import(pathToFileURL(reader).href)
  const parsed = JSON.parse(readFileSync(mapping, "utf8"))
  const readerFile = JSON.parse(readFileSync(join(dirname(mapping), parsed.reader), "utf8"))
  const file = join(DATA_DIR, "edifact-reader-options.json")
  writeFileSync(file, JSON.stringify(edifactReadingOptions(parsed, readerFile)))
  return file
}

/** Runs the whole EDIFACT benchmark; returns its measurements. */
export const benchEdifact = async () => {
  const file = join(DATA_DIR, `mscons-${COPIES}.edi`)
  generate(file, COPIES)
  const size = statSync(file).size
  const reader = await buildReader()
  const optionsFile = await readerOptionsFile(reader, MAPPING)
  process.stderr.write(`edifact: ${COPIES} copies of the sample's messages, ${mb(size)}\n`)
  const node = (script, args) => () => measure(process.execPath, [join(ROOT, "bench", script), ...args])
  const ours = (mode) => node("edifact-ours.mjs", [reader, file, mode, optionsFile])
  const map = (jobs) => async () => {
    const fd = openSync(join(DATA_DIR, `out-edifact-${jobs}.ndjson`), "w")
    try {
      return await measure(process.execPath, [CLI, "map", "--jobs", String(jobs), "-m", MAPPING, file], { stdout: fd, okCodes: [0, 1] })
    } finally {
      closeSync(fd)
    }
  }
  const runs = await interleaved({
    a: ["(a) edifact Parser, segments built", node("edifact-npm.mjs", [file, "segments"])],
    a0: ["(a0) edifact Parser, events counted", node("edifact-npm.mjs", [file, "events"])],
    b: ["(b) SegmentScanner", ours("scanner")],
    b1: ["(b1) readSegments", ours("segments")],
    b2: ["(b2) readMessages", ours("messages")],
    b3: ["(b3) readEdifactRecords", ours("records")],
    c: ["(c) map --jobs 1", map(1)],
    c2: ["(c2) map --jobs 2", map(2)]
  })
  // Every run must have read everything: the same segments (ours count the UNA, edifact's parser does
  // not), a record per quantity, a payload per record.
  const segments = Number(runs.b.stdout)
  const quantities = COPIES * 2 * 2972
  const expect = (name, actual, expected) => {
    if (actual !== expected) throw new Error(`${name}: ${actual}, not ${expected}`)
  }
  expect("(a) segments", Number(runs.a.stdout) + 1, segments)
  expect("(a0) segments", Number(runs.a0.stdout) + 1, segments)
  expect("(b1) segments", Number(runs.b1.stdout), segments)
  expect("(b2) segments in messages", Number(runs.b2.stdout), segments - 3)
  expect("(b3) records", Number(runs.b3.stdout), quantities)
  for (const key of ["c", "c2"]) {
    const summary = /([\d,]+) rows read = ([\d,]+) in ([\d,]+) payloads/u.exec(runs[key].stderr)
    expect(`(${key}) rows read, in payloads`, `${summary?.[1]} ${summary?.[2]}`, `${count(quantities)} ${count(quantities)}`)
  }
  const rate = (r) => size / 1e6 / (r.ms / 1000)
  return { copies: COPIES, size, segments, quantities, runs, rates: Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, rate(r)])) }
}

/** The ratios this part is judged by (the goals of the issue "Legacy market data as mapping sources"). */
export const edifactRows = (e) => [
  { name: "EDIFACT: our reader (SegmentScanner) vs edifact's Parser building segments", measured: e.rates.b / e.rates.a, goal: 1.0, at: "least" },
  { name: "EDIFACT: map --jobs 1 of MSCONS vs our reader (SegmentScanner)", measured: e.rates.c / e.rates.b, goal: 0.5, at: "least" },
  { name: "EDIFACT: map --jobs 2 of MSCONS vs our reader (SegmentScanner)", measured: e.rates.c2 / e.rates.b, goal: 0.5, at: "least" }
]

/** This part's own table (markdown). */
export const edifactTable = (e) => {
  const line = (key, label) => `| ${label} | ${e.rates[key].toFixed(1)} | ${(e.runs[key].ms / 1000).toFixed(2)} s | ${(e.rates[key] / e.rates.a).toFixed(2)} | ${(e.rates[key] / e.rates.b).toFixed(2)} | ${mb(e.runs[key].peakRss)} |`
  return `edifact: MSCONS of ${mb(e.size)} (${count(e.segments)} segments, ${count(e.quantities)} quantities), Node ${process.version}, median of ${REPEATS} runs, each a process of its own

| | MB/s | time | vs (a) | vs (b) | peak RSS |
|---|---:|---:|---:|---:|---:|
${line("a", "(a) edifact Parser, segments built")}
${line("a0", "(a0) edifact Parser, events counted only")}
${line("b", "(b) our reader: SegmentScanner")}
${line("b1", "(b1) readSegments (async, per segment)")}
${line("b2", "(b2) readMessages (envelopes checked)")}
${line("b3", "(b3) readEdifactRecords (the mapping's cells)")}
${line("c", "(c) data-import map --jobs 1 (payloads)")}
${line("c2", "(c2) data-import map --jobs 2 (payloads)")}`
}

const ratioTable = (rows) => {
  const shown = (r) => Number(r.measured.toFixed(2))
  const pass = (r) => (r.at === "least" ? shown(r) >= r.goal : shown(r) < r.goal)
  return `| measurement | measured | goal | |
|---|---:|---:|---|
${rows.map((r) => `| ${r.name} | ${r.measured.toFixed(2)}× | ${r.at === "least" ? "≥" : "<"} ${r.goal.toFixed(2)}× | ${pass(r) ? "pass" : "FAIL"} |`).join("\n")}`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const e = await benchEdifact()
  console.log(`\n${ratioTable(edifactRows(e))}\n\n${edifactTable(e)}`)
}
