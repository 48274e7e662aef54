/**
 * Request bodies a client should not send, answered in the API's shapes and never with a 500: bodies
 * nested too deeply to store, bytes that are not UTF-8, a media type with another charset, and a client
 * that goes away in the middle of its body.
 */
import { once } from "node:events"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { createReferenceServer, openStore } from "../../src/service/index.js"
import { example, expectValidResponse, FIXED_NOW, forAccount, IMPORTED, SEED, startService, TOKEN } from "./support.js"

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

describe("serve: a body in another encoding than UTF-8", () => {
  const note = (body: string) => JSON.stringify(forAccount(IMPORTED, { notes: [{ body, created_at: "2024-06-12T14:02:31+02:00" }] }))

  it("a Content-Type with another charset is 415, nothing stored; UTF-8 however spelt is taken, its text kept exactly", async () => {
    const service = await startService()
    const latin1 = await post(service.baseUrl, NOTES_PATH, Buffer.from(note("Zählerwechsel"), "latin1"), "application/json; charset=iso-8859-1")
    expect(latin1.status).toBe(415)
    expect(Object.keys(latin1.body as object)).toEqual(["detail"])
    const utf16 = await post(service.baseUrl, NOTES_PATH, Buffer.from(note("Zählerwechsel"), "utf16le"), "application/json;charset=UTF-16")
    expect(utf16.status).toBe(415)
    for (const [i, type] of ["application/json; charset=utf-8", 'application/json; charset="UTF-8"', "application/json;charset=utf8"].entries()) {
      const reply = await post(service.baseUrl, NOTES_PATH, Buffer.from(note(`Zählerwechsel ${i}`), "utf8"), type)
      expect(reply.status, type).toBe(201)
      expect((reply.body as Array<{ body: string }>)[0]!.body).toBe(`Zählerwechsel ${i}`)
    }
    const stats = await service.stats()
    expect(stats.stored["notes"]).toBe(3)
    expect(stats.responses["notes"]).toEqual({ 201: 3, 415: 2 })
  })

  it("bytes that are not UTF-8 are a 400 parse_error, nothing stored, not text with U+FFFD in it", async () => {
    const service = await startService()
    for (const type of ["application/json", "application/json; charset=utf-8"]) {
      const reply = await post(service.baseUrl, NOTES_PATH, Buffer.from(note("Zählerwechsel"), "latin1"), type)
      expect(reply.status, type).toBe(400)
      expect(reply.body).toMatchObject({ code: "parse_error", errors: [{ code: "invalid", attr: "non_field_errors" }] })
    }
    const stats = await service.stats()
    expect(stats.stored["notes"]).toBe(0)
    expect(stats.responses["notes"]).toEqual({ 400: 2 })
  })
})

describe("serve: a client that goes away in the middle of its body", () => {
  it("is no internal error of the service; nothing is stored and the next request is answered", async () => {
    const internalErrors: Array<string> = []
    const store = openStore(":memory:", SEED)
    const server = createReferenceServer({ store, now: () => FIXED_NOW, onInternalError: (message) => internalErrors.push(message) })
    const { port } = await server.listen(0, "127.0.0.1")
    try {
      for (const framing of ["Content-Length: 1000", "Transfer-Encoding: chunked"]) {
        const socket = connect(port, "127.0.0.1")
        socket.on("error", () => undefined)
        await once(socket, "connect")
        const part = framing.startsWith("Content") ? '{"import_supplier":' : '13\r\n{"import_supplier":\r\n'
        socket.write(`POST ${NOTES_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${TOKEN}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n${part}`)
        await new Promise((r) => setTimeout(r, 100))
        socket.destroy()
      }
      await new Promise((r) => setTimeout(r, 200))
      expect(internalErrors).toEqual([])
      const reply = await post(`http://127.0.0.1:${port}`, NOTES_PATH, JSON.stringify(forAccount(IMPORTED, { notes: [{ body: "after" }] })))
      expect(reply.status).toBe(201)
      expect(store.transact((state) => state.count("notes"))).toBe(1)
    } finally {
      const closed = server.close()
      server.server.closeAllConnections()
      await closed
      store.close()
    }
  })
})
