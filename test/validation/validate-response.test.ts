/**
 * `validateResponse`: the bodies the spec documents per status, the real API's differently named bodies,
 * closed enumerations, undocumented statuses and statuses documented without a body.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, type EndpointId, validatePayload, validateResponse } from "../../src/index.js"

const REFERENCE_DIR = new URL("../fixtures/reference/", import.meta.url)
const PAYLOADS_DIR = new URL("../../examples/payloads/", import.meta.url)
const reference = (file: string): unknown => JSON.parse(readFileSync(new URL(file, REFERENCE_DIR), "utf8"))
const payload = (id: string): unknown => JSON.parse(readFileSync(new URL(`${id}.json`, PAYLOADS_DIR), "utf8"))

/** The errors of a result (empty when it is valid), as `{ attr, code }` pairs. */
const errorsOf = (endpointId: EndpointId, status: number, body: unknown) => {
  const result = validateResponse(endpointId, status, body)
  if (!result.ok) expect(result.error.code).toBe("payload_failed_validation")
  return result.ok ? [] : result.error.errors.map(({ attr, code }) => ({ attr, code }))
}

const expectValid = (endpointId: EndpointId, status: number, body: unknown): void => {
  expect(errorsOf(endpointId, status, body)).toEqual([])
  expect(validateResponse(endpointId, status, body).ok).toBe(true)
}

const sorted = <T extends { readonly attr: string; readonly code: string }>(list: ReadonlyArray<T>) =>
  [...list].sort((a, b) => `${a.attr} ${a.code}`.localeCompare(`${b.attr} ${b.code}`))

const validationErrorBody = {
  detail: "The payload failed validation with 1 error.",
  code: "payload_failed_validation",
  errors: [{ detail: "This field may not be blank.", code: "blank", attr: "notes.0.body" }]
}

describe("notes", () => {
  it("201: an array of { created_at, body, status }", () => {
    expectValid("notes", 201, [
      { created_at: "2024-03-28T09:15:00+01:00", body: "Hello", status: "NOTE_CREATION_SUCCESS" },
      { created_at: "2024-03-28T09:15:00Z", body: "Again", status: "NOTE_ALREADY_EXISTS" }
    ])
    expectValid("notes", 201, [])
    expectValid("notes", 201, reference("notes/response-201-create-note-success-example.json"))
  })

  it("201: a note result status outside the closed enumeration is invalid_choice", () => {
    expect(errorsOf("notes", 201, [{ created_at: "2024-03-28T09:15:00Z", body: "x", status: "NOTE_CREATED" }]))
      .toEqual([{ attr: "0.status", code: "invalid_choice" }])
  })

  it("201: an object instead of the array is rejected, and so is a missing field", () => {
    expect(validateResponse("notes", 201, { created_at: "2024-03-28T09:15:00Z", body: "x", status: "NOTE_ALREADY_EXISTS" }).ok)
      .toBe(false)
    expect(errorsOf("notes", 201, [{ body: "x", status: "NOTE_ALREADY_EXISTS" }]))
      .toEqual([{ attr: "0.created_at", code: "required" }])
  })

  it("400: the spec's { detail, code, errors } body", () => {
    expectValid("notes", 400, validationErrorBody)
    expect(validateResponse("notes", 400, { detail: "x", code: "y" }).ok).toBe(false)
  })

  it("404: documented without a body, so any JSON is accepted", () => {
    for (const body of [{ detail: "Not found." }, { error: "x" }, "Not found", null, [], 0]) expectValid("notes", 404, body)
  })
})

describe("transactions", () => {
  const response201 = reference("transactions/response-201-transaction-creation-response-example.json")

  it("201: { results: [{ status, transaction_data }] } (the reference body, which is spec-conformant)", () => {
    expectValid("transactions", 201, response201)
    expectValid("transactions", 201, { results: [] })
  })

  it("201: a result status outside the closed enumeration is invalid_choice", () => {
    const body = structuredClone(response201) as { results: Array<{ status: string }> }
    const second = body.results[1]
    if (second === undefined) throw new Error("the reference body has two results")
    second.status = "TRANSACTION_CREATED"
    expect(errorsOf("transactions", 201, body)).toEqual([{ attr: "results.1.status", code: "invalid_choice" }])
  })

  it("201: a bare array of results (not wrapped in { results }) is rejected", () => {
    const body = response201 as { results: unknown }
    expect(validateResponse("transactions", 201, body.results).ok).toBe(false)
  })

  it("400: the spec's { detail, code, errors } body", () => {
    expectValid("transactions", 400, validationErrorBody)
  })

  it("400: the { status: TRANSACTION_IMPORT_ERROR, error_detail, transaction_data } body", () => {
    expectValid("transactions", 400, reference("transactions/response-400-error-creating-the-transaction.json"))
    expectValid("transactions", 400, {
      status: "TRANSACTION_IMPORT_ERROR",
      error_detail: "The transaction is not within the open statement period.",
      transaction_data: { transaction_id: "7", transaction_date: "2024-01-15", amount: "-12.50", type: "CHARGE" }
    })
  })

  it("400: a transaction import error with another status, or without transaction_data, is rejected", () => {
    const body = reference("transactions/response-400-error-creating-the-transaction.json") as Record<string, unknown>
    expect(validateResponse("transactions", 400, { ...body, status: "TRANSACTION_ADDED_TO_ACCOUNT" }).ok).toBe(false)
    const { transaction_data: _, ...withoutData } = body
    expect(validateResponse("transactions", 400, withoutData).ok).toBe(false)
  })

  it("400: a body of neither shape gets the errors of the shape it is closer to, the first shape on a tie", () => {
    const attrs = (body: unknown) => errorsOf("transactions", 400, body).map((e) => e.attr)
    // One field of the validation error body: two missing there, three against the other shape.
    expect(attrs({ detail: "x" })).toEqual(["code", "errors"])
    // One field of the transaction import error: two missing there, three against the other shape.
    expect(attrs({ status: "TRANSACTION_IMPORT_ERROR" })).toEqual(["error_detail", "transaction_data"])
    // Three missing against each: the validation error body, the first documented shape.
    expect(attrs({})).toEqual(["detail", "code", "errors"])
    // Read with additionalFields "warn", a field neither shape names is no error there either.
    const read = validateResponse("transactions", 400, { detail: "x", extra: 1 }, { additionalFields: "warn" })
    expect(read.ok ? [] : read.error.errors.map((e) => e.attr)).toEqual(["code", "errors"])
  })

  it.each([
    ["oops", "string"],
    [[], "array"]
  ])("400: a body %j that is not an object is read against each shape as a value of the wrong type", (body, type) => {
    const result = validateResponse("transactions", 400, body)
    expect(result.ok ? [] : result.error.errors).toEqual([
      { detail: `Expected an object but got ${type}.`, code: "invalid", attr: "non_field_errors" }
    ])
  })

  it("404 is not documented for transactions", () => {
    const result = validateResponse("transactions", 404, { error: "Account not found." })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.errors.map((e) => e.attr)).toEqual(["non_field_errors"])
  })
})

describe("account-transfer-status", () => {
  it("200: { status, service_account_number } with an empty number while no account exists", () => {
    expectValid("account-transfer-status", 200, { status: "IN_PROGRESS", service_account_number: "" })
    expectValid("account-transfer-status", 200, { status: "UNKNOWN", service_account_number: "" })
    expectValid("account-transfer-status", 200, { status: "COMPLETED", service_account_number: "A-12AB34CD" })
  })

  it("200: a status outside UNKNOWN, COMPLETED, IN_PROGRESS is invalid_choice", () => {
    expect(errorsOf("account-transfer-status", 200, { status: "PENDING", service_account_number: "" }))
      .toEqual([{ attr: "status", code: "invalid_choice" }])
    expect(errorsOf("account-transfer-status", 200, { status: "completed", service_account_number: "" }))
      .toEqual([{ attr: "status", code: "invalid_choice" }])
  })

  it("200: the real API's body (kraken_account_number, account_number) is rejected with unknown_field and required", () => {
    const body = reference("account-transfer-status/response-200-found-account-transfer-status.openapi.json")
    expect(sorted(errorsOf("account-transfer-status", 200, body))).toEqual(sorted([
      { attr: "account_number", code: "unknown_field" },
      { attr: "kraken_account_number", code: "unknown_field" },
      { attr: "service_account_number", code: "required" }
    ]))
  })

  it("200: service_account_number is not nullable in the single-status body", () => {
    expect(errorsOf("account-transfer-status", 200, { status: "UNKNOWN", service_account_number: null }))
      .toEqual([{ attr: "service_account_number", code: "null" }])
  })

  it("404: documented without a body, so any JSON is accepted", () => {
    expectValid("account-transfer-status", 404, { detail: "No account import process found." })
    expectValid("account-transfer-status", 404, null)
  })
})

describe("process lists", () => {
  const pending = { external_account_number: "1234", service_account_number: null, account_created_at: null }
  const imported = {
    external_account_number: "5678",
    service_account_number: "A-56785678",
    account_created_at: "2020-01-01T12:00:00Z"
  }

  it("all: pending items (null number and date) and imported items", () => {
    expectValid("all-account-import-processes", 200, [pending, imported])
    expectValid("all-account-import-processes", 200, [])
  })

  it("pending: items with null service_account_number and account_created_at", () => {
    expectValid("pending-account-import-processes", 200, [pending])
  })

  it("pending: a non-null service_account_number or account_created_at is rejected", () => {
    expect(errorsOf("pending-account-import-processes", 200, [pending, imported])).toEqual([
      { attr: "1.service_account_number", code: "invalid" },
      { attr: "1.account_created_at", code: "invalid" }
    ])
    expect(errorsOf("pending-account-import-processes", 200, [{ ...pending, service_account_number: "A-1" }]))
      .toEqual([{ attr: "0.service_account_number", code: "invalid" }])
  })

  it("imported: items with a number and a creation datetime", () => {
    expectValid("imported-account-import-processes", 200, [imported])
  })

  it("account_created_at must be a datetime with a zone", () => {
    expect(errorsOf("all-account-import-processes", 200, [{ ...imported, account_created_at: "2020-01-01T12:00:00" }]))
      .toEqual([{ attr: "0.account_created_at", code: "invalid" }])
    expect(errorsOf("all-account-import-processes", 200, [{ ...imported, account_created_at: "2020-02-30T12:00:00Z" }]))
      .toEqual([{ attr: "0.account_created_at", code: "invalid" }])
  })

  it.each([
    ["all-account-import-processes", "all-account-import-processes/response-200-all-account-import-processes.openapi-nested.json"],
    ["pending-account-import-processes", "pending-account-import-processes/response-200-pending-account-import-processes.openapi-nested.json"],
    ["imported-account-import-processes", "imported-account-import-processes/response-200-successfully-imported-import-processes.openapi-nested.json"]
  ] as const)("%s: the real API's items (kraken_account_number) are rejected with unknown_field and required", (id, file) => {
    const nested = reference(file) as ReadonlyArray<ReadonlyArray<unknown>>
    const items = nested[0] ?? []
    expect(items.length).toBeGreaterThan(0)
    expect(sorted(errorsOf(id, 200, items))).toEqual(sorted(items.flatMap((_, index) => [
      { attr: `${index}.kraken_account_number`, code: "unknown_field" },
      { attr: `${index}.service_account_number`, code: "required" }
    ])))
    // The OpenAPI documents wrap the list in a second array; the spec's body is a flat array.
    expect(validateResponse(id, 200, nested).ok).toBe(false)
  })
})

describe("payment-instruction", () => {
  it("201: { service_account_number, reference }", () => {
    expectValid("payment-instruction", 201, { service_account_number: "A-C90DC431", reference: "THIS-IS-A-FAKE-REFERENCE" })
  })

  it("201: the real API's body (kraken_account_number) is rejected with unknown_field and required", () => {
    const body = reference("payment-instruction/response-201-created-payment-instruction.json")
    expect(sorted(errorsOf("payment-instruction", 201, body))).toEqual(sorted([
      { attr: "kraken_account_number", code: "unknown_field" },
      { attr: "service_account_number", code: "required" }
    ]))
  })

  it("500: documented without a body, so any JSON is accepted", () => {
    for (const body of [null, true, 0, "Internal Server Error", [], [1, "a"], { error_detail: "vendor down" }, { a: { b: [null] } }]) {
      expectValid("payment-instruction", 500, body)
    }
  })

  it("400: the spec's validation body", () => {
    expectValid("payment-instruction", 400, validationErrorBody)
  })
})

describe("404 { error } of delivery-note, energy-amount and market-participant-invoice", () => {
  it.each(["delivery-note", "energy-amount", "market-participant-invoice"] as const)("%s", (id) => {
    expectValid(id, 404, { error: "Account not found for external account number KD-0045127." })
    expect(errorsOf(id, 404, { error: 404 })).toEqual([{ attr: "error", code: "invalid" }])
    expect(sorted(errorsOf(id, 404, { detail: "Not found." }))).toEqual(sorted([
      { attr: "detail", code: "unknown_field" },
      { attr: "error", code: "required" }
    ]))
  })
})

describe("201 echo of the validated data", () => {
  it.each(["delivery-note", "energy-amount", "market-participant-invoice", "historical-statements"] as const)("%s", (id) => {
    expectValid(id, 201, payload(id))
  })

  it("historical-statements also accepts 200 (the descriptive text says 200 OK)", () => {
    expectValid("historical-statements", 200, payload("historical-statements"))
  })
})

describe("pre-account-import endpoints (bodies not shown)", () => {
  it.each([
    ["market-participant", [200, 201]],
    ["market-participant-fees", [201]],
    ["market-participant-definitions", [201]]
  ] as const)("%s accepts any JSON on its body-less statuses", (id, statuses) => {
    for (const status of statuses) {
      for (const body of [null, {}, { anything: [1, 2] }, "text"]) expectValid(id, status, body)
    }
  })

  it("their 400 is the spec's validation body", () => {
    expectValid("market-participant", 400, validationErrorBody)
    expect(validateResponse("market-participant", 400, "Bad Request").ok).toBe(false)
  })
})

describe("401, 429 and 503 of every endpoint: { detail }", () => {
  it.each(ENDPOINT_IDS)("%s", (id) => {
    for (const status of [401, 429, 503]) {
      expectValid(id, status, { detail: "Invalid token." })
      expect(errorsOf(id, status, { error: "Invalid token." }), `${status}`).toEqual(expect.arrayContaining([{ attr: "detail", code: "required" }]))
      expect(errorsOf(id, status, "Service Unavailable"), `${status}`).toEqual([{ attr: "non_field_errors", code: "invalid" }])
    }
  })
})

describe("additionalFields: \"warn\" reads fields the contract does not name as warnings", () => {
  const status = { status: "COMPLETED", service_account_number: "A-1B2C3D4E" }

  it("kraken_account_number in account-transfer-status (the real API sends it) is a warning, not an error", () => {
    const body = { ...status, kraken_account_number: "A-1B2C3D4E" }
    expect(errorsOf("account-transfer-status", 200, body)).toEqual([{ attr: "kraken_account_number", code: "unknown_field" }])
    const read = validateResponse("account-transfer-status", 200, body, { additionalFields: "warn" })
    expect(read.ok).toBe(true)
    expect(read.warnings.map(({ attr, code }) => ({ attr, code }))).toEqual([{ attr: "kraken_account_number", code: "additional_field" }])
    if (read.ok) expect(read.value).toEqual(status)
  })

  it("nested additions are located by their path; the body stays unchanged", () => {
    const body = {
      results: [
        { status: "TRANSACTION_ALREADY_EXISTS", transaction_data: { transaction_id: "T-1", transaction_date: "2024-01-05", amount: "10.00", type: "CHARGE" } },
        { status: "TRANSACTION_ADDED_TO_ACCOUNT", added_transaction_id: 77, transaction_data: { transaction_id: "T-2", transaction_date: "2024-01-05", amount: "1.00", type: "CHARGE", billing_document_identifier: "B" } }
      ]
    }
    const copy = structuredClone(body)
    const read = validateResponse("transactions", 201, body, { additionalFields: "warn" })
    expect(read.ok).toBe(true)
    expect(read.warnings.map(({ attr, code }) => ({ attr, code }))).toEqual([
      { attr: "results.1.added_transaction_id", code: "additional_field" },
      { attr: "results.1.transaction_data.billing_document_identifier", code: "additional_field" }
    ])
    expect(body).toEqual(copy)
  })

  it("other errors are still errors, without the additions listed", () => {
    const read = validateResponse("account-transfer-status", 200, { status: "DONE", kraken_account_number: "x" }, { additionalFields: "warn" })
    expect(read.ok).toBe(false)
    if (read.ok) return
    expect(sorted(read.error.errors.map(({ attr, code }) => ({ attr, code })))).toEqual(sorted([
      { attr: "service_account_number", code: "required" },
      { attr: "status", code: "invalid_choice" }
    ]))
  })
})

describe("undocumented statuses", () => {
  it.each(ENDPOINT_IDS)("%s: 418 is not ok, with one error at non_field_errors", (id) => {
    const result = validateResponse(id, 418, {})
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe("payload_failed_validation")
    expect(result.error.errors).toHaveLength(1)
    expect(result.error.errors[0]).toMatchObject({ attr: "non_field_errors" })
  })

  it("statuses the spec does not list for an endpoint are rejected", () => {
    const undocumented: ReadonlyArray<readonly [EndpointId, number]> = [
      ["account-transfer-status", 201],
      ["all-account-import-processes", 404],
      ["historical-statements", 404],
      ["payment-instruction", 404],
      ["notes", 200],
      ["market-participant-fees", 200],
      ["notes", 201.5],
      ["notes", Number.NaN]
    ]
    for (const [id, status] of undocumented) {
      const result = validateResponse(id, status, {})
      expect(result.ok, `${id} ${status}`).toBe(false)
      if (!result.ok) expect(result.error.errors.map((e) => e.attr)).toEqual(["non_field_errors"])
    }
  })

  it("validatePayload: an unknown endpoint id is one invalid error at the root that names the id, in the 400 shape", () => {
    const result = validatePayload("no-such-endpoint" as EndpointId, {})
    expect(result).toStrictEqual({
      ok: false,
      error: {
        detail: "The payload failed validation with 1 error.",
        code: "payload_failed_validation",
        errors: [{ detail: expect.stringContaining("no-such-endpoint"), code: "invalid", attr: "non_field_errors" }]
      },
      warnings: []
    })
  })

  it("an unknown endpoint id is an error, not an exception", () => {
    const result = validateResponse("no-such-endpoint" as EndpointId, 200, {})
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.errors.map((e) => e.attr)).toEqual(["non_field_errors"])
  })
})
