/**
 * One ledger, whatever its name: the built CLI against `data-import serve`. Two `send`s started at the
 * same moment through two names of one ledger file (a hard link, a symbolic link made before or after
 * the first run, a relative and an absolute path) take one lock: one sends, the other waits or is
 * refused, never both refused, and the service stores nothing twice. A new campaign needs --new-ledger.
 * No message about a ledger that cannot be used advises a new ledger.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process"
import { once } from "node:events"
import { copyFileSync, existsSync, linkSync, mkdirSync, openSync, closeSync, readFileSync, symlinkSync, writeFileSync, writeSync } from "node:fs"
import { join, relative } from "node:path"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { energyAmountLine } from "../support/energy-amount-line.js"
import { CLI, ROOT, runCli, type Run, tempDir } from "./run-cli.js"

const TOKEN = "tok-ledger-identity-secret"
const SUPPLIER = "STADTWERKE_NORD"
const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(
  seedFile,
  JSON.stringify({
    tokens: [TOKEN],
    suppliers: [{ code: SUPPLIER, status: "Ongoing" }],
    accounts: [{ import_supplier: SUPPLIER, external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z" }]
  })
)
const env = { DATA_IMPORT_TOKEN: TOKEN }

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

/** Starts the built CLI; resolves with what it printed and its exit code. */
const start = (args: ReadonlyArray<string>, cwd = ROOT) => {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } })
  children.add(child)
  const out = { stdout: "", stderr: "" }
  child.stdout.on("data", (b: Buffer) => (out.stdout += b.toString("utf8")))
  child.stderr.on("data", (b: Buffer) => (out.stderr += b.toString("utf8")))
  const exited = once(child, "exit").then(([code]) => ({ code: code as number | null, ...out }))
  return { child, out, exited }
}

const serve = async () => {
  const s = start(["serve", "--port", "0", "--seed", seedFile, "--latency-ms", "2"])
  const deadline = Date.now() + 20_000
  while (!s.out.stdout.includes("\n")) {
    if (Date.now() > deadline || s.child.exitCode !== null) throw new Error(`serve did not start: ${s.out.stderr}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  const baseUrl = s.out.stdout.split("\n")[0]!.slice("listening on ".length)
  const stop = async () => {
    if (s.child.exitCode === null) {
      s.child.kill("SIGTERM")
      await s.exited
    }
  }
  return { baseUrl, stop }
}

/** What the service stored: each energy amount's line item, as often as it is stored. */
const storedItems = async (baseUrl: string): Promise<number> => {
  const stats = (await (await fetch(`${baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as { stored: Record<string, number> }
  return stats.stored["energy_amounts"] ?? 0
}

const energy = (id: string) => energyAmountLine({ supplier: SUPPLIER, line: id })

const payloads = (name: string, ids: ReadonlyArray<string>): string => {
  const path = join(dir, name)
  writeFileSync(path, `${ids.map(energy).join("\n")}\n`)
  return path
}

const sendArgs = (baseUrl: string, journal: string, files: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) =>
  ["send", "--base-url", baseUrl, "--journal", journal, "--concurrency", "4", ...extra, ...files]

/** Advice that would start the campaign again: a new ledger for one that exists. */
const ADVISES_NEW_LEDGER = /(start|give|use|create|begin) (a|another) new (ledger|file)|new ledger file/iu

/** A refusal of a run because another holds the ledger: the only way a send of two at once may lose. */
const REFUSED_IN_USE = /^data-import: the ledger .* is in use by another run/mu

type Naming = "hard link" | "symbolic link made before the first run" | "symbolic link made after the first run" | "relative and absolute path"
const NAMINGS: ReadonlyArray<Naming> = ["hard link", "symbolic link made before the first run", "symbolic link made after the first run", "relative and absolute path"]

describe("one ledger under two names", () => {
  it("two sends at once through any two names of one ledger file: one lock, never both refused, nothing stored twice", async () => {
    const service = await serve()
    let round = 0
    let expected = 0
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...NAMINGS), fc.boolean(), fc.integer({ min: 30, max: 120 }), async (naming, firstThroughAlias, count) => {
          round++
          const folder = join(dir, `round-${round}`)
          mkdirSync(join(folder, "shared"), { recursive: true })
          const real = join(folder, "shared", "campaign.ledger")
          const alias = join(folder, "campaign.ledger")
          const ids = Array.from({ length: count }, (_, i) => `R${round}-${i}`)
          const early = payloads(`round-${round}-early.ndjson`, ids.slice(0, 10))
          const all = payloads(`round-${round}-all.ndjson`, ids)
          // Each run is started in the round's folder: a relative name is relative to it.
          let names: readonly [string, string]
          if (naming === "symbolic link made before the first run") {
            symlinkSync(join("shared", "campaign.ledger"), alias) // dangling until the first run
            names = [alias, real]
          } else {
            const first = await runCli(sendArgs(service.baseUrl, real, [early], ["--new-ledger"]), { env, cwd: folder })
            expect(first.code, first.stderr).toBe(0)
            if (naming === "hard link") linkSync(real, alias)
            else if (naming === "symbolic link made after the first run") symlinkSync(real, alias)
            names = naming === "relative and absolute path" ? [relative(folder, real), real] : [alias, real]
          }
          const [one, other] = firstThroughAlias ? names : ([names[1], names[0]] as const)
          const a = start(sendArgs(service.baseUrl, one, [all], ["--new-ledger"]), folder)
          const b = start(sendArgs(service.baseUrl, other, [all], ["--new-ledger"]), folder)
          const runs = await Promise.all([a.exited, b.exited])
          for (const run of runs) expect([0, 2], `${naming}: ${run.stderr}`).toContain(run.code)
          const refused = runs.filter((r) => r.code === 2)
          // One wins; the other waited for it (and found everything stored) or was refused as in use.
          expect(refused.length, `${naming}: ${runs.map((r) => r.stderr).join(" | ")}`).toBeLessThan(2)
          for (const run of refused) expect(run.stderr).toMatch(REFUSED_IN_USE)
          expected += count
          expect(await storedItems(service.baseUrl), naming).toBe(expected)
          // Either name reports the one ledger: every record once, all stored.
          for (const name of names) {
            const report = await runCli(["report", "--journal", name, "--format", "json"], { cwd: folder })
            expect(report.code, report.stderr).toBe(0)
            expect((JSON.parse(report.stdout) as { totals: { records: number; created: number } }).totals).toMatchObject({ records: count, created: count })
          }
        }),
        {
          numRuns: 2,
          examples: NAMINGS.map((naming, i) => [naming, i % 2 === 0, 60] as [Naming, boolean, number])
        }
      )
    } finally {
      await service.stop()
    }
  }, 240_000)
})

describe("a new campaign is a deliberate act", () => {
  it("send and map --journal refuse a ledger that does not exist without --new-ledger: exit 2, the absolute path, nothing sent or written", async () => {
    const service = await serve()
    try {
      const folder = join(dir, "astray")
      mkdirSync(folder, { recursive: true })
      const input = payloads("astray.ndjson", ["N-1", "N-2"])
      const run = await runCli(sendArgs(service.baseUrl, "campaign.ledger", [input]), { env, cwd: folder })
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`the ledger ${join(folder, "campaign.ledger")} does not exist`)
      expect(run.stderr).toContain("--new-ledger")
      expect(existsSync(join(folder, "campaign.ledger"))).toBe(false)
      expect(await storedItems(service.baseUrl)).toBe(0)
      const dry = await runCli(sendArgs(service.baseUrl, "campaign.ledger", [input], ["--dry-run"]), { env, cwd: folder })
      expect(dry.code).toBe(2)
      // A symbolic link that leads nowhere yet says where the ledger would be.
      symlinkSync(join(folder, "elsewhere.ledger"), join(folder, "linked.ledger"))
      const linked = await runCli(sendArgs(service.baseUrl, "linked.ledger", [input]), { env, cwd: folder })
      expect(linked.code).toBe(2)
      expect(linked.stderr).toContain(`the ledger ${join(folder, "linked.ledger")} does not exist (a symbolic link to ${join(folder, "elsewhere.ledger")}`)

      const mapped = join(folder, "notes.ndjson")
      const map = await runCli(
        ["map", "-m", join(ROOT, "examples", "mappings", "notes.mapping.json"), "-o", mapped, "--journal", "campaign.ledger", join(ROOT, "examples", "mappings", "notes.csv")],
        { cwd: folder }
      )
      expect(map.code).toBe(2)
      expect(map.stderr).toContain(`the ledger ${join(folder, "campaign.ledger")} does not exist`)
      expect(existsSync(join(folder, "campaign.ledger"))).toBe(false)
      expect(existsSync(mapped)).toBe(false)

      // With --new-ledger the campaign starts; later runs need no flag.
      expect((await runCli(sendArgs(service.baseUrl, "campaign.ledger", [input], ["--new-ledger"]), { env, cwd: folder })).code).toBe(0)
      expect((await runCli(sendArgs(service.baseUrl, "campaign.ledger", [input]), { env, cwd: folder })).code).toBe(0)
      expect(await storedItems(service.baseUrl)).toBe(2)
    } finally {
      await service.stop()
    }
  })
})

/** A ledger written by one send of `ids`, closed. */
const sentLedger = async (name: string, ids: ReadonlyArray<string>): Promise<{ journal: string; input: string; baseUrl: string; stop: () => Promise<void> }> => {
  const service = await serve()
  const input = payloads(`${name}.ndjson`, ids)
  const journal = join(dir, `${name}.ledger`)
  const first = await runCli(sendArgs(service.baseUrl, journal, [input], ["--new-ledger"]), { env })
  expect(first.code, first.stderr).toBe(0)
  return { journal, input, baseUrl: service.baseUrl, stop: service.stop }
}

/** Writes `bytes` into the file at `offset`. */
const overwrite = (path: string, offset: number, bytes: Buffer): void => {
  const fd = openSync(path, "r+")
  try {
    writeSync(fd, bytes, 0, bytes.length, offset)
  } finally {
    closeSync(fd)
  }
}

/** The page size of a database and the root page of one of its tables or indexes. */
const rootPage = (path: string, name: string): { pageSize: number; root: number } => {
  const db = new (loadSqlite().DatabaseSync)(path, { readOnly: true })
  try {
    const pageSize = (db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").get(name) as { rootpage: number }).rootpage
    return { pageSize, root }
  } finally {
    db.close()
  }
}

describe("a ledger that cannot be used: no message advises a new one", () => {
  it("a ledger written by a newer version says so, and names the version it needs; send exit 2, report exit 3", async () => {
    const { journal, input, baseUrl, stop } = await sentLedger("newer", ["V-1"])
    try {
      const db = new (loadSqlite().DatabaseSync)(journal)
      db.exec("UPDATE meta SET value = 'ledger-3' WHERE key = 'format'; INSERT INTO meta (key, value) VALUES ('version_needed', '0.4.0') ON CONFLICT (key) DO UPDATE SET value = '0.4.0'")
      db.close()
      const send = await runCli(sendArgs(baseUrl, journal, [input]), { env })
      expect(send.code).toBe(2)
      expect(send.stderr).toContain("written by a newer version of data-import (format ledger-3; this version reads ledger-2): run it with data-import 0.4.0 or later")
      const report = await runCli(["report", "--journal", journal])
      expect(report.code).toBe(3)
      expect(report.stderr).toContain("data-import 0.4.0 or later")
      for (const run of [send, report]) {
        expect(run.stderr).not.toContain("older")
        expect(run.stderr).not.toMatch(ADVISES_NEW_LEDGER)
      }
    } finally {
      await stop()
    }
  })

  it("a ledger damaged in its meta index is called damaged and pointed to its recovery, never 'not a ledger'", async () => {
    const { journal, input, baseUrl, stop } = await sentLedger("meta-index", ["M-1", "M-2"])
    try {
      // The index's page emptied (a valid leaf page without cells): the lookup of the format finds nothing.
      const { pageSize, root } = rootPage(journal, "sqlite_autoindex_meta_1")
      const empty = Buffer.alloc(8)
      empty.writeUInt8(0x0a, 0) // a leaf page of an index
      empty.writeUInt16BE(pageSize % 65536, 5) // its cell content starts at the page's end
      overwrite(journal, (root - 1) * pageSize, empty)
      const send = await runCli(sendArgs(baseUrl, journal, [input]), { env })
      const report = await runCli(["report", "--journal", journal])
      for (const run of [send, report]) {
        expect(run.code, run.stderr).toBe(3)
        expect(run.stderr).toContain(`the ledger ${journal} is damaged`)
        expect(run.stderr).toContain("REINDEX")
        expect(run.stderr).toContain("A damaged ledger")
        expect(run.stderr).not.toContain("not a ledger")
        expect(run.stderr).not.toMatch(ADVISES_NEW_LEDGER)
      }
      expect(await storedItems(baseUrl)).toBe(2)
    } finally {
      await stop()
    }
  })

  it("a LEDGER-lock that is not a database is named as the lock file, which may go when no run is going; the ledger is not called damaged", async () => {
    const { journal, input, baseUrl, stop } = await sentLedger("bad-lock", ["L-1"])
    try {
      writeFileSync(`${journal}-lock`, "not a lock, just text long enough to be read as the header of a database".repeat(20))
      const send = await runCli(sendArgs(baseUrl, journal, [input]), { env })
      expect(send.code).toBe(3)
      expect(send.stderr).toContain(`the lock file ${journal}-lock of the ledger ${journal} cannot be used`)
      expect(send.stderr).toContain("when no run of this ledger is going, remove it")
      expect(send.stderr).not.toContain(`the ledger ${journal}: file is not a database`)
      expect(send.stderr).not.toMatch(ADVISES_NEW_LEDGER)
      // The report only reads the lock: the ledger is reported.
      expect((await runCli(["report", "--journal", journal])).code).toBe(0)
    } finally {
      await stop()
    }
  })
})

describe("report: a ledger held a moment, on a read-only location, or damaged", () => {
  it("waits for a moment's exclusive lock (a send's final checkpoint) instead of refusing the ledger as held by a map run", async () => {
    const { journal, stop } = await sentLedger("checkpoint", ["C-1", "C-2"])
    await stop()
    // A process holds the ledger exclusively for 4 s, as a send does while it writes its log into the file at its end.
    const script = `
      const { DatabaseSync } = require("node:sqlite")
      const db = new DatabaseSync(${JSON.stringify(journal)})
      db.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE")
      db.prepare("SELECT COUNT(*) FROM records").get()
      process.stdout.write("holding\\n")
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000)
      db.exec("COMMIT")
      db.close()`
    const holder = spawn(process.execPath, ["--no-warnings", "-e", script], { stdio: ["ignore", "pipe", "inherit"] })
    const released = once(holder, "exit")
    await once(holder.stdout, "data")
    const report = await runCli(["report", "--journal", journal, "--format", "json"])
    await released
    expect(report.stderr).not.toContain("map --journal")
    expect(report.code, report.stderr).toBe(0)
    expect(JSON.parse(report.stdout)).toMatchObject({ totals: { records: 2, created: 2 } })
  })

  it("a ledger on a read-only mount is reported; one with changes in its log there is refused, saying why (exit 3)", async () => {
    const { journal, stop } = await sentLedger("read-only", ["O-1", "O-2", "O-3"])
    await stop()
    // A copy taken while a writer had a change in its log only (no checkpoint): one record fewer there.
    const writer = new (loadSqlite().DatabaseSync)(journal)
    writer.exec("PRAGMA wal_autocheckpoint = 0; DELETE FROM records WHERE id = (SELECT MIN(id) FROM records)")
    copyFileSync(journal, join(dir, "logged.ledger"))
    copyFileSync(`${journal}-wal`, join(dir, "logged.ledger-wal"))
    writer.exec("INSERT INTO records SELECT * FROM records WHERE 0") // keeps the log open until the copies are taken
    const mount = join(dir, "read-only-mount")
    mkdirSync(mount, { recursive: true })
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount])
    try {
      const logged = join(mount, "logged.ledger")
      copyFileSync(join(dir, "logged.ledger"), logged)
      copyFileSync(join(dir, "logged.ledger-wal"), `${logged}-wal`)
      writer.close()
      const copy = join(mount, "campaign.ledger")
      copyFileSync(journal, copy)
      execFileSync("mount", ["-o", "remount,ro", mount])
      const report = await runCli(["report", "--journal", copy, "--format", "json"])
      expect(report.code, report.stderr).toBe(0)
      expect(JSON.parse(report.stdout)).toMatchObject({ totals: { records: 2, created: 2 } })
      // Its log cannot be read there (SQLite needs to create its index, -shm): said so, never the file without its log.
      const withLog = await runCli(["report", "--journal", logged, "--format", "json"])
      expect(withLog.code).toBe(3)
      expect(withLog.stdout).toBe("")
      expect(withLog.stderr).toContain(`its log ${logged}-wal holds changes not yet in the file: copy the ledger with its -wal file to a folder that can be written`)
    } finally {
      execFileSync("umount", [mount])
    }
  })

  it("a damaged ledger ends the report with exit 3, as it ends send, pointed to the recovery", async () => {
    const { journal, input, baseUrl, stop } = await sentLedger(
      "damaged",
      Array.from({ length: 300 }, (_, i) => `D-${i}`)
    )
    try {
      const { pageSize, root } = rootPage(journal, "records")
      overwrite(journal, (root - 1) * pageSize, Buffer.alloc(pageSize, 0x01))
      const report: Run = await runCli(["report", "--journal", journal])
      const send: Run = await runCli(sendArgs(baseUrl, journal, [input]), { env })
      for (const run of [report, send]) {
        expect(run.code, run.stderr).toBe(3)
        expect(run.stderr).toContain("A damaged ledger")
        expect(run.stderr).not.toMatch(ADVISES_NEW_LEDGER)
      }
      expect(readFileSync(journal).length).toBeGreaterThan(0)
    } finally {
      await stop()
    }
  })
})
