/**
 * The send engine with the campaign ledger, against the reference model: records known by identity
 * across files, fixes, conflicts, blocked records sent again once unblocked, transactions never moved
 * without the option, a stop that leaves nothing in doubt, and every record accounted for.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { openLedger, recordsOf, type SourceLine, sendRecords } from "../../src/index.js"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { CONTROL_PATHS } from "../../src/service/index.js"
import { example } from "../service/support.js"
import { energyAmount, type Fault, modelService, notes, PARTICIPANT, PAUSED, SEED, setSupplier, SUPPLIER, TOKEN, transactions } from "./model-service.js"

const lines = (file: string, bodies: ReadonlyArray<unknown>): Array<SourceLine> =>
  bodies.map((body, i) => ({ file, line: i + 1, text: JSON.stringify(body) }))

const ledgerAt = () => openLedger(":memory:", { service: "http://127.0.0.1:9/" })

describe("sendRecords", () => {
  it("a record is sent once whatever file or line it arrives on; other content for a stored record is a conflict", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const amounts = [1, 2, 3].map((day) => energyAmount("KD-1", day))
    const first = await sendRecords(lines("/in/amounts.ndjson", amounts), { ledger, client })
    expect(first.outcomes.created).toBe(3)
    // Renamed, reordered, with a repeat inside, and one new record appended.
    const again = await sendRecords(lines("/in/renamed.ndjson", [amounts[2], amounts[0], amounts[0], amounts[1], energyAmount("KD-1", 4)]), { ledger, client })
    expect(again.dispositions).toMatchObject({ settled_before: 3, duplicate: 1, send: 1 })
    expect(again.outcomes.created).toBe(1)
    // The same period with another quantity: the stored one is not overwritten, and nothing is sent.
    const changed = await sendRecords(lines("/in/fixed.ndjson", [energyAmount("KD-1", 2, "99.5")]), { ledger, client })
    expect(changed.dispositions.conflict).toBe(1)
    expect(changed.dispositions.send).toBe(0)
    const [conflict] = ledger.conflicts(10)
    expect(conflict?.known.file).toBe("/in/amounts.ndjson")
    expect(conflict?.other).toMatchObject({ file: "/in/fixed.ndjson", line: 1 })
    expect(service.model().stats().stored.energy_amounts).toBe(4)
    expect([...service.stored.values()].every((n) => n === 1)).toBe(true)
  })

  it("an offset of another style names the same instant: the same record", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    await sendRecords(lines("/a.ndjson", [energyAmount("KD-1", 5)]), { ledger, client })
    const utc = energyAmount("KD-1", 5) as { energy_amount: Record<string, unknown> }
    utc.energy_amount["period_start_at"] = "2024-03-04T23:00:00Z"
    utc.energy_amount["period_end_at"] = "2024-03-05T22:59:59Z"
    const second = await sendRecords(lines("/b.ndjson", [utc]), { ledger, client })
    expect(second.dispositions.conflict).toBe(1)
    expect(service.model().stats().stored.energy_amounts).toBe(1)
  })

  it("blocked records are sent again by later runs and stored once the supplier is resumed or the account imported", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const input = lines("/in/x.ndjson", [energyAmount("S-1", 1, "1", PAUSED), energyAmount("KD-3", 1), energyAmount("KD-404", 1)])
    const first = await sendRecords(input, { ledger, client })
    expect(first.outcomes.blocked).toBe(3)
    expect(first.causes).toEqual({ "blocked:supplier_not_ongoing": 1, "blocked:account_not_imported": 1, "blocked:account_unknown": 1 })
    const again = await sendRecords(input, { ledger, client })
    expect(again.dispositions.send).toBe(3)
    expect(again.outcomes.blocked).toBe(3)
  })

  it("a rejected record is not sent again unchanged, and is sent once fixed", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    // Outside the open statement period of KD-1: without the option, the service refuses it.
    const outside = transactions("KD-1", [{ id: "T-1", date: "2023-12-15" }])
    const first = await sendRecords(lines("/t.ndjson", [outside]), { ledger, client })
    expect(first.outcomes.rejected).toBe(1)
    expect(first.causes).toEqual({ "rejected:TRANSACTION_IMPORT_ERROR": 1 })
    const again = await sendRecords(lines("/t.ndjson", [outside]), { ledger, client })
    expect(again.dispositions.rejected_before).toBe(1)
    const fixed = await sendRecords(lines("/t2.ndjson", [transactions("KD-1", [{ id: "T-1", date: "2024-01-15" }])]), { ledger, client })
    expect(fixed.outcomes.created).toBe(1)
  })

  it("fees and definitions sent before their market participant are blocked, sent again by later runs, stored once it exists", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const participant = { ...example("market-participant"), code: 9900000000004 }
    const sheets = (example("market-participant-fees")["price_sheets"] as Array<Record<string, unknown>>)
    // One sheet of the new participant, one of a participant the service has: only the first waits.
    const fees = { price_sheets: [{ ...sheets[0], market_participant_code: 9900000000004 }, { ...sheets[0], market_participant_code: PARTICIPANT, document_number: "PB-KNOWN" }] }
    const definitions = { ...example("market-participant-definitions"), network_operator_code: "9900000000004" }
    const input = lines("/pre/fees-and-definitions.ndjson", [fees, definitions])
    const early = await sendRecords(input, { ledger, client })
    expect(early.outcomes).toMatchObject({ created: 1, blocked: 2, rejected: 0 })
    expect(early.causes).toEqual({ "blocked:market_participant_not_imported": 1, "blocked:network_operator_not_imported": 1 })
    // The same lines, unchanged, once the participant is imported: sent, not kept back as refused for their content.
    expect((await sendRecords(lines("/pre/participants.ndjson", [participant]), { ledger, client })).outcomes.created).toBe(1)
    const later = await sendRecords(input, { ledger, client })
    expect(later.dispositions).toMatchObject({ settled_before: 1, send: 2, rejected_before: 0 })
    expect(later.outcomes.created).toBe(2)
    // The example's request holds one definition and one rolled-out definition: the service stores each.
    expect(service.model().stats().stored).toMatchObject({ price_sheets: 2, time_definitions: 2 })
  })

  it("an old, invalid version and its fixed version in one run: the fixed one is sent, no conflict", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const broken = transactions("KD-2", [{ id: "T-5", date: "2024-02-30" }])
    const fixed = transactions("KD-2", [{ id: "T-5", date: "2024-02-28" }])
    // The payload file of the first mapping still lies beside the one mapped again after the fix.
    const run = await sendRecords([...lines("/out/transactions.ndjson", [broken]), ...lines("/out/transactions-fixed.ndjson", [fixed])], { ledger, client })
    expect(run.dispositions).toMatchObject({ invalid: 1, conflict: 0, send: 1 })
    expect(run.outcomes.created).toBe(1)
    expect(ledger.conflicts(10)).toEqual([])
    // Both files again: the stored version is settled, the old one a conflict with it, never sent.
    const again = await sendRecords([...lines("/out/transactions.ndjson", [broken]), ...lines("/out/transactions-fixed.ndjson", [fixed])], { ledger, client })
    expect(again.dispositions).toMatchObject({ conflict: 1, settled_before: 1, send: 0 })
    expect(service.model().stats().stored.transactions).toBe(1)
  })

  it("transactions are moved only with the option, and then reported as moved", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const body = transactions("KD-1", [{ id: "T-9", date: "2023-12-15" }, { id: "T-10", date: "2024-03-01" }])
    const without = await sendRecords(lines("/t.ndjson", [body]), { ledger, client })
    // The refused one is named; the other is sent again at once without it.
    expect(without.outcomes).toMatchObject({ rejected: 1, created: 1 })
    expect(service.model().stats().stored.notes).toBe(0)
    const moved = await sendRecords(lines("/t.ndjson", [transactions("KD-1", [{ id: "T-11", date: "2023-11-30" }])]), { ledger, client, forceAddToCurrentStatement: true })
    expect(moved.outcomes.moved).toBe(1)
    const record = ledger.records({ outcome: "moved", limit: 5 })[0]
    // The answer's transaction_data carries the new date and, in its note, the service's words about the move.
    expect(JSON.parse(record!.detail!)).toEqual({
      from: "2023-11-30",
      to: "2024-01-01",
      pinned_note: true,
      transaction_id: "T-11",
      service_note: "Transaction T-11 dated 2023-11-30 was moved to 2024-01-01, into the open statement period 2024-01-01 to 2024-12-31."
    })
  })

  it("notes: settled ones are left out of the request; only the new ones are sent", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    await sendRecords(lines("/n.ndjson", [notes("KD-2", ["a", "b"])]), { ledger, client })
    const merged = await sendRecords(lines("/n2.ndjson", [notes("KD-2", ["b", "c", "a"])]), { ledger, client })
    expect(merged.dispositions).toMatchObject({ settled_before: 2, send: 1 })
    expect(service.model().stats().stored.notes).toBe(3)
  })

  it("a stop leaves nothing in doubt: what was not sent is pending and sent by the next run", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const controller = new AbortController()
    const amounts = Array.from({ length: 28 }, (_, i) => energyAmount("KD-2", i + 1, String(i + 1)))
    const input = lines("/big.ndjson", amounts)
    const first = await sendRecords(input, {
      ledger,
      client,
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.answered >= 4) controller.abort()
      }
    })
    expect(first.stopped).toBe(true)
    expect(first.outcomes.in_doubt).toBe(0)
    expect(ledger.records({ outcome: "in_doubt", limit: 10 })).toEqual([])
    const second = await sendRecords(input, { ledger, client })
    expect(second.outcomes.in_doubt).toBe(0)
    expect(first.outcomes.created + second.outcomes.created).toBe(28)
    expect(service.model().stats().stored.energy_amounts).toBe(28)
  })

  it("an answer lost after the service stored it is in doubt and never sent again; a dry run says what a run would send", async () => {
    let lose = true
    const service = modelService(SEED, () => (lose ? "after" : "none"))
    const ledger = ledgerAt()
    const client = service.client()
    const input = lines("/a.ndjson", [energyAmount("KD-2", 1), energyAmount("KD-2", 2)])
    const first = await sendRecords(input, { ledger, client })
    expect(first.outcomes.in_doubt).toBe(2)
    lose = false
    const dry = await sendRecords([...input, ...lines("/b.ndjson", [energyAmount("KD-2", 3)])], { ledger })
    expect(dry.dispositions).toMatchObject({ kept_in_doubt: 2, send: 1 })
    const second = await sendRecords(input, { ledger, client })
    expect(second.dispositions.kept_in_doubt).toBe(2)
    expect(service.model().stats().stored.energy_amounts).toBe(2)
  })

  it("a record in doubt sent again with resendInDoubt and not stored by that request stays in doubt: no later run sends it unasked", async () => {
    let fault: Fault = "after"
    const service = modelService(SEED, () => fault)
    const ledger = ledgerAt()
    const client = service.client()
    const input = lines("/a.ndjson", [energyAmount("KD-2", 1), energyAmount("KD-2", 2)])
    expect((await sendRecords(input, { ledger, client })).outcomes.in_doubt).toBe(2)
    expect(service.model().stats().stored.energy_amounts).toBe(2)
    // Sent again on the user's word, while the supplier is paused: blocked now, but the first request may have stored it.
    fault = "none"
    setSupplier(service, SUPPLIER, "Paused")
    const paused = await sendRecords(lines("/a.ndjson", [energyAmount("KD-2", 1)]), { ledger, client, resendInDoubt: true })
    expect(paused.outcomes).toMatchObject({ blocked: 0, in_doubt: 1 })
    // Sent again while the service cannot be reached: not stored by this request, still maybe by the first.
    fault = "before"
    const unreachable = await sendRecords(lines("/a.ndjson", [energyAmount("KD-2", 2)]), { ledger, client, resendInDoubt: true })
    expect(unreachable.outcomes).toMatchObject({ failed: 0, in_doubt: 1 })
    expect(ledger.records({ outcome: "in_doubt", limit: 5 })).toHaveLength(2)
    // The supplier resumed and the service back: a run without the flag sends neither.
    fault = "none"
    setSupplier(service, SUPPLIER, "Ongoing")
    const later = await sendRecords(input, { ledger, client })
    expect(later.dispositions).toMatchObject({ kept_in_doubt: 2, send: 0 })
    expect(service.model().stats().stored.energy_amounts).toBe(2)
  })

  it("a record in doubt whose account is not imported when it is sent again is blocked: the earlier request cannot have stored it", async () => {
    let fault: Fault = "after"
    const service = modelService(SEED, () => fault)
    const ledger = ledgerAt()
    const client = service.client()
    // KD-3 is staged: the service refused the first request, but its answer was lost.
    const input = lines("/a.ndjson", [energyAmount("KD-3", 1)])
    expect((await sendRecords(input, { ledger, client })).outcomes.in_doubt).toBe(1)
    fault = "none"
    const again = await sendRecords(input, { ledger, client, resendInDoubt: true })
    expect(again.outcomes).toMatchObject({ blocked: 1, in_doubt: 0 })
    expect(again.causes).toEqual({ "blocked:account_not_imported": 1 })
    // An import is never undone: once it is imported, the next run sends it unasked, and it is stored once.
    service.update((model) => model.handle({ method: "POST", path: CONTROL_PATHS.account.replace("{import_supplier}", SUPPLIER).replace("{external_account_number}", "KD-3"), authorization: `Token ${TOKEN}`, body: '{"status":"COMPLETED"}' }).model)
    const imported = await sendRecords(input, { ledger, client })
    expect(imported.outcomes.created).toBe(1)
    expect(service.model().stats().stored.energy_amounts).toBe(1)
  })

  it("a record in doubt whose repeat is harmless takes the answer of its repeat: refused now, it was not stored then", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    // Outside KD-1's open statement period, and in flight when a run was killed.
    const body = transactions("KD-1", [{ id: "T-40", date: "2023-12-15" }])
    const input = lines("/t.ndjson", [body])
    ledger.inFlight({ ...recordsOf("transactions", body)![0]!, endpoint: "transactions", file: "/t.ndjson", line: 1 }, ledger.startRun("send", null, {}))
    // Sent again unasked (a stored one would be TRANSACTION_ALREADY_EXISTS): rejected, and not sent again unchanged.
    const again = await sendRecords(input, { ledger, client })
    expect(again.outcomes).toMatchObject({ rejected: 1, in_doubt: 0 })
    expect((await sendRecords(input, { ledger, client })).dispositions).toMatchObject({ rejected_before: 1, send: 0 })
  })

  it("an outcome changes only on an answer: a record in doubt is not re-read as invalid by a run with another clock", async () => {
    const service = modelService(SEED, () => "after")
    const ledger = ledgerAt()
    const client = service.client()
    // Without check_previously_added, a repeat of a transaction may store it twice: it stays in doubt.
    const options = { ledger, client, checkPreviouslyAdded: false }
    const input = lines("/t.ndjson", [transactions("KD-2", [{ id: "T-77", date: "2024-06-01" }])])
    expect((await sendRecords(input, options)).outcomes.in_doubt).toBe(1)
    // A clock before the transaction's date would make it `transaction_in_future`: the ledger's outcome stands.
    const earlier = await sendRecords(input, { ...options, now: () => new Date("2024-01-01T00:00:00Z") })
    expect(earlier.dispositions).toMatchObject({ kept_in_doubt: 1, invalid: 0 })
    expect(ledger.records({ outcome: "in_doubt", limit: 5 }).map((r) => JSON.parse(r.key))).toEqual([["transactions", "STADTWERKE_NORD", "KD-2", "T-77"]])
    expect(ledger.records({ outcome: "invalid", limit: 5 })).toEqual([])
  })

  it("warnings are counted with where the first ones are; with failOnWarnings such a record is invalid and not sent", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const client = service.client()
    const odd = energyAmount("KD-2", 11) as { energy_amount: Record<string, unknown> }
    odd.energy_amount["quantity_unit"] = "MWH"
    const input = lines("/w.ndjson", [energyAmount("KD-2", 10), odd])
    const strict = await sendRecords(input, { ledger, client, failOnWarnings: true })
    expect(strict.warnings).toEqual({ unknown_choice: 1 })
    expect(strict.firstWarnings).toEqual([expect.objectContaining({ file: "/w.ndjson", line: 2, attr: "energy_amount.quantity_unit", code: "unknown_choice" })])
    expect(strict.dispositions).toMatchObject({ send: 1, invalid: 1 })
    expect(ledger.records({ outcome: "invalid", limit: 5 })[0]?.cause).toBe("unknown_choice")
    // Without the option the record goes out, its warning still counted.
    const lenient = await sendRecords(input, { ledger, client })
    expect(lenient.warnings).toEqual({ unknown_choice: 1 })
    expect(lenient.outcomes.created).toBe(1)
    expect(service.model().stats().stored.energy_amounts).toBe(2)
  })

  it("a 201 without a result for a record is in doubt, and the token an answer echoes is never written", async () => {
    const service = modelService(SEED)
    const echo = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      if (String(input).includes("notes")) return new Response(JSON.stringify([]), { status: 201 })
      return new Response(JSON.stringify({ detail: `bad token ${TOKEN}`, code: "x", errors: [{ detail: `token ${TOKEN}`, code: "invalid", attr: "energy_amount.quantity" }] }), { status: 400 })
    }
    const { createClient } = await import("../../src/index.js")
    const client = createClient({ baseUrl: "http://127.0.0.1:9", token: TOKEN, fetch: echo as typeof fetch })
    const ledger = ledgerAt()
    const run = await sendRecords(lines("/x.ndjson", [notes("KD-2", ["a"]), energyAmount("KD-2", 1)]), { ledger, client, secrets: [TOKEN] })
    expect(run.outcomes).toMatchObject({ in_doubt: 1, rejected: 1 })
    const written = [...ledger.runRecords(run.run)].map((r) => JSON.stringify(r)).join("\n")
    expect(written).not.toContain(TOKEN)
    expect(service.requests.size).toBe(0)
  })

  it("every line ends in one disposition: bad JSON, no endpoint and invalid bodies are listed by line", async () => {
    const service = modelService(SEED)
    const ledger = ledgerAt()
    const bad = energyAmount("KD-2", 1) as { energy_amount: Record<string, unknown> }
    bad.energy_amount["quantity"] = "1,5"
    const input: Array<SourceLine> = [
      { file: "/m.ndjson", line: 1, text: "{not json" },
      { file: "/m.ndjson", line: 2, text: JSON.stringify({ hello: 1 }) },
      { file: "/m.ndjson", line: 4, text: JSON.stringify(bad) },
      { file: "/m.ndjson", line: 5, text: JSON.stringify(transactions("KD-2", [{ id: "A" }, { id: "B", date: "2024-13-01" }])) }
    ]
    const run = await sendRecords(input, { ledger, client: service.client() })
    expect(run.records).toBe(5)
    expect(run.dispositions).toMatchObject({ invalid: 4, send: 1 })
    expect(ledger.unidentifiedLines(run.run, 10).map((u) => u.line)).toEqual([1, 2])
    expect(run.outcomes.created).toBe(1)
  })
})

describe("openLedger on a database that is not this version's ledger", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledger-foreign-"))
  const database = (name: string, sql: string): string => {
    const path = join(dir, name)
    const { DatabaseSync } = loadSqlite()
    const db = new DatabaseSync(path)
    db.exec(sql)
    db.close()
    return path
  }

  it("calls a database with a meta table but no journal's tables (serve's state) no ledger, not an older one", () => {
    const state = database("state.db", "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE suppliers (code TEXT PRIMARY KEY, status TEXT NOT NULL);")
    const before = readFileSync(state)
    expect(() => openLedger(state)).toThrow(/is not a ledger of data-import \(a database with the tables meta, suppliers\)/u)
    expect(() => openLedger(state, { readOnly: true })).toThrow(/is not a ledger of data-import/u)
    expect(readFileSync(state).equals(before)).toBe(true)
  })

  it("calls an old journal of file lines (meta, files, records; no format) an older version's", () => {
    const journal = database("journal.db", "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE files (path TEXT PRIMARY KEY); CREATE TABLE records (file TEXT, line INTEGER);")
    expect(() => openLedger(journal)).toThrow(/written by an older version of data-import \(a journal of file lines\)/u)
  })
})
