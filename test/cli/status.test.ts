/**
 * `data-import status` never gives the all-clear for what it cannot see. A supplier's status (Ongoing,
 * Paused, Complete) is not readable through the API: a paused supplier has no pending accounts and every
 * account of it is COMPLETED, while the service refuses every post-import record of it. Without a ledger
 * the command says so and names --journal; with one, the records the ledger holds as blocked, in doubt or
 * not yet sent decide the exit code. The built CLI against `data-import serve`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { openLedger, type SourceLine, sendRecords } from "../../src/index.js"
import { energyAmount, modelService, PAUSED, SEED, SUPPLIER, TOKEN } from "../send/model-service.js"
import { CLI, runCli, tempDir } from "./run-cli.js"

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))
const env = { DATA_IMPORT_TOKEN: TOKEN, DATA_IMPORT_API_KEY: "" }

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

/** `data-import serve` on the model's seed (STADTWERKE_SUED is Paused, its account S-1 COMPLETED). */
const serve = async (): Promise<{ baseUrl: string; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--seed", seedFile], { stdio: ["pipe", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  const exited = once(child, "exit")
  const deadline = Date.now() + 20_000
  while (!stdout.includes("\n")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("serve did not start")
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    baseUrl: stdout.split("\n")[0]!.slice("listening on ".length),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM")
        await exited
      }
    }
  }
}

/** A ledger whose three records of the paused supplier were all blocked `supplier_not_ongoing`, and one of the other supplier stored. */
const pausedLedger = async (name: string): Promise<string> => {
  const path = join(dir, name)
  const service = modelService(SEED)
  const ledger = openLedger(path, { service: "http://127.0.0.1:9/" })
  const bodies = [energyAmount("S-1", 1, "1", PAUSED), energyAmount("S-1", 2, "1", PAUSED), energyAmount("S-1", 3, "1", PAUSED), energyAmount("KD-1", 1)]
  const lines: Array<SourceLine> = bodies.map((body, i) => ({ file: join(dir, "amounts.ndjson"), line: i + 1, text: JSON.stringify(body) }))
  try {
    await sendRecords(lines, { ledger, client: service.client(), service: "http://127.0.0.1:9/" })
  } finally {
    ledger.close()
  }
  return path
}

describe("data-import status: no false all-clear", () => {
  it("without --journal: no pending account, yet it says that the supplier's status cannot be read and points to --journal", async () => {
    const service = await serve()
    try {
      const text = await runCli(["status", "--base-url", service.baseUrl, PAUSED], { env })
      // Nothing known blocks the supplier's records: exit 0, but not a word that sounds like "all clear" alone.
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toContain(`${PAUSED}: no pending accounts`)
      expect(text.stdout).toContain(`Not checked: whether the migration of ${PAUSED} is Ongoing`)
      expect(text.stdout).toContain("the API does not tell a supplier's status")
      expect(text.stdout).toContain("--journal")
      const asked = await runCli(["status", "--base-url", service.baseUrl, PAUSED, "S-1"], { env })
      expect(asked.code).toBe(0)
      expect(asked.stdout).toContain("every account asked about (1) is imported")
      expect(asked.stdout).toContain(`Not checked: whether the migration of ${PAUSED} is Ongoing`)
      const json = await runCli(["status", "--base-url", service.baseUrl, "--format", "json", PAUSED], { env })
      expect(json.code).toBe(0)
      expect(JSON.parse(json.stdout)).toMatchObject({ import_supplier: PAUSED, not_ready: [], supplier_status: "not_readable_through_the_api" })
    } finally {
      await service.stop()
    }
  })

  it("with --journal: the supplier's records blocked supplier_not_ongoing are named with what to do, exit 1", async () => {
    const ledger = await pausedLedger("paused.ledger")
    const service = await serve()
    try {
      const text = await runCli(["status", "--base-url", service.baseUrl, "--journal", ledger, PAUSED], { env })
      expect(text.code, text.stderr).toBe(1)
      expect(text.stdout).toContain(`${PAUSED}: no pending accounts`)
      expect(text.stdout).toContain(`${PAUSED} in the ledger ${ledger}: 3 records, 0 stored; not stored: blocked supplier not ongoing 3`)
      // Each cause once, with the answer's time and the report's advice for its code.
      expect(text.stdout).toMatch(/ {2}blocked supplier not ongoing: 3 records \(last answer 2\d{3}-\d\d-\d\d \d\d:\d\d UTC\): The supplier's migration is Paused or Complete/u)
      expect(text.stdout).toContain(`Not clear: 3 records of ${PAUSED} in the ledger are not stored.`)
      expect(text.stdout).not.toContain("Not checked")
      const json = await runCli(["status", "--base-url", service.baseUrl, "--journal", ledger, "--format", "json", PAUSED], { env })
      expect(json.code).toBe(1)
      expect(JSON.parse(json.stdout)).toMatchObject({
        supplier_status: "not_ongoing_at_the_last_answer",
        ledger: { records: 3, stored: 0, open: { "blocked:supplier_not_ongoing": 3 } }
      })
      // The other supplier's records are its own: stored, nothing blocks them.
      const other = await runCli(["status", "--base-url", service.baseUrl, "--journal", ledger, SUPPLIER, "KD-1"], { env })
      expect(other.code, other.stdout).toBe(0)
      expect(other.stdout).toContain(`${SUPPLIER} in the ledger ${ledger}: 1 record, 1 stored`)
      expect(other.stdout).not.toContain("Not checked")
    } finally {
      await service.stop()
    }
  })
})
