/**
 * `data-import send` and `data-import status` as users run them (the built CLI as child processes)
 * against `data-import serve` with injected faults: a run killed in the middle and run again stores every
 * note exactly once and no energy amount twice, every record ends known-stored or listed in doubt,
 * invalid records are counted and never sent, and the token appears in no output and no file.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process"
import { once } from "node:events"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { CLI, ROOT, runCli, type Run, tempDir } from "./run-cli.js"
import { energyAmountLine } from "../support/energy-amount-line.js"

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
const energy = (i: number, account = "KD-1") => energyAmountLine({ supplier: SUPPLIER, account, quantity: `${i}.5`, line: `L-${i}` })
/** Invalid energy amounts (records of their own) the service would answer 400 for, if they were ever sent. */
const invalidEnergy = (i: number) => energy(10_000 + i).replace(`"${10_000 + i}.5"`, `"${10_000 + i},5"`)
/** An energy amount's broken version: the same record (same key), a quantity with a decimal comma. */
const brokenEnergy = (i: number) => energy(i).replace(`"${i}.5"`, `"${i},5"`)

interface Report {
  readonly records: number
  readonly stopped: boolean
  readonly dispositions: Record<string, number>
  readonly outcomes: Record<string, number>
  readonly causes: Record<string, number>
  readonly services: ReadonlyArray<string>
  readonly in_doubt: ReadonlyArray<{ file: string; line: number; endpoint: string }>
  readonly conflicts: ReadonlyArray<{ endpoint: string; known: { file: string; line: number }; other: { file: string; line: number } }>
}

const sendArgs = (baseUrl: string, journal: string, files: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) =>
  ["send", "--base-url", baseUrl, "--journal", journal, "--new-ledger", "--concurrency", "8", ...extra, ...files]

const expectNoToken = (...texts: ReadonlyArray<string | Buffer>) => {
  for (const text of texts) expect(Buffer.from(text).includes(TOKEN)).toBe(false)
}

/** Every record read ends in one disposition; every record sent in one outcome (or not sent, when stopped). */
const accountsAddUp = (report: Report): void => {
  const { send, unsent, ...judged } = report.dispositions
  expect(Object.values(judged).reduce((a, b) => a + b, 0) + send!).toBe(report.records)
  const { invalid: _, ...sent } = report.outcomes
  expect(Object.values(sent).reduce((a, b) => a + b, 0) + unsent!).toBe(send)
}

/** The ledger's records, as SQL reads them. */
const ledgerRows = (journal: string) => {
  const db = new (loadSqlite().DatabaseSync)(journal, { readOnly: true })
  try {
    return db.prepare("SELECT endpoint, key, state, outcome, cause, file, line FROM records").all() as Array<{
      endpoint: string
      key: string
      state: string
      outcome: string | null
      cause: string | null
      file: string
      line: number
    }>
  } finally {
    db.close()
  }
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
    // The kill left records in flight: their outcome is unknown to the ledger.
    const inFlight = ledgerRows(journal).filter((r) => r.state === "in_flight")
    expect(inFlight.length).toBeGreaterThan(0)

    // Run again; `failed` (retries exhausted: nothing known to be stored) is sent again by the next run.
    let second: Run | undefined
    let report: Report | undefined
    for (let run = 0; run < 3 && (report === undefined || report.outcomes["failed"] !== 0); run++) {
      second = await runCli([...sendArgs(service.baseUrl, journal, [input], ["--format", "json", "--results", results])], { env })
      report = JSON.parse(second.stdout) as Report
      accountsAddUp(report)
    }
    if (second === undefined || report === undefined) throw new Error("no second run")
    expect(report.records).toBe(2020)
    expect(report.dispositions["invalid"]).toBe(20)
    expect(report.outcomes["failed"], JSON.stringify(report)).toBe(0)
    expect(second.code).toBe(report.in_doubt.length === 0 ? 0 : 1)

    // A third run sends nothing: every outcome is known (or in doubt, and not sent again).
    const before = await stats(service.baseUrl)
    const third = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    const last = JSON.parse(third.stdout) as Report
    expect(last.dispositions["send"]).toBe(0)
    expect(last.dispositions["settled_before"]! + last.dispositions["kept_in_doubt"]!).toBe(2000)
    expect((await stats(service.baseUrl)).responses).toEqual(before.responses)
    // The invalid records were never sent: the service answered no 400.
    expect(before.responses["energy-amount"]?.["400"]).toBeUndefined()
    await service.stop()

    const rows = ledgerRows(journal)
    expect(rows).toHaveLength(2010)
    expect(rows.filter((r) => r.endpoint === "notes").every((r) => r.outcome === "created" || r.outcome === "already_existed")).toBe(true)
    expect(rows.filter((r) => r.outcome === "in_doubt").every((r) => r.endpoint === "energy-amount")).toBe(true)
    // In flight at the kill: notes were sent again (harmless), energy amounts are listed in doubt.
    for (const { key, endpoint } of inFlight) {
      const outcome = rows.find((r) => r.key === key)!.outcome
      if (endpoint === "notes") expect(["created", "already_existed"]).toContain(outcome)
      else expect(outcome).toBe("in_doubt")
    }

    // What the service stored, read from its state file.
    const db = new (loadSqlite().DatabaseSync)(state, { readOnly: true })
    const stateRows = (kind: string) => db.prepare("SELECT key, data FROM records WHERE kind = ?").all(kind) as Array<{ key: string | null; data: string }>
    const notes = stateRows("notes")
    expect(notes).toHaveLength(1000)
    expect(new Set(notes.map((n) => n.key)).size).toBe(1000)
    const stored = stateRows("energy_amounts").map((r) => (JSON.parse(r.data) as { line_item_identifier: string }).line_item_identifier)
    db.close()
    expect(new Set(stored).size).toBe(stored.length)
    const outcomeOfEnergy = new Map(rows.filter((r) => r.endpoint === "energy-amount" && r.outcome !== "invalid").map((r) => [(JSON.parse(r.key) as Array<string>)[7], r.outcome]))
    expect(outcomeOfEnergy.size).toBe(1000)
    // Every energy amount the ledger holds as created is stored; every stored one is created or listed in doubt.
    for (const [id, outcome] of outcomeOfEnergy) if (outcome === "created") expect(stored).toContain(id)
    for (const id of stored) expect(["created", "in_doubt"]).toContain(outcomeOfEnergy.get(id))

    // The token: in no output, not in the ledger's bytes (nor its WAL), not in the results.
    expectNoToken(first.out.stdout, first.out.stderr, second.stdout, second.stderr, third.stdout, third.stderr, service.out.stdout, service.out.stderr)
    for (const file of [journal, `${journal}-wal`, `${journal}-shm`, results]) if (existsSync(file)) expectNoToken(readFileSync(file))
  })

  it("SIGINT and SIGTERM stop cleanly: the answers in flight are written, nothing is in doubt, the next run sends the rest once", async () => {
    const service = await serve(["--latency-ms", "30"])
    const input = join(dir, "signals.ndjson")
    writeFileSync(input, `${Array.from({ length: 300 }, (_, i) => energy(i)).join("\n")}\n`)
    const journal = join(dir, "signals.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
      const run = start(sendArgs(service.baseUrl, journal, [input], ["--concurrency", "4"]), env)
      const already = (await stats(service.baseUrl)).stored["energy_amounts"] ?? 0
      while (((await stats(service.baseUrl)).stored["energy_amounts"] ?? 0) < already + 20) {
        if (run.child.exitCode !== null) throw new Error(`send ended before the signal: ${run.out.stdout}${run.out.stderr}`)
        await new Promise((r) => setTimeout(r, 10))
      }
      run.child.kill(signal)
      await run.exited
      expect(run.child.exitCode, run.out.stderr).toBe(code)
      expect(run.out.stdout).toMatch(/^Stopped after [\d,]+ lines? read: [\d,]+ records? not sent; run the same command again/mu)
      // What a stopped run meant to send is not what it sent: the rows under it say which went.
      expect(run.out.stdout).toMatch(/^ {2}to send +[\d,]+$/mu)
      expect(run.out.stdout).toMatch(/^ {4}not sent \(stopped\) +[\d,]+$/mu)
      expect(ledgerRows(journal).filter((r) => r.state === "in_flight" || r.outcome === "in_doubt")).toEqual([])
    }
    const last = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect(last.code).toBe(0)
    const report = JSON.parse(last.stdout) as Report
    expect(report.dispositions["settled_before"]! + report.outcomes["created"]!).toBe(300)
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(300)
    await service.stop()
  })

  it("SIGINT during the wait before a retry stops at once: no retry leaves, the records are failed and sent again by the next run", async () => {
    // Every request is answered 503 with Retry-After 30: without the stop, each retry waits 30 s.
    const service = await serve(["--fail-rate", "1", "--retry-after", "30", "--fault-seed", "1"])
    const input = join(dir, "stop-retry.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2)}\n`)
    const journal = join(dir, "stop-retry.journal")
    const run = start(sendArgs(service.baseUrl, journal, [input], ["--max-attempts", "5", "--format", "json"]), { DATA_IMPORT_TOKEN: TOKEN })
    const answered = async () => (await stats(service.baseUrl)).responses["energy-amount"]?.["503"] ?? 0
    while ((await answered()) < 2) {
      if (run.child.exitCode !== null) throw new Error(`send ended before the signal: ${run.out.stdout}${run.out.stderr}`)
      await new Promise((r) => setTimeout(r, 10))
    }
    const signalled = Date.now()
    run.child.kill("SIGINT")
    await run.exited
    expect(Date.now() - signalled).toBeLessThan(10_000)
    expect(run.child.exitCode, run.out.stderr).toBe(130)
    expect(await answered()).toBe(2)
    expect((JSON.parse(run.out.stdout) as Report).outcomes).toMatchObject({ failed: 2, in_doubt: 0 })
    expect(ledgerRows(journal).map((r) => r.outcome)).toEqual(["failed", "failed"])
    await service.stop()
  })
})

describe("data-import send", () => {
  it("the ledger knows records, not files: renamed, copied, given twice, appended to, fixed; other content for a stored record is a conflict", async () => {
    const service = await serve([])
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const journal = join(dir, "records.journal")
    const a = join(dir, "records-a.ndjson")
    writeFileSync(a, `${energy(1)}\n${energy(2)}\n${brokenEnergy(3)}\n`)
    const first = await runCli(sendArgs(service.baseUrl, journal, [a], ["--format", "json"]), { env })
    expect((JSON.parse(first.stdout) as Report).outcomes).toMatchObject({ created: 2, invalid: 1 })
    // The same records under another name and through a symbolic link, reordered, with the broken one
    // fixed and one record appended.
    const b = join(dir, "records-b.ndjson")
    writeFileSync(b, `${energy(2)}\n${energy(1)}\n${energy(3)}\n${energy(4)}\n`)
    const link = join(dir, "records-link.ndjson")
    symlinkSync(b, link)
    const second = await runCli(sendArgs(service.baseUrl, journal, [b, link], ["--format", "json"]), { env })
    const report = JSON.parse(second.stdout) as Report
    expect(report.dispositions).toMatchObject({ send: 2, settled_before: 2, duplicate: 4, invalid: 0 })
    expect(report.outcomes["created"]).toBe(2)
    // A stored amount met with another quantity: listed with both sources, never sent.
    const c = join(dir, "records-c.ndjson")
    writeFileSync(c, `${energy(1).replace('"1.5"', '"7.5"')}\n`)
    const third = await runCli(sendArgs(service.baseUrl, journal, [c], ["--format", "json"]), { env })
    const conflict = JSON.parse(third.stdout) as Report
    expect(third.code).toBe(1)
    expect(conflict.dispositions["conflict"]).toBe(1)
    expect(conflict.conflicts[0]).toMatchObject({ endpoint: "energy-amount", known: { file: a, line: 1 }, other: { file: c, line: 1 } })
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(4)
    await service.stop()
  })

  it("answers that arrived but were not committed (a kill between the grouped commits): notes sent again and already there, energy amounts in doubt and not sent", async () => {
    const service = await serve([])
    const input = join(dir, "uncommitted.ndjson")
    writeFileSync(input, `${Array.from({ length: 20 }, (_, i) => `${note(i)}\n${energy(i)}`).join("\n")}\n`)
    const journal = join(dir, "uncommitted.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const first = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect((JSON.parse(first.stdout) as Report).outcomes).toMatchObject({ created: 40 })
    // The ledger as a kill leaves it when the service stored every record and answered, and the
    // commit of those answers never happened: every record still in flight.
    const db = new (loadSqlite().DatabaseSync)(journal)
    db.exec("UPDATE records SET state = 'in_flight', outcome = NULL, http_status = NULL, cause = NULL, detail = NULL")
    db.close()
    const before = await stats(service.baseUrl)
    const second = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    const report = JSON.parse(second.stdout) as Report
    expect(second.code).toBe(1)
    expect(report.outcomes).toMatchObject({ already_existed: 20, created: 0, failed: 0 })
    expect(report.dispositions["kept_in_doubt"]).toBe(20)
    const after = await stats(service.baseUrl)
    expect(after.responses["energy-amount"]).toEqual(before.responses["energy-amount"])
    expect(after.stored).toEqual(before.stored)
    expect(after.stored["energy_amounts"]).toBe(20)
    expect(after.stored["notes"]).toBe(20)
    await service.stop()
  })

  it("a line that named no record stops counting once a later run reads a stored record there: the report ends complete", async () => {
    const service = await serve([])
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const input = join(dir, "stray.ndjson")
    const journal = join(dir, "stray.journal")
    // A stray header line in the middle of the payloads: one invalid line, the records around it stored.
    writeFileSync(input, `${energy(1)}\nimport_supplier,external_account_number\n${energy(2)}\n${energy(3)}\n`)
    expect((await runCli(sendArgs(service.baseUrl, journal, [input]), { env })).code).toBe(1)
    const before = await runCli(["report", "--journal", journal, "--format", "json"])
    expect(JSON.parse(before.stdout)).toMatchObject({ totals: { records: 4, invalid: 1 } })
    // The line removed: line 2 now holds a record stored by the first run.
    writeFileSync(input, `${energy(1)}\n${energy(2)}\n${energy(3)}\n`)
    const again = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect(again.code).toBe(0)
    expect((JSON.parse(again.stdout) as Report).dispositions["settled_before"]).toBe(3)
    const after = await runCli(["report", "--journal", journal, "--format", "json"])
    expect(after.code, after.stdout).toBe(0)
    expect(JSON.parse(after.stdout)).toMatchObject({ totals: { records: 3, created: 3, invalid: 0 } })
    await service.stop()
  })

  it("a wrong token: failed, nothing stored, exit 1; the same command with the right token sends them", async () => {
    const service = await serve([])
    const input = join(dir, "token.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2)}\n${energy(3)}\n`)
    const journal = join(dir, "token.journal")
    const wrong = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env: { DATA_IMPORT_TOKEN: "not-the-token" } })
    expect(wrong.code).toBe(1)
    expect((JSON.parse(wrong.stdout) as Report).outcomes).toMatchObject({ failed: 3, created: 0 })
    expect(wrong.stdout + wrong.stderr).not.toContain("not-the-token")
    const right = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(right.code).toBe(0)
    expect((JSON.parse(right.stdout) as Report).outcomes).toMatchObject({ created: 3, failed: 0 })
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(3)
    await service.stop()
  })

  it("an account that is not imported is blocked, and sent again by later runs; --dry-run reads the ledger, sends nothing and writes nothing", async () => {
    const service = await serve([])
    const input = join(dir, "dry.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2, "KD-2")}\n${invalidEnergy(3)}\n`)
    const journal = join(dir, "dry.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const dry = await runCli(sendArgs(service.baseUrl, journal, [input], ["--dry-run", "--format", "json"]), { env })
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, records: 3, dispositions: { invalid: 1, send: 2 } })
    expect(existsSync(journal)).toBe(false)
    expect((await stats(service.baseUrl)).responses).toEqual({})
    const real = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json"]), { env })
    expect(real.code).toBe(1)
    const report = JSON.parse(real.stdout) as Report
    expect(report.outcomes).toMatchObject({ created: 1, blocked: 1, invalid: 1 })
    expect(report.causes).toEqual({ "blocked:account_not_imported": 1 })
    // After the real run, a dry run says exactly what the next run would do: the blocked one again.
    const dryAgain = await runCli(sendArgs(service.baseUrl, journal, [input], ["--dry-run", "--format", "json"]), { env })
    expect(JSON.parse(dryAgain.stdout)).toMatchObject({ dispositions: { send: 1, settled_before: 1, invalid: 1 } })
    await service.stop()
  })

  it("a second run on a ledger in use is refused: the same records are never sent by two runs at once", async () => {
    // Answers take 4 s: the first run holds the ledger while the second starts, even on a busy machine.
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
    // The ledger of a running send is read all the same: the report, status --journal and a dry run.
    await new Promise((r) => setTimeout(r, 500))
    const report = await runCli(["report", "--journal", journal, "--format", "json"])
    expect(report.code, report.stderr).toBe(1)
    expect(JSON.parse(report.stdout)).toMatchObject({ totals: { records: 2, in_flight: 2 } })
    const status = await runCli(["status", "--base-url", service.baseUrl, "--journal", journal, "--format", "json", SUPPLIER, "KD-1"], { env })
    expect(status.stderr).toBe("")
    expect(JSON.parse(status.stdout), status.stdout).toMatchObject({ ledger: { records: 2 } })
    const dry = await runCli(sendArgs(service.baseUrl, journal, [input], ["--dry-run", "--format", "json"]), { env })
    expect(dry.stderr).not.toContain("in use")
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, records: 2 })
    await first.exited
    expect(first.child.exitCode).toBe(0)
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(2)
    await service.stop()
  })

  it("a ledger outlives a port only when told: another base URL is refused naming --new-base-url; the report lists every URL", async () => {
    const service = await serve([])
    const input = join(dir, "port.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const journal = join(dir, "port.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    expect((await runCli(sendArgs(service.baseUrl, journal, [input]), { env })).code).toBe(0)
    const other = service.baseUrl.replace("127.0.0.1", "localhost")
    const refused = await runCli(sendArgs(other, journal, [input]), { env })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("--new-base-url")
    const moved = await runCli(sendArgs(other, journal, [input], ["--new-base-url", "--format", "json"]), { env })
    expect(moved.code).toBe(0)
    expect((JSON.parse(moved.stdout) as Report).services).toEqual([`${service.baseUrl}/`, `${other}/`])
    await service.stop()
  })

  it("reads lines as validate does: a bare carriage return is no line break, and line numbers stay physical", async () => {
    const service = await serve([])
    const input = join(dir, "cr.ndjson")
    writeFileSync(input, `${energy(1).replace(",", ",\r")}\r\n\n${energy(2)}\n`)
    const journal = join(dir, "cr.journal")
    const results = join(dir, "cr-results.ndjson")
    const run = await runCli(sendArgs(service.baseUrl, journal, [input], ["--format", "json", "--results", results]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(run.code).toBe(0)
    expect((JSON.parse(run.stdout) as Report).outcomes["created"]).toBe(2)
    const lines = readFileSync(results, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { line: number }).line).sort()
    expect(lines).toEqual([1, 3])
    await service.stop()
  })

  it("warnings are shown in text and JSON (also --dry-run); --fail-on-warnings keeps such a record back and lists it", async () => {
    const service = await serve([])
    const input = join(dir, "warnings.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2).replace('"KWH"', '"MWH"')}\n`)
    const journal = join(dir, "warnings.journal")
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const dry = await runCli(sendArgs(service.baseUrl, journal, [input], ["--dry-run", "--format", "json"]), { env })
    expect(JSON.parse(dry.stdout)).toMatchObject({ warnings: { unknown_choice: 1 }, first_warnings: [{ line: 2, attr: "energy_amount.quantity_unit", code: "unknown_choice" }] })
    const strict = await runCli(sendArgs(service.baseUrl, journal, [input], ["--fail-on-warnings"]), { env })
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain("warnings: unknown_choice 1")
    expect(strict.stdout).toMatch(/warnings\.ndjson:2 energy_amount\.quantity_unit unknown_choice/u)
    expect(strict.stdout).toMatch(/invalid .*warnings\.ndjson:2 energy-amount: unknown_choice/u)
    expect((await stats(service.baseUrl)).stored["energy_amounts"]).toBe(1)
    await service.stop()
  })

  it("a 429 or 503 in text or HTML from a gateway is retried, a 401 in text fails the run: nothing left in doubt", async () => {
    // A stand-in service behind a gateway: the first answers are the gateway's, in its own words.
    const answers: Array<readonly [number, string]> = [[429, "Too Many Requests"], [503, "<html><body>503 Service Temporarily Unavailable</body></html>"]]
    let gatewayRefuses = false
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      req.on("end", () => {
        const next = gatewayRefuses ? ([401, "Unauthorized"] as const) : answers.shift()
        if (next !== undefined) {
          res.writeHead(next[0], { "Content-Type": "text/html", "Retry-After": "0" }).end(next[1])
          return
        }
        res.writeHead(201, { "Content-Type": "application/json" }).end(body)
      })
    })
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const input = join(dir, "gateway.ndjson")
      writeFileSync(input, `${energy(1)}\n${energy(2)}\n`)
      const env = { DATA_IMPORT_TOKEN: TOKEN }
      const run = await runCli(sendArgs(baseUrl, join(dir, "gateway.journal"), [input], ["--format", "json", "--concurrency", "1"]), { env })
      expect(run.code, run.stdout).toBe(0)
      expect((JSON.parse(run.stdout) as Report).outcomes).toMatchObject({ created: 2, in_doubt: 0 })
      gatewayRefuses = true
      writeFileSync(input, `${energy(3)}\n${energy(4)}\n`)
      const refused = await runCli(sendArgs(baseUrl, join(dir, "gateway.journal"), [input], ["--format", "json"]), { env })
      expect((JSON.parse(refused.stdout) as Report).outcomes).toMatchObject({ failed: 2, in_doubt: 0 })
    } finally {
      server.close()
    }
  })

  it("an input that is missing or a directory ends with exit 3, naming it, before anything is sent", async () => {
    const input = join(dir, "present.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const folder = join(dir, "folder.ndjson")
    mkdirSync(folder, { recursive: true })
    const journal = join(dir, "unread.ledger")
    // No service listens on port 9: a run that got as far as sending would end otherwise (failed, exit 1).
    for (const [name, why] of [[join(dir, "absent.ndjson"), "no such file"], [folder, "is a directory"]] as const) {
      const run = await runCli(sendArgs("http://127.0.0.1:9", journal, [input, name]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
      expect(run.code).toBe(3)
      expect(run.stderr).toBe(`data-import: cannot read ${name}: ${why}\n`)
      expect(existsSync(journal)).toBe(false)
    }
  })

  it("map's rejects or lineage, or send's results, given for the payloads are refused (exit 2) before the ledger is opened", async () => {
    const files = {
      "map's --rejects": `{"file":"export.csv","lines":[5],"rows":[{"Konto":"KD-1"}],"raw":["KD-1;;"],"errors":[{"code":"invalid_date","detail":"…"}]}\n`,
      "map's --lineage": `{"payload":0,"lines":[2,3]}\n{"payload":1,"lines":[4]}\n`,
      "send's --results": `{"file":"/data/a.ndjson","line":1,"endpoint":"energy-amount","key":[],"state":"done","outcome":"created"}\n`
    }
    const journal = join(dir, "side-files.ledger")
    for (const [what, text] of Object.entries(files)) {
      const input = join(dir, `side-${what.replace(/\W+/gu, "-")}.ndjson`)
      writeFileSync(input, text)
      const run = await runCli(sendArgs("http://127.0.0.1:9", journal, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
      expect(run.code, what).toBe(2)
      expect(run.stderr).toBe(`data-import: ${input} is ${what} file, not payloads: its first line is no record to send; send the payloads (map's --out)\n`)
    }
    expect(existsSync(journal)).toBe(false)
  })

  it("a ledger in a folder that does not exist, or a folder, is named as such (exit 3) before anything is sent", async () => {
    const input = join(dir, "astray.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const missing = join(dir, "no-such-folder", "migration.ledger")
    const astray = await runCli(sendArgs("http://127.0.0.1:9", missing, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(astray.code).toBe(3)
    expect(astray.stderr).toBe(`data-import: the ledger ${missing} cannot be created: the folder ${join(dir, "no-such-folder")} does not exist\n`)
    const folder = join(dir, "ledger-folder")
    mkdirSync(folder, { recursive: true })
    for (const args of [sendArgs("http://127.0.0.1:9", folder, [input]), sendArgs("http://127.0.0.1:9", folder, [input], ["--dry-run"])]) {
      const run = await runCli(args, { env: { DATA_IMPORT_TOKEN: TOKEN } })
      expect(run.code).toBe(3)
      expect(run.stderr).toBe(`data-import: the ledger ${folder} is a folder, not a file: give the path of the campaign's ledger file\n`)
    }
    const status = await runCli(["status", "--base-url", "http://127.0.0.1:9", "--journal", folder, SUPPLIER], { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(status.code).toBe(3)
    expect(status.stderr).toContain(`the ledger ${folder} is a folder`)
  })

  it("counts one record in one line in the singular", async () => {
    const input = join(dir, "one.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const journal = join(dir, "one.ledger")
    const run = await runCli(sendArgs("http://127.0.0.1:9", journal, [input], ["--dry-run"]))
    expect(run.stdout.split("\n")[0]).toBe(`1 record in 1 line (dry run: nothing sent) (ledger ${journal})`)
  })

  it("a ledger that is not a database ends with exit 3 and SQLite's reason", async () => {
    const input = join(dir, "corrupt.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const journal = join(dir, "corrupt.journal")
    writeFileSync(journal, "this is no database, just text long enough to be read as a header of one".repeat(20))
    const run = await runCli(sendArgs("http://127.0.0.1:9", journal, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(run.code).toBe(3)
    expect(run.stderr).toContain("file is not a database")
    expect(run.stderr).not.toContain("internal error")
  })

  it("a database that is not a ledger (another tool's, the legacy export's) is refused and left as it was", async () => {
    const input = join(dir, "foreign.ndjson")
    writeFileSync(input, `${energy(1)}\n`)
    const journal = join(dir, "customers.db")
    const { DatabaseSync } = loadSqlite()
    const db = new DatabaseSync(journal)
    db.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Erika Mustermann');")
    db.close()
    const before = readFileSync(journal)
    const run = await runCli(sendArgs("http://127.0.0.1:9", journal, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("is not a ledger of data-import")
    expect(readFileSync(journal).equals(before)).toBe(true)
    const after = new DatabaseSync(journal, { readOnly: true })
    const tables = after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r["name"])
    after.close()
    expect(tables).toEqual(["customers"])
  })

  it("a full disk ends the run with exit 3 and SQLite's reason, not an internal error", async () => {
    // A file system of 256 KiB holds the ledger: it fills up within the first few hundred records.
    const mount = join(dir, "full-disk")
    mkdirSync(mount, { recursive: true })
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mount])
    try {
      const service = await serve([])
      const input = join(dir, "full.ndjson")
      writeFileSync(input, `${Array.from({ length: 3000 }, (_, i) => energy(i)).join("\n")}\n`)
      const run = await runCli(sendArgs(service.baseUrl, join(mount, "full.ledger"), [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
      expect(run.code, run.stderr).toBe(3)
      expect(run.stderr).toMatch(/database or disk is full/u)
      expect(run.stderr).not.toContain("internal error")
      await service.stop()
    } finally {
      execFileSync("umount", [mount])
    }
  })

  it("usage errors: no token, plain http to another host, a base URL with a query or fragment, stdin, a .json file", async () => {
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
    const query = await runCli(sendArgs("http://127.0.0.1:9/?x=1", journal, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(query.code).toBe(2)
    expect(query.stderr).toContain("query")
    const fragment = await runCli(sendArgs("http://127.0.0.1:9/#top", journal, [input]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(fragment.code).toBe(2)
    expect(fragment.stderr).toContain("fragment")
    const stdin = await runCli(sendArgs("http://127.0.0.1:9", journal, ["-"]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(stdin.code).toBe(2)
    const json = await runCli(sendArgs("http://127.0.0.1:9", journal, [join(dir, "payload.json")]), { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(json.code).toBe(2)
    expect(json.stderr).toContain("NDJSON")
    expect(existsSync(journal)).toBe(false)
    for (const run of [noToken, insecure, query, fragment, stdin, json] as ReadonlyArray<Run>) expectNoToken(run.stdout, run.stderr)
  })
})

describe("data-import send: the pre-import data out of order", () => {
  it("fees and definitions sent before their participants are blocked, and sent by the run after the participants", async () => {
    const service = await serve([])
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const journal = join(dir, "pre-import.ledger")
    const mapped = async (kind: string): Promise<string> => {
      const out = join(dir, `pre-import-${kind}.ndjson`)
      const run = await runCli(["map", "-m", join(ROOT, "examples", "mappings", `${kind}.mapping.json`), "-o", out, join(ROOT, "examples", "mappings", `${kind}.csv`)])
      expect(run.code, run.stderr).toBe(0)
      return out
    }
    const participants = await mapped("market-participants")
    const dependants = [await mapped("market-participant-fees"), await mapped("market-participant-definitions")]
    const early = await runCli(sendArgs(service.baseUrl, journal, dependants, ["--format", "json"]), { env })
    expect(early.code).toBe(1)
    const first = JSON.parse(early.stdout) as Report
    expect(first.outcomes).toMatchObject({ blocked: first.records, rejected: 0 })
    expect(Object.keys(first.causes).sort()).toEqual(["blocked:market_participant_not_imported", "blocked:network_operator_not_imported"])
    expect((await runCli(sendArgs(service.baseUrl, journal, [participants]), { env })).code).toBe(0)
    // The same files, unchanged: nothing to fix in them, only an order to keep.
    const late = await runCli(sendArgs(service.baseUrl, journal, dependants, ["--format", "json"]), { env })
    expect(late.code).toBe(0)
    expect((JSON.parse(late.stdout) as Report).outcomes).toMatchObject({ created: first.records, blocked: 0 })
    await service.stop()
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

  it("a token the service refuses (401): exit 2 naming the variable, as for a refused API key; never the token", async () => {
    const service = await serve([])
    const wrong = "tok-wrong-5521-secret"
    const env = { DATA_IMPORT_TOKEN: wrong, DATA_IMPORT_API_KEY: "" }
    for (const args of [[SUPPLIER, "KD-1"], [SUPPLIER]]) {
      const run = await runCli(["status", "--base-url", service.baseUrl, ...args], { env })
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toContain("DATA_IMPORT_TOKEN")
      expect(run.stderr).toContain("401")
      expect(run.stdout + run.stderr).not.toContain(wrong)
    }
    await service.stop()
  })

  it("with --journal it adds the ledger's word on the supplier: records refused although the service lists no pending account, exit 1", async () => {
    const service = await serve([])
    const env = { DATA_IMPORT_TOKEN: TOKEN }
    const input = join(dir, "status.ndjson")
    writeFileSync(input, `${energy(1)}\n${energy(2, "KD-2")}\n${energy(3, "KD-2")}\n`)
    const journal = join(dir, "status.journal")
    await runCli(sendArgs(service.baseUrl, journal, [input]), { env })
    const asked = await runCli(["status", "--base-url", service.baseUrl, "--journal", journal, SUPPLIER, "KD-1"], { env })
    expect(asked.code).toBe(1)
    expect(asked.stdout).toContain("every account asked about (1) is imported")
    expect(asked.stdout).toContain(`${SUPPLIER} in the ledger ${journal}: 3 records, 1 stored; not stored: blocked account not imported 2`)
    const json = await runCli(["status", "--base-url", service.baseUrl, "--journal", journal, "--format", "json", SUPPLIER], { env })
    expect(JSON.parse(json.stdout)).toMatchObject({ ledger: { records: 3, stored: 1, open: { "blocked:account_not_imported": 2 } } })
    // The wording names what each endpoint answers, as the catalogue documents it.
    const pending = await runCli(["status", "--base-url", service.baseUrl, SUPPLIER], { env })
    expect(pending.stdout).toContain("404 on notes, delivery-note, energy-amount, market-participant-invoice; 400 account_not_found or import_process_does_not_exist on transactions, historical-statements, payment-instruction")
    expect(pending.stdout).not.toContain("the service answers 404 for them")
    await service.stop()
  })

  it("with a --journal that does not exist it says so before asking the service, exit 3", async () => {
    const journal = join(dir, "elsewhere", "migration.ledger")
    // No service listens on port 9: asking it first would end with another message.
    const run = await runCli(["status", "--base-url", "http://127.0.0.1:9", "--journal", journal, SUPPLIER, "KD-1"], { env: { DATA_IMPORT_TOKEN: TOKEN } })
    expect(run.code).toBe(3)
    expect(run.stderr).toBe(`data-import: the ledger ${journal} does not exist\n`)
    expect(existsSync(journal)).toBe(false)
  })
})
