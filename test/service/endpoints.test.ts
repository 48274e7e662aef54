/**
 * Every endpoint over HTTP, with the spec's rules: validation in the API's shape, imported accounts
 * only, suppliers that are not Ongoing, note and transaction outcomes, status answers, participants.
 */
import { describe, expect, it } from "vitest"
import { buildPath, POST_ENDPOINT_IDS, type PostEndpointId } from "../../src/index.js"
import {
  ENERGY_AMOUNT,
  example,
  FIXED_NOW,
  forAccount,
  IMPORTED,
  IMPORTED_OPEN,
  IN_PROGRESS,
  OF_PAUSED,
  PARTICIPANT,
  PAUSED,
  startService,
  SUPPLIER,
  UNKNOWN_STATUS
} from "./support.js"

/** The example payload of a post-import endpoint, for another account. */
const exampleFor = (id: PostEndpointId, external: string, supplier = SUPPLIER): Record<string, unknown> => ({
  ...example(id),
  import_supplier: supplier,
  external_account_number: external
})

const NEW_PARTICIPANT = 9900000000004

const POST_IMPORT = ["notes", "delivery-note", "energy-amount", "transactions", "historical-statements", "market-participant-invoice", "payment-instruction"] as const
const path = (id: PostEndpointId, query?: Record<string, boolean>) => buildPath(id, {}, query)

describe("request validation", () => {
  it.each(POST_ENDPOINT_IDS)("%s: the example payload is accepted; a broken one is a 400 in the API's shape, nothing stored", async (id) => {
    const service = await startService()
    const broken = { ...example(id), undocumented_field: 1 }
    const reply = await service.call({ path: path(id), body: broken })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ code: "payload_failed_validation", errors: [{ attr: "undocumented_field", code: "unknown_field" }] })
    const before = await service.stats()
    // The example participant is the seeded one; a new code makes it an import.
    const valid = id === "market-participant" ? { ...example(id), code: NEW_PARTICIPANT } : example(id)
    expect((await service.call({ path: path(id), body: valid })).status).toBe(201)
    const after = await service.stats()
    expect(Object.values(after.stored).reduce((a, b) => a + b, 0)).toBeGreaterThan(Object.values(before.stored).reduce((a, b) => a + b, 0))
  })

  it("a body that is not JSON, or empty, is a 400 at non_field_errors", async () => {
    const service = await startService()
    for (const body of ["{not json", ""]) {
      const reply = await service.call({ method: "POST", path: path("notes"), body })
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ code: "parse_error", errors: [{ attr: "non_field_errors", code: "invalid" }] })
    }
  })

  it("an unknown path is 404 and a wrong method 405 with Allow", async () => {
    const service = await startService()
    expect((await service.call({ path: "/v1/data-import/notes/create" })).status).toBe(404)
    const wrong = await service.call({ method: "GET", path: path("notes") })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get("allow")).toBe("POST")
  })
})

describe("post-import endpoints need an imported account of an Ongoing supplier", () => {
  const notFoundShape: Record<(typeof POST_IMPORT)[number], (code: string) => { status: number; body: unknown }> = {
    "notes": () => ({ status: 404, body: { detail: expect.any(String) } }),
    "delivery-note": () => ({ status: 404, body: { error: expect.any(String) } }),
    "energy-amount": () => ({ status: 404, body: { error: expect.any(String) } }),
    "market-participant-invoice": () => ({ status: 404, body: { error: expect.any(String) } }),
    "transactions": (code) => ({ status: 400, body: { code, errors: [{ code, attr: "external_account_number", detail: expect.any(String) }], detail: expect.any(String) } }),
    "historical-statements": (code) => ({ status: 400, body: { code, errors: [{ code, attr: "external_account_number", detail: expect.any(String) }], detail: expect.any(String) } }),
    "payment-instruction": (code) => ({ status: 400, body: { code, errors: [{ code, attr: "external_account_number", detail: expect.any(String) }], detail: expect.any(String) } })
  }

  it.each(POST_IMPORT)("%s: unknown pair, staged (IN_PROGRESS, UNKNOWN) and paused supplier are refused, nothing stored", async (id) => {
    const service = await startService()
    const cases: ReadonlyArray<[string, string, string]> = [
      ["NO-SUCH-ACCOUNT", SUPPLIER, "import_process_does_not_exist"],
      [IMPORTED, "NO_SUCH_SUPPLIER", "import_process_does_not_exist"],
      [IN_PROGRESS, SUPPLIER, "account_not_found"],
      [UNKNOWN_STATUS, SUPPLIER, "account_not_found"]
    ]
    for (const [external, supplier, code] of cases) {
      const reply = await service.call({ path: path(id), body: exampleFor(id, external, supplier) })
      const expected = notFoundShape[id](code)
      expect({ status: reply.status, body: reply.body }, `${external} ${supplier}`).toEqual(expected)
    }
    const paused = await service.call({ path: path(id), body: exampleFor(id, OF_PAUSED, PAUSED) })
    expect(paused.status).toBe(400)
    expect(paused.body).toMatchObject({
      code: "import_supplier_migration_not_ongoing",
      errors: [{ code: "import_supplier_migration_not_ongoing", attr: "import_supplier" }]
    })
    const stats = await service.stats()
    expect(Object.values(stats.stored).reduce((a, b) => a + b, 0)).toBe(1)
  })
})

describe("notes", () => {
  const note = (fields: Record<string, unknown>) => forAccount(IMPORTED, { notes: [fields] })

  it("a note is created once per body; a repeat, also within one request, already exists", async () => {
    const service = await startService()
    const first = await service.call({ path: path("notes"), body: forAccount(IMPORTED, { notes: [{ body: "Zählerwechsel" }, { body: "Zählerwechsel" }, { body: "Other" }] }) })
    expect(first.status).toBe(201)
    expect(first.body).toEqual([
      { created_at: "2025-01-01T12:00:00Z", body: "Zählerwechsel", status: "NOTE_CREATION_SUCCESS" },
      { created_at: "2025-01-01T12:00:00Z", body: "Zählerwechsel", status: "NOTE_ALREADY_EXISTS" },
      { created_at: "2025-01-01T12:00:00Z", body: "Other", status: "NOTE_CREATION_SUCCESS" }
    ])
    // Another account is another set of notes.
    const other = await service.call({ path: path("notes"), body: forAccount(IMPORTED_OPEN, { notes: [{ body: "Zählerwechsel" }] }) })
    expect(other.body).toEqual([{ created_at: "2025-01-01T12:00:00Z", body: "Zählerwechsel", status: "NOTE_CREATION_SUCCESS" }])
    expect((await service.stats()).stored["notes"]).toBe(3)
  })

  it("with created_at, only a note with the same body and the same instant exists already", async () => {
    const service = await startService()
    const send = async (fields: Record<string, unknown>) => ((await service.call({ path: path("notes"), body: note(fields) })).body as Array<{ status: string; created_at: string }>)[0]!
    expect(await send({ body: "B", created_at: "2024-03-28T09:15:00+01:00" })).toEqual({ body: "B", created_at: "2024-03-28T09:15:00+01:00", status: "NOTE_CREATION_SUCCESS" })
    expect((await send({ body: "B", created_at: "2024-03-28T08:15:00Z" })).status).toBe("NOTE_ALREADY_EXISTS")
    expect((await send({ body: "B", created_at: "2024-03-28T09:15:01+01:00" })).status).toBe("NOTE_CREATION_SUCCESS")
    // Without created_at, any note with the body matches; the result echoes the stored note's time.
    expect(await send({ body: "B" })).toEqual({ body: "B", created_at: "2024-03-28T09:15:00+01:00", status: "NOTE_ALREADY_EXISTS" })
    expect((await service.stats()).stored["notes"]).toBe(2)
  })

  it("a note of documents only is compared by its paths and echoes an empty body", async () => {
    const service = await startService()
    const docs = (p: string) => ({ document_paths: [{ document_path: p }] })
    const results = (await service.call({ path: path("notes"), body: forAccount(IMPORTED, { notes: [docs("a.pdf"), docs("b.pdf"), docs("a.pdf")] }) })).body
    expect((results as Array<{ status: string; body: string }>).map((r) => [r.body, r.status])).toEqual([
      ["", "NOTE_CREATION_SUCCESS"],
      ["", "NOTE_CREATION_SUCCESS"],
      ["", "NOTE_ALREADY_EXISTS"]
    ])
  })

  it("100 concurrent requests with the same note: exactly one NOTE_CREATION_SUCCESS", async () => {
    const service = await startService()
    const body = note({ body: "Einmal", created_at: "2024-05-01T10:00:00Z" })
    const replies = await Promise.all(Array.from({ length: 100 }, () => service.call({ path: path("notes"), body })))
    const statuses = replies.map((r) => (r.body as Array<{ status: string }>)[0]!.status)
    expect(replies.every((r) => r.status === 201)).toBe(true)
    expect(statuses.filter((s) => s === "NOTE_CREATION_SUCCESS")).toHaveLength(1)
    expect(statuses.filter((s) => s === "NOTE_ALREADY_EXISTS")).toHaveLength(99)
    expect((await service.stats()).stored["notes"]).toBe(1)
  })
})

describe("transactions", () => {
  const tx = (id: string, date: string, extra: Record<string, unknown> = {}) => ({ transaction_id: id, transaction_date: date, amount: 12.5, type: "CHARGE", ...extra })
  const body = (...transactions: Array<Record<string, unknown>>) => forAccount(IMPORTED, { transactions })
  type Results = { results: Array<{ status: string; transaction_data: Record<string, unknown> }> }

  it("a known transaction id already exists and is skipped; amounts come back as decimal strings", async () => {
    const service = await startService()
    const first = await service.call({ path: path("transactions"), body: body(tx("T-1", "2024-03-02", { amount: 86 })) })
    expect(first.status).toBe(201)
    expect(first.body).toEqual({ results: [{ status: "TRANSACTION_ADDED_TO_ACCOUNT", transaction_data: tx("T-1", "2024-03-02", { amount: "86.00" }) }] })
    const again = (await service.call({ path: path("transactions"), body: body(tx("T-1", "2024-03-02"), tx("T-2", "2024-03-03")) })).body as Results
    expect(again.results.map((r) => r.status)).toEqual(["TRANSACTION_ALREADY_EXISTS", "TRANSACTION_ADDED_TO_ACCOUNT"])
    expect((await service.stats()).stored["transactions"]).toBe(2)
  })

  it("check_previously_added=false adds a known id again", async () => {
    const service = await startService()
    await service.call({ path: path("transactions"), body: body(tx("T-1", "2024-03-02")) })
    const again = (await service.call({ path: path("transactions", { check_previously_added: false }), body: body(tx("T-1", "2024-03-02")) })).body as Results
    expect(again.results[0]!.status).toBe("TRANSACTION_ADDED_TO_ACCOUNT")
    expect((await service.stats()).stored["transactions"]).toBe(2)
  })

  it("by default a date outside the open statement period is moved into it, described, with a pinned note", async () => {
    const service = await startService()
    const reply = (await service.call({ path: path("transactions"), body: body(tx("T-1", "2023-11-30", { note: "Mahnstufe 1" }), tx("T-2", "2024-06-01")) })).body as Results
    const moved = reply.results[0]!
    expect(moved.status).toBe("TRANSACTION_ADDED_TO_ACCOUNT")
    expect(moved.transaction_data["transaction_date"]).toBe("2024-01-01")
    expect(moved.transaction_data["note"]).toMatch(/^Mahnstufe 1 \(.*2023-11-30.*2024-01-01.*\)$/u)
    expect(reply.results[1]!.transaction_data["transaction_date"]).toBe("2024-06-01")
    const stats = await service.stats()
    expect(stats.stored["transactions"]).toBe(2)
    expect(stats.stored["notes"]).toBe(1)
  })

  it("force_add_to_current_statement=false: the first transaction outside the period is a 400 and nothing is added", async () => {
    const service = await startService()
    const reply = await service.call({
      path: path("transactions", { force_add_to_current_statement: false }),
      body: body(tx("T-1", "2024-02-01"), tx("T-2", "2025-01-01"), tx("T-3", "2023-01-01"))
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      status: "TRANSACTION_IMPORT_ERROR",
      error_detail: expect.stringContaining("not within the open statement period"),
      transaction_data: tx("T-2", "2025-01-01", { amount: "12.50" })
    })
    expect((await service.stats()).stored["transactions"]).toBe(0)
  })

  it("an account without a statement period takes every date as it is", async () => {
    const service = await startService()
    const reply = (await service.call({ path: path("transactions", { force_add_to_current_statement: false }), body: forAccount(IMPORTED_OPEN, { transactions: [tx("T-1", "2019-01-01")] }) })).body as Results
    expect(reply.results[0]!.transaction_data["transaction_date"]).toBe("2019-01-01")
  })

  it("a query flag that is not a boolean is a 400 at its name", async () => {
    const service = await startService()
    const reply = await service.call({ method: "POST", path: `${path("transactions")}?check_previously_added=maybe`, body: body(tx("T-1", "2024-03-02")) })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ errors: [{ attr: "check_previously_added", code: "invalid" }] })
  })

  it("a transaction after the service's today is refused (transaction_in_future)", async () => {
    const service = await startService()
    const reply = await service.call({ path: path("transactions"), body: body(tx("T-1", "2025-01-03")) })
    expect(reply.body).toMatchObject({ errors: [{ attr: "transactions.0.transaction_date", code: "transaction_in_future" }] })
    expect(FIXED_NOW.toISOString().slice(0, 10)).toBe("2025-01-01")
  })
})

describe("other post-import endpoints", () => {
  it("energy amounts, delivery notes and invoices echo the validated data and are stored each time", async () => {
    const service = await startService()
    const body = forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT })
    for (let i = 0; i < 2; i++) {
      const reply = await service.call({ path: path("energy-amount"), body })
      expect(reply).toMatchObject({ status: 201, body })
    }
    for (const id of ["delivery-note", "market-participant-invoice"] as const) {
      const reply = await service.call({ path: path(id), body: exampleFor(id, IMPORTED) })
      expect(reply).toMatchObject({ status: 201, body: exampleFor(id, IMPORTED) })
    }
    expect((await service.stats()).stored).toMatchObject({ energy_amounts: 2, delivery_notes: 1, market_participant_invoices: 1 })
  })

  it("historical statements: a statement id the account has already is refused", async () => {
    const service = await startService()
    const body = exampleFor("historical-statements", IMPORTED)
    expect((await service.call({ path: path("historical-statements"), body })).status).toBe(201)
    const again = await service.call({ path: path("historical-statements"), body })
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ code: "historical_statement_already_exists", errors: [{ attr: "statements.0.statement_id" }, { attr: "statements.1.statement_id" }] })
    expect((await service.stats()).stored["historical_statements"]).toBe(2)
  })

  it("payment instruction: 201 with the account's number and the reference", async () => {
    const service = await startService()
    const body = exampleFor("payment-instruction", IMPORTED)
    const reply = await service.call({ path: path("payment-instruction"), body })
    expect(reply).toMatchObject({ status: 201, body: { service_account_number: "A-1B2C3D4E", reference: body["reference"] } })
  })
})

describe("status endpoints", () => {
  const status = (supplier: string, external: string) => buildPath("account-transfer-status", { import_supplier_code: supplier, external_account_number: external })
  const list = (id: "all-account-import-processes" | "pending-account-import-processes" | "imported-account-import-processes", supplier: string) =>
    buildPath(id, { import_supplier_code: supplier })

  it("single status: the account number, \"\" while there is none, 404 for an unknown pair", async () => {
    const service = await startService()
    expect((await service.call({ path: status(SUPPLIER, IMPORTED) })).body).toEqual({ status: "COMPLETED", service_account_number: "A-1B2C3D4E" })
    expect((await service.call({ path: status(SUPPLIER, IN_PROGRESS) })).body).toEqual({ status: "IN_PROGRESS", service_account_number: "" })
    expect((await service.call({ path: status(SUPPLIER, UNKNOWN_STATUS) })).body).toEqual({ status: "UNKNOWN", service_account_number: "" })
    for (const [s, e] of [[SUPPLIER, "NOPE"], [PAUSED, IMPORTED], [SUPPLIER, "x".repeat(200)]] as const) {
      const reply = await service.call({ path: status(s, e) })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ detail: expect.any(String) })
    }
  })

  it("lists: null while pending, the seed's order, an unknown supplier has none", async () => {
    const service = await startService()
    const imported = [
      { external_account_number: IMPORTED, service_account_number: "A-1B2C3D4E", account_created_at: "2024-01-02T10:00:00Z" },
      { external_account_number: IMPORTED_OPEN, service_account_number: "A-22222222", account_created_at: "2024-02-03T11:00:00+01:00" }
    ]
    const pending = [IN_PROGRESS, UNKNOWN_STATUS].map((e) => ({ external_account_number: e, service_account_number: null, account_created_at: null }))
    expect((await service.call({ path: list("all-account-import-processes", SUPPLIER) })).body).toEqual([...imported, ...pending])
    expect((await service.call({ path: list("pending-account-import-processes", SUPPLIER) })).body).toEqual(pending)
    expect((await service.call({ path: list("imported-account-import-processes", SUPPLIER) })).body).toEqual(imported)
    expect(await service.call({ path: list("all-account-import-processes", "NOBODY") })).toMatchObject({ status: 200, body: [] })
  })
})

describe("pre-account-import endpoints", () => {
  it("market participant: 201 when imported, 200 (no change) when the code exists", async () => {
    const service = await startService()
    const participant = { ...example("market-participant"), code: NEW_PARTICIPANT }
    expect((await service.call({ path: path("market-participant"), body: participant })).status).toBe(201)
    const again = await service.call({ path: path("market-participant"), body: { ...participant, name: "Changed" } })
    expect(again).toMatchObject({ status: 200, body: participant })
    const seeded = await service.call({ path: path("market-participant"), body: { ...participant, code: PARTICIPANT } })
    expect(seeded).toMatchObject({ status: 200, body: { code: PARTICIPANT } })
    expect((await service.stats()).stored["market_participants"]).toBe(2)
  })

  it("fees and definitions need the participants they name", async () => {
    const service = await startService()
    const fees = example("market-participant-fees") as { price_sheets: Array<Record<string, unknown>> }
    const unknownFees = { price_sheets: fees.price_sheets.map((s) => ({ ...s, market_participant_code: 9900000000001 })) }
    const refused = await service.call({ path: path("market-participant-fees"), body: unknownFees })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: "market_participant_does_not_exist", errors: [{ attr: "price_sheets.0.market_participant_code" }] })
    const knownFees = { price_sheets: fees.price_sheets.map((s) => ({ ...s, market_participant_code: PARTICIPANT })) }
    expect((await service.call({ path: path("market-participant-fees"), body: knownFees })).status).toBe(201)

    const definitions = example("market-participant-definitions")
    const unknownOperator = await service.call({ path: path("market-participant-definitions"), body: { ...definitions, network_operator_code: "9900000000001" } })
    expect(unknownOperator.body).toMatchObject({ code: "network_operator_does_not_exist", errors: [{ attr: "network_operator_code" }] })
    expect((await service.call({ path: path("market-participant-definitions"), body: { ...definitions, network_operator_code: String(PARTICIPANT) } })).status).toBe(201)
    const stored = (await service.stats()).stored
    expect(stored["price_sheets"]).toBe(fees.price_sheets.length)
    const d = definitions as { definitions?: Array<unknown>; rolled_out_definitions?: Array<unknown> }
    expect(stored["time_definitions"]).toBe((d.definitions?.length ?? 0) + (d.rolled_out_definitions?.length ?? 0))
  })
})
