/**
 * `parseResponse`: every documented status of every endpoint gives the outcome the spec describes for it;
 * per-item outcomes of notes and transactions (fewer results than items: unexpected); `Retry-After`; tolerant reading (an additional field is a
 * warning); and `unexpected` for an undocumented status or a body that does not validate.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, type EndpointDefinition, type EndpointId, endpoints, parseResponse, type ResponseOutcomeKind } from "../../src/index.js"
import { parseRetryAfter } from "../../src/client/parse-response.js"
import { arbitraryResponse } from "../../src/testing/index.js"
import { loadExample } from "../support/payloads.js"

/**
 * The outcome the catalogue's declaration of a status implies, by the spec's meaning of each: a status to
 * fix the request for is rejected (a 404: not found; a transactions 400 whose body says
 * TRANSACTION_IMPORT_ERROR: an import error), reauthenticate is unauthorized, retry as is or later is
 * retryable; a success is a read (GET), already there (`alreadyExisted`), per item where the endpoint
 * answers per item, else created.
 */
const expectedOf = (id: EndpointId, status: number): ResponseOutcomeKind | "per item" | "by body" => {
  const endpoint: EndpointDefinition = endpoints[id]
  const response = endpoint.responses[status]!
  if (response.retry === "reauthenticate") return "unauthorized"
  if (response.retry === "retry-as-is" || response.retry === "retry-later") return "retryable"
  if (response.retry === "do-not-retry-unchanged") return status === 404 ? "not_found" : "by body"
  if (endpoint.method === "GET") return "ok"
  if (response.alreadyExisted === true) return "already_exists"
  return endpoint.itemResults === undefined ? "created" : "per item"
}

/**
 * The spec's outcome of some statuses, worked out from its text: 201 of notes and transactions per item,
 * 200 of historical statements stored ("200 OK" in the text), of market-participant already there, of the
 * status queries a read; the payment vendor's 500 retryable; 401 unauthorized, 429 and 503 retryable.
 */
const SPEC_CASES: ReadonlyArray<readonly [EndpointId, number, ResponseOutcomeKind | "per item" | "by body"]> = [
  ["notes", 201, "per item"],
  ["transactions", 201, "per item"],
  ["transactions", 400, "by body"],
  ["energy-amount", 201, "created"],
  ["energy-amount", 404, "not_found"],
  ["historical-statements", 200, "created"],
  ["market-participant", 200, "already_exists"],
  ["market-participant", 201, "created"],
  ["payment-instruction", 500, "retryable"],
  ["account-transfer-status", 200, "ok"],
  ["account-transfer-status", 404, "not_found"],
  ["market-participant-fees", 401, "unauthorized"],
  ["notes", 429, "retryable"],
  ["delivery-note", 503, "retryable"]
]

/** The outcome an item list implies: none is unknown, then any import error, else all already there, else created. */
const byItems = (statuses: ReadonlyArray<string>): ResponseOutcomeKind =>
  statuses.length === 0
    ? "unexpected"
    : statuses.includes("TRANSACTION_IMPORT_ERROR")
    ? "import_error"
    : statuses.length > 0 && statuses.every((s) => s.endsWith("ALREADY_EXISTS"))
    ? "already_exists"
    : "created"

const cases = ENDPOINT_IDS.flatMap((id) => Object.keys(endpoints[id].responses).map((status) => [id, Number(status)] as const))

describe("parseResponse on every documented status of every endpoint", () => {
  it.each(SPEC_CASES)("%s %i is read as the spec says: %s", (id, status, expected) => {
    expect(expectedOf(id, status)).toBe(expected)
  })

  it.each(cases)("%s %i", (id, status) => {
    const expected = expectedOf(id, status)
    fc.assert(
      fc.property(arbitraryResponse(id, status as never), (body) => {
        const outcome = parseResponse(id, status, body)
        expect(outcome.status).toBe(status)
        expect(outcome.body).toBe(body)
        if (expected === "by body") {
          expect(outcome.kind).toBe((body as { status?: string }).status === "TRANSACTION_IMPORT_ERROR" ? "import_error" : "rejected")
        } else if (expected !== "per item") {
          expect(outcome.kind).toBe(expected)
        } else {
          const inBody = (endpoints[id] as EndpointDefinition).itemResults?.in === "body"
          const list = (inBody ? body : (body as { results: Array<unknown> }).results) as ReadonlyArray<{ status: string }>
          expect(outcome.kind).toBe(byItems(list.map((i) => i.status)))
        }
      }),
      { numRuns: 20, seed: 14 }
    )
  })
})

describe("parseResponse examples", () => {
  const note = (status: string) => ({ created_at: "2024-05-01T10:00:00Z", body: "Call back", status })
  const transaction = (status: string) => ({
    status,
    transaction_data: { transaction_id: "T-1", transaction_date: "2024-01-05", amount: "10.00", type: "CHARGE" }
  })

  it("notes: one result per note, as items; all already there is already_exists", () => {
    const mixed = parseResponse("notes", 201, [note("NOTE_ALREADY_EXISTS"), note("NOTE_CREATION_SUCCESS")])
    expect(mixed).toMatchObject({ kind: "created", items: [{ index: 0, outcome: "already_exists" }, { index: 1, outcome: "created" }] })
    expect(parseResponse("notes", 201, [note("NOTE_ALREADY_EXISTS")]).kind).toBe("already_exists")
  })

  it("transactions: TRANSACTION_IMPORT_ERROR in a 201 or as the 400 body is import_error", () => {
    expect(parseResponse("transactions", 201, { results: [transaction("TRANSACTION_ADDED_TO_ACCOUNT"), transaction("TRANSACTION_IMPORT_ERROR")] }))
      .toMatchObject({ kind: "import_error", items: [{ index: 0, outcome: "created" }, { index: 1, outcome: "import_error" }] })
    const error = parseResponse("transactions", 400, {
      ...transaction("TRANSACTION_IMPORT_ERROR"),
      error_detail: "Transaction is not within the open statement period."
    })
    expect(error).toMatchObject({ kind: "import_error", detail: "Transaction is not within the open statement period." })
    expect(parseResponse("transactions", 201, { results: [transaction("TRANSACTION_ALREADY_EXISTS")] }).kind).toBe("already_exists")
  })

  it("a 201 with fewer results than the request's items is unexpected, saying how many came for how many", () => {
    const empty = parseResponse("transactions", 201, { results: [] }, { itemCount: 2 })
    expect(empty).toMatchObject({ kind: "unexpected", status: 201, body: { results: [] } })
    expect(empty.kind === "unexpected" && empty.errors.map((e) => [e.attr, e.code])).toEqual([["non_field_errors", "invalid"]])
    expect(empty.kind === "unexpected" && empty.errors[0]!.detail).toContain("0 results for the 2 items")
    const notes = parseResponse("notes", 201, [], { itemCount: 1 })
    expect(notes.kind === "unexpected" && notes.errors[0]!.detail).toContain("0 results for the 1 items")
    const one = parseResponse("transactions", 201, { results: [transaction("TRANSACTION_ADDED_TO_ACCOUNT")] }, { itemCount: 3 })
    expect(one.kind === "unexpected" && one.errors[0]!.detail).toContain("1 results for the 3 items")
    // Even when the results that came include an import error: what became of the rest is unknown.
    expect(parseResponse("transactions", 201, { results: [transaction("TRANSACTION_IMPORT_ERROR")] }, { itemCount: 2 }).kind).toBe("unexpected")
  })

  it("a 201 with no result at all is unexpected, with or without itemCount: a request has at least one item", () => {
    // notes and transactions are non-empty lists, so an empty answer accounts for none of them.
    const notes = parseResponse("notes", 201, [])
    expect(notes.kind).toBe("unexpected")
    expect(notes.kind === "unexpected" && notes.errors[0]!.detail).toContain("No results for the items of the request")
    expect(parseResponse("transactions", 201, { results: [] }).kind).toBe("unexpected")
    expect(parseResponse("notes", 201, [], { itemCount: 0 }).kind).toBe("unexpected")
  })

  it("a 201 with as many results as items is read by its items; without itemCount the count is not checked", () => {
    const two = { results: [transaction("TRANSACTION_ADDED_TO_ACCOUNT"), transaction("TRANSACTION_ALREADY_EXISTS")] }
    expect(parseResponse("transactions", 201, two, { itemCount: 2 }).kind).toBe("created")
    expect(parseResponse("notes", 201, [note("NOTE_ALREADY_EXISTS")], { itemCount: 1 }).kind).toBe("already_exists")
    // Other endpoints have no items: the count is not theirs to check.
    expect(parseResponse("energy-amount", 201, loadExample("energy-amount"), { itemCount: 5 }).kind).toBe("created")
  })

  it("400: rejected, with the body's errors", () => {
    const body = { detail: "1 error", code: "payload_failed_validation", errors: [{ detail: "Required.", code: "required", attr: "notes" }] }
    expect(parseResponse("notes", 400, body)).toMatchObject({ kind: "rejected", errors: body.errors })
  })

  it("503 and 429: retryable with Retry-After in ms; payment-instruction 500: retry as is", () => {
    expect(parseResponse("energy-amount", 503, { detail: "Unavailable." }, { retryAfter: "2" }))
      .toMatchObject({ kind: "retryable", advice: "retry-later", retryAfterMs: 2000 })
    expect(parseResponse("notes", 429, { detail: "Slow down." })).toMatchObject({ kind: "retryable", retryAfterMs: undefined })
    expect(parseResponse("payment-instruction", 500, { error_detail: "vendor" })).toMatchObject({ kind: "retryable", advice: "retry-as-is" })
  })

  it("an additional field is a warning on the outcome (kraken_account_number), never unexpected", () => {
    const outcome = parseResponse("account-transfer-status", 200, { status: "COMPLETED", service_account_number: "A-1", kraken_account_number: "A-1" })
    expect(outcome.kind).toBe("ok")
    expect(outcome.warnings.map((w) => [w.attr, w.code])).toEqual([["kraken_account_number", "additional_field"]])
    // Strict reading, when asked for, reports it.
    expect(parseResponse("account-transfer-status", 200, { status: "COMPLETED", service_account_number: "A-1", kraken_account_number: "A-1" }, { additionalFields: "error" }).kind)
      .toBe("unexpected")
  })

  it("unexpected: an undocumented status, a body that does not validate, text instead of JSON", () => {
    expect(parseResponse("energy-amount", 502, "Bad Gateway")).toMatchObject({ kind: "unexpected", errors: [{ attr: "non_field_errors" }] })
    expect(parseResponse("account-transfer-status", 200, { status: "DONE", service_account_number: "" }))
      .toMatchObject({ kind: "unexpected", errors: [{ attr: "status", code: "invalid_choice" }] })
  })

  it("a 400 with a body the contract does not document is rejected (nothing stored), the body quoted", () => {
    const vendor = parseResponse("payment-instruction", 400, { error_detail: "IBAN rejected by the payment vendor", error_code: "V42" })
    expect(vendor).toMatchObject({ kind: "rejected", status: 400, errors: [{ attr: "non_field_errors", code: "invalid" }] })
    expect(vendor.kind === "rejected" && vendor.errors[0]!.detail).toContain("IBAN rejected by the payment vendor")
    expect(vendor.warnings.length).toBeGreaterThan(0)
    const page = parseResponse("energy-amount", 400, `<html>${"x".repeat(1000)}</html>`)
    expect(page.kind).toBe("rejected")
    expect(page.kind === "rejected" && page.errors[0]!.detail.length).toBeLessThan(450)
    // The documented body keeps its own errors.
    const [body] = fc.sample(arbitraryResponse("energy-amount", 400), { numRuns: 1, seed: 3 })
    const documented = parseResponse("energy-amount", 400, body)
    expect(documented).toMatchObject({ kind: "rejected", warnings: [] })
    expect(documented.kind === "rejected" && documented.errors).toEqual((body as { errors: unknown }).errors)
    // A 404 that is not the documented one (a wrong base URL's page) stays unexpected: it blocks nothing.
    expect(parseResponse("energy-amount", 404, "<html>Not Found</html>").kind).toBe("unexpected")
  })

  it("401, 429 and 503 mean nothing was done whatever their body: a gateway's text or HTML is read by its status", () => {
    expect(parseResponse("energy-amount", 503, "Service Unavailable", { retryAfter: "2" }))
      .toMatchObject({ kind: "retryable", advice: "retry-later", retryAfterMs: 2000 })
    expect(parseResponse("notes", 429, "<html><body>Too Many Requests</body></html>")).toMatchObject({ kind: "retryable", retryAfterMs: undefined })
    expect(parseResponse("transactions", 503, { message: "maintenance" }).kind).toBe("retryable")
    expect(parseResponse("energy-amount", 401, "Unauthorized").kind).toBe("unauthorized")
    // The body that is not the documented { detail } is named in the warnings.
    expect(parseResponse("energy-amount", 503, "Service Unavailable").warnings.length).toBeGreaterThan(0)
    // A status of an answer that may have done something still needs its documented body.
    expect(parseResponse("energy-amount", 201, "Created").kind).toBe("unexpected")
  })
})

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates; nothing else", () => {
    expect(parseRetryAfter("0")).toBe(0)
    expect(parseRetryAfter(" 3 ")).toBe(3000)
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", new Date("2015-10-21T07:27:58Z"))).toBe(2000)
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", new Date("2015-10-21T08:00:00Z"))).toBe(0)
    expect(parseRetryAfter("soon")).toBeUndefined()
    expect(parseRetryAfter("-1")).toBeUndefined()
    expect(parseRetryAfter(null)).toBeUndefined()
  })
})
