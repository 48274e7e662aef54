// Helpers of the benchmarks: data generation, running a command while sampling its peak memory, medians.
import { spawn } from "node:child_process"
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The package root. */
export const ROOT = new URL("../", import.meta.url).pathname
/** The built command line. */
export const CLI = join(ROOT, "dist", "cli.js")
/** Where the generated data goes (large files: outside the repository). */
export const DATA_DIR = process.env.BENCH_DIR ?? join(tmpdir(), "data-import-bench")
mkdirSync(DATA_DIR, { recursive: true })

/** How many times each measurement runs; the median is reported. */
export const REPEATS = Number(process.env.BENCH_REPEATS ?? 3)

/** Writes `count` lines made by `line(i)` to a file, in large writes; resolves with its size in bytes. */
export const writeLines = (path, count, line, header) =>
  new Promise((resolve, reject) => {
    const out = createWriteStream(path)
    out.on("error", reject)
    let i = 0
    let bytes = 0
    const next = () => {
      let chunk = i === 0 && header !== undefined ? `${header}\n` : ""
      while (i < count && chunk.length < 1 << 20) chunk += `${line(i++)}\n`
      bytes += Buffer.byteLength(chunk)
      if (i >= count) out.end(chunk, () => resolve(bytes))
      else if (out.write(chunk)) setImmediate(next)
      else out.once("drain", next)
    }
    next()
  })

/** A deterministic pseudo-random sequence (mulberry32), so every run measures the same data. */
export const random = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const peakRssOf = (pid) => {
  try {
    const match = /VmHWM:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

/**
 * Runs a command and measures it: wall time, and peak RSS of the process (all its threads) sampled from
 * /proc every 20 ms (Linux; `undefined` elsewhere). Rejects when the exit code is not one of `okCodes`.
 */
export const measure = (command, args, { okCodes = [0], stdout = "pipe" } = {}) =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(command, args, { stdio: ["ignore", stdout, "pipe"] })
    let peak
    const sample = () => {
      const rss = peakRssOf(child.pid)
      if (rss !== undefined) peak = Math.max(peak ?? 0, rss)
    }
    const timer = setInterval(sample, 20)
    const out = []
    const err = []
    child.stdout?.on("data", (b) => out.push(b))
    child.stderr.on("data", (b) => err.push(b))
    child.on("exit", () => sample())
    child.on("close", (code) => {
      clearInterval(timer)
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const result = { ms, peakRss: peak, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), code }
      if (!okCodes.includes(code)) reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${result.stderr}`))
      else resolve(result)
    })
  })

/** The median of numbers. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Runs a measurement REPEATS times; returns the run with the median time and the highest peak RSS seen. */
export const repeated = async (label, run) => {
  const runs = []
  for (let i = 0; i < REPEATS; i++) runs.push(await run())
  return summary(label, runs)
}

/**
 * Runs measurements that are compared with each other in turns, REPEATS rounds of one run each, so that
 * a change in the machine's speed during the benchmark touches all of them alike (this shared machine's
 * speed was seen to change by half within minutes). `measurements` maps a key to a label and a run;
 * returns, by key, what {@link repeated} returns.
 */
export const interleaved = async (measurements) => {
  const entries = Object.entries(measurements)
  const runs = Object.fromEntries(entries.map(([key]) => [key, []]))
  for (let i = 0; i < REPEATS; i++) for (const [key, [, run]] of entries) runs[key].push(await run())
  return Object.fromEntries(entries.map(([key, [label]]) => [key, summary(label, runs[key])]))
}

/**
 * The run with the median time of `runs` and the highest peak RSS seen, the times written to stderr; with
 * `fastestMs`, the shortest time (on a shared machine, others' work only ever adds time).
 */
const summary = (label, runs) => {
  const ms = median(runs.map((r) => r.ms))
  const peaks = runs.map((r) => r.peakRss).filter((p) => p !== undefined)
  const chosen = runs.find((r) => r.ms === ms) ?? runs[0]
  process.stderr.write(`  ${label}: ${runs.map((r) => `${(r.ms / 1000).toFixed(2)} s`).join(", ")}\n`)
  return { ...chosen, ms, fastestMs: Math.min(...runs.map((r) => r.ms)), peakRss: peaks.length > 0 ? Math.max(...peaks) : undefined }
}

/** Thousands separators. */
export const count = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/gu, ",")
/** Megabytes, for RSS. */
export const mb = (bytes) => (bytes === undefined ? "n/a" : `${Math.round(bytes / 1024 / 1024)} MB`)

/** The token of the benchmarks' reference service. */
export const BENCH_TOKEN = "bench-token"

/** Writes the seed of the benchmarks' reference service (one imported account) to DATA_DIR; returns its path. */
export const writeServeSeed = (name) => {
  const path = join(DATA_DIR, name)
  writeFileSync(path, JSON.stringify({
    tokens: [BENCH_TOKEN],
    suppliers: [{ code: "STADTWERKE_NORD", status: "Ongoing" }],
    accounts: [{
      import_supplier: "STADTWERKE_NORD",
      external_account_number: "KD-0045127",
      status: "COMPLETED",
      service_account_number: "A-1B2C3D4E",
      account_created_at: "2024-01-02T10:00:00Z"
    }]
  }))
  return path
}
