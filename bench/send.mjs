// Throughput of `data-import send` against `data-import serve`, against a bare keep-alive `fetch` loop at the
// same concurrency sending the same payloads to the same serve process, in the same run. send validates
// every record and journals it (SQLite) before and after its request; the bare loop does neither. Both run
// as processes of their own, started the same way (bench/bare-send.mjs is the bare loop), so both pay for
// starting Node, loading their code and reading the file, and both start cold.
// BENCH_SEND_RECORDS energy amounts (default 20,000), concurrency BENCH_CONCURRENCY (default 8, send's
// default), BENCH_REPEATS pairs of runs (default 3), alternating; medians and spreads, the ratio of each
// pair, the CPU time of each process per record, and the load average. Every answer must be a 201.
import { spawn } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { loadavg } from "node:os"
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
const BARE = join(ROOT, "bench", "bare-send.mjs")

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

/**
 * CPU seconds (user + system) of this process's children that have ended: fields cutime and cstime of
 * /proc/self/stat (Linux; NaN elsewhere). serve is still running, so only the run just ended adds to it.
 */
const childrenCpu = () => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /su, "").split(" ")
    return (Number(fields[13]) + Number(fields[14])) / 100
  } catch {
    return Number.NaN
  }
}

/** Runs a command with the token in its environment; resolves with its wall time, CPU time and stdout. */
const timed = (args) =>
  new Promise((resolve, reject) => {
    const cpuBefore = childrenCpu()
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { env: { ...process.env, DATA_IMPORT_TOKEN: BENCH_TOKEN }, stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (b) => (out += b))
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      code === 0 ? resolve({ ms, cpu: childrenCpu() - cpuBefore, out }) : reject(new Error(`${args.join(" ")} exited ${code}: ${out}`))
    })
  })

/** (a) bare-send.mjs: CONCURRENCY fetch loops over keep-alive connections, one request per line, nothing else. */
const bareLoop = async () => {
  const run = await timed([BARE, server.baseUrl, input, String(CONCURRENCY)])
  if (JSON.parse(run.out).sent !== RECORDS) throw new Error(`the bare loop sent ${run.out}`)
  return run
}

/** (b) data-import send with a fresh journal. */
const send = async (i) => {
  const journal = join(DATA_DIR, `send-bench-${process.pid}-${i}.journal`)
  const run = await timed([CLI, "send", "--base-url", server.baseUrl, "--journal", journal, "--new-ledger", "--concurrency", String(CONCURRENCY), "--format", "json", input])
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${journal}${suffix}`, { force: true })
  const { outcomes } = JSON.parse(run.out)
  if (outcomes.created !== RECORDS) throw new Error(`send created ${outcomes.created} of ${RECORDS}`)
  return run
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ")
const loadBefore = load()
process.stderr.write(`${count(RECORDS)} energy amounts, concurrency ${CONCURRENCY}, ${REPEATS} runs each, load average ${loadBefore}\n`)
await bareLoop() // warm-up of the server
const bare = []
const sent = []
const bareCpu = []
const sentCpu = []
for (let i = 0; i < REPEATS; i++) {
  const a = await bareLoop()
  const b = await send(i)
  bare.push(RECORDS / (a.ms / 1000))
  sent.push(RECORDS / (b.ms / 1000))
  bareCpu.push((a.cpu * 1e6) / RECORDS)
  sentCpu.push((b.cpu * 1e6) / RECORDS)
}
server.child.removeAllListeners("exit")
server.child.kill("SIGTERM")
// Each send run against the bare run just before it: the machine's load changes less within a pair.
const ratios = sent.map((b, i) => b / bare[i])
const spread = (values, digits = 0) => {
  const f = (v) => (digits === 0 ? count(v) : v.toFixed(digits))
  return `${f(Math.min(...values))} to ${f(Math.max(...values))}`
}
process.stderr.write(`  (a) bare fetch loop: ${bare.map((r) => `${count(r)}/s`).join(", ")}\n`)
process.stderr.write(`  (b) data-import send: ${sent.map((r) => `${count(r)}/s`).join(", ")}\n`)
process.stderr.write(`  CPU µs per record (user + system, the process alone, not serve): (a) ${bareCpu.map(count).join(", ")}; (b) ${sentCpu.map(count).join(", ")}\n`)
process.stderr.write(`  b/a per pair: ${ratios.map((r) => r.toFixed(2)).join(", ")}\n`)
process.stderr.write(`  load average ${loadBefore} before, ${load()} after (1, 5, 15 minutes)\n`)
const a = median(bare)
const b = median(sent)
console.log(`| | records/s, median of ${REPEATS} | spread | vs (a) |`)
console.log("|---|---:|---:|---:|")
console.log(`| (a) bare keep-alive fetch loop (own process) | ${count(a)} | ${spread(bare)} | 1.00 |`)
console.log(`| (b) data-import send (validation, journal, retries) | ${count(b)} | ${spread(sent)} | ${(b / a).toFixed(2)} |`)
console.log(`| b/a per pair | | ${spread(ratios, 2)} | median ${median(ratios).toFixed(2)} |`)
console.log("")
console.log(`| CPU µs per record (the process alone) | median of ${REPEATS} | spread | a/b |`)
console.log("|---|---:|---:|---:|")
console.log(`| (a) bare loop | ${count(median(bareCpu))} | ${spread(bareCpu)} | |`)
console.log(`| (b) data-import send | ${count(median(sentCpu))} | ${spread(sentCpu)} | ${(median(bareCpu) / median(sentCpu)).toFixed(2)} |`)
