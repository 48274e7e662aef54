/**
 * The pure model against the real server: random command sequences (fast-check `fc.commands`) are sent
 * to `data-import serve`'s HTTP server (SQLite in memory, on 127.0.0.1) and to `referenceModel`, and every
 * answer must be the same, status and body; the rehearsal controls among them pause, resume and add
 * suppliers and stage or complete accounts, so later requests meet every state; the server keeps its state
 * in a file and is restarted on it (as `serve --state`) at random points of a sequence. Plus the model's
 * own promises: it never changes, a bad seed is refused.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { buildPath, ENDPOINT_IDS, type EndpointId, endpoints, POST_ENDPOINT_IDS } from "../../src/index.js"
import { CONTROL_PATHS, type ServiceRequest, STATS_PATH } from "../../src/service/index.js"
import { arbitraryInvalidPayload, arbitraryPayload, referenceModel, type ReferenceModel } from "../../src/testing/index.js"
import {
  example,
  expectValidResponse,
  FIXED_NOW,
  IMPORTED,
  IMPORTED_OPEN,
  IN_PROGRESS,
  OF_PAUSED,
  PARTICIPANT,
  PAUSED,
  SEED,
  startService,
  SUPPLIER,
  type TestService,
  TOKEN,
  UNKNOWN_STATUS
} from "./support.js"

const NEW_SUPPLIER = "STADTWERKE_OST"

/** Sequences per run: at least 200 in CI. */
const RUNS = 200
const AUTH = `Token ${TOKEN}`

const account = fc.constantFrom<readonly [string, string]>(
  [SUPPLIER, IMPORTED],
  [SUPPLIER, IMPORTED],
  [SUPPLIER, IMPORTED_OPEN],
  [SUPPLIER, IN_PROGRESS],
  [SUPPLIER, UNKNOWN_STATUS],
  [PAUSED, OF_PAUSED],
  [SUPPLIER, "NO-SUCH"],
  // A supplier and an account only the rehearsal controls add.
  [NEW_SUPPLIER, "N-1"]
)
const supplierCode = fc.constantFrom(SUPPLIER, PAUSED, NEW_SUPPLIER)
const participantCode = fc.constantFrom(PARTICIPANT, 9900000000004, 9900000000005)

const post = (id: EndpointId, body: unknown, query = ""): ServiceRequest => ({
  method: "POST",
  path: `${buildPath(id as never, {} as never)}${query}`,
  authorization: AUTH,
  body: JSON.stringify(body)
})
const control = (path: string, body: unknown): ServiceRequest => ({ method: "POST", path, authorization: AUTH, body: JSON.stringify(body) })
const accountControlPath = (supplier: string, external: string): string =>
  CONTROL_PATHS.account.replace("{import_supplier}", supplier).replace("{external_account_number}", encodeURIComponent(external))
const forPair = ([supplier, external]: readonly [string, string], fields: Record<string, unknown>) => ({
  import_supplier: supplier,
  external_account_number: external,
  ...fields
})

const note = fc.record({
  content: fc.oneof(
    fc.constantFrom("A", "B", "Zählerwechsel").map((body) => ({ body })),
    fc.constantFrom("a.pdf", "b/c.pdf").map((p) => ({ document_paths: [{ document_path: p }] }))
  ),
  created_at: fc.option(fc.constantFrom("2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00", "2024-06-01T00:00:00Z"), { nil: undefined }),
  is_pinned: fc.option(fc.boolean(), { nil: undefined })
}).map(({ content, created_at, is_pinned }) => ({
  ...content,
  ...(created_at === undefined ? {} : { created_at }),
  ...(is_pinned === undefined ? {} : { is_pinned })
}))

const transaction = fc.record({
  transaction_id: fc.constantFrom("T1", "T2", "T3", "T4"),
  transaction_date: fc.constantFrom("2023-12-31", "2024-01-01", "2024-06-15", "2024-12-31", "2025-01-01", "2025-01-02"),
  amount: fc.constantFrom(12.5, 86, 0.1, -3, 1e21, 1.5e-7),
  type: fc.constantFrom("CHARGE", "PAYMENT"),
  note: fc.option(fc.constant("Mahnstufe 1"), { nil: undefined })
}).map(({ note: n, ...t }) => (n === undefined ? t : { ...t, note: n }))

const flag = fc.option(fc.constantFrom("true", "false", "0", "1", "maybe"), { nil: undefined })

/** Requests of every endpoint, valid and not, for the accounts of the seed and for unknown ones. */
const request: fc.Arbitrary<ServiceRequest> = fc.oneof(
  fc.tuple(account, fc.array(note, { minLength: 1, maxLength: 3 })).map(([a, notes]) => post("notes", forPair(a, { notes }))),
  fc.tuple(account, fc.uniqueArray(transaction, { minLength: 1, maxLength: 3, selector: (t) => t.transaction_id }), flag, flag).map(
    ([a, transactions, check, force]) => {
      const query = [["check_previously_added", check], ["force_add_to_current_statement", force]].filter(([, v]) => v !== undefined)
      return post("transactions", forPair(a, { transactions }), query.length === 0 ? "" : `?${query.map(([k, v]) => `${k}=${v}`).join("&")}`)
    }
  ),
  fc.tuple(account, fc.uniqueArray(fc.constantFrom("S1", "S2", "S3"), { minLength: 1, maxLength: 2 })).map(([a, ids]) =>
    post("historical-statements", forPair(a, { statements: ids.map((statement_id) => ({ bill_period_from_date: "2023-01-01", bill_period_to_date: "2023-12-31", statement_id })) }))
  ),
  fc.tuple(account, fc.constantFrom("energy-amount", "delivery-note", "market-participant-invoice", "payment-instruction") as fc.Arbitrary<"energy-amount" | "delivery-note" | "market-participant-invoice" | "payment-instruction">).chain(([a, id]) =>
    arbitraryPayload(id, { maxItems: 2 }).map((payload) => post(id, { ...payload, import_supplier: a[0], external_account_number: a[1] }))
  ),
  participantCode.map((code) => post("market-participant", { ...example("market-participant"), code })),
  participantCode.map((code) => post("market-participant-fees", { price_sheets: (example("market-participant-fees")["price_sheets"] as Array<object>).map((s) => ({ ...s, market_participant_code: code })) })),
  participantCode.map((code) => post("market-participant-definitions", { ...example("market-participant-definitions"), network_operator_code: String(code) })),
  fc.tuple(account, fc.constantFrom("account-transfer-status", "all-account-import-processes", "pending-account-import-processes", "imported-account-import-processes") as fc.Arbitrary<EndpointId>).map(
    ([[supplier, external], id]) => ({ method: "GET", path: buildPath(id as never, { import_supplier_code: supplier, external_account_number: external } as never), authorization: AUTH })
  ),
  fc.constantFrom(...POST_ENDPOINT_IDS).chain((id) => arbitraryInvalidPayload(id).map((broken) => post(id, broken.payload))),
  fc.tuple(fc.constantFrom(...ENDPOINT_IDS), fc.constantFrom<string | undefined>(undefined, "Token wrong", "Bearer x", "second-token")).map(([id, authorization]) => ({
    method: endpoints[id].method,
    path: buildPath(id as never, { import_supplier_code: SUPPLIER, external_account_number: IMPORTED } as never),
    authorization,
    body: "{}"
  })),
  fc.tuple(supplierCode, fc.constantFrom("Ongoing", "Paused", "Complete")).map(([code, status]) =>
    control(CONTROL_PATHS.supplier.replace("{code}", code), { status })
  ),
  fc.tuple(account, fc.constantFrom("COMPLETED", "IN_PROGRESS", "UNKNOWN")).map(([[supplier, external], status]) =>
    control(accountControlPath(supplier, external), { status })
  ),
  fc.constantFrom<ServiceRequest>(
    control(accountControlPath(SUPPLIER, IN_PROGRESS), { status: "Ongoing" }),
    control(CONTROL_PATHS.supplier.replace("{code}", PAUSED), { status: "Ongoing", extra: 1 }),
    { method: "GET", path: accountControlPath(SUPPLIER, IMPORTED), authorization: AUTH },
    { ...control(CONTROL_PATHS.supplier.replace("{code}", PAUSED), { status: "Ongoing" }), authorization: "Token wrong" }
  ),
  fc.constantFrom<ServiceRequest>(
    { method: "GET", path: STATS_PATH, authorization: AUTH },
    { method: "POST", path: buildPath("notes", {}), authorization: AUTH, body: "{not json" },
    { method: "DELETE", path: buildPath("notes", {}), authorization: AUTH }
  )
)

interface ModelBox {
  current: ReferenceModel
}

/** The server under test: restarted on its state file by {@link Restart}. */
interface RealBox {
  service: TestService
  readonly state: string
}

/** One request: the model's answer and the server's must be equal. */
class SendRequest implements fc.AsyncCommand<ModelBox, RealBox> {
  constructor(readonly request: ServiceRequest) {}
  check = (): boolean => true
  async run(model: ModelBox, real: RealBox): Promise<void> {
    const step = model.current.handle(this.request, { now: FIXED_NOW })
    model.current = step.model
    const r = this.request
    const response = await fetch(`${real.service.baseUrl}${r.path}`, {
      method: r.method,
      // A JSON body says so: fetch would label a string text/plain, which the server refuses (415).
      headers: { ...(r.authorization === undefined ? {} : { Authorization: r.authorization }), "Content-Type": "application/json" },
      ...(r.body === undefined || r.method === "GET" ? {} : { body: r.body })
    })
    const body: unknown = await response.json()
    expectValidResponse(r.method, r.path, response.status, body)
    expect({ status: response.status, body }).toEqual({ status: step.response.status, body: JSON.parse(JSON.stringify(step.response.body)) })
    // The statistics of both agree after every step, not only when a command asks for them.
    expect(model.current.stats()).toEqual((await (await fetch(`${real.service.baseUrl}${STATS_PATH}`, { headers: { Authorization: AUTH } })).json()))
  }
  toString = (): string => `${this.request.method} ${this.request.path} ${this.request.body ?? ""}`.slice(0, 300)
}

/** The server stops and starts again on its state file (with its seed or without): it answers as before. */
class Restart implements fc.AsyncCommand<ModelBox, RealBox> {
  constructor(readonly withSeed: boolean) {}
  check = (): boolean => true
  async run(model: ModelBox, real: RealBox): Promise<void> {
    await real.service.close()
    real.service = await startService({ now: FIXED_NOW, state: real.state, ...(this.withSeed ? { seed: SEED } : {}) })
    expect(model.current.stats()).toEqual((await (await fetch(`${real.service.baseUrl}${STATS_PATH}`, { headers: { Authorization: AUTH } })).json()))
  }
  toString = (): string => `restart${this.withSeed ? " with the seed" : ""}`
}

const stateDir = mkdtempSync(join(tmpdir(), "model-state-"))
afterAll(() => rmSync(stateDir, { recursive: true, force: true }))
let stateFiles = 0

describe("referenceModel against the HTTP server", () => {
  it(`agrees on every answer and on the statistics (${RUNS} command sequences)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands([fc.oneof(
        { arbitrary: request.map((r): fc.AsyncCommand<ModelBox, RealBox> => new SendRequest(r)), weight: 12 },
        { arbitrary: fc.boolean().map((withSeed): fc.AsyncCommand<ModelBox, RealBox> => new Restart(withSeed)), weight: 1 }
      )], { maxCommands: 25 }), async (commands) => {
        const state = join(stateDir, `state-${stateFiles++}.sqlite`)
        const real: RealBox = { service: await startService({ now: FIXED_NOW, state }), state }
        try {
          await fc.asyncModelRun(() => ({ model: { current: referenceModel(SEED) }, real }), commands)
        } finally {
          await real.service.close()
        }
      }),
      { numRuns: RUNS }
    )
  })
})

describe("referenceModel", () => {
  it("never changes: a request gives a new model and leaves the old one as it was", () => {
    const model = referenceModel(SEED)
    const before = model.stats()
    const req = post("notes", forPair([SUPPLIER, IMPORTED], { notes: [{ body: "x" }] }))
    const first = model.handle(req, { now: FIXED_NOW })
    const second = model.handle(req, { now: FIXED_NOW })
    expect(model.stats()).toEqual(before)
    expect(first.response).toEqual(second.response)
    expect(first.response.status).toBe(201)
    expect(first.model.stats().stored.notes).toBe(1)
    expect(first.model.handle(req, { now: FIXED_NOW }).response.body).toEqual([{ body: "x", created_at: "2025-01-01T12:00:00Z", status: "NOTE_ALREADY_EXISTS" }])
  })

  it("the vendor is an input: vendorFails gives the 500 and stores nothing", () => {
    const req = post("payment-instruction", forPair([SUPPLIER, IMPORTED], { vendor: "STRIPE", reference: "pm_1", type: "CARD" }))
    const failed = referenceModel(SEED).handle(req, { vendorFails: true })
    expect(failed.response.status).toBe(500)
    expect(failed.model.stats().stored.payment_instructions).toBe(0)
  })

  it("refuses a bad seed with every reason", () => {
    expect(() => referenceModel({ ...SEED, tokens: [], suppliers: [{ code: "", status: "Open" }] })).toThrow(
      /tokens: .*; suppliers\.0\.code: .*; suppliers\.0\.status: /u
    )
  })
})

describe("the README's model example", () => {
  const now = new Date("2025-01-01T00:00:00Z")
  it("notes sent again (a retry after a lost answer) store nothing twice", () => {
    fc.assert(fc.property(arbitraryPayload("notes"), (payload) => {
      const body = JSON.stringify({ ...payload, import_supplier: SUPPLIER, external_account_number: IMPORTED })
      const request = { method: "POST", path: buildPath("notes", {}), authorization: AUTH, body }
      const once = referenceModel(SEED).handle(request, { now }).model
      const again = once.handle(request, { now })
      expect(once.stats().stored.notes).toBeGreaterThan(0)
      expect(again.model.stats().stored.notes).toBe(once.stats().stored.notes)
      expect(again.response.body).toEqual(payload.notes.map(() => expect.objectContaining({ status: "NOTE_ALREADY_EXISTS" })))
    }), { numRuns: 100 })
  })
})
