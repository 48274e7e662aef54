/**
 * `arbitraryResponse`: for every status of every endpoint in the catalogue, the generated bodies are ones
 * `validateResponse` accepts; a 400 body is the API's answer to a broken payload; bodies are realistic
 * where the spec says how (an empty account number until the account exists, nulls while pending).
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, type EndpointId, endpoints, validatePayload, validateResponse } from "../../src/index.js"
import { arbitraryResponse } from "../../src/testing/index.js"

const SEED = 20_250_103

const cases = ENDPOINT_IDS.flatMap((id) => Object.keys(endpoints[id].responses).map((status) => [id, Number(status)] as const))

describe("arbitraryResponse", () => {
  it("covers the catalogue: every endpoint, every documented status", () => {
    expect(new Set(cases.map(([id]) => id))).toEqual(new Set(Object.values(endpoints).map((e) => e.id)))
    expect(cases.length).toBe(ENDPOINT_IDS.reduce((n, id) => n + Object.keys(endpoints[id].responses).length, 0))
  })

  it.each(cases)("%s %i: 200 generated bodies are valid responses", (id, status) => {
    fc.assert(
      fc.property(arbitraryResponse(id, status as never), (body) => {
        const result = validateResponse(id, status, body)
        expect(result.ok ? [] : result.error.errors, JSON.stringify(body)).toEqual([])
      }),
      { numRuns: 200, seed: SEED }
    )
  })

  it("a 400 body lists the errors validatePayload finds in some broken payload", () => {
    type Body = { readonly code: string; readonly detail: string; readonly errors: ReadonlyArray<unknown> }
    for (const body of fc.sample(arbitraryResponse("energy-amount", 400), { numRuns: 100, seed: SEED }) as ReadonlyArray<Body>) {
      expect(body.code).toBe("payload_failed_validation")
      expect(body.errors.length).toBeGreaterThan(0)
      expect(body.detail).toContain(String(body.errors.length))
    }
    // The same shape validatePayload answers with: the kit does not invent its own.
    const answer = validatePayload("energy-amount", {})
    expect(answer.ok).toBe(false)
    if (!answer.ok) expect(Object.keys(answer.error).sort()).toEqual(["code", "detail", "errors"])
  })

  it("the status body has an empty account number exactly while no account exists", () => {
    for (const body of fc.sample(arbitraryResponse("account-transfer-status", 200), { numRuns: 200, seed: SEED })) {
      expect(body.service_account_number === "").toBe(body.status !== "COMPLETED")
    }
  })

  it("pending processes have no account, imported ones have one", () => {
    type Lists = ReadonlyArray<ReadonlyArray<{ readonly service_account_number: unknown; readonly account_created_at: unknown }>>
    for (const list of fc.sample(arbitraryResponse("pending-account-import-processes", 200), { numRuns: 100, seed: SEED }) as Lists) {
      for (const p of list) expect([p.service_account_number, p.account_created_at]).toEqual([null, null])
    }
    for (const list of fc.sample(arbitraryResponse("imported-account-import-processes", 200), { numRuns: 100, seed: SEED }) as Lists) {
      for (const p of list) expect(typeof p.service_account_number === "string" && typeof p.account_created_at === "string").toBe(true)
    }
  })

  it("transactions answer 400 with validation errors or with a transaction import error", () => {
    const kinds = new Set(
      fc.sample(arbitraryResponse("transactions", 400), { numRuns: 200, seed: SEED })
        .map((body) => ("status" in body ? body.status : body.code))
    )
    expect([...kinds].sort()).toEqual(["TRANSACTION_IMPORT_ERROR", "payload_failed_validation"])
  })

  it("refuses an undocumented status and an unknown endpoint", () => {
    expect(() => arbitraryResponse("notes", 200 as never)).toThrow(TypeError)
    expect(() => arbitraryResponse("nope" as EndpointId, 200 as never)).toThrow(TypeError)
  })
})
