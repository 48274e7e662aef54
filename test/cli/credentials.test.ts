/**
 * `send` and `status` with an API key, as users run them (the built CLI as child processes) against
 * `data-import serve --token-ttl 2`: 5,000 records over several token lifetimes, all stored once and none
 * failed; the key and every issued token (JWTs) in no output, ledger, results file or argument list; a
 * wrong key ends the run at once with the service's reason, nothing sent.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { CLI, runCli, tempDir } from "./run-cli.js"

const KEY = "org-key-5b1d-very-secret"
const FIXED = "fixed-token-9c2e-secret"
const SUPPLIER = "STADTWERKE_NORD"
const SEED = {
  tokens: [FIXED],
  api_keys: [KEY],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
  accounts: [{ import_supplier: SUPPLIER, external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z" }]
}
/** Any JWT: a token or refresh token the service issued. */
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/u

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

const start = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) => {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: "", ...env } })
  children.add(child)
  const out = { stdout: "", stderr: "" }
  child.stdout.on("data", (b: Buffer) => (out.stdout += b.toString("utf8")))
  child.stderr.on("data", (b: Buffer) => (out.stderr += b.toString("utf8")))
  return { child, out, exited: once(child, "exit") as Promise<[number | null, string | null]> }
}

const serve = async (args: ReadonlyArray<string>) => {
  const s = start(["serve", "--port", "0", "--seed", seedFile, ...args])
  const deadline = Date.now() + 20_000
  while (!s.out.stdout.includes("\n")) {
    if (Date.now() > deadline || s.child.exitCode !== null) throw new Error(`serve did not start: ${s.out.stderr}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  return { ...s, baseUrl: s.out.stdout.split("\n")[0]!.slice("listening on ".length) }
}

type Stats = { stored: Record<string, number>; responses: Record<string, Record<string, number>> }
const stats = async (baseUrl: string): Promise<Stats> =>
  (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${FIXED}` } })).json()) as Stats

const note = (i: number) => JSON.stringify({ import_supplier: SUPPLIER, external_account_number: "KD-1", notes: [{ body: `Note ${i}`, created_at: "2024-05-01T10:00:00Z" }] })

const expectNoSecret = (what: string, text: string | Buffer) => {
  const s = Buffer.isBuffer(text) ? text.toString("latin1") : text
  expect(s.includes(KEY), `${what} holds the API key`).toBe(false)
  expect(JWT.exec(s)?.[0], `${what} holds an issued token`).toBeUndefined()
}

describe("send with DATA_IMPORT_API_KEY against serve --token-ttl 2", () => {
  it("5,000 notes over several token lifetimes: none failed, each stored once; the key and the tokens in no output, ledger, results or argv", async () => {
    const service = await serve(["--token-ttl", "2", "--latency-ms", "2"])
    const input = join(dir, "notes.ndjson")
    writeFileSync(input, `${Array.from({ length: 5000 }, (_, i) => note(i)).join("\n")}\n`)
    const journal = join(dir, "notes.journal")
    const results = join(dir, "results.ndjson")
    const began = Date.now()
    const send = start(
      ["send", "--base-url", service.baseUrl, "--journal", journal, "--new-ledger", "--concurrency", "8", "--rate", "800", "--format", "json", "--results", results, input],
      { DATA_IMPORT_API_KEY: KEY }
    )
    // The arguments of the running process, as any user of the machine can read them.
    const cmdlines: Array<string> = []
    while (send.child.exitCode === null && Date.now() - began < 60_000) {
      try {
        cmdlines.push(readFileSync(`/proc/${send.child.pid}/cmdline`, "latin1"))
      } catch {
        // Ended between the check and the read.
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    const [code] = await send.exited
    const seconds = (Date.now() - began) / 1000
    const report = JSON.parse(send.out.stdout) as { outcomes: Record<string, number> }
    expect(code, send.out.stderr).toBe(0)
    expect(seconds).toBeGreaterThan(5)
    expect(report.outcomes["created"]).toBe(5000)
    expect(report.outcomes["failed"] ?? 0).toBe(0)
    const s = await stats(service.baseUrl)
    expect(s.stored["notes"]).toBe(5000)
    expect(s.responses["notes"]?.["201"]).toBe(5000)
    expect(cmdlines.length).toBeGreaterThan(3)
    for (const [i, cmdline] of cmdlines.entries()) expectNoSecret(`cmdline ${i}`, cmdline)
    expectNoSecret("stdout", send.out.stdout)
    expectNoSecret("stderr", send.out.stderr)
    expectNoSecret("results", readFileSync(results))
    for (const file of [journal, `${journal}-wal`]) if (existsSync(file)) expectNoSecret(file, readFileSync(file))
  }, 120_000)

  it("a wrong key: exit 2 at once with the service's reason (KT-CT-1134), nothing sent, no ledger written", async () => {
    const service = await serve([])
    const input = join(dir, "few.ndjson")
    writeFileSync(input, `${note(1)}\n${note(2)}\n`)
    const journal = join(dir, "wrong-key.journal")
    const began = Date.now()
    const run = await runCli(["send", "--base-url", service.baseUrl, "--journal", journal, "--new-ledger", input], { env: { DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: "not-the-key-4711" } })
    expect(run.code).toBe(2)
    expect(Date.now() - began).toBeLessThan(15_000)
    expect(run.stderr).toContain("Invalid data.")
    expect(run.stderr).toContain("KT-CT-1134")
    expect(run.stderr + run.stdout).not.toContain("not-the-key-4711")
    expect(existsSync(journal)).toBe(false)
    expect((await stats(service.baseUrl)).responses).toEqual({})
    const status = await runCli(["status", SUPPLIER, "KD-1", "--base-url", service.baseUrl], { env: { DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: "not-the-key-4711" } })
    expect(status.code).toBe(2)
    expect(status.stderr).toContain("KT-CT-1134")
  })

  it("status with the key; both variables set is a usage error naming both", async () => {
    const service = await serve([])
    const ok = await runCli(["status", SUPPLIER, "KD-1", "--base-url", service.baseUrl, "--format", "json"], { env: { DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: KEY } })
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ import_supplier: SUPPLIER, not_ready: [] })
    expectNoSecret("status stdout", ok.stdout)
    const both = await runCli(["status", SUPPLIER, "--base-url", service.baseUrl], { env: { DATA_IMPORT_TOKEN: FIXED, DATA_IMPORT_API_KEY: KEY } })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain("DATA_IMPORT_API_KEY")
    expect(both.stderr).toContain("DATA_IMPORT_TOKEN")
    expect(both.stderr).not.toContain(KEY)
  })
})

describe("a token endpoint that echoes the credentials", () => {
  /** A key with the characters that base64 keys have, and that URL, form, JSON and base64 spell otherwise. */
  const ODD_KEY = 'k7/Qx+Zr8=W2"mA\\t9Lp0/Vn+Hs='
  const ISSUED = "iss/T1+abc=def-0123456789xyz"
  const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64")
  const spellings = (s: string): Record<string, string> => ({
    raw: s,
    "URL-encoded": encodeURIComponent(s),
    "URL-encoded, lower-case hex": encodeURIComponent(s).replace(/%[0-9A-F]{2}/gu, (e) => e.toLowerCase()),
    "form-encoded": new URLSearchParams({ k: s }).toString().slice(2),
    base64: b64(s),
    "base64url": b64(s).replace(/\+/gu, "-").replace(/\//gu, "_").replace(/=+$/u, ""),
    "base64 inside a longer base64": b64(`APIKey:${s}`),
    "JSON-escaped": JSON.stringify(s).slice(1, -1).replace(/\//gu, "\\/")
  })
  const echo = (s: string) => Object.entries(spellings(s)).map(([how, text]) => `${how} <${text}>`).join("; ")
  /** Control characters a terminal acts on: clear the screen, ring, return to the line's start, a fake line of output. */
  const CONTROLS = "\u001b[2J\u001b]0;owned\u0007\rok: 100 records stored\nok: done"

  /**
   * A stand-in service: the GraphQL endpoint issues ISSUED once (when `issue`), then refuses, echoing the
   * key (and the token it issued); every other request is a 401 that echoes the token.
   */
  const fakeService = async (issue: boolean) => {
    let issued = false
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (b: Buffer) => (body += b.toString("utf8")))
      req.on("end", () => {
        res.setHeader("Content-Type", "application/json")
        if (req.url === "/v1/graphql/" && issue && !issued && body.includes("APIKey")) {
          issued = true
          res.end(JSON.stringify({ data: { obtainKrakenToken: { token: ISSUED, refreshToken: null, refreshExpiresIn: null, payload: {} } } }))
        } else if (req.url === "/v1/graphql/") {
          res.end(JSON.stringify({ data: null, errors: [{ message: `Invalid key: ${echo(ODD_KEY)}${issued ? `; ${echo(ISSUED)}` : ""} ${CONTROLS}`, extensions: { errorCode: "KT-CT-1134", errorDescription: CONTROLS } }] }))
        } else {
          res.statusCode = 401
          res.end(JSON.stringify({ detail: `Token not valid: ${echo(ISSUED)}` }))
        }
      })
    })
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    servers.add(server)
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  const servers = new Set<Server>()
  afterEach(() => {
    for (const server of servers) server.close()
    servers.clear()
  })

  const expectClean = (what: string, text: string, issued: boolean) => {
    for (const [secret, name] of issued ? [[ODD_KEY, "the key"], [ISSUED, "the issued token"]] as const : [[ODD_KEY, "the key"]] as const) {
      for (const [how, spelled] of Object.entries(spellings(secret))) expect(text.includes(spelled), `${what}: ${name} ${how}`).toBe(false)
    }
    // Cores of the base64 spelling inside a longer base64 (aligned differently from the key's own).
    expect(text.includes(b64(`APIKey:${ODD_KEY}`).slice(8, 32)), `${what}: the key in base64 inside a longer one`).toBe(false)
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u0009\u000b-\u001f\u007f]/u.test(text), `${what}: a control character passed raw`).toBe(false)
  }

  it("a refused key: exit 2 with the service's reason on one line, every spelling of the key redacted, control characters escaped", async () => {
    const baseUrl = await fakeService(false)
    const input = join(dir, "echo.ndjson")
    writeFileSync(input, `${note(1)}\n`)
    for (const args of [["send", "--base-url", baseUrl, "--journal", join(dir, "echo.journal"), "--new-ledger", input], ["status", SUPPLIER, "KD-1", "--base-url", baseUrl]]) {
      const run = await runCli(args, { env: { DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: ODD_KEY } })
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toContain("KT-CT-1134")
      expect(run.stderr).toContain("[redacted]")
      expect(run.stderr.trimEnd().split("\n"), "one line").toHaveLength(1)
      expect(run.stderr).not.toMatch(/^ok: /mu)
      expect(run.stderr).toContain("\\u001b[2J")
      expectClean(args[0]!, run.stdout + run.stderr, false)
    }
  })

  it("an issued token echoed by a 401 and by the refusal of the key: no spelling of it or of the key in status's output", async () => {
    const baseUrl = await fakeService(true)
    const run = await runCli(["status", SUPPLIER, "KD-1", "--base-url", baseUrl], { env: { DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: ODD_KEY } })
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr).toContain("401")
    expect(run.stderr).toContain("[redacted]")
    expectClean("status", run.stdout + run.stderr, true)
  })
})
