// The baseline of bench/send.mjs as a process of its own, started like `data-import send`: reads the NDJSON
// file and POSTs every line as it is to BASE_URL's energy-amount endpoint from CONCURRENCY `fetch` loops
// over keep-alive connections, reading each answer as text; nothing else (no validation, no journal).
//   node bench/bare-send.mjs BASE_URL FILE CONCURRENCY     (the token from DATA_IMPORT_TOKEN)
// BENCH_BARE_REDIRECT=error gives fetch `redirect: "error"`, as send does (default: fetch's own, "follow").
// Prints `{"sent":N}` on stdout; exits 1 on any answer other than a 201.
import { readFileSync } from "node:fs"

const [baseUrl, file, concurrency] = process.argv.slice(2)
const url = new URL("/v1/data-import/energy-amount/create/", baseUrl).href
const redirect = process.env.BENCH_BARE_REDIRECT ?? "follow"
const headers = { Authorization: `Token ${process.env.DATA_IMPORT_TOKEN}`, "Content-Type": "application/json", Accept: "application/json" }
const bodies = readFileSync(file, "utf8").split("\n").filter((line) => line !== "")

let next = 0
let sent = 0
const loop = async () => {
  while (next < bodies.length) {
    const body = bodies[next++]
    const response = await fetch(url, { method: "POST", headers, body, redirect })
    await response.text()
    if (response.status !== 201) throw new Error(`status ${response.status}`)
    sent++
  }
}
try {
  await Promise.all(Array.from({ length: Number(concurrency) }, loop))
  process.stdout.write(`${JSON.stringify({ sent })}\n`)
} catch (error) {
  process.stderr.write(`${String(error)}\n`)
  process.exitCode = 1
}
