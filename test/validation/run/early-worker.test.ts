/**
 * The worker `validate` starts before the tool has loaded: a pool takes it only while it runs, so a worker
 * that failed while starting is never handed batches that would vanish with it.
 */
import { once } from "node:events"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { startEarlyWorker, takeEarlyWorker } from "../../../src/validation/run/early-worker.js"

const dir = mkdtempSync(join(tmpdir(), "early-worker-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const script = (name: string, text: string): URL => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return pathToFileURL(path)
}

// Answers its first message (the settings) with what it was started with and what it received.
const echo = script("echo.mjs", `import { parentPort, workerData } from "node:worker_threads"
parentPort.once("message", (m) => parentPort.postMessage({ workerData, m }))
`)
const failing = script("failing.mjs", `throw new Error("cannot start")\n`)

describe("early worker", () => {
  it("is taken once by a pool of the same script, and its first message is the settings it waits for", async () => {
    const started = startEarlyWorker(echo)
    expect(started).toBeDefined()
    expect(takeEarlyWorker(failing)).toBeUndefined()
    const taken = takeEarlyWorker(echo)
    expect(taken).toBe(started)
    expect(takeEarlyWorker(echo)).toBeUndefined()
    taken!.postMessage({ type: "settings", settings: { role: "validate" } })
    const [answer] = await once(taken!, "message")
    expect(answer).toEqual({ workerData: "awaiting-settings", m: { type: "settings", settings: { role: "validate" } } })
    await taken!.terminate()
  })

  it("is not taken once it has failed, so the pool starts a worker of its own", async () => {
    const started = startEarlyWorker(failing)
    expect(started).toBeDefined()
    // (events.once would reject on the worker's "error", which comes first.)
    const code = await new Promise((resolve) => started!.on("exit", resolve))
    expect(code).toBe(1)
    expect(takeEarlyWorker(failing)).toBeUndefined()
  })

  it("is not taken once it has stopped", async () => {
    const started = startEarlyWorker(echo)
    await started!.terminate()
    expect(takeEarlyWorker(echo)).toBeUndefined()
  })
})
