/**
 * A named pipe (FIFO) as input: it can be opened and read once only, so `validate` must not open it a
 * second time (to size it for the progress line, say): the first opening would take the writer's data and
 * the second would wait for a writer that never comes.
 */
import { execFileSync } from "node:child_process"
import { open } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { sizeOf } from "../../src/readers/io.js"
import { example, jsonReport, runCli, tempDir } from "./run-cli.js"

describe("data-import validate on a FIFO", () => {
  const dir = tempDir()

  it("sizing a FIFO does not open it: with no writer, the answer (no size) comes at once", async () => {
    const fifo = join(dir, "unsized.ndjson")
    execFileSync("mkfifo", [fifo])
    const late = new Promise<string>((resolve) => setTimeout(() => resolve("still waiting for a writer"), 2_000).unref())
    expect(await Promise.race([sizeOf(fifo), late])).toBeUndefined()
  })

  it("sizes a regular file", async () => {
    const file = join(dir, "regular.ndjson")
    const handle = await open(file, "w")
    await handle.write("12345")
    await handle.close()
    expect(await sizeOf(file)).toBe(5)
  })

  it("reads every record the writer sends, and ends", async () => {
    const fifo = join(dir, "export.ndjson")
    execFileSync("mkfifo", [fifo])
    const run = runCli(["validate", "-e", "energy-amount", "-f", "json", fifo])
    const writer = await open(fifo, "w")
    const line = `${JSON.stringify(example("energy-amount"))}\n`
    await writer.write(line.repeat(3))
    await writer.close()
    const report = jsonReport(await run)
    expect(report.totals).toMatchObject({ records: 3, valid: 3 })
  }, 20_000)
})
