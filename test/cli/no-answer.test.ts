/**
 * A service that accepts connections and never answers: `send --timeout 2` reports the records in doubt
 * after about 2 s, and the process then ends, whatever requests undici still holds open.
 */
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createServer, type AddressInfo, type Socket } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { energyAmountLine } from "../support/energy-amount-line.js"
import { CLI, tempDir } from "./run-cli.js"

const dir = tempDir()
const sockets = new Set<Socket>()
const servers = new Set<ReturnType<typeof createServer>>()
afterEach(() => {
  for (const socket of sockets) socket.destroy()
  for (const server of servers) server.close()
})

/** Listens on 127.0.0.1 and reads every request, answering none. */
const silentService = async (): Promise<string> => {
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("error", () => undefined)
    socket.resume()
  })
  servers.add(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Runs the CLI; resolves with its exit code, output and how long it lived (killed after `killAfterMs`). */
const timed = (args: ReadonlyArray<string>, killAfterMs: number) =>
  new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
    const began = Date.now()
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATA_IMPORT_TOKEN: "tok-silent-8812-secret", DATA_IMPORT_API_KEY: "" } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")))
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")))
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, ms: Date.now() - began })
    })
  })

describe("a service that never answers", () => {
  it("send --timeout 2: the report, then the process ends (well within 20 s, not at undici's 300 s)", async () => {
    const baseUrl = await silentService()
    const input = join(dir, "silent.ndjson")
    const note = (i: number) => JSON.stringify({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: `Note ${i}`, created_at: "2024-05-01T10:00:00Z" }] })
    const energy = energyAmountLine({ line: "L-1" })
    writeFileSync(input, `${note(1)}\n${note(2)}\n${energy}\n`)
    const run = await timed(["send", "--base-url", baseUrl, "--journal", join(dir, "silent.journal"), "--new-ledger", "--timeout", "2", "--max-attempts", "1", "--format", "json", input], 40_000)
    expect(run.ms, run.stderr).toBeLessThan(20_000)
    expect(run.code, run.stderr).toBe(1)
    // Every record has its outcome in the report that came before the end.
    const report = JSON.parse(run.stdout) as { records: number; outcomes: Record<string, number> }
    expect(report.records).toBe(3)
    expect((report.outcomes["in_doubt"] ?? 0) + (report.outcomes["failed"] ?? 0)).toBe(3)
  }, 60_000)
})
