/**
 * A sturdier `data-import serve` (the built CLI as a child process): a bounded SIGTERM, requests refused
 * by their head before their body is read (401, 413, 415), absolute-form targets, and seed tokens that
 * a header can carry.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { tempDir } from "../cli/run-cli.js"
import { exchange, exitWithin, memoryKb, open, startServe } from "./serve-child.js"
import { ENERGY_AMOUNT, forAccount, IMPORTED, SEED, TOKEN } from "./support.js"

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

const ENERGY_PATH = buildPath("energy-amount", {})
const energyBody = JSON.stringify(forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT }))
const post = (path: string, headers: ReadonlyArray<string>): string =>
  [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", ...headers].join("\r\n")

describe("serve: SIGTERM", () => {
  it("closes idle connections at once (one that sent nothing, a half-sent head, a kept-alive one) and exits 0", async () => {
    const serving = await startServe(["--seed", seedFile])
    const silent = await open(serving.port)
    const halfHead = await open(serving.port)
    halfHead.write("GET /_reference/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    const keptAlive = await open(serving.port)
    keptAlive.write(`GET /_reference/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${TOKEN}\r\n\r\n`)
    await new Promise((r) => keptAlive.once("data", r))
    await new Promise((r) => setTimeout(r, 100))
    const start = Date.now()
    serving.child.kill("SIGTERM")
    expect(await exitWithin(serving, 3_000)).toEqual({ code: 0, signal: null })
    expect(Date.now() - start).toBeLessThan(3_000)
    for (const socket of [silent, halfHead, keptAlive]) socket.destroy()
  })

  it("waits for a request in flight at most 10 s, then exits 0", async () => {
    const serving = await startServe(["--seed", seedFile])
    const stuck = await open(serving.port)
    // A whole head, and a body that never ends: the request is in flight until the grace is over.
    stuck.write(`${post(ENERGY_PATH, [`Authorization: Token ${TOKEN}`, "Content-Type: application/json", "Content-Length: 100"])}\r\n\r\n{"imp`)
    await new Promise((r) => setTimeout(r, 200))
    const start = Date.now()
    serving.child.kill("SIGTERM")
    expect(await exitWithin(serving, 13_000)).toEqual({ code: 0, signal: null })
    const took = Date.now() - start
    expect(took).toBeGreaterThanOrEqual(9_500)
    expect(took).toBeLessThan(13_000)
    stuck.destroy()
  }, 20_000)
})

describe("serve: refused by the head, before the body is read", () => {
  it("100 unauthenticated 30 MiB POSTs are each answered 401 and raise serve's peak RSS by less than 10 MB", async () => {
    const serving = await startServe(["--seed", seedFile])
    const pid = serving.child.pid!
    // Warm up: the code paths of a 401 and of a small POST are compiled before the baseline.
    for (let i = 0; i < 5; i++) {
      await exchange(serving.port, post(ENERGY_PATH, ["Content-Type: application/json", `Content-Length: ${30 << 20}`]), 1 << 20)
      const created = await fetch(`${serving.baseUrl}${ENERGY_PATH}`, { method: "POST", headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" }, body: energyBody })
      expect(created.status).toBe(201)
    }
    const before = memoryKb(pid, "VmHWM")
    const started = Date.now()
    const statuses: Array<number> = []
    const worker = async (): Promise<void> => {
      while (statuses.length < 100 && Date.now() - started < 60_000) {
        statuses.push(0)
        const reply = await exchange(serving.port, post(ENERGY_PATH, ["Authorization: Token wrong", "Content-Type: application/json", `Content-Length: ${30 << 20}`]), 30 << 20)
        statuses[statuses.indexOf(0)] = reply.status
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
    const grown = memoryKb(pid, "VmHWM") - before
    expect(statuses.filter((s) => s === 401)).toHaveLength(100)
    expect(grown).toBeLessThan(10 * 1024)
  }, 90_000)

  it("a body larger than the limit by its Content-Length is answered 413 without waiting for it", async () => {
    const serving = await startServe(["--seed", seedFile])
    const reply = await exchange(serving.port, post(ENERGY_PATH, [`Authorization: Token ${TOKEN}`, "Content-Type: application/json", `Content-Length: ${(32 << 20) + 1}`]), 0, 3_000)
    expect(reply.status).toBe(413)
    expect(reply.text).toContain('"detail"')
  })

  it("a POST to a path that is no endpoint is answered 404 without waiting for its body, with or without credentials", async () => {
    const serving = await startServe(["--seed", seedFile])
    for (const auth of [[], [`Authorization: Token ${TOKEN}`]]) {
      const reply = await exchange(serving.port, post("/v1/data-import/nothing/", [...auth, "Content-Type: application/json", `Content-Length: ${30 << 20}`]), 0, 3_000)
      expect(reply.status).toBe(404)
      expect(reply.text).toContain('{"detail":"Not found."}')
    }
  })

  it("a GraphQL request (no credentials needed) over 64 KiB is 413, by its Content-Length without waiting for its body", async () => {
    const serving = await startServe(["--seed", seedFile])
    const byHead = await exchange(serving.port, post("/v1/graphql/", ["Content-Type: application/json", `Content-Length: ${30 << 20}`]), 0, 3_000)
    expect(byHead.status).toBe(413)
    expect(byHead.text).toContain('"detail"')
    const chunked = await fetch(`${serving.baseUrl}/v1/graphql/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new Blob([JSON.stringify({ query: "mutation { obtainKrakenToken }", padding: "x".repeat(70_000) })]).stream(),
      duplex: "half"
    } as RequestInit)
    expect(chunked.status).toBe(413)
  })

  it("a POST whose Content-Type is not JSON is 415 with a {detail} body; JSON with a charset is taken", async () => {
    const serving = await startServe(["--seed", seedFile])
    const auth = { Authorization: `Token ${TOKEN}` }
    const plain = await fetch(`${serving.baseUrl}${ENERGY_PATH}`, { method: "POST", headers: { ...auth, "Content-Type": "text/plain" }, body: energyBody })
    expect(plain.status).toBe(415)
    expect(Object.keys((await plain.json()) as object)).toEqual(["detail"])
    const form = await fetch(`${serving.baseUrl}${ENERGY_PATH}`, { method: "POST", headers: { ...auth, "Content-Type": "application/x-www-form-urlencoded" }, body: energyBody })
    expect(form.status).toBe(415)
    const json = await fetch(`${serving.baseUrl}${ENERGY_PATH}`, { method: "POST", headers: { ...auth, "Content-Type": "application/json; charset=utf-8" }, body: energyBody })
    expect(json.status).toBe(201)
    const stats = await (await fetch(`${serving.baseUrl}/_reference/stats`, { headers: auth })).json() as { responses: Record<string, Record<string, number>> }
    expect(stats.responses["energy-amount"]).toEqual({ "201": 1, "415": 2 })
  })
})

describe("serve: absolute-form targets", () => {
  it("GET http://host:port/v1/… is routed like its path", async () => {
    const serving = await startServe(["--seed", seedFile])
    const target = `http://127.0.0.1:${serving.port}${buildPath("account-transfer-status", { import_supplier_code: SEED.suppliers[0]!.code, external_account_number: IMPORTED })}`
    const reply = await exchange(serving.port, [`GET ${target} HTTP/1.1`, "Host: 127.0.0.1", `Authorization: Token ${TOKEN}`, "Connection: close"].join("\r\n"))
    expect(reply.status).toBe(200)
    expect(reply.text).toContain('"status":"COMPLETED"')
  })
})

describe("serve: seed tokens", () => {
  it.each([["a control character", "tok\u0007en"], ["a non-ASCII letter", "tökén"], ["DEL", "tok\u007f"]])(
    "a token with %s → exit 2 naming the entry",
    async (_what, token) => {
      const file = join(dir, `bad-token-${token.codePointAt(3)}.json`)
      writeFileSync(file, JSON.stringify({ ...SEED, tokens: [TOKEN, token] }))
      const serving = await startServe(["--seed", file])
      expect(await exitWithin(serving, 10_000)).toEqual({ code: 2, signal: null })
      expect(serving.output().stderr).toMatch(/tokens\.1: .*visible ASCII/u)
    }
  )
})
