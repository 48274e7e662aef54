/**
 * What `map --journal` files in the ledger, through the built CLI (`map --journal`, then `report`): a
 * rejected row under the supplier and account its payload would have had (a value table's code converted,
 * never the raw cell), a row whose supplier cannot be told as "account unknown" with its file and line,
 * map's warnings in every format of the report, and a transaction's lineage that is its own line. The
 * records are sent in between through the library against the reference model (the send is not what is
 * tested here). Every expected figure is worked out by hand from the rows below.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import { openLedger, sendRecords, type SourceLine } from "../../src/index.js"
import { modelService, TOKEN } from "../send/model-service.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const SERVICE = "http://127.0.0.1:9/"
const NORD = "STADTWERKE_NORD"
const PERIOD = { start: "2024-01-01", end: "2024-12-31" }
const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: NORD, status: "Ongoing" }],
  accounts: ["KD-1", "KD-2", "KD-3"].map((account, i) => ({
    import_supplier: NORD,
    external_account_number: account,
    status: "COMPLETED",
    service_account_number: `A-${i + 1}`,
    account_created_at: "2024-01-02T10:00:00Z",
    open_statement_period: PERIOD
  }))
}

/** Sends every line of `file` with the ledger at `ledger`, against a fresh reference model. */
const send = async (ledger: string, file: string): Promise<void> => {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "")
  const l = openLedger(ledger, { service: SERVICE })
  try {
    await sendRecords(lines.map((text, i): SourceLine => ({ file, line: i + 1, text })), { ledger: l, client: modelService(SEED).client(), service: SERVICE })
  } finally {
    l.close()
  }
}

const TRANSACTIONS_MAPPING = {
  endpoint: "transactions",
  groupBy: ["Mandant", "Konto"],
  fields: {
    // The legacy system names its suppliers by client number: 1000 is Stadtwerke Nord.
    import_supplier: { column: "Mandant", values: { "1000": NORD } },
    external_account_number: "Konto"
  },
  collections: [
    {
      path: "transactions",
      fields: {
        transaction_id: "Buchungsnr",
        transaction_date: { column: "Datum", convert: "date", options: { format: "dd.MM.yyyy" } },
        amount: { column: "Betrag", convert: "number", options: { locale: "de" } },
        type: "Art"
      }
    }
  ]
}

/**
 * Line by line: KD-1 has two stored transactions and a row rejected at map (line 3: 31 February); KD-2 has
 * one stored and one the service refuses (line 6: before the open statement period); KD-3 has one, stored,
 * and nothing else of it is known; line 8 names a client number the value table does not know, so its
 * supplier (and with it its account) cannot be told.
 */
const TRANSACTIONS_CSV = [
  "Mandant;Konto;Buchungsnr;Datum;Betrag;Art",
  "1000;KD-1;T-1;01.02.2024;10,00;CHARGE",
  "1000;KD-1;T-2;31.02.2024;10,00;CHARGE",
  "1000;KD-1;T-3;03.02.2024;10,00;CHARGE",
  "1000;KD-2;T-4;01.02.2024;5,00;CHARGE",
  "1000;KD-2;T-5;15.12.2023;5,00;CHARGE",
  "1000;KD-3;T-6;01.02.2024;7,00;CHARGE",
  "9999;KD-3;T-7;01.02.2024;7,00;CHARGE",
  ""
].join("\n")

describe("map --journal files rows under the payload's supplier and account", () => {
  const ledger = join(dir, "transactions.ledger")
  const input = write(dir, "buchungen.csv", TRANSACTIONS_CSV)
  const mapping = write(dir, "buchungen.mapping.json", JSON.stringify(TRANSACTIONS_MAPPING))
  const out = join(dir, "transactions.ndjson")
  let mapped = false
  const campaign = async (): Promise<void> => {
    if (mapped) return
    mapped = true
    const run = await runCli(["map", "-m", mapping, "-o", out, "--journal", ledger, "--new-ledger", input])
    expect(run.code, run.stderr).toBe(1)
    await send(ledger, out)
  }

  it("a value table's supplier: no phantom supplier 1000, the account count is the distinct accounts, none complete with a rejected row", async () => {
    await campaign()
    const run = await runCli(["report", "--journal", ledger, "--format", "json"])
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout)
    // KD-1 (all stored, a row rejected at map), KD-2 (one refused), KD-3 (all stored, nothing rejected).
    expect(report.accounts.totals).toEqual({ accounts: 3, complete: 1, blocked: 0, partly: 2, not_stored: 0 })
    expect(report.suppliers.map((s: { supplier: string }) => s.supplier)).not.toContain("1000")
    const listed = report.accounts.listed.map((a: { supplier: string; account: string; status: string; map_rejected: number }) => [a.supplier, a.account, a.status, a.map_rejected])
    expect(listed).toEqual(expect.arrayContaining([[NORD, "KD-1", "partly", 1], [NORD, "KD-2", "partly", 0]]))
    expect(listed).toHaveLength(2)
    const rejects = report.problems.listed.filter((p: { problem: string }) => p.problem === "map_rejected")
    expect(rejects.map((p: { supplier: string | null; account: string | null; source_lines: string; code: string }) => [p.supplier, p.account, p.source_lines, p.code])).toEqual([
      [NORD, "KD-1", "3", "invalid_date"],
      // The account cell converts, the supplier does not: which account it is cannot be told.
      [null, "KD-3", "8", "unknown_value"]
    ])
    expect(report.accounts.unknown).toEqual({
      rows: 1,
      listed: [{ problem: "map_rejected", endpoint: "transactions", code: "unknown_value", supplier: null, account: "KD-3", source_file: input, source_lines: "8" }]
    })
  })

  it("the text report names the row whose account is unknown with its file and line", async () => {
    await campaign()
    const run = await runCli(["report", "--journal", ledger])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("Accounts: 3: 1 complete, 2 partly stored, 0 blocked, 0 nothing stored")
    expect(run.stdout).toContain(`account unknown: ${input}:8`)
    expect(run.stdout).not.toMatch(/^\s*1000\s/mu)
  })

  it("a transaction the service refuses points at its own legacy line, not at every line of its account", async () => {
    await campaign()
    const run = await runCli(["report", "--journal", ledger, "--format", "csv"])
    const rows = parse(run.stdout, { columns: true }) as Array<Record<string, string>>
    const refused = rows.filter((r) => r["problem"] === "rejected")
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ account: "KD-2", source_file: input, source_lines: "6", raw: "1000;KD-2;T-5;15.12.2023;5,00;CHARGE" })
  })
})

/** Notes: line 3 repeats line 2 exactly, cell for cell (KD-1); KD-2's note is once. */
const NOTES_CSV = [
  "Kundennummer;Erstellt;Text;Anhang;Angeheftet",
  "KD-1;28.03.2024 09:15;Rechnung per E-Mail;;J",
  "KD-1;28.03.2024 09:15;Rechnung per E-Mail;;J",
  "KD-2;03.01.2024 08:00;Ratenzahlung vereinbart;;N",
  ""
].join("\n")

describe("map's warnings in the ledger and in every format of the report", () => {
  const ledger = join(dir, "notes.ledger")
  const input = write(dir, "notizen.csv", NOTES_CSV)
  const out = join(dir, "notes.ndjson")
  let mapped = false
  const campaign = async (): Promise<void> => {
    if (mapped) return
    mapped = true
    const run = await runCli(["map", "-m", join(ROOT, "examples", "mappings", "notes.mapping.json"), "-o", out, "--journal", ledger, "--new-ledger", input])
    // A warning is no rejection: every row went into a payload.
    expect(run.code, run.stderr).toBe(0)
    await send(ledger, out)
  }

  it("json: the duplicate row is a map warning (file, line, code), left to look at; KD-1 is not complete", async () => {
    await campaign()
    const run = await runCli(["report", "--journal", ledger, "--format", "json"])
    // Everything is stored, yet a warning is left to look at: not complete.
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout)
    // The two notes of KD-1 are one record (the same key): sent once.
    expect(report.totals).toMatchObject({ records: 2, created: 2, map_rejected: 0, map_warning: 1 })
    expect(report.problems.counts).toMatchObject({ map_warning: 1, map_rejected: 0, invalid: 0, rejected: 0 })
    expect(report.problems.listed).toEqual([
      expect.objectContaining({ problem: "map_warning", endpoint: "notes", code: "duplicate_row", supplier: "STADTWERKE_NORD", account: "KD-1", source_file: input, source_lines: "2-3" })
    ])
    expect(report.accounts.totals).toEqual({ accounts: 2, complete: 1, blocked: 0, partly: 1, not_stored: 0 })
    expect(report.accounts.listed).toEqual([expect.objectContaining({ account: "KD-1", stored: 1, records: 1, map_rejected: 0, map_warning: 1 })])
  })

  it("text, markdown, csv and html name the warning's file, line and code", async () => {
    await campaign()
    const text = await runCli(["report", "--journal", ledger])
    expect(text.stdout).toMatch(new RegExp(`map warning ${input.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&")}:2-3 notes duplicate_row`, "u"))
    const markdown = await runCli(["report", "--journal", ledger, "--format", "markdown"])
    expect(markdown.stdout).toContain("1 map warning left to look at")
    expect(markdown.stdout).toContain(`duplicate\\_row at ${input}:2-3`)
    const csv = parse((await runCli(["report", "--journal", ledger, "--format", "csv"])).stdout, { columns: true }) as Array<Record<string, string>>
    expect(csv).toEqual([expect.objectContaining({ problem: "map_warning", code: "duplicate_row", account: "KD-1", source_file: input, source_lines: "2-3" })])
    expect(csv[0]!["raw"]).toBe("KD-1;28.03.2024 09:15;Rechnung per E-Mail;;J")
    const html = (await runCli(["report", "--journal", ledger, "--format", "html"])).stdout
    const row = /<tr data-kind="notes"[^>]*data-outcome="map_warning">(.*?)<\/tr>/su.exec(html)?.[1]
    expect(row).toContain("<td>duplicate_row</td>")
    expect(row).toContain(`<td>${input}</td><td>2-3</td>`)
  })
})
