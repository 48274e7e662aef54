/**
 * The run's lock file is read by the report and `status --journal` to tell a run in progress from a killed
 * one (`isLedgerHeld`): such a reader holds a shared lock on it for the moment of one read. A run that
 * starts in that moment waits for it instead of refusing the ledger as "in use by another run".
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { openLedger } from "../../src/index.js"
import { isLedgerHeld } from "../../src/ledger/ledger.js"

const dir = mkdtempSync(join(tmpdir(), "ledger-lock-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A process that reads the lock file in a transaction (a shared lock) for `ms`, then lets go. */
const reader = (lock: string, ms: number) => {
  const script = `
    const { DatabaseSync } = require("node:sqlite")
    const db = new DatabaseSync(${JSON.stringify(lock)}, { readOnly: true })
    db.exec("BEGIN")
    db.prepare("SELECT COUNT(*) FROM sqlite_master").get()
    process.stdout.write("reading\\n")
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms})
    db.exec("COMMIT")
    db.close()`
  return spawn(process.execPath, ["--no-warnings", "-e", script], { stdio: ["ignore", "pipe", "inherit"] })
}

describe("a reader of the run's lock", () => {
  it("makes a run that starts meanwhile wait for it, not refuse the ledger", async () => {
    const path = join(dir, "campaign.ledger")
    openLedger(path).close() // the lock file exists from the first run on
    const child = reader(`${path}-lock`, 300)
    await once(child.stdout, "data")
    const ledger = openLedger(path)
    try {
      expect(isLedgerHeld(path)).toBe(true)
    } finally {
      ledger.close()
      await once(child, "exit")
    }
    expect(isLedgerHeld(path)).toBe(false)
  })

  it("a run in progress refuses a second one that names the ledger through a symbolic link", () => {
    const path = join(dir, "linked.ledger")
    const alias = join(dir, "alias.ledger")
    openLedger(path).close()
    symlinkSync(path, alias)
    const first = openLedger(path)
    try {
      expect(isLedgerHeld(alias)).toBe(true)
      expect(() => openLedger(alias)).toThrow(/in use by another run/u)
    } finally {
      first.close()
    }
    // Through the link first, then by its name.
    const viaLink = openLedger(alias)
    try {
      expect(() => openLedger(path)).toThrow(/in use by another run/u)
    } finally {
      viaLink.close()
    }
  })

  it("a run in progress still refuses a second one", () => {
    const path = join(dir, "busy.ledger")
    const first = openLedger(path)
    try {
      expect(() => openLedger(path)).toThrow(/in use by another run/u)
    } finally {
      first.close()
    }
  })
})

describe("two runs that start at the same moment", () => {
  it("behind a third, each gets the lock in turn within its wait: never both refused", async () => {
    const path = join(dir, "together.ledger")
    openLedger(path).close()
    // A third process holds the lock file reserved while both runs start: each takes its shared lock and
    // waits, as two runs started at the same moment do; then it lets go.
    const holder = spawn(
      process.execPath,
      ["--no-warnings", "-e", `
        const { DatabaseSync } = require("node:sqlite")
        const db = new DatabaseSync(${JSON.stringify(`${path}-lock`)})
        db.exec("BEGIN IMMEDIATE")
        process.stdout.write("holding\\n")
        process.stdin.once("data", () => { db.close(); process.exit(0) })`],
      { stdio: ["pipe", "pipe", "inherit"] }
    )
    await once(holder.stdout, "data")
    const library = pathToFileURL(join(fileURLToPath(new URL("../../", import.meta.url)), "dist", "index.js")).href
    const run = () => {
      const child = spawn(
        process.execPath,
        ["--no-warnings", "--input-type=module", "-e", `
          const { openLedger } = await import(${JSON.stringify(library)})
          process.stdout.write("ready\\n")
          await new Promise((go) => process.stdin.once("data", go))
          try {
            const ledger = openLedger(${JSON.stringify(path)})
            process.stdout.write("won\\n")
            setTimeout(() => ledger.close(), 100)
          } catch (error) {
            process.stdout.write("refused: " + error.message + "\\n")
          }`],
        { stdio: ["pipe", "pipe", "inherit"] }
      )
      let out = ""
      child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")))
      const exited = once(child, "exit").then(() => out)
      return { out: () => out, go: () => child.stdin.end("go\n"), exited }
    }
    const runs = [run(), run()]
    while (!runs.every((r) => r.out().includes("ready"))) await new Promise((r) => setTimeout(r, 10))
    for (const r of runs) r.go()
    // Both now wait behind the third; then it lets go.
    await new Promise((r) => setTimeout(r, 300))
    holder.stdin.end("go\n")
    const outs = await Promise.all(runs.map((r) => r.exited))
    // The first to get the lock holds it a moment (well within the wait): the other waits for it, then has it.
    expect(outs, outs.join(" | ")).toEqual(["ready\nwon\n", "ready\nwon\n"])
  })
})
