// `npm run demo` (after a build): the whole path of a migration campaign on the bundled examples, with
// one ledger for every step, the way a migration team runs it on its exports:
//   1. data-import map: each legacy CSV export (examples/mappings: one per POST endpoint) with its mapping,
//      the run, its rejected rows and each payload's source lines recorded in the ledger (--journal);
//   2. data-import validate: the payloads map wrote;
//   3. data-import serve: the reference service, seeded with examples/seed.json (the supplier and the
//      imported accounts the examples name; no market participant: the campaign imports them first);
//   4. data-import send, with the ledger: pre-import data first, in order (market participants, then their
//      fee price sheets and time definitions, which need them), then the post-import data;
//   5. data-import report: the campaign as HTML (a file) and as markdown (on stdout).
// The ledger, payloads and report stay in a temporary folder, printed at the end. Ends with exit code 0
// when every command answered as expected, 1 otherwise.
import { spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { createInterface } from "node:readline"

const root = new URL("../", import.meta.url).pathname
const cli = process.env.DATA_IMPORT_DEMO_CLI ?? join(root, "dist", "cli.js")
const out = mkdtempSync(join(tmpdir(), "data-import-demo-"))
const ledger = join(out, "campaign.ledger")
// A rehearsal token of examples/seed.json, given to send in its environment (never as an argument).
const env = { ...process.env, DATA_IMPORT_TOKEN: "demo-rehearsal-token" }
delete env.DATA_IMPORT_API_KEY // one set in the shell would make send refuse both

let unexpected = 0
const run = (title, args, expected) => {
  console.log(`\n── ${title}\n$ data-import ${args.map((a) => a.replace(out, "$OUT")).join(" ")}\n`)
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: "inherit", env })
  const ok = expected.includes(result.status)
  console.log(`exit code ${result.status}${ok ? "" : `  <- unexpected (expected ${expected.join(" or ")})`}`)
  if (!ok) unexpected++
}

// 1. Map. Three exports hold rows that are wrong on purpose, so map exits 1 for them: a wall time the
// spring clock change skips (energy-amounts), a note without text (notes: that note's row alone; its
// account's other notes go out), a date that does not exist (transactions). Every other export maps whole: 0.
const REJECTS_ON_PURPOSE = new Set(["energy-amounts", "notes", "transactions"])
const PRE_IMPORT = ["market-participants", "market-participant-fees", "market-participant-definitions"]
const exports = readdirSync(join(root, "examples/mappings")).filter((f) => f.endsWith(".csv")).map((f) => basename(f, ".csv")).sort()
const payloads = (name) => join(out, `${name}.ndjson`)
for (const [i, name] of exports.entries()) {
  const csv = `examples/mappings/${name}.csv`
  // The first run starts the campaign's ledger, deliberately (--new-ledger); every later run continues it.
  const journal = ["--journal", ledger, ...(i === 0 ? ["--new-ledger"] : [])]
  run(`Map ${csv}`, ["map", "-m", `examples/mappings/${name}.mapping.json`, "-o", payloads(name), "-r", join(out, `${name}.rejects.ndjson`), ...journal, csv], [REJECTS_ON_PURPOSE.has(name) ? 1 : 0])
}

// 2. Validate: every payload map wrote is valid (0).
run("Validate the payloads", ["validate", "-q", ...exports.map(payloads)], [0])

// 3. Serve: the first line on stdout says where it listens.
const serve = spawn(process.execPath, [cli, "serve", "--seed", "examples/seed.json"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] })
const [first] = await once(createInterface({ input: serve.stdout }), "line")
const baseUrl = /listening on (\S+)/u.exec(first)?.[1]
console.log(`\n── The reference service (examples/seed.json): ${first}`)
serve.stdout.resume()

// 4. Send: every record reaches the service and is stored (0); pre-import first, in order.
const send = (title, names) => run(title, ["send", "--base-url", baseUrl, "--journal", ledger, ...names.map(payloads)], [0])
send("Send the market participants", PRE_IMPORT.slice(0, 1))
send("Send their fee price sheets and time definitions", PRE_IMPORT.slice(1))
send("Send the post-import data", exports.filter((name) => !PRE_IMPORT.includes(name)))

// 5. Report: exit 1, as the ledger holds the rows map rejected on purpose (a campaign with rows to fix).
const html = join(out, "report.html")
run("The campaign report as HTML", ["report", "--journal", ledger, "--format", "html", "--out", html], [1])
run("The campaign report as markdown (a status mail)", ["report", "--journal", ledger, "--format", "markdown"], [1])

serve.kill("SIGTERM")
const [serveCode] = await once(serve, "exit")
if (serveCode !== 0) {
  console.log(`data-import serve ended with exit code ${serveCode}  <- unexpected (expected 0)`)
  unexpected++
}
console.log(`\nThe ledger, payloads and report stay in ${out}\nHTML report: ${html}`)
console.log(unexpected === 0 ? "Demo complete: every command answered as expected." : `${unexpected} command(s) answered unexpectedly.`)
process.exitCode = unexpected === 0 ? 0 : 1
