/**
 * `data-import serve` (the built CLI as a child process) over raw sockets: after an answer that closes the
 * connection, nothing sent behind it on that connection is executed (RFC 9112 §9.6); and a client that
 * writes a refused body whole before it reads (as Python's http.client does) gets the 413, not a reset.
 */
import { once } from "node:events"
import { writeFileSync } from "node:fs"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { join } from "node:path"
import { buildPath } from "../../src/index.js"
import { tempDir } from "../cli/run-cli.js"
import { open, startServe } from "./serve-child.js"
import { forAccount, IMPORTED, SEED, TOKEN } from "./support.js"

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

const NOTES_PATH = buildPath("notes", {})
const noteBody = (text: string) => JSON.stringify(forAccount(IMPORTED, { notes: [{ body: text, created_at: "2024-05-01T10:00:00Z" }] }))
const request = (path: string, headers: ReadonlyArray<string>, body: string): string =>
  [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", ...headers, `Content-Length: ${Buffer.byteLength(body)}`, "", body].join("\r\n")

/** Writes `bytes` at once and collects what comes back until the server closes (or `waitMs`). */
const pipelined = async (port: number, bytes: string, waitMs = 4_000): Promise<string> => {
  const socket = await open(port)
  let text = ""
  socket.on("data", (b: Buffer) => (text += b.toString("latin1")))
  const closed = new Promise<void>((r) => socket.once("close", () => r()))
  socket.write(bytes)
  await Promise.race([closed, new Promise((r) => setTimeout(r, waitMs))])
  socket.destroy()
  return text
}

const storedNotes = async (baseUrl: string): Promise<number> => {
  const stats = (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as { stored: Record<string, number> }
  return stats.stored["notes"] ?? 0
}

describe("serve: nothing after an answer that closes the connection", () => {
  it.each([
    ["401 (a wrong token)", 401, request(NOTES_PATH, ["Authorization: Token wrong", "Content-Type: application/json"], noteBody("refused"))],
    ["415 (not JSON)", 415, request(NOTES_PATH, [`Authorization: Token ${TOKEN}`, "Content-Type: text/plain"], noteBody("refused"))],
    ["404 (no endpoint)", 404, request("/v1/data-import/nothing/", [`Authorization: Token ${TOKEN}`, "Content-Type: application/json"], noteBody("refused"))]
  ])("%s: the note pipelined behind it is neither stored nor answered", async (_, status, first) => {
    const serving = await startServe(["--seed", seedFile])
    const second = request(NOTES_PATH, [`Authorization: Token ${TOKEN}`, "Content-Type: application/json"], noteBody("behind the refused one"))
    const received = await pipelined(serving.port, `${first}${second}`)
    const statusLines = received.match(/^HTTP\/1\.1 \d{3}/gmu) ?? []
    expect(statusLines).toEqual([`HTTP/1.1 ${status}`])
    expect(received).toMatch(/^Connection: close\r$/imu)
    expect(await storedNotes(serving.baseUrl)).toBe(0)
    // The same note on a connection of its own is stored: it was refused for its place, not its content.
    const alone = await pipelined(serving.port, second)
    expect(alone).toMatch(/^HTTP\/1\.1 201/u)
    expect(await storedNotes(serving.baseUrl)).toBe(1)
  }, 30_000)
})

describe("serve: a refused body written whole before reading", () => {
  it("a body over the limit (32 MiB), all of it written first, then the answer read: 413, no reset", async () => {
    const serving = await startServe(["--seed", seedFile])
    // Half-open allowed, as a socket in Python: the server's FIN after its answer does not end the client's sending.
    const socket = connect({ port: serving.port, host: "127.0.0.1", allowHalfOpen: true })
    const errors: Array<string> = []
    socket.on("error", (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message))
    await once(socket, "connect")
    let text = ""
    socket.on("data", (b: Buffer) => (text += b.toString("latin1")))
    const closed = new Promise<void>((r) => socket.once("close", () => r()))
    const size = (32 << 20) + (1 << 20)
    socket.write(`POST ${NOTES_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`)
    // Written whole before anything is read, as Python's http.client does (its sendall): each piece waits
    // until the kernel took the one before.
    const piece = Buffer.alloc(1 << 20, 0x20)
    let written = 0
    while (written < size && errors.length === 0) {
      const ok = socket.write(piece)
      written += piece.length
      if (!ok) await Promise.race([new Promise((r) => socket.once("drain", r)), closed, new Promise((r) => setTimeout(r, 15_000))])
      if (socket.destroyed) break
    }
    await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))])
    expect(errors).toEqual([])
    expect(written).toBe(size)
    expect(text).toMatch(/^HTTP\/1\.1 413/u)
    expect(text).toContain('"detail"')
    socket.destroy()
  }, 60_000)
})
