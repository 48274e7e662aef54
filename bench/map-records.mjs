// The library's per-row cost of mapping, without the command line: `mapRecords` over the rows of the map
// benchmark's export (streamed, as `map` does with groupBy; parsed in advance by splitting the lines) with
// examples/mappings/energy-amounts.mapping.json, plus JSON.stringify of each payload. Prints µs per row
// of each of BENCH_REPEATS rounds (default 3) in one process; the first round includes warming up.
//
// Run after a build, once `npm run bench` has generated the data: node bench/map-records.mjs [file.csv]
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { defineMapping, mapRecords } from "../dist/index.js"
import { DATA_DIR, REPEATS, ROOT } from "./lib.mjs"

const file = process.argv[2] ?? join(DATA_DIR, `energy-amounts-${Number(process.env.BENCH_ROWS ?? 200_000)}.csv`)
const mapping = defineMapping(JSON.parse(readFileSync(join(ROOT, "examples/mappings/energy-amounts.mapping.json"), "utf8")))
const [header, ...lines] = readFileSync(file, "utf8").split("\n").filter((l) => l !== "")
const names = header.split(";")
const rows = lines.map((line) => Object.fromEntries(line.split(";").map((cell, i) => [names[i], cell])))

for (let round = 1; round <= REPEATS; round++) {
  const started = performance.now()
  let payloads = 0
  let bytes = 0
  const source = async function*() {
    yield* rows
  }
  for await (const event of mapRecords(mapping, source())) {
    if (event.kind !== "payload") continue
    payloads++
    bytes += JSON.stringify(event.payload).length
  }
  const us = ((performance.now() - started) * 1000) / rows.length
  console.log(`round ${round}: ${us.toFixed(2)} µs per row (${rows.length} rows, ${payloads} payloads, ${bytes} bytes of JSON)`)
}
