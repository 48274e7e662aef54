/**
 * Every doubt can be settled, rehearsed end to end through the built CLI against `data-import serve`: a
 * send killed with SIGKILL leaves records in doubt; `report --in-doubt` lists them as CSV (natural keys in
 * wall time and UTC, source, when sent); the reference service's lookup answers which are stored;
 * `resolve` records the answer (refusing keys that name no record in doubt); the next run sends the rest,
 * and the campaign ends with no duplicate and nothing in doubt. `--resend-in-doubt` warns with its count.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { afterEach, describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { energyAmountLine } from "../support/energy-amount-line.js"
import { CLI, runCli, tempDir } from "./run-cli.js"

const TOKEN = "tok-resolve-secret"
const SUPPLIER = "STADTWERKE_NORD"
const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
  accounts: [{ import_supplier: SUPPLIER, external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z" }]
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

const start = (args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } })
  children.add(child)
  const out = { stdout: "" }
  child.stdout.on("data", (b: Buffer) => (out.stdout += b.toString("utf8")))
  return { child, out, exited: once(child, "exit") }
}

const serve = async (args: ReadonlyArray<string>) => {
  const s = start(["serve", "--port", "0", "--seed", seedFile, ...args])
  const deadline = Date.now() + 20_000
  while (!s.out.stdout.includes("\n")) {
    if (Date.now() > deadline || s.child.exitCode !== null) throw new Error("serve did not start")
    await new Promise((r) => setTimeout(r, 20))
  }
  return { baseUrl: s.out.stdout.split("\n")[0]!.slice("listening on ".length), stop: async () => (s.child.kill("SIGTERM"), await s.exited) }
}

const authorized = { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" }
const storedEnergy = async (baseUrl: string): Promise<number> =>
  ((await (await fetch(`${baseUrl}/_reference/stats`, { headers: authorized })).json()) as { stored: Record<string, number> }).stored["energy_amounts"]!

const energy = (i: number) => energyAmountLine({ supplier: SUPPLIER, quantity: `${i}.5`, line: `L-${i}` })

const send = (baseUrl: string, journal: string, input: string, extra: ReadonlyArray<string> = []) =>
  runCli(["send", "--base-url", baseUrl, "--journal", journal, "--new-ledger", "--concurrency", "8", "--format", "json", ...extra, input], { env })

const inDoubtInLedger = (journal: string): number => {
  const db = new (loadSqlite().DatabaseSync)(journal, { readOnly: true })
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM records WHERE state = 'in_flight' OR outcome = 'in_doubt'").get() as { n: number }).n
  } finally {
    db.close()
  }
}

type InDoubtRow = Record<"endpoint" | "supplier" | "account" | "key" | "key_utc" | "source_file" | "source_lines" | "payload_file" | "payload_line" | "sent_at" | "sent_at_utc" | "cause", string>

describe("data-import resolve: settling the records in doubt", () => {
  it("SIGKILL, the in-doubt CSV, the rehearsal lookup, resolve, send again: no duplicate, nothing in doubt", async () => {
    const state = join(dir, "rehearsal-state.sqlite")
    const service = await serve(["--state", state, "--latency-ms", "25"])
    const input = join(dir, "rehearsal.ndjson")
    const total = 300
    writeFileSync(input, `${Array.from({ length: total }, (_, i) => energy(i)).join("\n")}\n`)
    const journal = join(dir, "rehearsal.ledger")

    const first = start(["send", "--base-url", service.baseUrl, "--journal", journal, "--new-ledger", "--concurrency", "8", input])
    while ((await storedEnergy(service.baseUrl)) < 80) {
      if (first.child.exitCode !== null) throw new Error("send ended before it could be killed")
      await new Promise((r) => setTimeout(r, 5))
    }
    first.child.kill("SIGKILL")
    await first.exited
    // The next run sends the rest and keeps back what was in flight: energy amounts are not harmless to repeat.
    const second = await send(service.baseUrl, journal, input)
    const inDoubt = inDoubtInLedger(journal)
    expect(inDoubt).toBeGreaterThan(0)
    expect((JSON.parse(second.stdout) as { dispositions: Record<string, number> }).dispositions["kept_in_doubt"]).toBe(inDoubt)
    expect(second.code).toBe(1)

    // The operators' list.
    const listFile = join(dir, "in-doubt.csv")
    const report = await runCli(["report", "--journal", journal, "--in-doubt", listFile])
    expect(report.code).toBe(1)
    const text = readFileSync(listFile, "utf8")
    expect(text.split("\r\n")[0]).toBe("endpoint,supplier,account,key,key_utc,source_file,source_lines,payload_file,payload_line,sent_at,sent_at_utc,cause")
    const rows = parse(text, { columns: true }) as Array<InDoubtRow>
    expect(rows).toHaveLength(inDoubt)
    for (const row of rows) {
      const line = Number(row.payload_line)
      expect(row).toMatchObject({ endpoint: "energy-amount", supplier: SUPPLIER, account: "KD-1", source_file: input, source_lines: String(line), payload_file: input })
      // Line n holds L-(n-1); its period in wall time of Berlin (summer time, then winter time) and in UTC.
      expect(JSON.parse(row.key)).toEqual(["energy-amount", SUPPLIER, "KD-1", "51238696781", "2024-10-01T00:00:00+02:00", "2024-10-31T23:59:59+01:00", "1-1:1.8.0", `L-${line - 1}`, null])
      expect(JSON.parse(row.key_utc)).toEqual(["energy-amount", SUPPLIER, "KD-1", "51238696781", "2024-09-30T22:00:00Z", "2024-10-31T22:59:59Z", "1-1:1.8.0", `L-${line - 1}`, null])
      expect(row.key).not.toContain("@")
      expect(row.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/u)
      expect(new Date(row.sent_at).getTime()).toBe(new Date(row.sent_at_utc).getTime())
      expect(Math.abs(Date.now() - new Date(row.sent_at_utc).getTime())).toBeLessThan(10 * 60_000)
    }

    // The rehearsal lookup: what the operators would answer.
    const asked = await fetch(`${service.baseUrl}/_reference/lookup/`, { method: "POST", headers: authorized, body: JSON.stringify({ keys: rows.map((r) => r.key) }) })
    expect(asked.status).toBe(200)
    const answer = (await asked.json()) as { stored: Array<string>; not_stored: Array<string>; unknown: Array<string> }
    expect(answer.unknown).toEqual([])
    expect(answer.stored.length + answer.not_stored.length).toBe(inDoubt)
    // Every record not in doubt is stored once; so the service holds exactly those and the ones it says it has.
    expect(await storedEnergy(service.baseUrl)).toBe(total - inDoubt + answer.stored.length)
    const refused = await fetch(`${service.baseUrl}/_reference/lookup/`, { method: "POST", headers: authorized, body: JSON.stringify({ keys: ["KD-1"] }) })
    expect(refused.status).toBe(400)

    // A key that names no record in doubt: refused, named, nothing recorded.
    const storedFile = join(dir, "stored.txt")
    const bogus = JSON.stringify(["energy-amount", SUPPLIER, "KD-1", "51238696781", "2024-10-01T00:00:00+02:00", "2024-10-31T23:59:59+01:00", "1-1:1.8.0", "L-9999", null])
    writeFileSync(storedFile, `${[...answer.stored, bogus].join("\n")}\n`)
    const wrong = await runCli(["resolve", "--journal", journal, "--stored", storedFile])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain("L-9999")
    expect(wrong.stderr).toContain("nothing was recorded")
    expect(inDoubtInLedger(journal)).toBe(inDoubt)

    // The answer: stored ones as keys in wall time; not-stored ones as rows of the CSV itself (its UTC keys only).
    writeFileSync(storedFile, answer.stored.map((k) => `${k}\n`).join(""))
    const notStoredFile = join(dir, "not-stored.csv")
    const notStored = rows.filter((r) => answer.not_stored.includes(r.key))
    writeFileSync(notStoredFile, `key_utc,source_file\r\n${notStored.map((r) => `"${r.key_utc.replaceAll("\"", "\"\"")}",${r.source_file}\r\n`).join("")}`)
    const resolved = await runCli(["resolve", "--journal", journal, "--stored", storedFile, "--not-stored", notStoredFile])
    expect(resolved.stderr).toBe("")
    expect(resolved.code).toBe(0)
    expect(resolved.stdout).toContain(`${answer.stored.length === 1 ? "1 record" : `${answer.stored.length} records`} in doubt settled as stored`)
    expect(resolved.stdout).toContain("0 records still in doubt")
    expect(inDoubtInLedger(journal)).toBe(0)

    // The next run sends those not stored, and the campaign is complete: every amount once.
    const third = await send(service.baseUrl, journal, input)
    const summary = JSON.parse(third.stdout) as { dispositions: Record<string, number>; outcomes: Record<string, number> }
    expect(summary.dispositions).toMatchObject({ send: answer.not_stored.length, settled_before: total - answer.not_stored.length, kept_in_doubt: 0 })
    expect(summary.outcomes["created"]).toBe(answer.not_stored.length)
    expect(third.code).toBe(0)
    expect(await storedEnergy(service.baseUrl)).toBe(total)
    await service.stop()
    const db = new (loadSqlite().DatabaseSync)(state, { readOnly: true })
    const items = (db.prepare("SELECT data FROM records WHERE kind = 'energy_amounts'").all() as Array<{ data: string }>).map((r) => (JSON.parse(r.data) as { line_item_identifier: string }).line_item_identifier)
    db.close()
    expect(new Set(items).size).toBe(total)
    const final = await runCli(["report", "--journal", journal, "--in-doubt", listFile])
    expect(final.code).toBe(0)
    expect(readFileSync(listFile, "utf8").split("\r\n").filter((l) => l !== "")).toHaveLength(1)
  })

  it("--resend-in-doubt sends them again anyway, and its warning counts the possible duplicates", async () => {
    const service = await serve([])
    const input = join(dir, "resend.ndjson")
    writeFileSync(input, `${Array.from({ length: 6 }, (_, i) => energy(i)).join("\n")}\n`)
    const journal = join(dir, "resend.ledger")
    expect((await send(service.baseUrl, journal, input)).code).toBe(0)
    // A kill between the commits: stored by the service, in flight in the ledger.
    const db = new (loadSqlite().DatabaseSync)(journal)
    db.exec("UPDATE records SET state = 'in_flight', outcome = NULL")
    db.close()
    const dry = await send(service.baseUrl, journal, input, ["--resend-in-doubt", "--dry-run"])
    expect(dry.stderr).toContain("--resend-in-doubt would send 6 records in doubt again")
    const resent = await send(service.baseUrl, journal, input, ["--resend-in-doubt"])
    expect(resent.stderr).toContain("--resend-in-doubt sent 6 records in doubt again")
    expect(resent.stderr).toContain("up to 6 possible duplicates")
    expect((JSON.parse(resent.stdout) as { resent_in_doubt: unknown }).resent_in_doubt).toEqual({ sent: 6, stored: 6 })
    expect(await storedEnergy(service.baseUrl)).toBe(12)
    await service.stop()
  })
})
