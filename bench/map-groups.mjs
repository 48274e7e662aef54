// Benchmark of `data-import map` with groupBy on an export whose groups are not in order: part of
// `npm run bench` (bench/run.mjs); `node bench/map-groups.mjs` after a build prints this part's own table.
//
// Generates BENCH_GROUP_ROWS (default 1,000,000) rows of a legacy notes export (as
// examples/mappings/notes.csv: `;`-separated, Berlin wall times; 1 to 19 notes an account, 10 on
// average) and maps it with examples/mappings/notes.mapping.json (groupBy Kundennummer) three ways, in
// turns, one run of each per round, median of BENCH_REPEATS rounds:
//   (a) the export sorted by account
//   (b) the same rows with every tenth row of an account (never its first) moved to the end of the file,
//       as late bookings appended to an export are: its payloads must be byte for byte those of (a),
//       which is (b) sorted by account with the accounts in the order of their first row
//   (c) the same rows in a random order (the worst case for the sort; its own payloads)
// Goals: (b) and (c) at ≥ 0.5× the rows/s of (a), peak RSS of (b) and (c) under 300 MB.
import { closeSync, createReadStream, existsSync, openSync, statSync } from "node:fs"
import { createHash } from "node:crypto"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { CLI, count, DATA_DIR, interleaved, mb, measure, random, REPEATS, ROOT, writeLines } from "./lib.mjs"

const ROWS = Number(process.env.BENCH_GROUP_ROWS ?? 1_000_000)
const HEADER = "Kundennummer;Erstellt;Text;Anhang;Angeheftet"
const pad = (n, w = 2) => String(n).padStart(w, "0")

/** The rows in account order, each with its account and whether it is one of the late ones. */
const rowsInOrder = () => {
  const rows = []
  for (let account = 0; rows.length < ROWS; account++) {
    const notes = 1 + ((account * 7919) % 19)
    for (let k = 0; k < notes && rows.length < ROWS; k++) {
      const i = rows.length
      const text = `KD-${pad(account, 8)};${pad(1 + (i % 28))}.${pad(1 + (i % 12))}.2024 ${pad(8 + (k % 10))}:${pad(i % 60)};Notiz ${i} zum Konto;${i % 5 === 0 ? `notes/KD-${pad(account, 8)}/${i}.pdf` : ""};${i % 3 === 0 ? "J" : "N"}`
      rows.push({ text, late: k > 0 && i % 10 === 3 })
    }
  }
  return rows
}

const generate = async (paths) => {
  if (Object.values(paths).every((p) => existsSync(p)) && process.env.BENCH_REGENERATE === undefined) return
  const rows = rowsInOrder()
  // (a): each account's rows in place, then its late ones; (b): the late ones of every account at the end.
  const sorted = []
  let account = []
  const flush = () => {
    sorted.push(...account.filter((r) => !r.late), ...account.filter((r) => r.late))
    account = []
  }
  rows.forEach((r, i) => {
    if (i > 0 && r.text.slice(0, 11) !== rows[i - 1].text.slice(0, 11)) flush()
    account.push(r)
  })
  flush()
  const appended = [...rows.filter((r) => !r.late), ...rows.filter((r) => r.late)]
  const rnd = random(5)
  const shuffled = [...rows]
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1))
    ;[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]]
  }
  await writeLines(paths.a, ROWS, (i) => sorted[i].text, HEADER)
  await writeLines(paths.b, ROWS, (i) => appended[i].text, HEADER)
  await writeLines(paths.c, ROWS, (i) => shuffled[i].text, HEADER)
}

const digestOf = async (path) => {
  const hash = createHash("sha256")
  for await (const chunk of createReadStream(path)) hash.update(chunk)
  return hash.digest("hex")
}

/** Runs the benchmark; returns its measurements (rows/s, peak RSS). */
export const benchMapGroups = async () => {
  const paths = { a: join(DATA_DIR, `notes-sorted-${ROWS}.csv`), b: join(DATA_DIR, `notes-appended-${ROWS}.csv`), c: join(DATA_DIR, `notes-shuffled-${ROWS}.csv`) }
  await generate(paths)
  const mapping = join(ROOT, "examples/mappings/notes.mapping.json")
  process.stderr.write(`map with groupBy: ${count(ROWS)} rows, ${mb(statSync(paths.a).size)}\n`)
  const map = async (key) => {
    const fd = openSync(join(DATA_DIR, `out-g${key}.ndjson`), "w")
    try {
      return await measure(process.execPath, [CLI, "map", "-m", mapping, "--lineage", join(DATA_DIR, `out-g${key}.lineage`), paths[key]], { stdout: fd })
    } finally {
      closeSync(fd)
    }
  }
  const runs = await interleaved({
    a: ["(a) map groupBy, sorted", () => map("a")],
    b: ["(b) map groupBy, late rows appended", () => map("b")],
    c: ["(c) map groupBy, shuffled", () => map("c")]
  })
  for (const [key, r] of Object.entries(runs)) {
    const summary = /(\d[\d,]*) rows? read = (\d[\d,]*) in/u.exec(r.stderr)
    if (summary === null || summary[1] !== summary[2] || Number(summary[1].replaceAll(",", "")) !== ROWS) throw new Error(`(${key}) did not map every row: ${r.stderr}`)
  }
  const [a, b] = await Promise.all([digestOf(join(DATA_DIR, "out-ga.ndjson")), digestOf(join(DATA_DIR, "out-gb.ndjson"))])
  if (a !== b) throw new Error("(b) did not write the payloads of (a)")
  const payloads = /in (\d[\d,]*) payloads/u.exec(runs.a.stderr)?.[1] ?? "?"
  const rate = (r) => (ROWS * 1000) / r.ms
  return { rows: ROWS, size: statSync(paths.a).size, payloads, ...runs, rates: { a: rate(runs.a), b: rate(runs.b), c: rate(runs.c) } }
}

/** This part's own table (markdown). */
export const mapGroupsTable = (g) => `map with groupBy: ${count(g.rows)} CSV rows of notes (${mb(g.size)}), ${g.payloads} payloads, Node ${process.version}, median of ${REPEATS} runs, rows/s

| (a) sorted | (b) late rows appended | (c) shuffled | b/a | c/a | peak RSS a / b / c |
|---:|---:|---:|---:|---:|---:|
| ${count(g.rates.a)} | ${count(g.rates.b)} | ${count(g.rates.c)} | ${(g.rates.b / g.rates.a).toFixed(2)} | ${(g.rates.c / g.rates.a).toFixed(2)} | ${mb(g.a.peakRss)} / ${mb(g.b.peakRss)} / ${mb(g.c.peakRss)} |

(b) wrote the payloads of (a), byte for byte.`

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(`\n${mapGroupsTable(await benchMapGroups())}`)
