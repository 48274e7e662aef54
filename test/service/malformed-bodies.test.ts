/**
 * Request bodies a client should not send, answered in the API's shapes and never with a 500: bodies
 * nested too deeply to store, bytes that are not UTF-8, a media type with another charset, and a client
 * that goes away in the middle of its body.
 */
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { example, expectValidResponse, forAccount, IMPORTED, startService, TOKEN } from "./support.js"

const INVOICE_PATH = buildPath("market-participant-invoice", {})
const NOTES_PATH = buildPath("notes", {})
const AUTH = { Authorization: `Token ${TOKEN}` }

/** `[[[…]]]`, `depth` levels deep. */
const nested = (depth: number): string => "[".repeat(depth) + "]".repeat(depth)

/** An invoice whose `paid_in_advance_amounts` (of a shape the spec leaves open) holds one value `depth` levels deep. */
const deepInvoice = (depth: number): string => {
  const payload = forAccount(IMPORTED, {
    market_participant_invoice: { ...(example("market-participant-invoice")["market_participant_invoice"] as object), paid_in_advance_amounts: [{ a: "DEEP" }] }
  })
  return JSON.stringify(payload).replace('"DEEP"', nested(depth))
}

/** A POST of raw bytes; the answer checked against the contract. */
const post = async (baseUrl: string, path: string, body: string | Buffer, contentType = "application/json") => {
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { ...AUTH, "Content-Type": contentType }, body })
  const json: unknown = await response.json()
  expectValidResponse("POST", path, response.status, json)
  return { status: response.status, body: json }
}

describe("serve: a body nested too deeply", () => {
  it("is a 400 parse_error, nothing stored, not a 500; a shallow one is stored", async () => {
    const service = await startService()
    expect((await post(service.baseUrl, INVOICE_PATH, deepInvoice(10))).status).toBe(201)
    for (const depth of [5_000, 100_000]) {
      const reply = await post(service.baseUrl, INVOICE_PATH, deepInvoice(depth))
      expect(reply.status, `depth ${depth}`).toBe(400)
      expect(reply.body).toMatchObject({ code: "parse_error", errors: [{ code: "invalid", attr: "non_field_errors" }] })
    }
    const stats = await service.stats()
    expect(stats.stored["market_participant_invoices"]).toBe(1)
    expect(stats.responses["market-participant-invoice"]).toEqual({ 201: 1, 400: 2 })
  })
})
