/**
 * The rehearsal controls: `POST /_reference/suppliers/{code}/` and
 * `POST /_reference/accounts/{import_supplier}/{external_account_number}/`. The scenarios run twice, through
 * the HTTP server (SQLite) and through the pure model, and must read the same in both.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { handleRequest, openStore, type Seed, STATS_PATH } from "../../src/service/index.js"
import { referenceModel } from "../../src/testing/index.js"
import {
  ENERGY_AMOUNT,
  FIXED_NOW,
  forAccount,
  IMPORTED,
  IMPORTED_OPEN,
  IN_PROGRESS,
  OF_PAUSED,
  PAUSED,
  SEED,
  startService,
  SUPPLIER,
  TOKEN,
  UNKNOWN_STATUS
} from "./support.js"

const supplierPath = (code: string): string => `/_reference/suppliers/${encodeURIComponent(code)}/`
const accountPath = (supplier: string, external: string): string =>
  `/_reference/accounts/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`
const statusPath = (supplier: string, external: string): string =>
  buildPath("account-transfer-status", { import_supplier_code: supplier, external_account_number: external })
const ENERGY = buildPath("energy-amount", {})
/** `FIXED_NOW` as the API writes a datetime: UTC, whole seconds. */
const NOW_TEXT = "2025-01-01T12:00:00Z"

interface Request {
  readonly method?: string
  readonly path: string
  readonly body?: unknown
  /** Default `Token <TOKEN>`; `null` sends none. */
  readonly authorization?: string | null
}
type Send = (request: Request) => Promise<{ readonly status: number; readonly body: unknown }>

/** Sends through the real HTTP server, every response checked against the contract. */
const throughServer = async (seed: Seed): Promise<Send> => {
  const service = await startService({ seed })
  return async (r) => {
    const { status, body } = await service.call(r)
    return { status, body }
  }
}

/** Sends through the pure model, carrying its state from one request to the next. */
const throughModel = async (seed: Seed): Promise<Send> => {
  let model = referenceModel(seed)
  return async (r) => {
    const method = r.method ?? (r.body === undefined ? "GET" : "POST")
    const authorization = r.authorization === undefined ? `Token ${TOKEN}` : (r.authorization ?? undefined)
    const body = r.body === undefined ? undefined : typeof r.body === "string" ? r.body : JSON.stringify(r.body)
    const step = model.handle({ method, path: r.path, authorization, body }, { now: FIXED_NOW })
    model = step.model
    return { status: step.response.status, body: JSON.parse(JSON.stringify(step.response.body)) as unknown }
  }
}

const stats = async (send: Send) => (await send({ path: STATS_PATH })).body as Record<string, Record<string, unknown>>

describe.each([["the HTTP server", throughServer], ["the model", throughModel]] as const)("rehearsal controls, through %s", (_, open) => {
  it("a Paused supplier's refused record is accepted after resuming", async () => {
    const send = await open(SEED)
    const record = { path: ENERGY, body: forAccount(OF_PAUSED, { energy_amount: ENERGY_AMOUNT }, PAUSED) }
    const refused = await send(record)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: "import_supplier_migration_not_ongoing" })
    expect(await send({ path: supplierPath(PAUSED), body: { status: "Ongoing" } })).toEqual({ status: 200, body: { code: PAUSED, status: "Ongoing" } })
    expect((await send(record)).status).toBe(201)
    // And back: pausing refuses the supplier's records again.
    expect((await send({ path: supplierPath(PAUSED), body: { status: "Complete" } })).status).toBe(200)
    expect((await send(record)).body).toMatchObject({ code: "import_supplier_migration_not_ongoing" })
  })

  it("a staged account's refused record is accepted after completing; the status endpoints show the import", async () => {
    const send = await open(SEED)
    const record = { path: ENERGY, body: forAccount(IN_PROGRESS, { energy_amount: ENERGY_AMOUNT }) }
    expect((await send(record)).status).toBe(404)
    // The seed has three imported accounts, so the first number issued is the fourth.
    const completed = { import_supplier: SUPPLIER, external_account_number: IN_PROGRESS, status: "COMPLETED", service_account_number: "R-00000004", account_created_at: NOW_TEXT }
    expect(await send({ path: accountPath(SUPPLIER, IN_PROGRESS), body: { status: "COMPLETED" } })).toEqual({ status: 200, body: completed })
    expect((await send(record)).status).toBe(201)
    expect((await send({ path: statusPath(SUPPLIER, IN_PROGRESS) })).body).toEqual({ status: "COMPLETED", service_account_number: "R-00000004" })
    const imported = buildPath("imported-account-import-processes", { import_supplier_code: SUPPLIER })
    expect((await send({ path: imported })).body).toContainEqual({ external_account_number: IN_PROGRESS, service_account_number: "R-00000004", account_created_at: NOW_TEXT })
    const next = await send({ path: accountPath(SUPPLIER, UNKNOWN_STATUS), body: { status: "COMPLETED" } })
    expect(next.body).toMatchObject({ service_account_number: "R-00000005" })
  })

  it("an unknown pair is added staged, after the seed's accounts, and can change between the pending statuses", async () => {
    const send = await open(SEED)
    const staged = { import_supplier: SUPPLIER, external_account_number: "KD-NEW", status: "UNKNOWN", service_account_number: null, account_created_at: null }
    expect(await send({ path: accountPath(SUPPLIER, "KD-NEW"), body: { status: "UNKNOWN" } })).toEqual({ status: 200, body: staged })
    expect((await send({ path: statusPath(SUPPLIER, "KD-NEW") })).body).toEqual({ status: "UNKNOWN", service_account_number: "" })
    expect((await send({ path: accountPath(SUPPLIER, "KD-NEW"), body: { status: "IN_PROGRESS" } })).body).toEqual({ ...staged, status: "IN_PROGRESS" })
    const pending = (await send({ path: buildPath("pending-account-import-processes", { import_supplier_code: SUPPLIER }) })).body
    expect(pending).toEqual([IN_PROGRESS, UNKNOWN_STATUS, "KD-NEW"].map((external_account_number) => ({ external_account_number, service_account_number: null, account_created_at: null })))
    expect((await send({ path: ENERGY, body: forAccount("KD-NEW", { energy_amount: ENERGY_AMOUNT }) })).body).toEqual({
      error: "The account for external account number KD-NEW is not imported yet (the process is only staged)."
    })
  })

  it("keeps an imported account imported: COMPLETED again answers it unchanged, IN_PROGRESS or UNKNOWN is a 400", async () => {
    const send = await open(SEED)
    const seeded = { import_supplier: SUPPLIER, external_account_number: IMPORTED, status: "COMPLETED", service_account_number: "A-1B2C3D4E", account_created_at: "2024-01-02T10:00:00Z" }
    expect(await send({ path: accountPath(SUPPLIER, IMPORTED), body: { status: "COMPLETED" } })).toEqual({ status: 200, body: seeded })
    for (const status of ["IN_PROGRESS", "UNKNOWN"]) {
      const refused = await send({ path: accountPath(SUPPLIER, IMPORTED), body: { status } })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ code: "account_already_imported", errors: [{ code: "account_already_imported", attr: "status" }] })
    }
    expect((await send({ path: statusPath(SUPPLIER, IMPORTED) })).body).toEqual({ status: "COMPLETED", service_account_number: "A-1B2C3D4E" })
    // Its open statement period is kept: the transaction outside it is still refused.
    const transactions = buildPath("transactions", {}, { force_add_to_current_statement: false })
    const outside = forAccount(IMPORTED, { transactions: [{ transaction_id: "T1", transaction_date: "2023-12-31", amount: 1, type: "PAYMENT" }] })
    expect((await send({ path: transactions, body: outside })).body).toMatchObject({ status: "TRANSACTION_IMPORT_ERROR" })
  })

  it("an account of an unknown supplier is refused until a supplier control adds the supplier", async () => {
    const send = await open(SEED)
    const refused = await send({ path: accountPath("NEU", "N-1"), body: { status: "COMPLETED" } })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: "import_supplier_does_not_exist", errors: [{ attr: "import_supplier" }] })
    expect(await send({ path: supplierPath("NEU"), body: { status: "Paused" } })).toEqual({ status: 200, body: { code: "NEU", status: "Paused" } })
    expect((await send({ path: accountPath("NEU", "N-1"), body: { status: "COMPLETED" } })).status).toBe(200)
    const record = { path: ENERGY, body: forAccount("N-1", { energy_amount: ENERGY_AMOUNT }, "NEU") }
    expect((await send(record)).body).toMatchObject({ code: "import_supplier_migration_not_ongoing" })
    await send({ path: supplierPath("NEU"), body: { status: "Ongoing" } })
    expect((await send(record)).status).toBe(201)
  })

  it("decodes path segments", async () => {
    const send = await open(SEED)
    expect((await send({ path: supplierPath("NORD/OST ä"), body: { status: "Ongoing" } })).body).toEqual({ code: "NORD/OST ä", status: "Ongoing" })
    expect((await send({ path: accountPath("NORD/OST ä", "KD/1 ö"), body: { status: "IN_PROGRESS" } })).body).toMatchObject({
      import_supplier: "NORD/OST ä",
      external_account_number: "KD/1 ö"
    })
    expect((await send({ path: statusPath("NORD/OST ä", "KD/1 ö") })).body).toEqual({ status: "IN_PROGRESS", service_account_number: "" })
  })

  it("issues numbers no account has: one the seed gave is skipped", async () => {
    const seed: Seed = {
      tokens: [TOKEN],
      suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
      accounts: [
        { import_supplier: SUPPLIER, external_account_number: "K-1", status: "COMPLETED", service_account_number: "R-00000002", account_created_at: "2024-01-01T00:00:00Z" },
        { import_supplier: SUPPLIER, external_account_number: "K-2", status: "IN_PROGRESS" },
        { import_supplier: SUPPLIER, external_account_number: "K-3", status: "UNKNOWN" }
      ]
    }
    const send = await open(seed)
    expect((await send({ path: accountPath(SUPPLIER, "K-2"), body: { status: "COMPLETED" } })).body).toMatchObject({ service_account_number: "R-00000003" })
    expect((await send({ path: accountPath(SUPPLIER, "K-3"), body: { status: "COMPLETED" } })).body).toMatchObject({ service_account_number: "R-00000004" })
  })

  it("shows in the statistics; the controls are not counted among the endpoints' answers", async () => {
    const send = await open(SEED)
    await send({ path: supplierPath(PAUSED), body: { status: "Ongoing" } })
    await send({ path: supplierPath("AAA"), body: { status: "Complete" } })
    await send({ path: accountPath(SUPPLIER, IN_PROGRESS), body: { status: "COMPLETED" } })
    await send({ path: accountPath(SUPPLIER, "KD-NEW"), body: { status: "UNKNOWN" } })
    await send({ path: accountPath(SUPPLIER, "KD-NEW"), body: { status: "Nope" } })
    const after = await stats(send)
    expect(Object.keys(after.suppliers!)).toEqual(["AAA", SUPPLIER, PAUSED])
    expect(after.suppliers).toEqual({ AAA: "Complete", [SUPPLIER]: "Ongoing", [PAUSED]: "Ongoing" })
    expect(after.accounts).toEqual({ COMPLETED: 4, IN_PROGRESS: 0, UNKNOWN: 2 })
    expect(after.responses).toEqual({})
    expect(after.stored).toMatchObject({ market_participants: 1, energy_amounts: 0 })
  })
})

/** Bodies a control refuses, with the errors each gets. */
const BAD_BODIES: ReadonlyArray<readonly [string, unknown, string, ReadonlyArray<{ readonly attr: string; readonly code: string }>]> = [
  ["not JSON", "{status: Ongoing}", "parse_error", [{ attr: "non_field_errors", code: "invalid" }]],
  ["empty", "", "parse_error", [{ attr: "non_field_errors", code: "invalid" }]],
  ["an array", [], "payload_failed_validation", [{ attr: "non_field_errors", code: "invalid" }]],
  ["no status", {}, "payload_failed_validation", [{ attr: "status", code: "required" }]],
  ["a status in the wrong case", { status: "ongoing" }, "payload_failed_validation", [{ attr: "status", code: "invalid_choice" }]],
  ["the other control's status", { status: "COMPLETED" }, "payload_failed_validation", [{ attr: "status", code: "invalid_choice" }]],
  ["an extra field", { status: "Ongoing", reason: "test" }, "payload_failed_validation", [{ attr: "reason", code: "unknown_field" }]]
]

describe("bad requests to the controls", () => {
  it.each(BAD_BODIES)("a supplier control with %s: 400 in the API's shape, nothing changes", async (_, body, code, errors) => {
    const service = await startService()
    const before = await service.stats()
    const reply = await service.call({ method: "POST", path: supplierPath(PAUSED), body })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({ detail: expect.any(String), code, errors: errors.map((e) => ({ ...e, detail: expect.any(String) })) })
    expect(await service.stats()).toEqual(before)
  })

  it("an account control refuses a supplier's status, an unknown field and bad path parameters, all at once", async () => {
    const service = await startService()
    const before = await service.stats()
    const wrong = await service.call({ path: accountPath(SUPPLIER, IN_PROGRESS), body: { status: "Ongoing" } })
    expect(wrong.body).toMatchObject({ code: "payload_failed_validation", errors: [{ attr: "status", code: "invalid_choice" }] })
    const all = await service.call({ path: accountPath("X".repeat(33), " "), body: { status: "COMPLETED", service_account_number: "A-1" } })
    expect(all.status).toBe(400)
    expect((all.body as { errors: Array<{ attr: string; code: string }> }).errors.map(({ attr, code }) => ({ attr, code }))).toEqual([
      { attr: "import_supplier", code: "max_length" },
      { attr: "external_account_number", code: "blank" },
      { attr: "service_account_number", code: "unknown_field" }
    ])
    expect(await service.stats()).toEqual(before)
  })

  it("needs the token: 401 without it or with a wrong one, nothing changes", async () => {
    const service = await startService()
    const before = await service.stats()
    for (const authorization of [null, "Token wrong"]) {
      for (const path of [supplierPath(PAUSED), accountPath(SUPPLIER, IN_PROGRESS)]) {
        const reply = await service.call({ path, body: { status: "COMPLETED" }, authorization })
        expect(reply.status).toBe(401)
        expect(reply.headers.get("www-authenticate")).toBe("Token")
      }
    }
    expect(await service.stats()).toEqual(before)
  })

  it("answers only POST: 405 with Allow; a path without its parameters is 404", async () => {
    const service = await startService()
    for (const method of ["GET", "PUT", "DELETE"]) {
      const reply = await service.call({ method, path: accountPath(SUPPLIER, IN_PROGRESS) })
      expect(reply.status).toBe(405)
      expect(reply.headers.get("allow")).toBe("POST")
    }
    expect((await service.call({ method: "PATCH", path: supplierPath(PAUSED), body: { status: "Ongoing" } })).status).toBe(405)
    for (const path of ["/_reference/suppliers//", "/_reference/suppliers/X", "/_reference/accounts/X/", "/_reference/accounts/X//"]) {
      expect((await service.call({ path, body: { status: "Ongoing" } })).status, path).toBe(404)
    }
  })
})

describe("the controls in a state file", () => {
  it("survive a restart: the supplier's status, the completed account and its place in the order", () => {
    const dir = mkdtempSync(join(tmpdir(), "controls-"))
    try {
      const file = join(dir, "state.sqlite")
      const auth = `Token ${TOKEN}`
      const post = (path: string, status: string) => ({ method: "POST", path, authorization: auth, body: JSON.stringify({ status }) })
      const first = openStore(file, SEED)
      first.transact((state) => handleRequest(state, post(supplierPath(PAUSED), "Ongoing"), { now: FIXED_NOW, vendorFails: false }))
      first.transact((state) => handleRequest(state, post(accountPath(SUPPLIER, IN_PROGRESS), "COMPLETED"), { now: FIXED_NOW, vendorFails: false }))
      first.close()
      const again = openStore(file, undefined)
      try {
        again.transact((state) => {
          expect(state.supplierStatus(PAUSED)).toBe("Ongoing")
          expect(state.accounts(SUPPLIER).map((a) => [a.external_account_number, a.status, a.service_account_number ?? null])).toEqual([
            [IMPORTED, "COMPLETED", "A-1B2C3D4E"],
            [IMPORTED_OPEN, "COMPLETED", "A-22222222"],
            [IN_PROGRESS, "COMPLETED", "R-00000004"],
            [UNKNOWN_STATUS, "UNKNOWN", null]
          ])
        })
      } finally {
        again.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("the controls in the model", () => {
  const pair = fc.constantFrom(IMPORTED, IN_PROGRESS, UNKNOWN_STATUS, "K-1", "K-2", "K-3")
  const status = fc.constantFrom("COMPLETED", "IN_PROGRESS", "UNKNOWN")

  it("never give two accounts one service account number, and count every account once", () => {
    fc.assert(fc.property(fc.array(fc.tuple(pair, status), { maxLength: 20 }), (steps) => {
      let model = referenceModel(SEED)
      for (const [external, s] of steps) {
        model = model.handle({ method: "POST", path: accountPath(SUPPLIER, external), authorization: `Token ${TOKEN}`, body: JSON.stringify({ status: s }) }, { now: FIXED_NOW }).model
      }
      const numbers = [...model.state.accounts.values()].flatMap((a) => a.service_account_number ?? [])
      expect(new Set(numbers).size).toBe(numbers.length)
      const counts = model.stats().accounts
      expect(counts.COMPLETED + counts.IN_PROGRESS + counts.UNKNOWN).toBe(model.state.accounts.size)
      expect(counts.COMPLETED).toBe(numbers.length)
    }), { numRuns: 200 })
  })
})
