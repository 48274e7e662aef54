/** Endpoint inference from a record's top-level keys, read from the catalogue. */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { inferEndpoint } from "../../../src/schemas/endpoints/infer-endpoint.js"
import { POST_ENDPOINT_IDS } from "../../../src/schemas/endpoints/endpoint-id.js"

const example = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../../examples/payloads/${id}.json`, import.meta.url), "utf8")) as Record<string, unknown>

describe("inferEndpoint", () => {
  it("names the endpoint of every example payload", () => {
    for (const id of POST_ENDPOINT_IDS) expect(inferEndpoint(example(id))).toEqual({ ok: true, endpoint: id })
  })

  it("names the endpoint of a broken payload by the key only it has", () => {
    const { import_supplier: _, ...withoutSupplier } = example("energy-amount")
    expect(inferEndpoint({ ...withoutSupplier, typo: 1 })).toEqual({ ok: true, endpoint: "energy-amount" })
    expect(inferEndpoint({ vendor: "x" })).toEqual({ ok: true, endpoint: "payment-instruction" })
  })

  it("tells the path parameters of the status endpoints apart where it can", () => {
    expect(inferEndpoint({ import_supplier_code: "S", external_account_number: "1" })).toEqual({ ok: true, endpoint: "account-transfer-status" })
    expect(inferEndpoint({ import_supplier_code: "S" })).toMatchObject({ ok: false, code: "ambiguous_endpoint" })
  })

  it("reports records that fit several endpoints, none, or are not objects", () => {
    expect(inferEndpoint({ notes: [], transactions: [] })).toMatchObject({ ok: false, code: "ambiguous_endpoint" })
    expect(inferEndpoint({ import_supplier: "S", external_account_number: "1" })).toMatchObject({ ok: false, code: "unknown_endpoint" })
    expect(inferEndpoint({})).toMatchObject({ ok: false, code: "unknown_endpoint" })
    expect(inferEndpoint([example("notes")])).toMatchObject({ ok: false, code: "invalid" })
    expect(inferEndpoint("notes")).toMatchObject({ ok: false, code: "invalid" })
  })
})
