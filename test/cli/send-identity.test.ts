/**
 * A record's identity through the built `send`: only the fields a natural key declares as instants are
 * compared as instants; any other key text that looks like a datetime (a transaction id, a note's body,
 * a line item id) is compared as written. A ledger written while every datetime-shaped key text was read
 * as an instant still knows its records: nothing it holds is sent again.
 */
import { hash } from "node:crypto"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { openLedger } from "../../src/index.js"
import { startServe } from "../service/serve-child.js"
import { runCli, tempDir } from "./run-cli.js"

const TOKEN = "tok-identity-4e1d"
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
      open_statement_period: { start: "2024-01-01", end: "2024-12-31" }
    }
  ]
}
const env = { DATA_IMPORT_TOKEN: TOKEN }

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

const transaction = (id: string) => ({ transaction_id: id, transaction_date: "2024-02-01", amount: 12.5, type: "CHARGE" })
const transactionLine = (id: string) => JSON.stringify({ import_supplier: SUPPLIER, external_account_number: "KD-1", transactions: [transaction(id)] })
const noteLine = (body: string) =>
  JSON.stringify({ import_supplier: SUPPLIER, external_account_number: "KD-1", notes: [{ body, created_at: "2024-05-01T10:00:00Z" }] })
const energyAmount = (lineItem: string) => ({
  malo_number: "51238696781",
  period_start_at: "2024-10-01T00:00:00+02:00",
  period_end_at: "2024-10-31T23:59:59+01:00",
  product_identifier: "1-1:1.8.0",
  product_identifier_type: "SRW",
  quantity: "7.5",
  quantity_unit: "KWH",
  line_item_identifier: lineItem
})
const energyLine = (lineItem: string) => JSON.stringify({ import_supplier: SUPPLIER, external_account_number: "KD-1", energy_amount: energyAmount(lineItem) })

interface Report {
  readonly records: number
  readonly dispositions: Record<string, number>
  readonly outcomes: Record<string, number>
  readonly conflicts: ReadonlyArray<unknown>
}
type Stats = { stored: Record<string, number>; responses: Record<string, Record<string, number>> }
const stats = async (baseUrl: string): Promise<Stats> =>
  (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as Stats

const send = async (baseUrl: string, journal: string, input: string): Promise<Report> => {
  const run = await runCli(["send", "--base-url", baseUrl, "--journal", journal, "--new-ledger", "--format", "json", input], { env })
  expect(run.stderr).not.toContain("Error")
  return JSON.parse(run.stdout) as Report
}

/** The first 32 hex digits of SHA-256: the digest the ledger keeps identities and contents by. */
const digest = (text: string): string => hash("sha256", text, "hex").slice(0, 32)

describe("send: identifiers shaped like datetimes", () => {
  it("three transaction ids and two note bodies that name one instant are five records: all five are sent and stored", async () => {
    const service = await startServe(["--seed", seedFile])
    const input = join(dir, "datetime-ids.ndjson")
    writeFileSync(
      input,
      [
        transactionLine("2024-01-01T00:00:00Z"),
        transactionLine("2024-01-01T01:00:00+01:00"),
        transactionLine("2023-12-31T23:00:00-01:00"),
        noteLine("2024-01-01T00:00:00Z"),
        noteLine("2024-01-01T01:00:00+01:00")
      ].join("\n") + "\n"
    )
    const report = await send(service.baseUrl, join(dir, "datetime-ids.ledger"), input)
    expect(report.records).toBe(5)
    expect(report.dispositions).toMatchObject({ send: 5, conflict: 0 })
    expect(report.outcomes).toMatchObject({ created: 5 })
    expect(report.conflicts).toEqual([])
    expect((await stats(service.baseUrl)).stored).toMatchObject({ transactions: 3, notes: 2 })
  })

  it("a datetime the key declares an instant is one value in any offset style: the note in another offset style is the same record", async () => {
    const service = await startServe(["--seed", seedFile])
    const journal = join(dir, "instant-key.ledger")
    const first = join(dir, "instant-first.ndjson")
    writeFileSync(first, `${noteLine("Zählerwechsel")}\n`)
    expect((await send(service.baseUrl, journal, first)).outcomes).toMatchObject({ created: 1 })
    const again = join(dir, "instant-again.ndjson")
    writeFileSync(again, `${noteLine("Zählerwechsel").replace("2024-05-01T10:00:00Z", "2024-05-01T12:00:00+02:00")}\n`)
    const report = await send(service.baseUrl, journal, again)
    // The same record (body, and created_at as an instant), with other content (the offset's spelling).
    expect(report.dispositions).toMatchObject({ send: 0, conflict: 1 })
    expect((await stats(service.baseUrl)).stored).toMatchObject({ notes: 1 })
  })

  it("a ledger written when every datetime-shaped key text was an instant: its records are settled, never sent again; the others are sent", async () => {
    // The ledger as the earlier version left it: a transaction and an energy amount stored, each under the
    // key that version gave it (any datetime-shaped text as `@<seconds since 1970>`: 2024-01-01T00:00:00Z is
    // 1704067200). Their content digests are of the canonical JSON (keys sorted): envelope, newline, item.
    const journal = join(dir, "earlier.ledger")
    const ledger = openLedger(journal)
    const run = ledger.startRun("send", null, {})
    const txKey = `["transactions","${SUPPLIER}","KD-1","@1704067200"]`
    const txContent = `{"external_account_number":"KD-1","import_supplier":"${SUPPLIER}"}\n{"amount":12.5,"transaction_date":"2024-02-01","transaction_id":"2024-01-01T00:00:00Z","type":"CHARGE"}`
    const energyKey = `["energy-amount","${SUPPLIER}","KD-1","51238696781","@1727733600","@1730415599","1-1:1.8.0","@1704067200",null]`
    const energyContent =
      `{"energy_amount":{"line_item_identifier":"2024-01-01T00:00:00Z","malo_number":"51238696781","period_end_at":"2024-10-31T23:59:59+01:00",` +
      `"period_start_at":"2024-10-01T00:00:00+02:00","product_identifier":"1-1:1.8.0","product_identifier_type":"SRW","quantity":"7.5","quantity_unit":"KWH"},` +
      `"external_account_number":"KD-1","import_supplier":"${SUPPLIER}"}`
    for (const [endpoint, key, content] of [["transactions", txKey, txContent], ["energy-amount", energyKey, energyContent]] as const) {
      const identity = digest(key)
      ledger.inFlight({ identity, endpoint, key, supplier: SUPPLIER, account: "KD-1", content: digest(content), file: "/earlier.ndjson", line: 1 }, run)
      ledger.settle(identity, { outcome: "created", httpStatus: 201, attempts: 1 })
    }
    ledger.endRun(run, "completed", {})
    ledger.close()

    const service = await startServe(["--seed", seedFile])
    const input = join(dir, "after-upgrade.ndjson")
    writeFileSync(
      input,
      [
        transactionLine("2024-01-01T00:00:00Z"),
        transactionLine("2024-01-01T01:00:00+01:00"),
        energyLine("2024-01-01T00:00:00Z"),
        energyLine("2024-01-01T01:00:00+01:00")
      ].join("\n") + "\n"
    )
    const report = await send(service.baseUrl, journal, input)
    expect(report.dispositions).toMatchObject({ settled_before: 2, send: 2, conflict: 0 })
    expect(report.outcomes).toMatchObject({ created: 2 })
    // Only the two records the ledger did not hold reached the service.
    expect((await stats(service.baseUrl)).stored).toMatchObject({ transactions: 1, energy_amounts: 1 })

    const again = await send(service.baseUrl, journal, input)
    expect(again.dispositions).toMatchObject({ settled_before: 4, send: 0, conflict: 0 })
    expect((await stats(service.baseUrl)).stored).toMatchObject({ transactions: 1, energy_amounts: 1 })
  })
})

describe("identifiers holding NUL (U+0000)", () => {
  it("validate refuses them with null_characters_not_allowed at the field; send never sends them", async () => {
    const service = await startServe(["--seed", seedFile])
    const input = join(dir, "nul.ndjson")
    const body = (account: string, malo: string) =>
      JSON.stringify({ import_supplier: SUPPLIER, external_account_number: account, energy_amount: { ...energyAmount("L-1"), malo_number: malo } })
    writeFileSync(input, [body("KD-1", "51238696781"), body("KD-1\u0000X", "51238696781"), body("KD-1", "51238696781\u00002")].join("\n") + "\n")
    const validated = await runCli(["validate", "--format", "json", input])
    expect(validated.code).toBe(1)
    const checked = JSON.parse(validated.stdout) as { byCode: Record<string, number>; byAttr: Record<string, number> }
    expect(checked.byCode).toEqual({ null_characters_not_allowed: 2 })
    expect(checked.byAttr).toEqual({ external_account_number: 1, "energy_amount.malo_number": 1 })

    const report = await send(service.baseUrl, join(dir, "nul.ledger"), input)
    expect(report.dispositions).toMatchObject({ send: 1, invalid: 2 })
    expect(report.outcomes).toMatchObject({ created: 1, invalid: 2 })
    expect((await stats(service.baseUrl)).stored).toMatchObject({ energy_amounts: 1 })
  })
})
