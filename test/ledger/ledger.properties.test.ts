/**
 * The ledger's promise as a property: any sequence of runs over any arrangement of the same records into
 * files (renamed, split, merged, repeated, broken and fixed, with requests refused or answers lost at
 * random and runs stopped part-way) stores each record at most once; and a last run without faults
 * leaves every record stored or honestly listed in doubt. And with the supplier paused and resumed, and
 * records sent again on the user's word (`resendInDoubt`): a record the service may have stored is never
 * sent by a run without that word.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { createClient, openLedger, recordsOf, type SourceLine, sendRecords } from "../../src/index.js"
import { example } from "../service/support.js"
import { energyAmount, type Fault, modelService, SEED, setSupplier, SUPPLIER, TOKEN } from "../send/model-service.js"

/** One record of the campaign: its kind, its number, and whether its first version is broken. */
interface Spec {
  readonly kind: "energy" | "transaction" | "note"
  readonly n: number
  readonly brokenFirst: boolean
}

/** The body holding these records (records of one kind; transactions and notes share one body per account). */
const bodiesOf = (specs: ReadonlyArray<Spec>, fixed: boolean): Array<unknown> => {
  const out: Array<unknown> = []
  const account = "KD-2"
  const broken = (s: Spec) => s.brokenFirst && !fixed
  for (const s of specs.filter((x) => x.kind === "energy")) out.push(energyAmount(account, s.n + 1, broken(s) ? "1,5" : `${s.n}.25`))
  const tx = specs.filter((x) => x.kind === "transaction")
  if (tx.length > 0) {
    out.push({
      import_supplier: SUPPLIER,
      external_account_number: account,
      transactions: tx.map((s) => ({ transaction_id: `T-${s.n}`, transaction_date: broken(s) ? "2024-02-30" : "2024-02-01", amount: s.n + 0.5, type: "CHARGE" }))
    })
  }
  const notes = specs.filter((x) => x.kind === "note")
  if (notes.length > 0) {
    out.push({ import_supplier: SUPPLIER, external_account_number: account, notes: notes.map((s) => ({ body: `note ${s.n}${broken(s) ? "" : ""}`, created_at: broken(s) ? "2024-05-01" : "2024-05-01T10:00:00Z" })) })
  }
  return out
}

const specArb = fc.uniqueArray(
  fc.record({ kind: fc.constantFrom("energy" as const, "transaction" as const, "note" as const), n: fc.integer({ min: 0, max: 20 }), brokenFirst: fc.boolean() }),
  { minLength: 1, maxLength: 10, selector: (s) => `${s.kind}${s.n}` }
)

/** One run: which records, fixed or not, cut into files of groups, some lines twice, faults, a stop. */
const runArb = (count: number) =>
  fc.record({
    picks: fc.array(fc.nat(count - 1), { minLength: 1, maxLength: count * 2 }),
    fixed: fc.boolean(),
    group: fc.integer({ min: 1, max: 3 }),
    files: fc.integer({ min: 1, max: 3 }),
    faults: fc.array(fc.constantFrom<Fault>("none", "none", "before", "after"), { minLength: 1, maxLength: 8 }),
    stopAfter: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined })
  })

describe("the ledger over many runs", () => {
  it("never stores a record twice, and a last clean run leaves each stored once or listed in doubt", async () => {
    await fc.assert(
      fc.asyncProperty(specArb.chain((specs) => fc.tuple(fc.constant(specs), fc.array(runArb(specs.length), { minLength: 1, maxLength: 5 }))), async ([specs, runs]) => {
        let faultPlan: Array<Fault> = []
        const service = modelService(SEED, () => faultPlan.shift() ?? "none")
        const client = service.client()
        const ledger = openLedger(":memory:", { service: "http://127.0.0.1:9/" })
        let fileNumber = 0
        for (const run of runs) {
          faultPlan = [...run.faults]
          const chosen = run.picks.map((i) => specs[i]!)
          const lines: Array<SourceLine> = []
          for (let at = 0; at < chosen.length; at += run.group) {
            for (const body of bodiesOf(chosen.slice(at, at + run.group), run.fixed)) {
              lines.push({ file: `/runs/file-${fileNumber + (lines.length % run.files)}.ndjson`, line: lines.length + 1, text: JSON.stringify(body) })
            }
          }
          fileNumber += run.files
          const controller = new AbortController()
          await sendRecords(lines, {
            ledger,
            client,
            concurrency: 2,
            signal: controller.signal,
            onProgress: (p) => {
              if (run.stopAfter !== undefined && p.answered >= run.stopAfter) controller.abort()
            }
          })
          expect([...service.stored.entries()].filter(([, n]) => n > 1)).toEqual([])
        }
        faultPlan = []
        const final = bodiesOf(specs, true).map((body, i) => ({ file: "/final.ndjson", line: i + 1, text: JSON.stringify(body) }))
        const last = await sendRecords(final, { ledger, client })
        expect(last.dispositions.invalid).toBe(0)
        expect([...service.stored.values()].every((n) => n === 1)).toBe(true)
        for (const body of final) {
          const endpoint = "energy_amount" in JSON.parse(body.text) ? "energy-amount" : "transactions" in JSON.parse(body.text) ? "transactions" : "notes"
          for (const record of recordsOf(endpoint, JSON.parse(body.text))!) {
            const known = ledger.record(record.identity)
            const stored = service.stored.get(record.identity) === 1
            // Stored, or honestly in doubt (an answer was lost and a repeat would store it twice).
            expect(stored || known?.outcome === "in_doubt", record.key).toBe(true)
          }
        }
        ledger.close()
      }),
      { numRuns: 60 }
    )
  })
})

describe("records the service may have stored, over runs that pause the supplier and send in-doubt records again", () => {
  it("a run without resendInDoubt never sends an energy amount the service has; a last run leaves each stored or in doubt", async () => {
    const run = fc.record({
      days: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
      paused: fc.boolean(),
      resendInDoubt: fc.boolean(),
      faults: fc.array(fc.constantFrom<Fault>("none", "before", "after"), { minLength: 1, maxLength: 6 }),
      stopAfter: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined })
    })
    await fc.assert(
      fc.asyncProperty(fc.array(run, { minLength: 1, maxLength: 6 }), async (runs) => {
        let faultPlan: Array<Fault> = []
        const service = modelService(SEED, () => faultPlan.shift() ?? "none")
        let unasked = true
        const resentUnasked: Array<string> = []
        // The service's fetch, watched: an energy amount it stores already, sent by a run without the word.
        const watched = (async (input: string | URL | Request, init?: RequestInit) => {
          if (unasked && typeof init?.body === "string" && String(input).includes("/energy-amount/")) {
            for (const record of recordsOf("energy-amount", JSON.parse(init.body)) ?? []) {
              if ((service.stored.get(record.identity) ?? 0) > 0) resentUnasked.push(record.key)
            }
          }
          return service.fetch(input, init)
        }) as typeof fetch
        const client = createClient({
          baseUrl: "http://127.0.0.1:9",
          token: TOKEN,
          fetch: watched,
          retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
          clock: { now: () => 0, sleep: async () => {} }
        })
        const ledger = openLedger(":memory:", { service: "http://127.0.0.1:9/" })
        const bodyOf = (day: number) => ({ file: "/amounts.ndjson", line: day, text: JSON.stringify(energyAmount("KD-2", day)) })
        for (const r of runs) {
          faultPlan = [...r.faults]
          unasked = !r.resendInDoubt
          setSupplier(service, SUPPLIER, r.paused ? "Paused" : "Ongoing")
          const controller = new AbortController()
          await sendRecords(r.days.map(bodyOf), {
            ledger,
            client,
            concurrency: 2,
            resendInDoubt: r.resendInDoubt,
            signal: controller.signal,
            onProgress: (p) => {
              if (r.stopAfter !== undefined && p.answered >= r.stopAfter) controller.abort()
            }
          })
          expect(resentUnasked).toEqual([])
        }
        faultPlan = []
        unasked = true
        setSupplier(service, SUPPLIER, "Ongoing")
        const days = [...new Set(runs.flatMap((r) => r.days))]
        await sendRecords(days.map(bodyOf), { ledger, client })
        expect(resentUnasked).toEqual([])
        for (const day of days) {
          const record = recordsOf("energy-amount", energyAmount("KD-2", day))![0]!
          const stored = (service.stored.get(record.identity) ?? 0) > 0
          expect(stored || ledger.record(record.identity)?.outcome === "in_doubt", record.key).toBe(true)
        }
        ledger.close()
      }),
      { numRuns: 60 }
    )
  })
})

describe("pre-import data in any order over runs", () => {
  it("price sheets and time definitions sent before their participant are stored once it is: none is lost as refused", async () => {
    const codes = [9900000000004, 9900000000005, 9900000000006]
    const sheet = (example("market-participant-fees")["price_sheets"] as Array<Record<string, unknown>>)[0]!
    const bodies = codes.flatMap((code) => [
      { ...example("market-participant"), code },
      { price_sheets: [{ ...sheet, market_participant_code: code }] },
      { ...example("market-participant-definitions"), network_operator_code: String(code) }
    ])
    const runArb = fc.array(fc.nat(bodies.length - 1), { minLength: 1, maxLength: bodies.length })
    await fc.assert(
      fc.asyncProperty(fc.array(runArb, { minLength: 1, maxLength: 4 }), async (runs) => {
        const service = modelService(SEED)
        const client = service.client()
        const ledger = openLedger(":memory:", { service: "http://127.0.0.1:9/" })
        const lineOf = (i: number, file: string) => ({ file, line: i + 1, text: JSON.stringify(bodies[i]) })
        for (const [n, picks] of runs.entries()) await sendRecords(picks.map((i) => lineOf(i, `/pre/run-${n}.ndjson`)), { ledger, client, concurrency: 3 })
        // The campaign's files in their intended order: participants, fees, definitions.
        const ordered = [0, 3, 6, 1, 4, 7, 2, 5, 8]
        for (const i of ordered) await sendRecords([lineOf(i, "/pre/ordered.ndjson")], { ledger, client })
        for (const [i, body] of bodies.entries()) {
          const endpoint = i % 3 === 0 ? "market-participant" : i % 3 === 1 ? "market-participant-fees" : "market-participant-definitions"
          for (const record of recordsOf(endpoint, body)!) expect(ledger.record(record.identity)?.outcome, record.key).toMatch(/^(created|already_existed)$/u)
        }
        expect(service.model().stats().stored).toMatchObject({ market_participants: 4, price_sheets: 3, time_definitions: 6 })
        ledger.close()
      }),
      { numRuns: 40 }
    )
  })
})

describe("versions of a record before and after a fix, in one run", () => {
  it("in any order, a record whose fixed version is read is stored once; only an invalid version read after it is a conflict", async () => {
    const version = (n: number, fixed: boolean) =>
      n % 2 === 0
        ? energyAmount("KD-2", n + 1, fixed ? `${n}.5` : `${n},5`)
        : { import_supplier: SUPPLIER, external_account_number: "KD-2", transactions: [{ transaction_id: `T-${n}`, transaction_date: fixed ? "2024-02-28" : "2024-02-30", amount: n, type: "CHARGE" }] }
    const line = fc.record({ n: fc.integer({ min: 0, max: 5 }), fixed: fc.boolean(), file: fc.integer({ min: 0, max: 2 }) })
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 14 }), async (picks) => {
        const service = modelService(SEED)
        const client = service.client()
        const ledger = openLedger(":memory:", { service: "http://127.0.0.1:9/" })
        const input: Array<SourceLine> = picks.map((p, i) => ({ file: `/out/payloads-${p.file}.ndjson`, line: i + 1, text: JSON.stringify(version(p.n, p.fixed)) }))
        const first = await sendRecords(input, { ledger, client, concurrency: 2 })
        // An invalid version before the record's first fixed one is invalid (then a duplicate), never a
        // conflict; one after it meets a version that may be stored: a conflict.
        const firstFixed = (n: number) => picks.findIndex((p) => p.n === n && p.fixed)
        const after = picks.filter((p, i) => !p.fixed && firstFixed(p.n) !== -1 && i > firstFixed(p.n))
        const opensWithBroken = new Set(picks.filter((p, i) => picks.findIndex((q) => q.n === p.n) === i && !p.fixed).map((p) => p.n))
        expect(first.dispositions).toMatchObject({ conflict: after.length, invalid: opensWithBroken.size })
        expect(ledger.conflicts(100)).toHaveLength(new Set(after.map((p) => p.n)).size)
        const fixedOnes = new Set(picks.filter((p) => p.fixed).map((p) => p.n))
        expect(first.outcomes.created).toBe(fixedOnes.size)
        for (const n of fixedOnes) {
          const endpoint = n % 2 === 0 ? "energy-amount" : "transactions"
          const record = recordsOf(endpoint, version(n, true))![0]!
          expect(ledger.record(record.identity)?.outcome, record.key).toBe("created")
        }
        // The same files again: nothing sent; an invalid version of a stored record is now a conflict with it.
        const again = await sendRecords(input, { ledger, client, concurrency: 2 })
        expect(again.dispositions.send).toBe(0)
        expect([...service.stored.values()].every((n) => n === 1)).toBe(true)
        ledger.close()
      }),
      { numRuns: 60 }
    )
  })
})
