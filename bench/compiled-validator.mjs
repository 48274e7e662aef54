// In-process benchmark of the validator alone (no CLI, no workers): per record, JSON.parse only against
// JSON.parse + compileValidator("energy-amount", { input: "json" }), on the files bench/validate.mjs
// generates (run it first, or point BENCH_DIR at its data). Best of BENCH_REPEATS interleaved runs (default 7).
//   npm run build && BENCH_RECORDS=100000 ./node_modules/.bin/node bench/compiled-validator.mjs [dist dir]
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { DATA_DIR, ROOT } from "./lib.mjs"

const RECORDS = Number(process.env.BENCH_RECORDS ?? 500_000)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 7)
const dist = resolve(process.argv[2] ?? join(ROOT, "dist"))
const { compileValidator } = await import(pathToFileURL(join(dist, "index.js")).href)
const validate = compileValidator("energy-amount", { input: "json" })

/** The best time of each run over BENCH_REPEATS rounds, the runs interleaved so a busy spell hits both alike. */
const best = (runs) => {
  const ms = runs.map(() => Infinity)
  for (let r = 0; r < REPEATS; r++) {
    runs.forEach((run, i) => {
      const start = process.hrtime.bigint()
      run()
      ms[i] = Math.min(ms[i], Number(process.hrtime.bigint() - start) / 1e6)
    })
  }
  return ms
}

console.log(`compiled validator (${dist}): ${RECORDS} energy-amount records, best of ${REPEATS}, µs per record`)
console.log("| data | parse only | parse + validate | ratio |\n|---|---:|---:|---:|")
for (const [label, name] of [["all valid", `energy-amount-${RECORDS}.ndjson`], ["10% broken", `energy-amount-${RECORDS}-broken.ndjson`]]) {
  const lines = readFileSync(join(DATA_DIR, name), "utf8").split("\n").filter((line) => line.length > 0)
  let invalid = 0
  const [parse, both] = best([
    () => {
      for (const line of lines) JSON.parse(line)
    },
    () => {
      invalid = 0
      for (const line of lines) if (!validate(JSON.parse(line)).ok) invalid++
    }
  ])
  const us = (ms) => ((ms * 1000) / lines.length).toFixed(2)
  console.log(`| ${label} (${invalid} invalid) | ${us(parse)} | ${us(both)} | ${(parse / both).toFixed(2)} |`)
}
