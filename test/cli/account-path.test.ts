/**
 * Account numbers and supplier codes that no URL can carry as a path segment (`.` and `..`, which URL
 * parsers remove even percent-encoded, and blank ones): `send` still gives each record one outcome and
 * leaves the other records of the run unaffected; `status` refuses them as a usage error before asking.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { startServe } from "../service/serve-child.js"
import { runCli, tempDir } from "./run-cli.js"

const TOKEN = "tok-path-4411-secret"
const SUPPLIER = "STADTWERKE_NORD"
const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
  accounts: [{ import_supplier: SUPPLIER, external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z" }]
}
const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))
const env = { DATA_IMPORT_TOKEN: TOKEN, DATA_IMPORT_API_KEY: "" }

const note = (i: number, account: string) =>
  JSON.stringify({ import_supplier: SUPPLIER, external_account_number: account, notes: [{ body: `Note ${i}`, created_at: "2024-05-01T10:00:00Z" }] })

const statesOf = (journal: string): Record<string, number> => {
  const db = new (loadSqlite().DatabaseSync)(journal, { readOnly: true })
  try {
    const rows = db.prepare("SELECT state || ':' || coalesce(outcome, '') AS s, count(*) AS n FROM records GROUP BY s").all() as Array<{ s: string; n: number }>
    return Object.fromEntries(rows.map((r) => [r.s, r.n]))
  } finally {
    db.close()
  }
}

describe("an account number no URL can carry", () => {
  it("send: notes for accounts '.' and '..' (404) are blocked, account not found; the 40 other notes of the run are stored and settled", async () => {
    const serving = await startServe(["--seed", seedFile])
    const input = join(dir, "dots.ndjson")
    // The odd accounts come first, so that their 404s arrive while the other notes are in flight.
    const lines = [note(1, "."), note(2, ".."), ...Array.from({ length: 40 }, (_, i) => note(10 + i, "KD-1"))]
    writeFileSync(input, `${lines.join("\n")}\n`)
    const journal = join(dir, "dots.journal")
    const run = await runCli(["send", "--base-url", serving.baseUrl, "--journal", journal, "--new-ledger", "--concurrency", "4", "--format", "json", input], { env })
    expect(run.code, run.stderr).toBe(1)
    const report = JSON.parse(run.stdout) as { outcomes: Record<string, number>; causes: Record<string, number> }
    expect(report.outcomes).toMatchObject({ created: 40, blocked: 2, in_doubt: 0, failed: 0 })
    expect(report.causes).toEqual({ "blocked:account_not_found": 2 })
    // Nothing left in flight: every record has its outcome.
    expect(statesOf(journal)).toEqual({ "done:created": 40, "done:blocked": 2 })
    // The next run sends the blocked ones again, and nothing else.
    const again = await runCli(["send", "--base-url", serving.baseUrl, "--journal", journal, "--new-ledger", "--format", "json", input], { env })
    expect(again.code, again.stderr).toBe(1)
    expect(JSON.parse(again.stdout)).toMatchObject({ dispositions: { settled_before: 40, send: 2 }, outcomes: { blocked: 2, in_doubt: 0 } })
  }, 60_000)

  it("status: '.', '..' and blank accounts, and a '..' supplier, are usage errors (exit 2) naming them, before the service is asked", async () => {
    const serving = await startServe(["--seed", seedFile])
    for (const [args, named] of [
      [[SUPPLIER, ".."], '".."'],
      [[SUPPLIER, "KD-1", "."], '"."'],
      [[SUPPLIER, " "], '" "'],
      [["..", "KD-1"], '".."'],
      [[".."], '".."']
    ] as const) {
      const run = await runCli(["status", "--base-url", serving.baseUrl, ...args], { env })
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(2)
      expect(run.stderr).toContain(named)
      expect(run.stderr).not.toContain("internal error")
    }
    const stats = (await (await fetch(`${serving.baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as { responses: object }
    expect(stats.responses).toEqual({})
  }, 60_000)
})
