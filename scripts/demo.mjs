// `npm run demo` (after a build): runs the command-line tool on the bundled examples, the way a
// migration team would run it on an export.
//   1. data-import validate on the valid example payloads (every endpoint's request),
//   2. data-import validate on the broken ones (invalid on purpose: exit code 1 is expected there),
//   3. data-import map on the three legacy CSV exports with their JSON mappings.
// Ends with exit code 0 when every command answered as expected, 1 otherwise.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join, relative } from "node:path"

const root = new URL("../", import.meta.url).pathname
const cli = join(root, "dist", "cli.js")
const files = (folder, suffix) =>
  readdirSync(join(root, folder)).filter((f) => f.endsWith(suffix)).sort().map((f) => join(folder, f))

let unexpected = 0
const run = (title, args, expected) => {
  console.log(`\n── ${title}\n$ data-import ${args.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ")}\n`)
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: "inherit" })
  const note = result.status === 0 ? "" : result.status === 1 ? " (invalid records or rejected rows)" : " (see the message above)"
  console.log(`\nexit code ${result.status}${note}${expected.includes(result.status) ? "" : "  <- unexpected"}`)
  if (!expected.includes(result.status)) unexpected++
}

run("Valid example payloads, one per endpoint (each record's endpoint inferred from its keys)", ["validate", ...files("examples/payloads", ".json")], [0])
run("Broken example payloads: invalid on purpose, every problem with file, line, attr and code", ["validate", ...files("examples/broken", ".json")], [1])
for (const mapping of files("examples/mappings", ".mapping.json")) {
  const csv = mapping.replace(/\.mapping\.json$/u, ".csv")
  run(`Legacy export ${relative("examples/mappings", csv)} mapped to payloads (NDJSON on stdout, rejected rows on stderr)`, ["map", "--mapping", mapping, csv], [0, 1])
}
console.log(unexpected === 0 ? "\nDemo complete: every command answered as expected." : `\n${unexpected} command(s) answered unexpectedly.`)
process.exitCode = unexpected === 0 ? 0 : 1
