/**
 * `send` and `status` with an API key, as users run them (the built CLI as child processes) against
 * `data-import serve --token-ttl 2`: 5,000 records over several token lifetimes, all stored once and none
 * failed; the key and every issued token (JWTs) in no output, ledger, results file or argument list; a
 * wrong key ends the run at once with the service's reason, nothing sent.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
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
      ["send", "--base-url", service.baseUrl, "--journal", journal, "--concurrency", "8", "--rate", "800", "--format", "json", "--results", results, input],
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
    const run = await runCli(["send", "--base-url", service.baseUrl, "--journal", journal, input], { env: { DATA_IMPORT_TOKEN: "", DATA_IMPORT_API_KEY: "not-the-key-4711" } })
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
