/**
 * The acceptance test of a migration campaign, through the built CLI against `data-import serve` with
 * injected faults: legacy CSV exports of six POST endpoints for two suppliers (one paused) and imported
 * and staged accounts are mapped to NDJSON and sent with ONE ledger to ONE service, through runs stopped
 * by SIGINT and SIGTERM, two killed by SIGKILL, a renamed file, an appended export, fixed rows, and the
 * supplier and accounts released. At the end the service's stored records are compared with what the test computes
 * itself from the legacy rows: no duplicates, no losses (except records the ledger lists in doubt), no
 * silent changes.
 *
 * The campaign, continued (its own ledger and service): a transactions export whose supplier is a client
 * number converted by a value table, unsorted and with a rejected row, a notes export with a duplicate row,
 * and an energy export whose run is killed with SIGKILL. The report counts the real accounts, calls none
 * complete whose rows were rejected or warned about, and shows the warning in all five formats; the
 * doubts are settled through `report --in-doubt`, the reference service's lookup and `resolve`; credits
 * refused for the closed statement period are sent later with --force-add-to-current-statement and listed
 * as moved with the service's note.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { afterEach, describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { assertNoStackTrace, CLI, ROOT, runCli, type Run, tempDir } from "./run-cli.js"

const TOKEN = "campaign-token-5b1e"
const NORD = "STADTWERKE_NORD"
const SUED = "STADTWERKE_SUED"
const PERIOD = { start: "2024-01-01", end: "2024-12-31" }

interface Account {
  readonly supplier: string
  readonly account: string
  readonly staged: boolean
}
const ACCOUNTS: ReadonlyArray<Account> = [
  ...["KN-01", "KN-02", "KN-03", "KN-04", "KN-05", "KN-06"].map((account) => ({ supplier: NORD, account, staged: false })),
  ...["KN-07", "KN-08"].map((account) => ({ supplier: NORD, account, staged: true })),
  ...["KS-01", "KS-02", "KS-03"].map((account) => ({ supplier: SUED, account, staged: false })),
  { supplier: SUED, account: "KS-04", staged: true }
]

const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: NORD, status: "Ongoing" }, { code: SUED, status: "Paused" }],
  accounts: ACCOUNTS.map((a, i) =>
    a.staged
      ? { import_supplier: a.supplier, external_account_number: a.account, status: "IN_PROGRESS" }
      : {
        import_supplier: a.supplier,
        external_account_number: a.account,
        status: "COMPLETED",
        service_account_number: `A-${String(i + 1).padStart(4, "0")}`,
        account_created_at: "2024-01-02T10:00:00Z",
        open_statement_period: PERIOD
      }
  )
}

// ---------------------------------------------------------------------------------------------------
// Legacy values, written the way the legacy system exports them (German numbers, Berlin wall times), and
// the values the payloads must carry, computed here independently of the mapper.

const two = (n: number): string => String(n).padStart(2, "0")
/** 1234567 → "1.234.567" */
const germanInt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/gu, ".")
/** A canonical decimal "1234.56" as the legacy system writes it: "1.234,56". */
const germanDecimal = (canonical: string): string => {
  const [int, frac] = canonical.split(".")
  return `${germanInt(Number(int))},${frac}`
}
/** Cents as the legacy system writes an amount: 123456 → "1.234,56". */
const germanCents = (cents: number): string => `${germanInt(Math.floor(cents / 100))},${two(cents % 100)}`
/** Berlin's offset in 2024 on the days used here (never within a week of a clock change). */
const berlinOffset = (month: number): string => (month >= 4 && month <= 10 ? "+02:00" : "+01:00")
/** A Berlin wall time of 2024: the legacy text and the ISO 8601 instant it means. */
const wallTime = (day: number, month: number, hour: number, minute: number) => ({
  legacy: `${two(day)}.${two(month)}.2024 ${two(hour)}:${two(minute)}`,
  iso: `2024-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:00${berlinOffset(month)}`
})
const instant = (iso: unknown): number => (typeof iso === "string" ? Date.parse(iso) : Number.NaN)

/** The service's store names, by endpoint. */
const KIND = {
  "energy-amount": "energy_amounts",
  transactions: "transactions",
  notes: "notes",
  "historical-statements": "historical_statements",
  "payment-instruction": "payment_instructions",
  "delivery-note": "delivery_notes"
} as const
type Endpoint = keyof typeof KIND

/** A legacy document: where it belongs, its unique id (a field of its natural key), and what must be stored. */
interface Doc {
  readonly endpoint: Endpoint
  readonly supplier: string
  readonly account: string
  readonly id: string
  /** Whether a stored record's data is this document, unchanged. */
  readonly same: (data: Record<string, unknown>) => boolean
}

type Row = ReadonlyArray<string>
const csv = (header: Row, rows: ReadonlyArray<Row>): string => `${[header, ...rows].map((r) => r.join(";")).join("\n")}\n`

// Energy amounts: 14 per account, 2 more appended later; one row has an impossible date (fixed later).
const ENERGY_HEADER = ["Mandant", "Kundennummer", "MaLo", "Von", "Bis", "OBIS", "Menge", "Einheit", "Position"]
const BAD_ENERGY = { account: "KN-03", i: 5 }
const energy = (a: Account, ai: number, i: number) => {
  const month = (i % 12) + 1
  const start = wallTime(1, month, 0, 0)
  const end = wallTime(20, month, 23, 45)
  const quantity = `${(ai * 1009 + i * 137) % 5000 + 1}.${((ai + i) % 9) + 1}${((ai * 3 + i) % 9) + 1}`
  const obis = i < 12 || i >= 14 ? "1-1:1.8.0" : "1-1:2.8.0"
  const id = `EA-${a.account}-${i}`
  const malo = `5123869${String(6781 + ai)}`
  const row = [a.supplier, a.account, malo, start.legacy, end.legacy, obis, germanDecimal(quantity), "KWH", id]
  const doc: Doc = {
    endpoint: "energy-amount",
    supplier: a.supplier,
    account: a.account,
    id,
    same: (d) =>
      d["malo_number"] === malo && instant(d["period_start_at"]) === instant(start.iso) && instant(d["period_end_at"]) === instant(end.iso) &&
      d["product_identifier"] === obis && d["quantity"] === quantity && d["quantity_unit"] === "KWH" && d["line_item_identifier"] === id
  }
  return { row, doc }
}

// Transactions: 6 per account; one dated before the open statement period, one with a broken amount (fixed later).
const TX_HEADER = ["Mandant", "Konto", "Buchungsnr", "Datum", "Betrag", "Art", "Grund", "Referenz", "Zahlart", "Notiz"]
const OUT_OF_PERIOD = { account: "KN-02", i: 3 }
const BAD_TX = { account: "KN-03", i: 2 }
const transaction = (a: Account, ai: number, i: number) => {
  const id = `TX-${a.account}-${i}`
  const outside = a.account === OUT_OF_PERIOD.account && i === OUT_OF_PERIOD.i
  const [day, month, year] = outside ? [15, 12, 2023] : [10 + ai, i * 2 + 1, 2024]
  const date = `${year}-${two(month)}-${two(day)}`
  const cents = ai * 1300 + i * 2900 + 25 * (i % 4) + 105
  const type = (["CHARGE", "PAYMENT", "CREDIT"] as const)[i % 3]!
  const reason = { CHARGE: "IMPORTED_CHARGE", PAYMENT: "ACCOUNT_CHARGE_PAYMENT", CREDIT: "IMPORTED_CREDIT" }[type]
  const reference = type === "PAYMENT" ? `SEPA-${id}` : ""
  const paymentType = type === "PAYMENT" ? "DD_REGULAR_COLLECTION" : ""
  const note = type === "PAYMENT" ? "" : `${type === "CHARGE" ? "Gebühr" : "Gutschrift"} ${id}`
  const row = [a.supplier, a.account, id, `${two(day)}.${two(month)}.${year}`, germanCents(cents), type, reason, reference, paymentType, note]
  const doc: Doc = {
    endpoint: "transactions",
    supplier: a.supplier,
    account: a.account,
    id,
    same: (d) =>
      d["transaction_date"] === date && Number(d["amount"]) === cents / 100 && d["type"] === type && d["reason"] === reason &&
      (d["reference"] ?? "") === reference && (d["payment_type"] ?? "") === paymentType && (d["note"] ?? "") === note
  }
  return { row, doc, outside }
}

// Notes with created_at: 5 per account.
const NOTES_HEADER = ["Mandant", "Kundennummer", "Erstellt", "Text"]
const note = (a: Account, ai: number, i: number) => {
  const created = wallTime(5 + ai, i * 2 + 2, 9 + i, 15)
  const body = `${a.account}: Hinweis ${i} – Zählerstand geprüft`
  const doc: Doc = {
    endpoint: "notes",
    supplier: a.supplier,
    account: a.account,
    id: body,
    same: (d) => d["body"] === body && instant(d["created_at"]) === instant(created.iso)
  }
  return { row: [a.supplier, a.account, created.legacy, body], doc }
}

// Historical statements: 3 per account.
const STATEMENTS_HEADER = ["Mandant", "Konto", "Beleg", "Von", "Bis", "Ausgestellt", "Rechnungsnr", "Brutto"]
const statement = (a: Account, ai: number, i: number) => {
  const year = 2021 + i
  const id = `JA-${a.account}-${year}`
  const cents = 98_765 + ai * 10_007 + i * 31_003
  const doc: Doc = {
    endpoint: "historical-statements",
    supplier: a.supplier,
    account: a.account,
    id,
    same: (d) =>
      d["bill_period_from_date"] === `${year - 1}-05-01` && d["bill_period_to_date"] === `${year}-04-30` && d["issued_date"] === `${year}-05-12` &&
      d["number"] === `R${year}-${ai}` && d["gross_amount"] === cents / 100
  }
  return { row: [a.supplier, a.account, id, `01.05.${year - 1}`, `30.04.${year}`, `12.05.${year}`, `R${year}-${ai}`, germanCents(cents)], doc }
}

// Payment instructions: 1 per account.
const PAYMENTS_HEADER = ["Mandant", "Konto", "Anbieter", "Referenz", "Art"]
const payment = (a: Account, ai: number) => {
  const reference = `pm_${a.account}_${ai}`
  const doc: Doc = {
    endpoint: "payment-instruction",
    supplier: a.supplier,
    account: a.account,
    id: reference,
    same: (d) => d["vendor"] === "STRIPE" && d["reference"] === reference && d["type"] === "CARD"
  }
  return { row: [a.supplier, a.account, "STRIPE", reference, "CARD"], doc }
}

// Delivery notes: 2 per account, each of 2 amount rows.
const DELIVERY_HEADER = ["Mandant", "Konto", "Lieferschein", "MaLo", "Von", "Bis", "OBIS", "Menge", "Einheit", "Position"]
const deliveryNote = (a: Account, ai: number, j: number) => {
  const id = `MSCONS-${a.account}-${j}`
  const malo = `5123869${String(6781 + ai)}`
  const amounts = [0, 1].map((k) => {
    const month = j * 2 + k + 1
    return { start: wallTime(1, month, 0, 0), end: wallTime(20, month, 0, 0), quantity: `${ai * 10 + j * 3 + k + 100}.${k + 1}${ai % 9 + 1}`, position: String(k + 1) }
  })
  const rows = amounts.map((x) => [a.supplier, a.account, id, malo, x.start.legacy, x.end.legacy, "1-1:1.9.0", germanDecimal(x.quantity), "KWH", x.position])
  const doc: Doc = {
    endpoint: "delivery-note",
    supplier: a.supplier,
    account: a.account,
    id,
    same: (d) => {
      const stored = d["amounts"]
      return d["malo_number"] === malo && d["edifact_reference_number"] === id && Array.isArray(stored) && stored.length === amounts.length &&
        amounts.every((x, k) => {
          const s = stored[k] as Record<string, unknown>
          return instant(s["period_start_at"]) === instant(x.start.iso) && instant(s["period_end_at"]) === instant(x.end.iso) &&
            s["quantity"] === x.quantity && s["line_item_identifier"] === x.position && s["product_identifier"] === "1-1:1.9.0"
        })
    }
  }
  return { rows, doc }
}

// ---------------------------------------------------------------------------------------------------
// Mappings, as a migration team writes them.

const datetime = (column: string) => ({ column, convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } })
const date = (column: string) => ({ column, convert: "date", options: { format: "dd.MM.yyyy" } })
const MAPPINGS = {
  energy: {
    endpoint: "energy-amount",
    fields: {
      import_supplier: "Mandant",
      external_account_number: "Kundennummer",
      "energy_amount.malo_number": "MaLo",
      "energy_amount.period_start_at": datetime("Von"),
      "energy_amount.period_end_at": datetime("Bis"),
      "energy_amount.product_identifier": "OBIS",
      "energy_amount.product_identifier_type": { value: "SRW" },
      "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locale: "de" } },
      "energy_amount.quantity_unit": "Einheit",
      "energy_amount.line_item_identifier": "Position"
    }
  },
  transactions: {
    endpoint: "transactions",
    groupBy: ["Mandant", "Konto"],
    batchSize: 2,
    fields: { import_supplier: "Mandant", external_account_number: "Konto" },
    collections: [{
      path: "transactions",
      fields: {
        transaction_id: "Buchungsnr",
        transaction_date: date("Datum"),
        amount: { column: "Betrag", convert: "number", options: { locale: "de" } },
        type: "Art",
        reason: "Grund",
        reference: "Referenz",
        payment_type: "Zahlart",
        note: "Notiz"
      }
    }]
  },
  notes: {
    endpoint: "notes",
    groupBy: ["Mandant", "Kundennummer"],
    batchSize: 2,
    fields: { import_supplier: "Mandant", external_account_number: "Kundennummer" },
    collections: [{ path: "notes", fields: { body: "Text", created_at: datetime("Erstellt") } }]
  },
  statements: {
    endpoint: "historical-statements",
    groupBy: ["Mandant", "Konto"],
    batchSize: 2,
    fields: { import_supplier: "Mandant", external_account_number: "Konto" },
    collections: [{
      path: "statements",
      fields: {
        statement_id: "Beleg",
        bill_period_from_date: date("Von"),
        bill_period_to_date: date("Bis"),
        issued_date: date("Ausgestellt"),
        number: "Rechnungsnr",
        gross_amount: { column: "Brutto", convert: "number", options: { locale: "de" } }
      }
    }]
  },
  payments: {
    endpoint: "payment-instruction",
    fields: { import_supplier: "Mandant", external_account_number: "Konto", vendor: "Anbieter", reference: "Referenz", type: "Art" }
  },
  delivery: {
    endpoint: "delivery-note",
    groupBy: ["Mandant", "Konto", "Lieferschein"],
    fields: {
      import_supplier: "Mandant",
      external_account_number: "Konto",
      "delivery_note.malo_number": "MaLo",
      "delivery_note.edifact_reference_number": "Lieferschein"
    },
    collections: [{
      path: "delivery_note.amounts",
      fields: {
        period_start_at: datetime("Von"),
        period_end_at: datetime("Bis"),
        product_identifier: "OBIS",
        product_identifier_type: { value: "SRW" },
        quantity: { column: "Menge", convert: "decimal", options: { locale: "de" } },
        quantity_unit: "Einheit",
        line_item_identifier: "Position"
      }
    }]
  }
} as const
type Export = keyof typeof MAPPINGS

// ---------------------------------------------------------------------------------------------------
// Processes: the service, runs of send that are signalled, and what the service and the ledger hold.

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))
const env = { DATA_IMPORT_TOKEN: TOKEN }

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  children.clear()
})

const start = (args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } })
  children.add(child)
  const out = { stdout: "", stderr: "" }
  child.stdout.on("data", (b: Buffer) => (out.stdout += b.toString("utf8")))
  child.stderr.on("data", (b: Buffer) => (out.stderr += b.toString("utf8")))
  child.stdin.end()
  const exited = once(child, "exit")
  return { child, out, exited }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const ended = (child: ChildProcessWithoutNullStreams): boolean => child.exitCode !== null || child.signalCode !== null

type Stats = { stored: Record<string, number> }
const stats = async (baseUrl: string): Promise<Stats> =>
  (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as Stats
const storedTotal = (s: Stats): number => Object.values(KIND).reduce((n, kind) => n + (s.stored[kind] ?? 0), 0)
const control = async (baseUrl: string, path: string, status: string): Promise<number> =>
  (await fetch(`${baseUrl}/_reference/${path}/`, {
    method: "POST",
    headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ status })
  })).status

interface Report {
  readonly stopped: boolean
  readonly records: number
  readonly dispositions: Record<string, number>
  readonly outcomes: Record<string, number>
  readonly causes: Record<string, number>
  readonly in_doubt: ReadonlyArray<{ endpoint: string; key: ReadonlyArray<unknown> }>
}
/** Every record read ends in one disposition; every record sent in one outcome, or unsent when stopped. */
const parseReport = (stdout: string): Report => {
  const report = JSON.parse(stdout) as Report
  const { send, unsent, ...judged } = report.dispositions
  expect(Object.values(judged).reduce((a, b) => a + b, 0) + send!).toBe(report.records)
  const { invalid: _, ...sent } = report.outcomes
  expect(Object.values(sent).reduce((a, b) => a + b, 0) + unsent!).toBe(send)
  return report
}

interface LedgerRow {
  readonly endpoint: string
  readonly key: string
  readonly state: string
  readonly outcome: string | null
  readonly cause: string | null
}
const ledgerRows = (ledger: string): Array<LedgerRow> => {
  const db = new (loadSqlite().DatabaseSync)(ledger, { readOnly: true })
  try {
    return db.prepare("SELECT endpoint, key, state, outcome, cause FROM records").all() as unknown as Array<LedgerRow>
  } finally {
    db.close()
  }
}
const STORED = new Set(["created", "already_existed", "moved"])

describe("a migration campaign: map, then send with one ledger to one service through faults, signals and fixes", () => {
  it("ends with every valid legacy document stored once, unchanged, or listed in doubt", async () => {
    const began = Date.now()

    // 1. The legacy exports (and, alongside, the documents they hold).
    const docs: Array<Doc> = []
    const rows: Record<Export, Array<Row>> = { energy: [], transactions: [], notes: [], statements: [], payments: [], delivery: [] }
    const appended: Array<Row> = []
    let outOfPeriod: Doc | undefined
    let badEnergy: { line: number; bad: Row; fixed: Row } | undefined
    let badTx: { line: number; bad: Row; fixed: Row } | undefined
    ACCOUNTS.forEach((a, ai) => {
      for (let i = 0; i < 14; i++) {
        const { row, doc } = energy(a, ai, i)
        docs.push(doc)
        if (a.account === BAD_ENERGY.account && i === BAD_ENERGY.i) {
          // 31 February: the legacy system let it through.
          const bad = row.map((cell, c) => (c === 3 ? cell.replace(/^\d\d\.\d\d/u, "31.02") : cell))
          badEnergy = { line: rows.energy.length + 2, bad, fixed: row }
          rows.energy.push(bad)
        } else {
          rows.energy.push(row)
        }
      }
      for (let i = 14; i < 16; i++) {
        const { row, doc } = energy(a, ai, i)
        docs.push(doc)
        appended.push(row)
      }
      for (let i = 0; i < 6; i++) {
        const { row, doc, outside } = transaction(a, ai, i)
        if (outside) outOfPeriod = doc
        else docs.push(doc)
        if (a.account === BAD_TX.account && i === BAD_TX.i) {
          // A letter O for a zero.
          const bad = row.map((cell, c) => (c === 4 ? `${cell.slice(0, -1)}O` : cell))
          badTx = { line: rows.transactions.length + 2, bad, fixed: row }
          rows.transactions.push(bad)
        } else {
          rows.transactions.push(row)
        }
      }
      for (let i = 0; i < 5; i++) {
        const { row, doc } = note(a, ai, i)
        docs.push(doc)
        rows.notes.push(row)
      }
      for (let i = 0; i < 3; i++) {
        const { row, doc } = statement(a, ai, i)
        docs.push(doc)
        rows.statements.push(row)
      }
      const p = payment(a, ai)
      docs.push(p.doc)
      rows.payments.push(p.row)
      for (let j = 0; j < 2; j++) {
        const d = deliveryNote(a, ai, j)
        docs.push(d.doc)
        rows.delivery.push(...d.rows)
      }
    })
    if (outOfPeriod === undefined || badEnergy === undefined || badTx === undefined) throw new Error("the exports lack their special rows")
    const headers: Record<Export, Row> = {
      energy: ENERGY_HEADER,
      transactions: TX_HEADER,
      notes: NOTES_HEADER,
      statements: STATEMENTS_HEADER,
      payments: PAYMENTS_HEADER,
      delivery: DELIVERY_HEADER
    }
    const exportsOf = Object.keys(MAPPINGS) as Array<Export>
    const csvPath = (e: Export) => join(dir, `${e}.csv`)
    const ndjsonPath = (e: Export) => join(dir, `${e}.ndjson`)
    for (const e of exportsOf) {
      writeFileSync(csvPath(e), csv(headers[e], rows[e]))
      writeFileSync(join(dir, `${e}.mapping.json`), JSON.stringify(MAPPINGS[e]))
    }

    // 2. Map each export to NDJSON; the two bad rows are rejected at their lines.
    const map = (e: Export): Promise<Run> =>
      runCli(["map", "-m", join(dir, `${e}.mapping.json`), "--out", ndjsonPath(e), "--rejects", join(dir, `${e}.rejects.ndjson`), csvPath(e)])
    const rejectedLines = (e: Export): Array<number> =>
      readFileSync(join(dir, `${e}.rejects.ndjson`), "utf8").split("\n").filter((l) => l !== "").flatMap((l) => (JSON.parse(l) as { lines: Array<number> }).lines)
    const mapped = await Promise.all(exportsOf.map(map))
    for (const [i, e] of exportsOf.entries()) {
      expect(mapped[i]!.code, `${e}: ${mapped[i]!.stderr}`).toBe(e === "energy" || e === "transactions" ? 1 : 0)
    }
    expect(rejectedLines("energy")).toEqual([badEnergy.line])
    expect(rejectedLines("transactions")).toEqual([badTx.line])

    // 3. The service, with faults and some latency so that signals land mid-run.
    const state = join(dir, "service.sqlite")
    const ledger = join(dir, "campaign.ledger")
    const service = start([
      "serve", "--port", "0", "--seed", seedFile, "--state", state,
      "--fail-rate", "0.05", "--reset-rate", "0.02", "--retry-after", "0", "--fault-seed", "20241", "--latency-ms", "8"
    ])
    const deadline = Date.now() + 20_000
    while (!service.out.stdout.includes("\n")) {
      if (Date.now() > deadline || ended(service.child)) throw new Error(`serve did not start: ${service.out.stderr}`)
      await sleep(20)
    }
    const baseUrl = service.out.stdout.split("\n")[0]!.slice("listening on ".length)
    const files: Record<Export, string> = Object.fromEntries(exportsOf.map((e) => [e, ndjsonPath(e)])) as Record<Export, string>
    const sendArgs = (paths: ReadonlyArray<string>) => ["send", "--base-url", baseUrl, "--journal", ledger, "--new-ledger", "--concurrency", "4", "--format", "json", ...paths]
    const reports: Array<Report> = []
    const send = async (paths: ReadonlyArray<string>): Promise<{ run: Run; report: Report }> => {
      const run = await runCli(sendArgs(paths), { env })
      const report = parseReport(run.stdout)
      reports.push(report)
      return { run, report }
    }

    /** A run signalled once the service has stored 20 more records than before it started. */
    const signalled = async (paths: ReadonlyArray<string>, signal: NodeJS.Signals) => {
      const before = storedTotal(await stats(baseUrl))
      const run = start(sendArgs(paths))
      const until = Date.now() + 30_000
      while (storedTotal(await stats(baseUrl)) < before + 20) {
        if (ended(run.child)) throw new Error(`send ended before ${signal}: ${run.out.stdout}${run.out.stderr}`)
        if (Date.now() > until) throw new Error(`send stored too little before ${signal}`)
        await sleep(5)
      }
      run.child.kill(signal)
      await run.exited
      assertNoStackTrace(run.out)
      return run
    }

    // 4. A run stopped by SIGINT, one by SIGTERM: the answers in flight are awaited and written.
    const all = exportsOf.map((e) => files[e])
    for (const [signal, code, order] of [
      ["SIGINT", 130, all],
      ["SIGTERM", 143, [files.notes, files.statements, files.payments, files.delivery, files.transactions, files.energy]]
    ] as const) {
      const run = await signalled(order, signal)
      expect(run.child.exitCode, run.out.stderr).toBe(code)
      const report = parseReport(run.out.stdout)
      reports.push(report)
      expect(report.stopped).toBe(true)
      expect(ledgerRows(ledger).filter((r) => r.state === "in_flight")).toEqual([])
    }

    // 5. Two runs killed with SIGKILL, one that sends transactions and notes first (a repeat is harmless),
    // one statements and delivery notes (a repeat could store them twice): each leaves records in flight,
    // whose outcome nobody knows.
    for (const order of [
      [files.transactions, files.notes, files.energy, files.statements, files.delivery, files.payments],
      [files.statements, files.delivery, files.payments, files.energy, files.transactions, files.notes]
    ]) {
      const killed = await signalled(order, "SIGKILL")
      expect(killed.child.signalCode).toBe("SIGKILL")
      expect(ledgerRows(ledger).filter((r) => r.state === "in_flight").length).toBeGreaterThan(0)
    }

    /** What a run must do with the records of one endpoint, from what the ledger holds before it. */
    const expectedDispositions = (endpoint: Endpoint, records: number) => {
      const before = ledgerRows(ledger).filter((r) => r.endpoint === endpoint)
      const settled = before.filter((r) => r.state === "done" && STORED.has(r.outcome!)).length
      const doubtful = before.filter((r) => r.state === "in_flight" || (r.state === "done" && r.outcome === "in_doubt")).length
      return { settled_before: settled, kept_in_doubt: doubtful, send: records - settled - doubtful }
    }

    // 6. The statements export renamed (same content) and sent: the ledger knows its records by identity,
    // whatever the file's name; stored ones are not sent again, those maybe stored are kept in doubt.
    const renamed = join(dir, "statements-2024-final.ndjson")
    renameSync(files.statements, renamed)
    files.statements = renamed
    const statementsExpected = expectedDispositions("historical-statements", rows.statements.length)
    const afterRename = (await send([renamed])).report
    expect(afterRename.records).toBe(rows.statements.length)
    expect(afterRename.dispositions).toMatchObject(statementsExpected)
    expect(statementsExpected.settled_before + statementsExpected.kept_in_doubt).toBeGreaterThan(0)

    // 7. The energy export appended to, mapped again into the same NDJSON, and sent.
    appendFileSync(csvPath("energy"), csv([], appended).slice(1))
    expect((await map("energy")).code).toBe(1)
    const energyRecords = rows.energy.length - 1 + appended.length
    const energyExpected = expectedDispositions("energy-amount", energyRecords)
    const afterAppend = (await send([files.energy])).report
    expect(afterAppend.records).toBe(energyRecords)
    expect(afterAppend.dispositions).toMatchObject(energyExpected)
    // The appended rows are new records: sent. The paused supplier's and the staged accounts' are blocked.
    expect(energyExpected.send).toBeGreaterThanOrEqual(appended.length)
    expect(afterAppend.causes["blocked:supplier_not_ongoing"]).toBeGreaterThan(0)
    expect(afterAppend.causes["blocked:account_not_imported"]).toBeGreaterThan(0)

    // 8. The bad rows fixed in the exports, mapped again, sent.
    for (const [e, bad] of [["energy", badEnergy], ["transactions", badTx]] as const) {
      const text = readFileSync(csvPath(e), "utf8").split("\n")
      expect(text[bad.line - 1]).toBe(bad.bad.join(";"))
      text[bad.line - 1] = bad.fixed.join(";")
      writeFileSync(csvPath(e), text.join("\n"))
      const again = await map(e)
      expect(again.code, again.stderr).toBe(0)
    }
    const afterFix = (await send([files.energy, files.transactions])).report
    expect(afterFix.records).toBe(energyRecords + 1 + rows.transactions.length)
    const fixedIds = [`EA-${BAD_ENERGY.account}-${BAD_ENERGY.i}`, `TX-${BAD_TX.account}-${BAD_TX.i}`]
    expect(ledgerRows(ledger).filter((r) => fixedIds.some((id) => (JSON.parse(r.key) as Array<unknown>).includes(id)))).toHaveLength(2)

    // 9. The paused supplier resumed, the staged accounts imported; then runs until nothing failed or is blocked.
    expect(await control(baseUrl, `suppliers/${SUED}`, "Ongoing")).toBe(200)
    for (const a of ACCOUNTS.filter((x) => x.staged)) expect(await control(baseUrl, `accounts/${a.supplier}/${a.account}`, "COMPLETED")).toBe(200)
    let final: { run: Run; report: Report } | undefined
    for (let n = 0; n < 5; n++) {
      final = await send(exportsOf.map((e) => files[e]))
      // In doubt where a repeat is harmless (notes with created_at, transactions): sent again by the next run.
      const resendable = ledgerRows(ledger).filter((r) => r.outcome === "in_doubt" && (r.endpoint === "notes" || r.endpoint === "transactions"))
      if (final.report.outcomes["failed"] === 0 && final.report.outcomes["blocked"] === 0 && resendable.length === 0) break
    }
    if (final === undefined) throw new Error("no final run")
    expect(final.report.outcomes["failed"]).toBe(0)
    expect(final.report.outcomes["blocked"]).toBe(0)
    // Open: the out-of-period transaction (rejected before) and whatever is in doubt.
    expect(final.run.code).toBe(1)

    // 10. One more run has nothing left to send, and the service stores nothing more.
    const storedBefore = (await stats(baseUrl)).stored
    const idle = (await send(exportsOf.map((e) => files[e]))).report
    expect(idle.dispositions["send"]).toBe(0)
    expect((await stats(baseUrl)).stored).toEqual(storedBefore)

    service.child.kill("SIGTERM")
    await service.exited

    // What the service stored, read from its state file.
    const db = new (loadSqlite().DatabaseSync)(state, { readOnly: true })
    const stored = db.prepare("SELECT kind, account, data FROM records").all() as Array<{ kind: string; account: string | null; data: string }>
    db.close()

    // What the ledger holds.
    const ledgerNow = ledgerRows(ledger)
    const ledgerByDoc = new Map<string, Array<LedgerRow>>()
    for (const r of ledgerNow) {
      for (const part of JSON.parse(r.key) as Array<unknown>) {
        if (typeof part !== "string") continue
        const k = `${r.endpoint}|${part}`
        ledgerByDoc.set(k, [...(ledgerByDoc.get(k) ?? []), r])
      }
    }
    const ledgerOf = (doc: Doc): LedgerRow | undefined =>
      ledgerByDoc.get(`${doc.endpoint}|${doc.id}`)?.find((r) => {
        const key = JSON.parse(r.key) as Array<unknown>
        return key.includes(doc.supplier) && key.includes(doc.account)
      })

    // The natural key of a stored record, computed here, and the document it should be.
    const idOf: Record<string, (d: Record<string, unknown>) => unknown> = {
      energy_amounts: (d) => d["line_item_identifier"],
      transactions: (d) => d["transaction_id"],
      notes: (d) => d["body"],
      historical_statements: (d) => d["statement_id"],
      payment_instructions: (d) => d["reference"],
      delivery_notes: (d) => d["edifact_reference_number"]
    }
    const naturalKey: Record<string, (d: Record<string, unknown>) => Array<unknown>> = {
      energy_amounts: (d) => [d["malo_number"], instant(d["period_start_at"]), instant(d["period_end_at"]), d["product_identifier"], d["line_item_identifier"]],
      transactions: (d) => [d["transaction_id"]],
      notes: (d) => [d["body"], instant(d["created_at"])],
      historical_statements: (d) => [d["statement_id"]],
      payment_instructions: (d) => [d["reference"]],
      delivery_notes: (d) => [d["edifact_reference_number"]]
    }
    const docByKey = new Map(docs.map((d) => [`${KIND[d.endpoint]}|${d.supplier}|${d.account}|${d.id}`, d]))
    const storedCount = new Map<string, number>()
    const naturalKeys = new Map<string, number>()
    let silentChanges = 0
    let outOfPeriodStored = 0
    for (const row of stored) {
      const data = JSON.parse(row.data) as Record<string, unknown>
      const [supplier, account] = row.account === null ? [null, null] : (JSON.parse(row.account) as [string, string])
      const nk = JSON.stringify([row.kind, supplier, account, ...(naturalKey[row.kind]?.(data) ?? [row.data])])
      naturalKeys.set(nk, (naturalKeys.get(nk) ?? 0) + 1)
      const key = `${row.kind}|${supplier}|${account}|${String(idOf[row.kind]?.(data))}`
      storedCount.set(key, (storedCount.get(key) ?? 0) + 1)
      const doc = docByKey.get(key)
      if (key === `transactions|${outOfPeriod.supplier}|${outOfPeriod.account}|${outOfPeriod.id}`) outOfPeriodStored++
      // Stored and no legacy document says so (a moved transaction's pinned note, the out-of-period
      // transaction), or stored with other content than the legacy document's: a silent change.
      if (doc === undefined || !doc.same(data)) silentChanges++
    }
    const duplicates = [...naturalKeys.values()].reduce((n, c) => n + c - 1, 0) + [...storedCount.values()].reduce((n, c) => n + Math.max(0, c - 1), 0)

    let losses = 0
    let inDoubtStored = 0
    let inDoubtNotStored = 0
    let inDoubtStoredTwice = 0
    for (const doc of docs) {
      const count = storedCount.get(`${KIND[doc.endpoint]}|${doc.supplier}|${doc.account}|${doc.id}`) ?? 0
      const inLedger = ledgerOf(doc)
      if (inLedger?.outcome === "in_doubt") {
        if (count === 0) inDoubtNotStored++
        else if (count === 1) inDoubtStored++
        else inDoubtStoredTwice++
      } else if (count === 0) {
        losses++
      }
    }

    expect(duplicates).toBe(0)
    expect(losses).toBe(0)
    expect(silentChanges).toBe(0)

    // In doubt: each listed in the ledger, stored at most once.
    const inDoubt = ledgerNow.filter((r) => r.outcome === "in_doubt")
    expect(inDoubtStoredTwice).toBe(0)
    expect(inDoubtStored + inDoubtNotStored).toBe(inDoubt.length)
    // …and listed by the report (at most 20 of them).
    expect(idle.in_doubt.map((r) => JSON.stringify([r.endpoint, r.key])).sort()).toEqual(
      inDoubt.length > 20 ? expect.any(Array) : inDoubt.map((r) => JSON.stringify([r.endpoint, JSON.parse(r.key)])).sort()
    )
    expect(idle.in_doubt).toHaveLength(Math.min(20, inDoubt.length))

    // The out-of-period transaction: refused (the date was never moved), not stored.
    expect(outOfPeriodStored).toBe(0)
    expect(ledgerOf(outOfPeriod)).toMatchObject({ state: "done", outcome: "rejected", cause: "TRANSACTION_IMPORT_ERROR" })
    expect(reports.reduce((n, r) => n + (r.outcomes["moved"] ?? 0), 0)).toBe(0)

    // The ledger: one record per legacy document, none pending or in flight; every one not stored has
    // an outcome with its cause.
    expect(ledgerNow).toHaveLength(docs.length + 1)
    expect(ledgerNow.filter((r) => r.state !== "done")).toEqual([])
    const notStored = ledgerNow.filter((r) => !STORED.has(r.outcome!))
    expect(notStored.filter((r) => !(r.outcome === "in_doubt" || r.outcome === "rejected") || r.cause === null)).toEqual([])
    expect(notStored.filter((r) => r.outcome === "rejected")).toHaveLength(1)
    expect(Date.now() - began).toBeLessThan(60_000)
  })
})

// ---------------------------------------------------------------------------------------------------
// The campaign, continued: a value-table supplier, an unsorted export, a duplicate note row, a crash
// whose doubts are settled, and a decision applied later, over one ledger against one service.

const CONTINUED = ACCOUNTS.filter((a) => a.supplier === NORD && !a.staged).slice(0, 3)
/** The legacy system's client number of Stadtwerke Nord, which a value table converts. */
const CLIENT = "1000"
const TX_MAPPING = {
  ...MAPPINGS.transactions,
  fields: { import_supplier: { column: "Mandant", values: { [CLIENT]: NORD } }, external_account_number: "Konto" }
}
const NOTE_HEADER = "Kundennummer;Erstellt;Text;Anhang;Angeheftet"
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&")

describe("a migration campaign, continued: the report tells the whole truth, doubts are settled, decisions applied later", () => {
  it("counts real accounts, shows warnings and moves, settles a SIGKILL's doubts, and maps an unsorted export like a sorted one", async () => {
    const began = Date.now()
    const cdir = join(dir, "continued")
    mkdirSync(cdir)
    const path = (name: string) => join(cdir, name)
    const ledger = path("campaign.ledger")

    // 1. The transactions export, unsorted: row i of every account, then row i+1. The supplier is the
    // client number. KN-02's row 1 is dated 31 February (rejected at map); KN-01 and KN-03 each have a
    // credit dated before the open statement period (refused until the decision to move it).
    type Tx = { readonly account: string; readonly id: string; readonly cells: Row; readonly valid: boolean; readonly outside: boolean }
    const txs: Array<Tx> = []
    for (let i = 0; i < 5; i++) {
      CONTINUED.forEach((a, ai) => {
        const id = `TC-${a.account}-${i}`
        if (i === 4) {
          if (a.account === "KN-02") return
          txs.push({ account: a.account, id, valid: true, outside: true, cells: [CLIENT, a.account, id, "15.12.2023", germanCents(1_250 + ai), "CREDIT", "IMPORTED_CREDIT", "", "", `Gutschrift ${id}`] })
          return
        }
        const bad = a.account === "KN-02" && i === 1
        const day = bad ? "31.02" : `${two(10 + ai)}.${two(i * 2 + 1)}`
        txs.push({ account: a.account, id, valid: !bad, outside: false, cells: [CLIENT, a.account, id, `${day}.2024`, germanCents(ai * 700 + i * 1_100 + 99), "CHARGE", "IMPORTED_CHARGE", "", "", `Gebühr ${id}`] })
      })
    }
    const lineOf = (t: Tx): number => txs.indexOf(t) + 2
    const unsorted = path("buchungen-unsorted.csv")
    writeFileSync(unsorted, csv(TX_HEADER, txs.map((t) => t.cells)))
    // The same rows sorted by account, accounts in the order of their first row, each account's rows in export order.
    const sortedRows = CONTINUED.flatMap((a) => txs.filter((t) => t.account === a.account).map((t) => t.cells))
    const sorted = path("buchungen-sorted.csv")
    writeFileSync(sorted, csv(TX_HEADER, sortedRows))
    const txMapping = path("transactions.mapping.json")
    writeFileSync(txMapping, JSON.stringify(TX_MAPPING))

    // 2. The notes export: KN-01's note written twice, cell for cell (lines 2 and 3).
    const notesCsv = path("notizen.csv")
    const noteRows = CONTINUED.map((a, ai) => `${a.account};${two(3 + ai)}.03.2024 09:15;Rechnung per E-Mail an ${a.account};;J`)
    writeFileSync(notesCsv, `${NOTE_HEADER}\n${[noteRows[0]!, ...noteRows].join("\n")}\n`)
    const duplicateAccount = CONTINUED[0]!.account

    // 3. The energy export: enough amounts that a kill lands while some are in flight.
    const energyRows = CONTINUED.flatMap((a, ai) => Array.from({ length: 60 }, (_, i) => energy(a, ai, i).row))
    const energyIds = CONTINUED.flatMap((a) => Array.from({ length: 60 }, (_, i) => `EA-${a.account}-${i}`))
    const energyCsv = path("energy.csv")
    writeFileSync(energyCsv, csv(ENERGY_HEADER, energyRows))
    const energyMapping = path("energy.mapping.json")
    writeFileSync(energyMapping, JSON.stringify(MAPPINGS.energy))

    // 4. Map: the unsorted export gives the payloads of the sorted one; a ledger that does not exist is created only when asked.
    const txOut = path("transactions.ndjson")
    const sortedOut = path("transactions-sorted.ndjson")
    const noLedger = await runCli(["map", "-m", txMapping, "-o", txOut, "--journal", ledger, unsorted])
    expect(noLedger.code).toBe(2)
    expect(noLedger.stderr).toContain(ledger)
    const txMap = await runCli(["map", "-m", txMapping, "-o", txOut, "--journal", ledger, "--new-ledger", unsorted])
    expect(txMap.code, txMap.stderr).toBe(1)
    expect(txMap.stderr).not.toContain("group_not_contiguous")
    expect((await runCli(["map", "-m", txMapping, "-o", sortedOut, sorted])).code).toBe(1)
    const txPayloads = readFileSync(txOut, "utf8")
    expect(txPayloads).toBe(readFileSync(sortedOut, "utf8"))
    const mappedIds = txPayloads.split("\n").filter((l) => l !== "").flatMap((l) => (JSON.parse(l) as { transactions: Array<{ transaction_id: string }> }).transactions.map((t) => t.transaction_id))
    expect(mappedIds).toEqual(CONTINUED.flatMap((a) => txs.filter((t) => t.account === a.account && t.valid).map((t) => t.id)))
    const notesOut = path("notes.ndjson")
    const notesMap = await runCli(["map", "-m", join(ROOT, "examples", "mappings", "notes.mapping.json"), "-o", notesOut, "--journal", ledger, notesCsv])
    expect(notesMap.code, notesMap.stderr).toBe(0)
    const energyOut = path("energy.ndjson")
    expect((await runCli(["map", "-m", energyMapping, "-o", energyOut, energyCsv])).code).toBe(0)

    // 5. The service (its own state), with latency so that a kill lands mid-run.
    const state = path("service.sqlite")
    const service = start(["serve", "--port", "0", "--seed", seedFile, "--state", state, "--latency-ms", "20"])
    const deadline = Date.now() + 20_000
    while (!service.out.stdout.includes("\n")) {
      if (Date.now() > deadline || ended(service.child)) throw new Error(`serve did not start: ${service.out.stderr}`)
      await sleep(20)
    }
    const baseUrl = service.out.stdout.split("\n")[0]!.slice("listening on ".length)
    const sendArgs = (paths: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) =>
      ["send", "--base-url", baseUrl, "--journal", ledger, "--concurrency", "8", "--format", "json", ...extra, ...paths]
    const send = async (paths: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) => {
      const run = await runCli(sendArgs(paths, extra), { env })
      assertNoStackTrace(run)
      return { run, report: parseReport(run.stdout) }
    }

    // 6. Transactions and notes: the credits before the open period are refused, and the refusal names the flag.
    const validTx = txs.filter((t) => t.valid)
    const outside = txs.filter((t) => t.outside)
    const first = await send([txOut, notesOut])
    // The note written twice is read twice, sent once.
    expect(first.report.records).toBe(validTx.length + CONTINUED.length + 1)
    expect(first.report.dispositions).toMatchObject({ duplicate: 1 })
    expect(first.report.outcomes).toMatchObject({ created: validTx.length - outside.length + CONTINUED.length, rejected: outside.length })
    const notForced = await runCli(sendArgs([txOut]).filter((a) => a !== "--format" && a !== "json"), { env })
    expect(notForced.stdout).toMatch(new RegExp(`rejected before\\s+${outside.length}`, "u"))
    expect(notForced.stdout).toContain("--force-add-to-current-statement")

    // 7. Energy amounts, killed with SIGKILL: the next run keeps back what was in flight.
    const inDoubtInLedger = (): number => ledgerRows(ledger).filter((r) => r.state === "in_flight" || r.outcome === "in_doubt").length
    const killed = start(sendArgs([energyOut]))
    const until = Date.now() + 30_000
    while (((await stats(baseUrl)).stored["energy_amounts"] ?? 0) < 40) {
      if (ended(killed.child)) throw new Error(`send ended before SIGKILL: ${killed.out.stdout}${killed.out.stderr}`)
      if (Date.now() > until) throw new Error("send stored too little before SIGKILL")
      await sleep(5)
    }
    killed.child.kill("SIGKILL")
    await killed.exited
    const afterKill = await send([energyOut])
    const inDoubt = inDoubtInLedger()
    expect(inDoubt).toBeGreaterThan(0)
    expect(afterKill.report.dispositions["kept_in_doubt"]).toBe(inDoubt)

    // 8. The operators' list, the rehearsal lookup's answer, resolve: nothing in doubt is left.
    const listFile = path("in-doubt.csv")
    expect((await runCli(["report", "--journal", ledger, "--in-doubt", listFile])).code).toBe(1)
    const listed = parse(readFileSync(listFile, "utf8"), { columns: true }) as Array<Record<string, string>>
    expect(listed).toHaveLength(inDoubt)
    for (const row of listed) expect(row).toMatchObject({ endpoint: "energy-amount", supplier: NORD, source_file: energyOut })
    const asked = await fetch(`${baseUrl}/_reference/lookup/`, {
      method: "POST",
      headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ keys: listed.map((r) => r["key"]) })
    })
    expect(asked.status).toBe(200)
    const answer = (await asked.json()) as { stored: Array<string>; not_stored: Array<string>; unknown: Array<string> }
    expect(answer.unknown).toEqual([])
    expect(answer.stored.length + answer.not_stored.length).toBe(inDoubt)
    // Each answer as a list of keys, one a line; a list the lookup left empty is not passed.
    const answerArgs = ([["--stored", answer.stored], ["--not-stored", answer.not_stored]] as const).flatMap(([flag, keys]) => {
      if (keys.length === 0) return []
      const file = path(`${flag.slice(2)}.txt`)
      writeFileSync(file, keys.map((k) => `${k}\n`).join(""))
      return [flag, file]
    })
    const resolved = await runCli(["resolve", "--journal", ledger, ...answerArgs])
    expect(resolved.code, resolved.stderr).toBe(0)
    expect(inDoubtInLedger()).toBe(0)
    const settled = await send([energyOut])
    expect(settled.report.dispositions).toMatchObject({ send: answer.not_stored.length, kept_in_doubt: 0 })

    // 9. The decision, later: the refused credits are sent with --force-add-to-current-statement, and moved.
    const forced = await send([txOut, notesOut, energyOut], ["--force-add-to-current-statement"])
    expect(forced.report.dispositions).toMatchObject({ send: outside.length, rejected_before: 0, kept_in_doubt: 0 })
    expect(forced.report.outcomes).toMatchObject({ moved: outside.length, rejected: 0 })
    const idle = await send([txOut, notesOut, energyOut], ["--force-add-to-current-statement"])
    expect(idle.report.dispositions["send"]).toBe(0)

    // 10. The report: the accounts are the three real ones (no client number "1000"), none complete with a
    // rejected or warned row; the moved credits listed with the note the service pinned.
    const flawed = new Set([duplicateAccount, ...txs.filter((t) => !t.valid).map((t) => t.account)])
    const json = await runCli(["report", "--journal", ledger, "--format", "json"])
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(report.accounts.totals).toEqual({ accounts: CONTINUED.length, complete: CONTINUED.length - flawed.size, blocked: 0, partly: flawed.size, not_stored: 0 })
    expect(report.suppliers.map((s: { supplier: string }) => s.supplier)).toEqual([NORD])
    expect(report.accounts.listed.map((a: { account: string }) => a.account).sort()).toEqual([...flawed].sort())
    const rejectedRow = txs.find((t) => !t.valid)!
    expect(report.problems.listed.map((p: { problem: string; account: string; source_file: string; source_lines: string; code: string }) => [p.problem, p.account, p.source_file, p.source_lines, p.code])).toEqual(expect.arrayContaining([
      ["map_rejected", rejectedRow.account, unsorted, String(lineOf(rejectedRow)), "invalid_date"],
      ["map_warning", duplicateAccount, notesCsv, "2-3", "duplicate_row"]
    ]))
    expect(report.problems.listed).toHaveLength(2)
    // The service's description of the move: the note it pins on the account, and the moved transaction's
    // own note (the legacy "Notiz") followed by it in brackets, which the report shows.
    const moveOf = (t: Tx) => `Transaction ${t.id} dated 2023-12-15 was moved to ${PERIOD.start}, into the open statement period ${PERIOD.start} to ${PERIOD.end}.`
    const noteOf = (t: Tx) => `${t.cells[9]} (${moveOf(t)})`
    expect(report.moved.listed).toEqual(expect.arrayContaining(outside.map((t) => expect.objectContaining({
      supplier: NORD, account: t.account, transaction_id: t.id, from: "2023-12-15", to: PERIOD.start, service_note: noteOf(t), source_file: unsorted, source_lines: String(lineOf(t))
    }))))
    expect(report.moved.listed).toHaveLength(outside.length)

    // The duplicate row in all five formats.
    const text = (await runCli(["report", "--journal", ledger])).stdout
    expect(text).toMatch(new RegExp(`map warning ${escapeRegExp(notesCsv)}:2-3 notes duplicate_row`, "u"))
    for (const t of outside) expect(text).toContain(`${NORD} ${t.account} ${t.id}: 2023-12-15 → ${PERIOD.start} (${unsorted}:${lineOf(t)}): ${noteOf(t)}`)
    expect(text).not.toMatch(new RegExp(`^\\s*${CLIENT}\\s`, "mu"))
    const markdown = (await runCli(["report", "--journal", ledger, "--format", "markdown"])).stdout
    expect(markdown).toContain(`duplicate\\_row at ${notesCsv}:2-3`)
    const todo = parse((await runCli(["report", "--journal", ledger, "--format", "csv"])).stdout, { columns: true }) as Array<Record<string, string>>
    expect(todo).toEqual(expect.arrayContaining([expect.objectContaining({ problem: "map_warning", code: "duplicate_row", account: duplicateAccount, source_file: notesCsv, source_lines: "2-3" })]))
    const html = (await runCli(["report", "--journal", ledger, "--format", "html"])).stdout
    const warned = /<tr data-kind="notes"[^>]*data-outcome="map_warning">(.*?)<\/tr>/su.exec(html)?.[1]
    expect(warned).toContain("<td>duplicate_row</td>")
    expect(warned).toContain(`<td>${notesCsv}</td><td>2-3</td>`)
    const movedTable = html.split('<table id="moved"')[1]?.split("</table>")[0] ?? ""
    for (const t of outside) expect(movedTable).toContain(`<td>${t.id}</td><td>2023-12-15</td><td>${PERIOD.start}</td><td>${noteOf(t)}</td>`)

    service.child.kill("SIGTERM")
    await service.exited

    // 11. What the service stored: every energy amount and every valid transaction once, a pinned note per
    // moved credit beside the legacy notes (the duplicate row is one note); nothing in doubt.
    const db = new (loadSqlite().DatabaseSync)(state, { readOnly: true })
    const stored = db.prepare("SELECT kind, data FROM records").all() as Array<{ kind: string; data: string }>
    db.close()
    const of = (kind: string, field: string) => stored.filter((r) => r.kind === kind).map((r) => (JSON.parse(r.data) as Record<string, unknown>)[field])
    expect([...of("energy_amounts", "line_item_identifier")].sort()).toEqual([...energyIds].sort())
    expect([...of("transactions", "transaction_id")].sort()).toEqual(validTx.map((t) => t.id).sort())
    const notes = stored.filter((r) => r.kind === "notes").map((r) => JSON.parse(r.data) as { body: string; is_pinned?: boolean })
    expect(notes.map((n) => n.body).sort()).toEqual([...new Set(noteRows.map((r) => r.split(";")[2]!)), ...outside.map(moveOf)].sort())
    expect(notes.filter((n) => outside.map(moveOf).includes(n.body)).map((n) => n.is_pinned)).toEqual(outside.map(() => true))
    expect(inDoubtInLedger()).toBe(0)
    expect(ledgerRows(ledger).filter((r) => r.state !== "done")).toEqual([])
    expect(Date.now() - began).toBeLessThan(60_000)
  }, 90_000)
})
