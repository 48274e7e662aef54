/**
 * Requests that are not HTTP the server can parse (an unknown method, a broken header line, a head too
 * large): answered with the status Node's HTTP parser chose, but with a `{detail}` body in JSON like every
 * other answer of the service, not an empty one.
 */
import { once } from "node:events"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { DetailBody } from "../../src/service/index.js"
import { Schema } from "effect"
import { startService, TOKEN } from "./support.js"

/** Sends `text` on a new connection; the status, the headers (lower case) and the body of the answer. */
const rawExchange = async (port: number, text: string) => {
  const socket = connect(port, "127.0.0.1")
  socket.on("error", () => undefined)
  await once(socket, "connect")
  let received = ""
  socket.on("data", (b: Buffer) => (received += b.toString("utf8")))
  socket.write(text)
  await Promise.race([once(socket, "close"), new Promise((r) => setTimeout(r, 3_000))])
  socket.destroy()
  const [head = "", body = ""] = received.split("\r\n\r\n")
  const [statusLine = "", ...lines] = head.split("\r\n")
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/u.exec(statusLine)?.[1] ?? "0"),
    headers: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()])),
    body
  }
}

describe("serve: a request the HTTP parser refuses", () => {
  const cases: ReadonlyArray<[string, string, number]> = [
    ["an unknown method", `FOO /v1/data-import/notes/create/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${TOKEN}\r\n\r\n`, 400],
    ["a header line without a colon", "GET /_reference/stats HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", 400],
    ["no request line at all", "HELLO\r\n\r\n", 400],
    ["a head over 16 KiB", `GET /_reference/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"x".repeat(20_000)}\r\n\r\n`, 431]
  ]

  it.each(cases)("%s: its status, with a JSON {detail} body", async (_, text, status) => {
    const service = await startService()
    const reply = await rawExchange(Number(new URL(service.baseUrl).port), text)
    expect(reply.status).toBe(status)
    expect(reply.headers["content-type"]).toBe("application/json")
    expect(Number(reply.headers["content-length"])).toBe(Buffer.byteLength(reply.body))
    expect(Schema.is(DetailBody)(JSON.parse(reply.body))).toBe(true)
    // The service still answers.
    expect((await service.stats()).stored).toBeDefined()
  })
})
