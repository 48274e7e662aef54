/**
 * Decisions applied later, through the built CLI against `data-import serve`: a transaction refused for
 * the closed statement period is sent again by a later run with --force-add-to-current-statement, one
 * the service skipped as already there by a later run with --no-check-previously-added; the messages
 * and the report name the flag. A ledger of the previous format (no record options) keeps working.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { CLI, runCli, tempDir } from "./run-cli.js"

const TOKEN = "tok-decisions-secret"
const SUPPLIER = "STADTWERKE_NORD"
const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
  accounts: [
    {
      import_supplier: SUPPLIER,
      external_account_number: "KD-1",
      status: "COMPLETED",
      service_account_number: "A-1",
      account_created_at: "2024-01-02T10:00:00Z",
      open_statement_period: { start: "2024-06-01", end: "2024-06-30" }
    }
  ]
}
const env = { DATA_IMPORT_TOKEN: TOKEN }

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

const serve = async () => {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--seed", seedFile], { stdio: ["pipe", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")))
  const deadline = Date.now() + 20_000
  while (!stdout.includes("\n")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("serve did not start")
    await new Promise((r) => setTimeout(r, 20))
  }
  const exited = once(child, "exit")
  return {
    baseUrl: stdout.split("\n")[0]!.slice("listening on ".length),
    stop: async () => {
      child.kill("SIGTERM")
      await exited
    }
  }
}

type Stats = { stored: Record<string, number>; responses: Record<string, Record<string, number>> }
const stats = async (baseUrl: string): Promise<Stats> =>
  (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as Stats

const transactions = (...items: ReadonlyArray<{ id: string; date: string }>) =>
  JSON.stringify({
    import_supplier: SUPPLIER,
    external_account_number: "KD-1",
    transactions: items.map(({ id, date }) => ({ transaction_id: id, transaction_date: date, amount: 12.5, type: "CREDIT", display_note: "Gutschrift" }))
  })

interface Report {
  readonly dispositions: Record<string, number>
  readonly outcomes: Record<string, number>
  readonly option_decisions?: Record<string, number>
}

const send = (baseUrl: string, journal: string, input: string, extra: ReadonlyArray<string> = []) =>
  runCli(["send", "--base-url", baseUrl, "--journal", journal, "--new-ledger", "--format", "json", ...extra, input], { env })

describe("data-import send: decisions applied later", () => {
  it("a transaction refused for the closed statement period is sent again once --force-add-to-current-statement is given, and only then", async () => {
    const service = await serve()
    const input = join(dir, "period.ndjson")
    // T-1 lies in the open period, T-2 before it.
    writeFileSync(input, `${transactions({ id: "T-1", date: "2024-06-10" }, { id: "T-2", date: "2024-03-15" })}\n`)
    const journal = join(dir, "period.ledger")
    const results = join(dir, "period-results.ndjson")

    const first = await send(service.baseUrl, journal, input, ["--results", results])
    expect(first.code).toBe(1)
    expect((JSON.parse(first.stdout) as Report).outcomes).toMatchObject({ created: 1, rejected: 1 })
    const rejected = readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { outcome: string; cause: string; detail: unknown }).find((r) => r.outcome === "rejected")!
    expect(rejected.cause).toBe("TRANSACTION_IMPORT_ERROR")
    expect(JSON.stringify(rejected.detail)).toContain("--force-add-to-current-statement")

    // Without the flag: not sent again, and the text report names the flag.
    const again = await runCli(["send", "--base-url", service.baseUrl, "--journal", journal, "--new-ledger", input], { env })
    expect(again.code).toBe(1)
    expect(again.stdout).toMatch(/rejected before\s+1/u)
    expect(again.stdout).toContain("--force-add-to-current-statement")
    // The campaign report's to-do list names it too.
    const todo = await runCli(["report", "--journal", journal, "--format", "csv"])
    const row = todo.stdout.split("\r\n").find((l) => l.startsWith("rejected,"))!
    expect(row).toContain("TRANSACTION_IMPORT_ERROR")
    expect(row).toContain("--force-add-to-current-statement")
    expect((await stats(service.baseUrl)).stored["transactions"]).toBe(1)

    // The decision: sent again, moved into the period, a note pinned.
    const forced = await send(service.baseUrl, journal, input, ["--force-add-to-current-statement"])
    const report = JSON.parse(forced.stdout) as Report
    expect(report.dispositions).toMatchObject({ send: 1, settled_before: 1, rejected_before: 0 })
    expect(report.outcomes).toMatchObject({ moved: 1, rejected: 0 })
    expect(forced.code).toBe(0)
    const after = await stats(service.baseUrl)
    expect(after.stored["transactions"]).toBe(2)
    expect(after.stored["notes"]).toBe(1)

    // Stored now: never sent again, whatever the flags.
    const last = await send(service.baseUrl, journal, input, ["--force-add-to-current-statement"])
    expect((JSON.parse(last.stdout) as Report).dispositions).toMatchObject({ send: 0, settled_before: 2 })
    expect((await stats(service.baseUrl)).responses["transactions"]).toEqual(after.responses["transactions"])
    await service.stop()
  })

  it("a transaction the service skipped as already there is sent again with --no-check-previously-added, once; one the ledger may have stored itself is not", async () => {
    const service = await serve()
    const input = join(dir, "previously.ndjson")
    writeFileSync(input, `${transactions({ id: "T-7", date: "2024-06-11" })}\n`)
    const own = join(dir, "previously-own.ndjson")
    writeFileSync(own, `${transactions({ id: "T-8", date: "2024-06-12" })}\n`)
    // Another campaign stored T-7 before this one.
    const other = join(dir, "previously-other.ledger")
    expect((await send(service.baseUrl, other, input)).code).toBe(0)

    const journal = join(dir, "previously.ledger")
    const first = await send(service.baseUrl, journal, input)
    expect((JSON.parse(first.stdout) as Report).outcomes).toMatchObject({ already_existed: 1 })
    // T-8: sent by this ledger, its answer lost (as a kill between the commits leaves it), then answered as already there.
    expect((await send(service.baseUrl, journal, own)).code).toBe(0)
    const db = new (loadSqlite().DatabaseSync)(journal)
    db.prepare("UPDATE records SET state = 'in_flight', outcome = NULL WHERE key LIKE ?").run("%T-8%")
    db.close()
    const repeated = await send(service.baseUrl, journal, own)
    expect((JSON.parse(repeated.stdout) as Report).outcomes).toMatchObject({ already_existed: 1 })

    const decided = await send(service.baseUrl, journal, input, ["--no-check-previously-added"])
    expect((JSON.parse(decided.stdout) as Report).outcomes).toMatchObject({ created: 1 })
    const ownAgain = await send(service.baseUrl, journal, own, ["--no-check-previously-added"])
    expect((JSON.parse(ownAgain.stdout) as Report).dispositions).toMatchObject({ send: 0, settled_before: 1 })
    const twice = await send(service.baseUrl, journal, input, ["--no-check-previously-added"])
    expect((JSON.parse(twice.stdout) as Report).dispositions).toMatchObject({ send: 0, settled_before: 1 })
    // T-7 twice (the decision), T-8 once.
    expect((await stats(service.baseUrl)).stored["transactions"]).toBe(3)
    await service.stop()
  })

  it("a ledger of the previous format (records without options) is migrated on open: its refused transactions take the decision", async () => {
    const service = await serve()
    const input = join(dir, "old-format.ndjson")
    writeFileSync(input, `${transactions({ id: "T-3", date: "2024-02-01" })}\n`)
    const journal = join(dir, "old-format.ledger")
    expect((await send(service.baseUrl, journal, input)).code).toBe(1)
    // The ledger as the previous version wrote it: no columns of options.
    const db = new (loadSqlite().DatabaseSync)(journal)
    const columns = (db.prepare("SELECT name FROM pragma_table_info('records')").all() as Array<{ name: string }>).map((c) => c.name)
    for (const column of columns.filter((c) => c === "options" || c === "sent_at")) db.exec(`ALTER TABLE records DROP COLUMN ${column}`)
    db.close()
    const forced = await send(service.baseUrl, journal, input, ["--force-add-to-current-statement"])
    expect((JSON.parse(forced.stdout) as Report).outcomes).toMatchObject({ moved: 1 })
    expect(forced.code).toBe(0)
    await service.stop()
  })
})
