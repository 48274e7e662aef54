/**
 * `data-import serve` as a child process for tests: started on port 0 of 127.0.0.1, its listening line
 * awaited, killed after each test; raw HTTP/1.1 exchanges over a socket (to send what `fetch` will not:
 * an absolute-form target, a body that never ends, a connection that sends nothing), and its memory from
 * /proc.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { afterEach } from "vitest"
import { CLI } from "../cli/run-cli.js"

/** A running `serve`. */
export interface Serving {
  readonly child: ChildProcessWithoutNullStreams
  readonly port: number
  readonly baseUrl: string
  readonly output: () => { stdout: string; stderr: string }
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

/** The CLI the children run: the tests' private copy of dist/, or `SERVE_CLI` (to run a test against another build). */
const cli = (): string => process.env["SERVE_CLI"] ?? CLI

/** Starts `data-import serve --port 0 …args`; resolves once it listens, or with its exit when it ends first. */
export const startServe = async (args: ReadonlyArray<string>): Promise<Serving> => {
  const child = spawn(process.execPath, [cli(), "serve", "--port", "0", ...args], { stdio: ["pipe", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")))
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")))
  const exited = once(child, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }))
  const deadline = Date.now() + 20_000
  while (!stdout.includes("\n") && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  const baseUrl = stdout.split("\n")[0]!.slice("listening on ".length)
  const port = Number(/:(\d+)$/u.exec(baseUrl)?.[1] ?? "0")
  return { child, port, baseUrl, output: () => ({ stdout, stderr }), exited }
}

/** Opens a connection to 127.0.0.1:port. */
export const open = async (port: number): Promise<Socket> => {
  const socket = connect(port, "127.0.0.1")
  socket.on("error", () => undefined)
  await once(socket, "connect")
  return socket
}

/** What came back on a raw exchange: the status (0: none) and the text received. */
export interface RawReply {
  readonly status: number
  readonly text: string
}

/**
 * Sends `head` (the request line and headers, without the blank line), then up to `bodyBytes` bytes of
 * body in 1 MiB pieces, stopping as soon as an answer's head arrives or the connection ends; resolves
 * with the status once the connection ends or `waitMs` have passed since the head was sent.
 */
export const exchange = async (port: number, head: string, bodyBytes = 0, waitMs = 5_000): Promise<RawReply> => {
  const socket = await open(port)
  let text = ""
  let ended = false
  socket.on("data", (b: Buffer) => (text += b.toString("latin1")))
  // Not `events.once`: it rejects on the EPIPE or ECONNRESET a refused body meets.
  const closed = new Promise<void>((r) => socket.once("close", () => r())).then(() => (ended = true))
  socket.write(`${head}\r\n\r\n`)
  const piece = Buffer.alloc(Math.min(bodyBytes, 1 << 20), 0x20)
  for (let sent = 0; sent < bodyBytes && !ended && !text.includes("\r\n\r\n");) {
    const size = Math.min(piece.length, bodyBytes - sent)
    if (!socket.write(piece.subarray(0, size))) await Promise.race([new Promise((r) => socket.once("drain", r)), closed])
    sent += size
  }
  const deadline = Date.now() + waitMs
  while (!ended && !text.includes("\r\n\r\n") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  // Let the rest of a small body arrive.
  await Promise.race([closed, new Promise((r) => setTimeout(r, 50))])
  socket.destroy()
  return { status: Number(/^HTTP\/1\.1 (\d{3})/u.exec(text)?.[1] ?? "0"), text }
}

/** A line of /proc/PID/status in kB (`VmRSS`, `VmHWM`). */
export const memoryKb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`))
  return Number(/(\d+)/u.exec(line ?? "")?.[1] ?? Number.NaN)
}

/** How serve ended, or `"running"` when it has not ended within `ms`. */
export const exitWithin = (serving: Serving, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | "running"> =>
  Promise.race([serving.exited, new Promise<"running">((r) => setTimeout(() => r("running"), ms))])
