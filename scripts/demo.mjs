// `npm run demo` (after a build): runs the command-line tool on the bundled examples, the way a
// migration team would run it on an export.
//   1. data-import validate on the valid example payloads (every endpoint's request),
//   2. data-import validate on the broken ones (invalid on purpose: exit code 1 is expected there),
//   3. data-import map on the legacy CSV exports (one per POST endpoint) with their JSON mappings, each
//      followed by data-import validate on the payloads it wrote (one summary line each).
// Ends with exit code 0 when every command answered as expected, 1 otherwise.
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"

const root = new URL("../", import.meta.url).pathname
const cli = join(root, "dist", "cli.js")
const files = (folder, suffix) =>
  readdirSync(join(root, folder)).filter((f) => f.endsWith(suffix)).sort().map((f) => join(folder, f))

let unexpected = 0
// Untitled runs (the mapped exports) are shown in one line each, their temporary folder as $OUT, and their
// exit code only when it is not 0.
let shown = (arg) => arg
const run = (title, args, expected) => {
  const command = `$ data-import ${args.map((a) => shown(a.includes(" ") ? `"${a}"` : a)).join(" ")}`
  console.log(title === undefined ? command : `\n── ${title}\n${command}\n`)
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: "inherit" })
  const note = result.status === 0 ? "" : result.status === 1 ? " (invalid records or rejected rows)" : " (see the message above)"
  if (title !== undefined || result.status !== 0 || !expected.includes(result.status)) {
    console.log(`${title === undefined ? "" : "\n"}exit code ${result.status}${note}${expected.includes(result.status) ? "" : "  <- unexpected"}`)
  }
  if (!expected.includes(result.status)) unexpected++
}

run("Valid example payloads, one per endpoint (each record's endpoint inferred from its keys)", ["validate", ...files("examples/payloads", ".json")], [0])
run("Broken example payloads: invalid on purpose, every problem with file, line, attr and code", ["validate", ...files("examples/broken", ".json")], [1])
// Legacy exports mapped to payloads, then validated: one export per POST endpoint. Some rows are
// rejected on purpose (a date that does not exist, a note without text, a wall time the spring change skips).
const out = mkdtempSync(join(tmpdir(), "data-import-demo-"))
shown = (arg) => arg.replace(out, "$OUT")
console.log("\n── Legacy CSV exports (German style) mapped to payloads, rejected rows to a file; then the payloads validated")
for (const mapping of files("examples/mappings", ".mapping.json")) {
  const csv = mapping.replace(/\.mapping\.json$/u, ".csv")
  const name = basename(csv, ".csv")
  const payloads = join(out, `${name}.ndjson`)
  console.log("")
  run(undefined, ["map", "-m", mapping, "-o", payloads, "-r", join(out, `${name}.rejects.ndjson`), csv], [0, 1])
  run(undefined, ["validate", "-q", payloads], [0])
}
rmSync(out, { recursive: true, force: true })
console.log(unexpected === 0 ? "\nDemo complete: every command answered as expected." : `\n${unexpected} command(s) answered unexpectedly.`)
process.exitCode = unexpected === 0 ? 0 : 1
