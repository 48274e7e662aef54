// Hostile inputs against the limit of 1 GB peak RSS and 30 s (or a clear refusal sooner): a report of 20
// rejected rows with a 10 MB cell each, 200 MB of EDIFACT without a segment terminator, a 100 MB CSV whose
// lines end in CR alone, and validate --documents over a folder with links to /usr, /etc and /. Each input
// is generated in a temp dir; the built CLI runs as a child under /usr/bin/time -v, which gives its peak RSS.
// Run after a build: `node bench/hostile-inputs.mjs` (or within `npm run bench`).
import { spawnSync } from "node:child_process"
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CLI, ROOT } from "./lib.mjs"

const LIMIT_RSS = 1024 ** 3
const LIMIT_SECONDS = 30
const MB = 1024 * 1024

/** Runs the built CLI under /usr/bin/time -v: exit code, seconds, peak RSS in bytes, the first stderr line. */
const measure = (args) => {
  const started = process.hrtime.bigint()
  const run = spawnSync("/usr/bin/time", ["-v", process.execPath, CLI, ...args], { encoding: "utf8", maxBuffer: 512 * MB, cwd: ROOT })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const kb = /Maximum resident set size \(kbytes\): (\d+)/u.exec(run.stderr)
  const said = run.stderr.split("\n").find((l) => l.startsWith("data-import") || l.includes(": ")) ?? ""
  return { code: run.status, seconds, peakRss: kb === null ? NaN : Number(kb[1]) * 1024, said: said.slice(0, 120) }
}

/** Writes `count` pieces made by `piece(i)` to `path` without holding them all. */
const writePieces = (path, count, piece) => {
  const fd = openSync(path, "w")
  for (let i = 0; i < count; i++) writeSync(fd, piece(i))
  closeSync(fd)
}

export const benchHostile = () => {
  const dir = mkdtempSync(join(tmpdir(), "data-import-hostile-"))
  try {
    const results = []
    // 7: 20 rejected rows, each with a markup-dense cell of 10 MB, in a ledger; then its reports.
    const notes = join(ROOT, "examples", "mappings", "notes.mapping.json")
    const csv = join(dir, "long-cells.csv")
    const cell = Buffer.alloc(10 * MB, "<&>\"")
    writePieces(csv, 21, (i) => (i === 0 ? "Kundennummer;Erstellt;Text;Anhang;Angeheftet;Zusatz\n" : Buffer.concat([Buffer.from(`KD-${i};01.02.2024 10:00;;;N;`), cell, Buffer.from("\n")])))
    const ledger = join(dir, "campaign.ledger")
    results.push({ name: "map --journal, 20 rows with a 10 MB cell (rejected)", ...measure(["map", "-m", notes, "--journal", ledger, "-o", join(dir, "notes.ndjson"), "-r", join(dir, "rejects.ndjson"), csv]) })
    for (const format of ["html", "json", "text", "markdown"]) {
      results.push({ name: `report --format ${format} of those 20 rows`, ...measure(["report", "--journal", ledger, "--format", format, "--out", join(dir, `report.${format}`)]) })
    }
    rmSync(csv)
    // 8: 200 MB of EDIFACT without a segment terminator.
    const mscons = join(ROOT, "examples", "market-messages", "mscons-energy-amounts.mapping.json")
    const edi = join(dir, "no-terminator.edi")
    const block = Buffer.alloc(MB, "QTY+220:4")
    writePieces(edi, 201, (i) => (i === 0 ? "UNA:+.? 'UNB+UNOC:3+4041407000008:14+9903100000006:500+240202:1250+X'UNH+1+MSCONS:D:04B:UN:2.4b'" : block))
    results.push({ name: "map of 200 MB of EDIFACT without a terminator", ...measure(["map", "-m", mscons, "-o", join(dir, "edi.ndjson"), "-r", join(dir, "edi.rejects.ndjson"), edi]) })
    rmSync(edi)
    // 9: a 100 MB CSV whose lines end in CR alone.
    const cr = join(dir, "cr-only.csv")
    const rows = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `KD-${i};01.02.2024 10:00;Notiz ${i};;N\r`).join(""))
    writePieces(cr, Math.ceil((100 * MB) / rows.length) + 1, (i) => (i === 0 ? "Kundennummer;Erstellt;Text;Anhang;Angeheftet\r" : rows))
    results.push({ name: "map of a 100 MB CSV with CR-only line ends", ...measure(["map", "-m", notes, cr]) })
    rmSync(cr)
    // 10: validate --documents over a folder with links out of it.
    const documents = join(dir, "documents")
    mkdirSync(join(documents, "notes"), { recursive: true })
    writeFileSync(join(documents, "notes", "a.pdf"), "%PDF-1.4\n")
    for (const [name, target] of [["usr", "/usr"], ["etc", "/etc"], ["root", "/"], ["loop", "."]]) symlinkSync(target, join(documents, name))
    const records = join(dir, "records.ndjson")
    writeFileSync(records, readExample("notes"))
    results.push({ name: "validate --documents DIR (links to /usr, /etc, / and DIR)", ...measure(["validate", records, "--documents", documents]) })
    return results
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const readExample = (id) => `${JSON.stringify(JSON.parse(spawnSync("cat", [join(ROOT, "examples", "payloads", `${id}.json`)], { encoding: "utf8" }).stdout))}\n`

export const hostileTable = (results) => {
  const rows = results.map((r) => {
    const ok = r.peakRss < LIMIT_RSS && r.seconds < LIMIT_SECONDS
    return `| ${r.name} | ${r.code} | ${r.seconds.toFixed(1)} s | ${Math.round(r.peakRss / MB)} MB | ${ok ? "pass" : "FAIL"} | ${r.said.replaceAll("|", "\\|")} |`
  })
  return `Hostile inputs, against ${LIMIT_SECONDS} s and ${LIMIT_RSS / MB} MB peak RSS each

| input | exit | time | peak RSS | | first line on stderr |
|---|---:|---:|---:|---|---|
${rows.join("\n")}`
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(hostileTable(benchHostile()))
