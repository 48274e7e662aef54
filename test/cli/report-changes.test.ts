/**
 * The report says what the service changed and what to do about every problem, in all five formats,
 * through the built CLI. A campaign against the reference model: one transaction the service moved into
 * the open statement period (sent with force_add_to_current_statement), one refused for its date without
 * it, records blocked for a paused supplier and for an account not imported, and a row map rejected.
 * Dates, ids and the service's note are worked out from the seed (KD-1's open period is 2024-01-01 to
 * 2024-12-31: a transaction of 2023-12-15 is moved to 2024-01-01).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { beforeAll, describe, expect, it } from "vitest"
import { openLedger, type SourceLine, sendRecords } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { energyAmount, modelService, PAUSED, SEED, transactions } from "../send/model-service.js"
import { runCli, tempDir } from "./run-cli.js"

const SERVICE = "http://127.0.0.1:9/"
const dir = tempDir()
const file = (name: string) => join(dir, name)
let ledger = ""

const NOTE = "Transaction T-1 dated 2023-12-15 was moved to 2024-01-01, into the open statement period 2024-01-01 to 2024-12-31."

beforeAll(async () => {
  ledger = file("changes.ledger")
  // The export of the forced transactions: payload line 1 came from legacy lines 2-3; one legacy row rejected.
  const journal = openMapJournal(ledger, { input: file("legacy-tx.csv"), output: file("forced.ndjson"), endpoint: "transactions", mapping: "tx.mapping.json" })
  journal.lineage({ payloadLine: 1, lines: [2, 3], raw: "KD-1;T-1;15.12.2023" })
  journal.rejected({ lines: [4], codes: ["invalid_date"], detail: "Datum: 31.02.2024 is not a date", raw: "KD-1;T-9;31.02.2024", supplier: "STADTWERKE_NORD", account: "KD-1" })
  journal.end("completed", { rowsRead: 3, payloads: 1, rowsRejected: 1 })
  const service = modelService(SEED)
  const book = openLedger(ledger, { service: SERVICE })
  const lines = (name: string, bodies: ReadonlyArray<unknown>): Array<SourceLine> => bodies.map((body, i) => ({ file: file(name), line: i + 1, text: JSON.stringify(body) }))
  try {
    await sendRecords(lines("forced.ndjson", [transactions("KD-1", [{ id: "T-1", date: "2023-12-15" }, { id: "T-2", date: "2024-02-01" }])]), {
      ledger: book,
      client: service.client(),
      service: SERVICE,
      forceAddToCurrentStatement: true
    })
    await sendRecords(
      lines("other.ndjson", [transactions("KD-1", [{ id: "T-3", date: "2023-06-01" }]), energyAmount("S-1", 1, "1", PAUSED), energyAmount("KD-3", 1)]),
      { ledger: book, client: service.client(), service: SERVICE }
    )
  } finally {
    book.close()
  }
})

const report = (format: string, ...more: Array<string>) => runCli(["report", "--journal", ledger, "--format", format, ...more])

/** What the advice of each code starts with, as docs/report.md and the advice table word it. */
const ADVICE_START: Readonly<Record<string, string>> = {
  supplier_not_ongoing: "The supplier's migration is Paused or Complete",
  account_not_imported: "The account is staged but not imported yet",
  TRANSACTION_IMPORT_ERROR: "The transaction lies outside the account's open statement period",
  invalid_date: "Fix the row in the legacy export (or the mapping)"
}

describe("the report lists what the service changed, and what to do about every problem", () => {
  it("json: the moved transaction with both dates, its note and its legacy lines; every problem and top code with its advice", async () => {
    const run = await report("json")
    expect(run.code).toBe(1)
    const r = JSON.parse(run.stdout)
    expect(r.totals.moved).toBe(1)
    expect(r.moved).toMatchObject({ total: 1, accounts: 1 })
    expect(r.moved.advice).toContain("pinned a note on the account")
    expect(r.moved.listed).toEqual([
      {
        supplier: "STADTWERKE_NORD",
        account: "KD-1",
        transaction_id: "T-1",
        from: "2023-12-15",
        to: "2024-01-01",
        service_note: NOTE,
        source_file: file("legacy-tx.csv"),
        source_lines: "2-3",
        payload_file: file("forced.ndjson"),
        payload_line: 1
      }
    ])
    const problems = r.problems.listed as Array<{ code: string; advice: string }>
    expect(problems.map((p) => p.code).sort()).toEqual(["TRANSACTION_IMPORT_ERROR", "account_not_imported", "invalid_date", "supplier_not_ongoing"])
    for (const p of problems) expect(p.advice.startsWith(ADVICE_START[p.code]!), p.code).toBe(true)
    for (const c of r.top_codes as Array<{ code: string; advice: string }>) expect(c.advice.startsWith(ADVICE_START[c.code]!), c.code).toBe(true)
  })

  it("csv: an advice column, the last, with each problem's advice", async () => {
    const out = file("todo.csv")
    expect((await report("csv", "--out", out)).code).toBe(1)
    const text = readFileSync(out, "utf8")
    expect(text.split("\r\n")[0]!.endsWith(",detail,raw,advice")).toBe(true)
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>
    expect(rows).toHaveLength(4)
    for (const row of rows) expect(row["advice"]!.startsWith(ADVICE_START[row["code"]!]!), row["code"]).toBe(true)
  })

  it("text: the moved transaction under 'Changed by the service', and each code shown with what to do", async () => {
    const run = await report("text")
    expect(run.stdout).toContain("Changed by the service: 1 transaction moved into the open statement period, on 1 account, each with a note the service pinned on the account.")
    expect(run.stdout).toContain(`  STADTWERKE_NORD KD-1 T-1: 2023-12-15 → 2024-01-01 (${file("legacy-tx.csv")}:2-3): ${NOTE}`)
    const todo = run.stdout.split("What to do:\n")[1] ?? ""
    expect(todo).toContain(`blocked supplier_not_ongoing: ${ADVICE_START["supplier_not_ongoing"]}`)
    expect(todo).toContain(`blocked account_not_imported: ${ADVICE_START["account_not_imported"]}`)
    expect(todo).toContain(`rejected TRANSACTION_IMPORT_ERROR: ${ADVICE_START["TRANSACTION_IMPORT_ERROR"]}`)
    expect(todo).toContain(`map rejected invalid_date: ${ADVICE_START["invalid_date"]}`)
  })

  it("markdown: what the service changed, and what to do about the top codes", async () => {
    const run = await report("markdown")
    expect(run.stdout).toContain("- Changed by the service: 1 transaction moved into the open statement period, on 1 account, each with a note the service pinned on the account.")
    const todo = run.stdout.split("What to do:\n")[1] ?? ""
    expect(todo).toContain("- blocked supplier\\_not\\_ongoing: The supplier's migration is Paused or Complete")
    expect(todo).toContain("- rejected TRANSACTION\\_IMPORT\\_ERROR: The transaction lies outside")
  })

  it("html: a card and a table of the moved transactions, and a what-to-do column in the top codes and the problems", async () => {
    const run = await report("html")
    const html = run.stdout
    expect(html).toContain('<b id="total-moved" class="">1</b>')
    const moved = html.split('<table id="moved"')[1]?.split("</table>")[0] ?? ""
    expect(moved).toContain(`<td>T-1</td><td>2023-12-15</td><td>2024-01-01</td><td>${NOTE}</td>`)
    const codes = html.split('<table id="codes"')[1]?.split("</table>")[0] ?? ""
    expect(codes).toContain("<th>what to do</th>")
    expect(codes).toContain(`<td>supplier_not_ongoing</td><td class="n">1</td><td class="advice">${ADVICE_START["supplier_not_ongoing"]!.replace("'", "&#39;")}`)
    const problems = html.split('<table id="problems"')[1]?.split("</table>")[0] ?? ""
    expect(problems.match(/<td class="advice">/gu)).toHaveLength(4)
    expect(problems).toContain(`<td class="advice">${ADVICE_START["account_not_imported"]}`)
  })
})
