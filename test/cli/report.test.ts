/**
 * `data-import report` through the built CLI, every format on the same campaign: a ledger with known
 * counts (test/report/campaign-ledger.ts: a map run with two rejects and lineage, two send runs against
 * the reference model). The CSV to-do list is parsed with csv-parse and holds every problem exactly once.
 */
import { linkSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { parse } from "csv-parse/sync"
import { beforeAll, describe, expect, it } from "vitest"
import { openLedger, sendRecords } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { buildCampaignLedger, EXPECTED, LEGACY_REJECTS, legacyRaw, SERVICE } from "../report/campaign-ledger.js"
import { energyAmount, modelService, SEED } from "../send/model-service.js"
import { runCli, tempDir } from "./run-cli.js"

const dir = tempDir()
let ledger = ""
beforeAll(async () => {
  ledger = await buildCampaignLedger(dir)
})

const report = (format: string, ...more: Array<string>) => runCli(["report", "--journal", ledger, "--format", format, ...more])

describe("data-import report", () => {
  it("json: totals, kinds, causes, accounts, runs and services as the campaign made them; exit 1", async () => {
    const run = await report("json")
    expect(run.code).toBe(1)
    const r = JSON.parse(run.stdout)
    expect(r.complete).toBe(false)
    for (const key of ["records", "created", "rejected", "invalid", "blocked", "conflict", "map_rejected"] as const) expect(r.totals[key], key).toBe(EXPECTED[key])
    for (const [endpoint, counts] of Object.entries(EXPECTED.kinds)) {
      const kind = r.kinds.find((k: { endpoint: string }) => k.endpoint === endpoint)
      expect(kind, endpoint).toBeDefined()
      expect(kind.tally).toMatchObject(counts)
    }
    const amounts = r.kinds.find((k: { endpoint: string }) => k.endpoint === "energy-amount")
    expect(amounts.codes.blocked).toEqual(EXPECTED.blockedBy)
    expect(amounts.codes.map_rejected).toEqual({ invalid_date: 1, missing_value: 1, invalid_decimal: 1 })
    expect(r.accounts.totals).toEqual(EXPECTED.accounts)
    const s1 = r.accounts.listed.find((a: { account: string }) => a.account === "S-1")
    expect(s1).toMatchObject({ supplier: "STADTWERKE_SUED", status: "blocked", causes: ["supplier_not_ongoing"], stored: 0, records: 1 })
    expect(r.accounts.listed.find((a: { account: string }) => a.account === "KD-1")).toMatchObject({ status: "partly", stored: 7, records: 9, map_rejected: 1 })
    expect(r.accounts.listed.find((a: { account: string }) => a.account === "KD-2")).toMatchObject({ status: "partly", stored: 2, records: 2, map_rejected: 1 })
    expect(r.runs.map((x: { command: string }) => x.command)).toEqual(["map", "send", "send"])
    expect(r.services.map((s: { url: string }) => s.url)).toEqual([SERVICE])
    expect(r.map_runs).toEqual([expect.objectContaining({ rows_read: 15, payloads: 13, rows_rejected: 2, endpoint: "energy-amount" })])
    expect(r.problems.counts).toEqual({ map_rejected: 2, invalid: 2, rejected: 1, blocked: 4, failed: 0, in_doubt: 0, conflict: 1, map_warning: 0 })
    expect(r.problems.listed).toHaveLength(EXPECTED.problems.length)
    expect(r.timeline.points.reduce((s: number, p: { records: number }) => s + p.records, 0)).toBe(15)
  })

  it("text (the default) on stdout: the per-kind table and the accounts", async () => {
    const run = await runCli(["report", "--journal", ledger])
    expect(run.code).toBe(1)
    const row = run.stdout.split("\n").find((l) => l.startsWith("energy-amount "))
    // rejected at map, warned at map, records, created, already existed, moved, blocked, rejected, conflict, in doubt, failed, invalid, not yet sent
    expect(row?.trim().split(/\s+/u).slice(1).map(Number)).toEqual([2, 0, 13, 8, 0, 0, 4, 0, 1, 0, 0, 1, 0])
    expect(run.stdout).toContain("Accounts: 5: 0 complete, 2 partly stored, 3 blocked, 0 nothing stored")
    expect(run.stdout).toContain("partly STADTWERKE_NORD KD-2: 2 of 2 stored, 1 row rejected at map")
    expect(run.stdout).toContain("blocked STADTWERKE_SUED S-1: 0 of 1 stored (supplier_not_ongoing)")
    expect(run.stdout).toContain(`Services: ${SERVICE}`)
  })

  it("markdown: a short status summary with the per-kind table", async () => {
    const run = await report("markdown")
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("**9 of 16 records stored (56.2 %)**")
    expect(run.stdout).toContain("Accounts: 0 of 5 complete, 2 partly stored, 3 blocked")
    expect(run.stdout).toContain("| energy-amount | 13 | 8 | 4 | 0 | 1 | 0 |")
    expect(run.stdout).toContain("| transactions | 2 | 1 | 0 | 1 | 0 | 0 |")
    expect(run.stdout.split("\n").length).toBeLessThan(30)
  })

  it("csv --out: the to-do list round-trips through csv-parse, every problem exactly once, raw rows intact", async () => {
    const out = join(dir, "todo.csv")
    const run = await report("csv", "--out", out)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    const text = readFileSync(out, "utf8")
    expect(text.endsWith("\r\n")).toBe(true)
    const rows = parse(text, { columns: true, relax_quotes: false }) as Array<Record<string, string>>
    expect(Object.keys(rows[0]!)).toEqual(["problem", "kind", "code", "supplier", "account", "source_file", "source_lines", "payload_file", "payload_line", "detail", "raw", "advice"])
    expect(rows).toHaveLength(EXPECTED.problems.length)
    for (const [problem, code, file, lines] of EXPECTED.problems) {
      const matches = rows.filter((r) => r["problem"] === problem && r["code"] === code && basename(r["source_file"]!) === file && r["source_lines"] === lines)
      expect(matches, `${problem} ${code} ${file}:${lines}`).toHaveLength(1)
    }
    const multiLine = rows.find((r) => r["source_lines"] === "16-17")
    expect(multiLine?.["raw"]).toBe(LEGACY_REJECTS[1].raw)
    expect(multiLine?.["detail"]).toBe(LEGACY_REJECTS[1].detail)
    const invalid = rows.find((r) => r["problem"] === "invalid" && r["kind"] === "energy-amount")
    expect(invalid).toMatchObject({ supplier: "STADTWERKE_NORD", account: "KD-1", raw: legacyRaw(7), payload_line: "7" })
    expect(basename(invalid!["payload_file"]!)).toBe("amounts.ndjson")
  })

  it("html --out: one self-contained document that loads nothing", async () => {
    const out = join(dir, "report.html")
    const run = await report("html", "--out", out)
    expect(run.code).toBe(1)
    const html = readFileSync(out, "utf8")
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true)
    expect(html).toContain('<b id="total-records" class="">16</b>')
    expect(html).not.toMatch(/<script[^>]+src=|<link\b|<img\b|url\(|@import/iu)
    expect(html).toContain("default-src 'none'")
  })

  it("records in flight when a run was killed: in doubt in every format and on the to-do list", async () => {
    // What a send killed with SIGKILL leaves: two records marked in flight, no answer, the run not ended.
    const path = join(dir, "killed.ledger")
    const l = openLedger(path, { service: SERVICE })
    const run = l.startRun("send", SERVICE, {})
    for (const day of [1, 2]) {
      l.inFlight({ identity: `i${day}`, endpoint: "energy-amount", key: `["${day}"]`, supplier: "STADTWERKE_NORD", account: "KD-1", content: "c", file: join(dir, "a.ndjson"), line: day }, run)
    }
    l.close()
    const json = await runCli(["report", "--journal", path, "--format", "json"])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({ complete: false, totals: { records: 2, in_doubt: 2, in_flight: 0, pending: 0 }, problems: { counts: { in_doubt: 2 } } })
    const text = await runCli(["report", "--journal", path])
    const row = text.stdout.split("\n").find((l) => l.startsWith("energy-amount "))
    // rejected at map, warned at map, records, created, already existed, moved, blocked, rejected, conflict, in doubt, failed, invalid, not yet sent
    expect(row?.trim().split(/\s+/u).slice(1).map(Number)).toEqual([0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0])
    const out = join(dir, "killed.csv")
    expect((await runCli(["report", "--journal", path, "--format", "csv", "--out", out])).code).toBe(1)
    const rows = parse(readFileSync(out, "utf8"), { columns: true }) as Array<Record<string, string>>
    expect(rows.map((r) => [r["problem"], r["code"], r["payload_line"]])).toEqual([["in_doubt", "in_flight_when_a_run_stopped", "1"], ["in_doubt", "in_flight_when_a_run_stopped", "2"]])
    expect(rows[0]?.["detail"]).toContain("In flight when run 1 was killed")
  })

  it("records not yet sent and no problem: the verdict says what is left, not 'see the problems below'", async () => {
    // What a run stopped by Ctrl-C before their requests left leaves: records pending, nothing to fix.
    const path = join(dir, "stopped.ledger")
    const l = openLedger(path, { service: SERVICE })
    const run = l.startRun("send", SERVICE, {})
    for (const day of [1, 2, 3]) l.pending({ identity: `p${day}`, endpoint: "energy-amount", key: `["${day}"]`, supplier: "STADTWERKE_NORD", account: "KD-1", content: "c", file: join(dir, "s.ndjson"), line: day }, run)
    l.endRun(run, "interrupted", {})
    l.close()
    const text = await runCli(["report", "--journal", path])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain("Not complete: 3 records not yet sent (nothing to fix): run send again with this ledger.")
    expect(text.stdout).not.toContain("see the problems below")
  })

  it("a ledger without records is not complete: empty, or mapped and never sent (exit 1)", async () => {
    const empty = join(dir, "empty.ledger")
    openLedger(empty, { service: SERVICE }).close()
    const mapped = join(dir, "mapped-only.ledger")
    const journal = openMapJournal(mapped, { input: join(dir, "export.csv"), output: join(dir, "export.ndjson"), endpoint: "energy-amount" })
    for (const line of [1, 2, 3]) journal.lineage({ payloadLine: line, lines: [line + 1] })
    journal.end("completed", { rowsRead: 3, payloads: 3, rowsRejected: 0 })
    for (const path of [empty, mapped]) {
      const json = await runCli(["report", "--journal", path, "--format", "json"])
      expect(json.code, path).toBe(1)
      expect(JSON.parse(json.stdout)).toMatchObject({ complete: false, totals: { records: 0 } })
      const text = await runCli(["report", "--journal", path])
      expect(text.code).toBe(1)
      expect(text.stdout).not.toContain("Complete")
      expect(text.stdout).toContain("holds no records")
      const markdown = await runCli(["report", "--journal", path, "--format", "markdown"])
      expect(markdown.stdout).toContain("**0 of 0 records stored (0 %)**")
      const html = join(dir, "empty.html")
      expect((await runCli(["report", "--journal", path, "--format", "html", "--out", html])).code).toBe(1)
      expect(readFileSync(html, "utf8")).toContain('<p id="status" class="bad">')
    }
    const mappedText = (await runCli(["report", "--journal", mapped])).stdout
    expect(mappedText).toContain("3 payloads mapped")
    expect(mappedText).toContain(`mapped, not sent since: ${join(dir, "export.ndjson")} (3 payloads of ${join(dir, "export.csv")}, map run #1)`)
    expect(JSON.parse((await runCli(["report", "--journal", mapped, "--format", "json"])).stdout).unsent_payload_files).toEqual([
      { run: 1, input: join(dir, "export.csv"), output: join(dir, "export.ndjson"), payloads: 3 }
    ])
  })

  it("a record whose outcome this version does not know is not dropped from the counts: exit 3, naming it", async () => {
    const path = join(dir, "newer.ledger")
    const l = openLedger(path, { service: SERVICE })
    const run = l.startRun("send", SERVICE, {})
    l.inFlight({ identity: "i1", endpoint: "energy-amount", key: '["1"]', supplier: "STADTWERKE_NORD", account: "KD-1", content: "c", file: join(dir, "a.ndjson"), line: 1 }, run)
    l.settle("i1", { outcome: "created" })
    l.inFlight({ identity: "i2", endpoint: "energy-amount", key: '["2"]', supplier: "STADTWERKE_NORD", account: "KD-1", content: "c", file: join(dir, "a.ndjson"), line: 2 }, run)
    l.close()
    // An outcome a later version might write: this version cannot say what it means.
    const { DatabaseSync } = loadSqlite()
    const db = new DatabaseSync(path)
    db.prepare("UPDATE records SET state = 'done', outcome = 'superseded' WHERE identity = ?").run("i2")
    db.close()
    for (const format of ["text", "json", "csv", "html", "markdown"]) {
      const run = await runCli(["report", "--journal", path, "--format", format])
      expect(run.code, format).toBe(3)
      expect(run.stderr).toContain("superseded")
      expect(run.stdout).toBe("")
    }
  })

  it("--out naming the ledger, by any name, or a file SQLite keeps beside it: exit 2, the ledger untouched", async () => {
    const path = join(dir, "keep.ledger")
    const l = openLedger(path, { service: SERVICE })
    const service = modelService(SEED)
    await sendRecords([{ file: join(dir, "k.ndjson"), line: 1, text: JSON.stringify(energyAmount("KD-2", 1)) }], { ledger: l, client: service.client(), service: SERVICE })
    l.close()
    const before = readFileSync(path)
    const link = join(dir, "keep-link.ledger")
    symlinkSync(path, link)
    const hard = join(dir, "keep-hard.ledger")
    linkSync(path, hard)
    for (const out of [path, `${dir}/./keep.ledger`, link, hard, `${path}-wal`, `${path}-shm`, `${path}-lock`]) {
      for (const format of ["csv", "html"]) {
        const run = await runCli(["report", "--journal", path, "--format", format, "--out", out])
        expect(run.code, `${format} --out ${out}: ${run.stderr}`).toBe(2)
        expect(run.stderr).toContain("--out")
        expect(readFileSync(path).equals(before), `${format} --out ${out}`).toBe(true)
      }
    }
    // The ledger given through the link, the output its real name: the same file all the same.
    expect((await runCli(["report", "--journal", link, "--format", "csv", "--out", path])).code).toBe(2)
    expect(readFileSync(path).equals(before)).toBe(true)
    expect((await runCli(["report", "--journal", path, "--format", "json"])).code).toBe(0)
  })

  it("text and markdown: control characters of legacy values are shown escaped, never sent to the terminal", async () => {
    const path = join(dir, "controls.ledger")
    // A clear-screen, a carriage return that would overwrite the line, a title change ended by BEL, a
    // right-to-left override that reverses what follows, a line break: legacy exports hold such things.
    const detail = "Menge: \u001b[2J1,5\rOK all stored\nsecond line"
    const account = "KD\u001b]0;pwned\u0007-\u202e1-DK"
    const journal = openMapJournal(path, { input: join(dir, "legacy\u0085.csv"), output: join(dir, "c.ndjson"), endpoint: "energy-amount" })
    journal.rejected({ lines: [4], codes: ["invalid_decimal"], detail, raw: "raw", supplier: "SW\u0009NORD", account })
    journal.end("completed", { rowsRead: 1, payloads: 0, rowsRejected: 1 })
    for (const format of ["text", "markdown"]) {
      const run = await runCli(["report", "--journal", path, "--format", format])
      expect(run.code, format).toBe(1)
      // Nothing below U+0020 but the line breaks of the report itself, no DEL, C1 or bidirectional controls.
      expect(run.stdout, format).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u)
    }
    const text = (await runCli(["report", "--journal", path])).stdout
    const problem = text.split("\n").filter((line) => line.includes("map_rejected"))
    expect(problem).toHaveLength(1)
    expect(problem[0]).toContain("Menge: \\u001b[2J1,5\\rOK all stored\\nsecond line")
    expect(text).toContain("SW\\tNORD ")
    expect(text).toContain("legacy\\u0085.csv:4")
    // The CSV to-do list keeps every value as it is: it is mapped again.
    const out = join(dir, "controls.csv")
    await runCli(["report", "--journal", path, "--format", "csv", "--out", out])
    const rows = parse(readFileSync(out, "utf8"), { columns: true }) as Array<Record<string, string>>
    expect(rows[0]).toMatchObject({ detail, account, supplier: "SW\u0009NORD" })
  })

  it("a ledger a running map --journal holds: exit 3 saying so, not SQLite's 'database is locked'", async () => {
    const path = join(dir, "mapping.ledger")
    const journal = openMapJournal(path, { input: join(dir, "big.csv"), output: join(dir, "big.ndjson"), endpoint: "notes" })
    try {
      // More rows than one commit holds: the map run has written, and holds the ledger until it ends.
      for (let line = 1; line <= 1500; line++) journal.lineage({ payloadLine: line, lines: [line + 1] })
      const run = await runCli(["report", "--journal", path])
      expect(run.code).toBe(3)
      expect(run.stderr).toContain("in use by a running map --journal")
      expect(run.stderr).not.toContain("database is locked")
    } finally {
      journal.end("completed", { rowsRead: 1500, payloads: 1500, rowsRejected: 0 })
    }
    expect((await runCli(["report", "--journal", path, "--format", "json"])).code).toBe(1)
  })

  it("exit 0 when every record is stored; exit 3 for a missing ledger or a file that is not one", async () => {
    const path = join(dir, "done.ledger")
    const l = openLedger(path, { service: SERVICE })
    const service = modelService(SEED)
    await sendRecords([1, 2].map((day) => ({ file: join(dir, "ok.ndjson"), line: day, text: JSON.stringify(energyAmount("KD-2", day)) })), { ledger: l, client: service.client(), service: SERVICE })
    l.close()
    const ok = await runCli(["report", "--journal", path, "--format", "json"])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ complete: true, totals: { records: 2, created: 2 }, accounts: { totals: { accounts: 1, complete: 1 } } })
    const missing = await runCli(["report", "--journal", join(dir, "nope.ledger")])
    expect(missing.code).toBe(3)
    expect(missing.stderr).toContain("does not exist")
    const notLedger = join(dir, "not-a-ledger.txt")
    writeFileSync(notLedger, "not a database\n")
    const wrong = await runCli(["report", "--journal", notLedger])
    expect(wrong.code).toBe(3)
  })
})
