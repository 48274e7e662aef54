/**
 * `data-import send` and `data-import status` as users run them (the built CLI as child processes)
 * against `data-import serve` with injected faults: a run killed in the middle and run again stores every
 * note exactly once and no energy amount twice, every record ends known-stored or listed in doubt,
 * invalid records are counted and never sent, and the token appears in no output and no file.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/service/sqlite.js"
import { CLI, runCli, type Run, tempDir } from "./run-cli.js"

const TOKEN = "tok-7f3a-very-secret"
const SUPPLIER = "STADTWERKE_NORD"
const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
  accounts: [
    { import_supplier: SUPPLIER, external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z" },
    { import_supplier: SUPPLIER, external_account_number: "KD-2", status: "IN_PROGRESS" }
  ]
}

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

const start = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) => {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } })
  children.add(child)
  const out = { stdout: "", stderr: "" }
  child.stdout.on("data", (b: Buffer) => (out.stdout += b.toString("utf8")))
  child.stderr.on("data", (b: Buffer) => (out.stderr += b.toString("utf8")))
  const exited = once(child, "exit")
  return { child, out, exited }
}

/** Starts `data-import serve` and resolves with its base URL. */
const serve = async (args: ReadonlyArray<string>) => {
  const s = start(["serve", "--port", "0", "--seed", seedFile, ...args])
  const deadline = Date.now() + 20_000
  while (!s.out.stdout.includes("\n")) {
    if (Date.now() > deadline || s.child.exitCode !== null) throw new Error(`serve did not start: ${s.out.stderr}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  const baseUrl = s.out.stdout.split("\n")[0]!.slice("listening on ".length)
  const stop = async (): Promise<void> => {
    if (s.child.exitCode === null) {
      s.child.kill("SIGTERM")
      await s.exited
    }
  }
  return { ...s, baseUrl, stop }
}

type Stats = { stored: Record<string, number>; responses: Record<string, Record<string, number>> }
const stats = async (baseUrl: string): Promise<Stats> =>
  (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as Stats

const note = (i: number, account = "KD-1") =>
  JSON.stringify({ import_supplier: SUPPLIER, external_account_number: account, notes: [{ body: `Note ${i}`, created_at: "2024-05-01T10:00:00Z" }] })
const energy = (i: number, account = "KD-1") =>
  JSON.stringify({
    import_supplier: SUPPLIER,
    external_account_number: account,
    energy_amount: {
      malo_number: "51238696781",
      period_start_at: "2024-10-01T00:00:00+02:00",
      period_end_at: "2024-10-31T23:59:59+01:00",
      product_identifier: "1-1:1.8.0",
      product_identifier_type: "SRW",
      quantity: `${i}.5`,
      quantity_unit: "KWH",
      line_item_identifier: `L-${i}`
    }
  })
/** Invalid energy amounts the service would answer 400 for, if they were ever sent. */
const invalidEnergy = (i: number) => energy(i).replace(`"${i}.5"`, `"${i},5"`)

interface Report {
  readonly totals: Record<string, number>
  readonly in_doubt: ReadonlyArray<{ file: string; line: number; endpoint: string }>
}

const sendArgs = (baseUrl: string, journal: string, files: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) =>
  ["send", "--base-url", baseUrl, "--journal", journal, "--concurrency", "8", ...extra, ...files]

const expectNoToken = (...texts: ReadonlyArray<string | Buffer>) => {
  for (const text of texts) expect(Buffer.from(text).includes(TOKEN)).toBe(false)
}

const totalsAddUp = (report: Report): void => {
  const { records, ...rest } = report.totals
  expect(Object.keys(rest).sort()).toEqual(["already_existed", "created", "failed", "import_error", "in_doubt", "invalid", "not_found", "rejected"])
  expect(Object.values(rest).reduce((a, b) => a + b, 0)).toBe(records)
}

describe("data-import send against data-import serve with faults", () => {
  it("SIGKILL in the middle, run again: every note once, no energy amount twice, stored or in doubt; invalid never sent; no token anywhere", async () => {
    const state = join(dir, "crash-state.sqlite")
    const service = await serve(["--state", state, "--fail-rate", "0.1", "--reset-rate", "0.03", "--latency-ms", "6", "--retry-after", "0", "--fault-seed", "14"])
    const lines: Array<string> = []
    for (let i = 0; i < 1000; i++) {
      lines.push(note(i), energy(i))
      if (i % 100 === 0) lines.push(invalidEnergy(i), "{not json")
    }
    const input = join(dir, "crash.ndjson")
    writeFileSync(input, `${lines.join("\n")}\n`)
    const journal = join(dir, "crash.journal")
    const results = join(dir, "crash-results.ndjson")
    const env = { DATA_IMPORT_TOKEN: TOKEN }

    const first = start(sendArgs(service.baseUrl, journal, [input]), env)
    for (;;) {
      const s = await stats(service.baseUrl)
      if ((s.stored["notes"] ?? 0) + (s.stored["energy_amounts"] ?? 0) >= 400) break
      if (first.child.exitCode !== null) throw new Error(`send ended before it could be killed: ${first.out.stdout}`)
      await new Promise((r) => setTimeout(r, 10))
    }
    first.child.kill("SIGKILL")
    await first.exited
    expect((await stats(service.baseUrl)).stored["notes"]).toBeLessThan(1000)
    // The kill left records in flight: their outcome is unknown to the journal.
    const killed = new (loadSqlite().DatabaseSync)(journal)
    const inFlight = killed.prepare("SELECT line, endpoint FROM records WHERE state = 'in_flight'").all() as Array<{ line: number; endpoint: string }>
    killed.close()
    expect(inFlight.length).toBeGreaterThan(0)

    // Run again; `failed` (retries exhausted: nothing known to be stored) is sent again by the next run.
    let second: Run | undefined
    let report: Report | undefined
    for (let run = 0; run < 3 && (report === undefined || report.totals["failed"] !== 0); run++) {
      second = await runCli([...sendArgs(service.baseUrl, journal, [input], ["--format", "json", "--results", results])], { env })
      report = JSON.parse(second.stdout) as Report
      totalsAddUp(report)
    }
    if (second === undefined || report === undefined) throw new Error("no second run")
    expect(report.totals["records"]).toBe(2020)
    expect(report.totals["invalid"]).toBe(20)
    expect(report.totals["failed"], JSON.stringify(report.totals)).toBe(0)
    expect(report.totals["rejected"]).toBe(0)
    expect(report.totals["created"]! + report.totals["already_existed"]! + report.totals["in_doubt"]!).toBe(2000)
    expect(second.code).toBe(report.totals["in_doubt"] === 0 ? 0 : 1)

    // A third run sends nothing: every outcome is known (or in doubt, and not resent).
    const before = await stats(service.baseUrl)
    const third = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect((JSON.parse(third.stdout) as Report).totals).toEqual(report.totals)
    expect((await stats(service.baseUrl)).responses).toEqual(before.responses)
    // The invalid records were never sent: the service answered no 400.
    expect(before.responses["energy-amount"]?.["400"]).toBeUndefined()
    await service.stop()

    const perRecord = readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { line: number; endpoint: string; status: string })
    expect(perRecord).toHaveLength(2020)
    expect(perRecord.filter((r) => r.endpoint === "notes").every((r) => r.status === "created" || r.status === "already_existed")).toBe(true)
    expect(report.in_doubt.every((r) => r.endpoint === "energy-amount")).toBe(true)
    // In flight at the kill: notes were sent again (harmless), energy amounts are listed in doubt.
    for (const { line, endpoint } of inFlight) {
      const status = perRecord.find((r) => r.line === line)!.status
      if (endpoint === "notes") expect(["created", "already_existed"]).toContain(status)
      else expect(status).toBe("in_doubt")
    }

    // What the service stored, read from its state file.
    const db = new (loadSqlite().DatabaseSync)(state, { readOnly: true })
    const rows = (kind: string) => db.prepare("SELECT key, data FROM records WHERE kind = ?").all(kind) as Array<{ key: string | null; data: string }>
    const notes = rows("notes")
    expect(notes).toHaveLength(1000)
    expect(new Set(notes.map((n) => n.key)).size).toBe(1000)
    const stored = rows("energy_amounts").map((r) => (JSON.parse(r.data) as { line_item_identifier: string }).line_item_identifier)
    db.close()
    expect(new Set(stored).size).toBe(stored.length)
    const lineOf = new Map(lines.map((text, i) => [text, i + 1]))
    const statusOfEnergy = new Map<string, string>()
    for (let i = 0; i < 1000; i++) statusOfEnergy.set(`L-${i}`, perRecord.find((r) => r.line === lineOf.get(energy(i)))!.status)
    // Every energy amount reported created is stored; every stored one was created or is listed in doubt.
    for (const [id, status] of statusOfEnergy) if (status === "created") expect(stored).toContain(id)
    for (const id of stored) expect(["created", "in_doubt"]).toContain(statusOfEnergy.get(id))
    expect([...statusOfEnergy.values()].every((s) => s === "created" || s === "in_doubt")).toBe(true)

    // The token: in no output, not in the journal's bytes (nor its WAL), not in the results.
    expectNoToken(first.out.stdout, first.out.stderr, second.stdout, second.stderr, third.stdout, third.stderr, service.out.stdout, service.out.stderr)
    for (const file of [journal, `${journal}-wal`, `${journal}-shm`, results]) if (existsSync(file)) expectNoToken(readFileSync(file))
  })
})

describe("data-import send", () => {
  it("a changed input is refused with a clear error; the journal stays as it was", async () => {
    const service = await serve([])
    const input = join(dir, "changing.ndjson")
    writeFileSync(input, `${note(1)}\n${energy(1)}\n`)
    const journal = join(dir, "changing.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const first = await runCli(sendArgs(service.baseUrl, journal, [input]), { env })
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/created\s+2/u)
    writeFileSync(input, `${note(1)}\n${energy(2)}\n`)
    const second = await runCli(sendArgs(service.baseUrl, journal, [input]), { env })
    expect(second.code).toBe(2)
    expect(second.stderr).toContain("changed since the journal started it")
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(1)
    await service.stop()
  })

  it("answers that arrived but were not committed (a kill between the grouped commits): notes sent again and already there, energy amounts in doubt and not sent", async () => {
    const service = await serve([])
    const input = join(dir, "uncommitted.ndjson")
    writeFileSync(input, `${Array.from({ length: 20 }, (_, i) => `${note(i)}\n${energy(i)}`).join("\n")}\n`)
    const journal = join(dir, "uncommitted.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const first = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect((JSON.parse(first.stdout) as Report).totals).toMatchObject({ records: 40, created: 40 })
    // The journal as a kill leaves it when the service stored every record and answered, and the
    // commit of those answers never happened: every record still in flight.
    const db = new (loadSqlite().DatabaseSync)(journal)
    db.exec("UPDATE records SET state = 'in_flight', status = NULL, http_status = NULL, outcome = NULL, errors = NULL")
    db.close()
    const before = await stats(service.baseUrl)
    const second = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    const report = JSON.parse(second.stdout) as Report
    expect(second.code).toBe(1)
    expect(report.totals).toMatchObject({ records: 40, already_existed: 20, in_doubt: 20, created: 0, failed: 0 })
    expect(report.in_doubt.every((r) => r.endpoint === "energy-amount")).toBe(true)
    const after = await stats(service.baseUrl)
    expect(after.responses["energy-amount"]).toEqual(before.responses["energy-amount"])
    expect(after.stored).toEqual(before.stored)
    expect(after.stored["energy_amounts"]).toBe(20)
    expect(after.stored["notes"]).toBe(20)
    await service.stop()
  })

  it("a wrong token: failed, nothing stored, exit 1; the same command with the right token sends them", async () => {
    const service = await serve([])
    const input = join(dir, "token.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2)}\n${energy(3)}\n`)
    const journal = join(dir, "token.journal")
    const wrong = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env: { DATA_IMPORT_TOKEN: "not-the-token" } })
    expect(wrong.code).toBe(1)
    expect((JSON.parse(wrong.stdout) as Report).totals).toMatchObject({ records: 3, failed: 3, created: 0 })
    expect(wrong.stdout + wrong.stderr).not.toContain("not-the-token")
    const right = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(right.code).toBe(0)
    expect((JSON.parse(right.stdout) as Report).totals).toMatchObject({ records: 3, created: 3, failed: 0 })
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(3)
    await service.stop()
  })

  it("an account that is not imported is not_found; --dry-run sends nothing and writes no journal", async () => {
    const service = await serve([])
    const input = join(dir, "dry.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2, "KD-2")}\n${invalidEnergy(3)}\n`)
    const journal = join(dir, "dry.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const dry = await runCli(sendArgs(service.baseUrl, journal, [input], ["--dry-run", "--format", "json"]), { env })
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, totals: { records: 3, invalid: 1, to_send: 2 } })
    expect(existsSync(journal)).toBe(false)
    expect((await stats(service.baseUrl)).responses).toEqual({})
    const real = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect(real.code).toBe(1)
    expect((JSON.parse(real.stdout) as Report).totals).toMatchObject({ records: 3, created: 1, not_found: 1, invalid: 1 })
    await service.stop()
  })

  it("a second run on a journal in use is refused: the same records are never sent by two runs at once", async () => {
    // Answers take 4 s: the first run holds the journal while the second starts, even on a busy machine.
    const service = await serve(["--latency-ms", "4000"])
    const input = join(dir, "busy.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2)}\n`)
    const journal = join(dir, "busy.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const first = start(sendArgs(service.baseUrl, journal, [input]), env)
    while (!existsSync(journal)) await new Promise((r) => setTimeout(r, 10))
    const second = await runCli(sendArgs(service.baseUrl, journal, [input]), { env })
    expect(second.code).toBe(2)
    expect(second.stderr).toContain("in use by another run")
    await first.exited
    expect(first.child.exitCode).toBe(0)
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(2)
    await service.stop()
  })

  it("usage errors: no token, plain http to another host, stdin, a .json file, a file given twice", async () => {
    const input = join(dir, "usage.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const journal = join(dir, "usage.journal")
    const noToken = await runCli(sendArgs("http://127.0.0.1:9", journal, [input]), { env: { DATA_IMPORT_TOKEN: "" } })
    expect(noToken.code).toBe(2)
    expect(noToken.stderr).toContain("DATA_IMPORT_TOKEN")
    const spaced = await runCli(sendArgs("http://127.0.0.1:9", journal, [input]), { env: { DATA_IMPORT_TOKEN: "two words" } })
    expect(spaced.code).toBe(2)
    expect(spaced.stderr).toContain("DATA_IMPORT_TOKEN holds characters")
    expect(spaced.stderr).not.toContain("two words")
    const insecure = await runCli(sendArgs("http://api.example.energy", journal, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(insecure.code).toBe(2)
    expect(insecure.stderr).toContain("--allow-insecure-http")
    const stdin = await runCli(sendArgs("http://127.0.0.1:9", journal, ["-"]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(stdin.code).toBe(2)
    const json = await runCli(sendArgs("http://127.0.0.1:9", journal, [join(dir, "payload.json")]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(json.code).toBe(2)
    expect(json.stderr).toContain("NDJSON")
    const twice = await runCli(sendArgs("http://127.0.0.1:9", journal, [input, input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain("given twice")
    expect(existsSync(journal)).toBe(false)
    for (const run of [noToken, insecure, stdin, json, twice] as ReadonlyArray<Run>) expectNoToken(run.stdout, run.stderr)
  })
})

describe("data-import status", () => {
  it("lists the accounts that cannot take post-import data yet", async () => {
    const service = await serve([])
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const some = await runCli(["status", "--base-url", service.baseUrl, "--format", "json", SUPPLIER, "KD-1", "KD-2", "KD-404"], { env })
    expect(some.code).toBe(1)
    expect(JSON.parse(some.stdout)).toMatchObject({
      not_ready: [{ external_account_number: "KD-2", status: "IN_PROGRESS" }, { external_account_number: "KD-404", status: "NO_PROCESS" }]
    })
    const ready = await runCli(["status", "--base-url", service.baseUrl, SUPPLIER, "KD-1"], { env })
    expect(ready.code).toBe(0)
    expect(ready.stdout).toContain("every account asked about (1) is imported")
    await service.stop()
  })
})
