// Throughput of `data-import send` against `data-import serve`, against a bare keep-alive `fetch` loop at the
// same concurrency sending the same payloads to the same serve process, in the same run. send validates
// every record and writes its journal (SQLite) before and after each request; the bare loop does neither.
// BENCH_SEND_RECORDS energy amounts (default 20,000), concurrency BENCH_CONCURRENCY (default 8, send's
// default), BENCH_REPEATS runs each (median), alternating. Every answer must be a 201.
import { spawn } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { BENCH_TOKEN, CLI, count, DATA_DIR, median, REPEATS, ROOT, writeLines, writeServeSeed } from "./lib.mjs"

const RECORDS = Number(process.env.BENCH_SEND_RECORDS ?? 20_000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)

const seedFile = writeServeSeed("send-seed.json")
const example = JSON.parse(readFileSync(join(ROOT, "examples/payloads/energy-amount.json"), "utf8")).energy_amount
const line = (i) => JSON.stringify({
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-0045127",
  energy_amount: { ...example, quantity: `${i}.125`, line_item_identifier: `L-${i}` }
})
const input = join(DATA_DIR, `send-${RECORDS}.ndjson`)
await writeLines(input, RECORDS, line)
const bodies = readFileSync(input, "utf8").trim().split("\n")

const server = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--seed", seedFile], { stdio: ["ignore", "pipe", "inherit"] })
  let out = ""
  child.stdout.on("data", (b) => {
    out += b
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/u.exec(out)
    if (match !== null) resolve({ child, baseUrl: match[1] })
  })
  child.on("exit", (code) => reject(new Error(`serve exited ${code}`)))
})
const URL = `${server.baseUrl}/v1/data-import/energy-amount/create/`

/** (a) CONCURRENCY loops of fetch over keep-alive connections, one request per payload, nothing else. */
const bareLoop = async () => {
  const started = process.hrtime.bigint()
  let next = 0
  const loop = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]
      const response = await fetch(URL, {
        method: "POST",
        headers: { Authorization: `Token ${BENCH_TOKEN}`, "Content-Type": "application/json", Accept: "application/json" },
        body
      })
      await response.text()
      if (response.status !== 201) throw new Error(`status ${response.status}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  return Number(process.hrtime.bigint() - started) / 1e6
}

/** (b) data-import send with a fresh journal. */
const send = async (i) => {
  const journal = join(DATA_DIR, `send-bench-${process.pid}-${i}.journal`)
  const env = { ...process.env, DATA_IMPORT_TOKEN: BENCH_TOKEN }
  const run = await new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, [CLI, "send", "--base-url", server.baseUrl, "--journal", journal, "--concurrency", String(CONCURRENCY), "--format", "json", input], { env, stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (b) => (out += b))
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      code === 0 ? resolve({ ms, out }) : reject(new Error(`send exited ${code}: ${out}`))
    })
  })
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${journal}${suffix}`, { force: true })
  const totals = JSON.parse(run.out).totals
  if (totals.created !== RECORDS) throw new Error(`send created ${totals.created} of ${RECORDS}`)
  return run.ms
}

process.stderr.write(`${count(RECORDS)} energy amounts, concurrency ${CONCURRENCY}, ${REPEATS} runs each\n`)
await bareLoop() // warm-up of the server
const bare = []
const sent = []
for (let i = 0; i < REPEATS; i++) {
  bare.push(RECORDS / ((await bareLoop()) / 1000))
  sent.push(RECORDS / ((await send(i)) / 1000))
}
server.child.removeAllListeners("exit")
server.child.kill("SIGTERM")
process.stderr.write(`  (a) bare fetch loop: ${bare.map((r) => `${count(r)}/s`).join(", ")}\n`)
process.stderr.write(`  (b) data-import send: ${sent.map((r) => `${count(r)}/s`).join(", ")}\n`)
const a = median(bare)
const b = median(sent)
console.log("| | records/s | vs (a) |")
console.log("|---|---:|---:|")
console.log(`| (a) bare keep-alive fetch loop | ${count(a)} | 1.00 |`)
console.log(`| (b) data-import send (validation, journal, retries) | ${count(b)} | ${(b / a).toFixed(2)} |`)
