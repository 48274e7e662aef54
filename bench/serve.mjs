// Requests/s of `data-import serve` for energy amounts at concurrency 32 (BENCH_CONCURRENCY), against a
// bare node:http echo server in the same run (bench/bare-server.mjs). Each server runs in its own
// process; the load comes from this process over keep-alive connections (http.Agent), for BENCH_SECONDS
// (default 5) after a one-second warm-up, BENCH_REPEATS times (median). Every answer must be a 201.
import { spawn } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { join } from "node:path"
import { BENCH_TOKEN, CLI, count, DATA_DIR, median, REPEATS, ROOT, writeServeSeed } from "./lib.mjs"

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)

const seedFile = writeServeSeed("serve-seed.json")
const body = Buffer.from(JSON.stringify({
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-0045127",
  energy_amount: JSON.parse(readFileSync(join(ROOT, "examples/payloads/energy-amount.json"), "utf8")).energy_amount
}))
const PATH = "/v1/data-import/energy-amount/create/"

/** Starts a server process and resolves with it and its port, from its "listening on" line. */
const start = (args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (b) => {
      out += b
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\n/u.exec(out)
      if (match !== null) resolve({ child, port: Number(match[1]) })
    })
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}`)))
  })

const stop = (child) => new Promise((resolve) => {
  child.removeAllListeners("exit")
  child.once("exit", resolve)
  child.kill("SIGTERM")
})

/** Sends requests from CONCURRENCY loops for `seconds`; resolves with the count of 201s. */
const load = (port, seconds) =>
  new Promise((resolve, reject) => {
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    const until = Date.now() + seconds * 1000
    let done = 0
    let active = CONCURRENCY
    const loop = () => {
      if (Date.now() >= until) {
        if (--active === 0) {
          agent.destroy()
          resolve(done)
        }
        return
      }
      const req = request({ host: "127.0.0.1", port, path: PATH, method: "POST", agent, headers: {
        Authorization: `Token ${BENCH_TOKEN}`,
        "Content-Type": "application/json",
        "Content-Length": body.length
      } }, (res) => {
        res.resume()
        res.on("end", () => {
          if (res.statusCode !== 201) return reject(new Error(`status ${res.statusCode}`))
          done++
          loop()
        })
      })
      req.on("error", reject)
      req.end(body)
    }
    for (let i = 0; i < CONCURRENCY; i++) loop()
  })

const measure = async (label, args) => {
  const rates = []
  for (let i = 0; i < REPEATS; i++) {
    const { child, port } = await start(args)
    await load(port, 1)
    const n = await load(port, SECONDS)
    await stop(child)
    rates.push(n / SECONDS)
  }
  process.stderr.write(`  ${label}: ${rates.map((r) => `${count(r)} req/s`).join(", ")}\n`)
  return median(rates)
}

process.stderr.write(`energy amounts, concurrency ${CONCURRENCY}, ${SECONDS} s per run, ${REPEATS} runs each\n`)
const bare = await measure("(a) bare node:http echo", [join(ROOT, "bench", "bare-server.mjs")])
const memory = await measure("(b) data-import serve (state in memory)", [CLI, "serve", "--port", "0", "--seed", seedFile])
const stateFile = join(DATA_DIR, `serve-bench-${process.pid}.sqlite`)
const file = await measure("(c) data-import serve --state FILE", [CLI, "serve", "--port", "0", "--seed", seedFile, "--state", stateFile])
for (const suffix of ["", "-wal", "-shm"]) rmSync(`${stateFile}${suffix}`, { force: true })
console.log(`| | requests/s | vs (a) |`)
console.log(`|---|---:|---:|`)
console.log(`| (a) bare node:http echo | ${count(bare)} | 1.00 |`)
console.log(`| (b) serve, state in memory | ${count(memory)} | ${(memory / bare).toFixed(2)} |`)
console.log(`| (c) serve --state FILE | ${count(file)} | ${(file / bare).toFixed(2)} |`)
