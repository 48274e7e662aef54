/**
 * Payload files that `map --journal` wrote and no run has sent through since: their records are in no
 * table of the ledger, so the report names the files and the campaign is not complete. A file counts as
 * sent once a send run read it to the end after it was mapped (a run stopped or killed half-way did not).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, describe, expect, it } from "vitest"
import { openLedger, sendRecords } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { reportOf } from "../support/report-of.js"
import { energyAmount, modelService, SEED } from "../send/model-service.js"

const dir = mkdtempSync(join(tmpdir(), "report-unsent-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const SERVICE = "http://127.0.0.1:9/"
let n = 0

const map = (ledger: string, output: string, days: ReadonlyArray<number>) => {
  const journal = openMapJournal(ledger, { input: `${output}.csv`, output, endpoint: "energy-amount" })
  days.forEach((_, i) => journal.lineage({ payloadLine: i + 1, lines: [i + 2] }))
  journal.end("completed", { rowsRead: days.length, payloads: days.length, rowsRejected: 0 })
}

const send = async (ledger: string, output: string, days: ReadonlyArray<number>, signal?: AbortSignal) => {
  const l = openLedger(ledger, { service: SERVICE })
  try {
    const lines = days.map((day, i) => ({ file: output, line: i + 1, text: JSON.stringify(energyAmount("KD-1", day)) }))
    await sendRecords(lines, { ledger: l, client: modelService(SEED).client(), service: SERVICE, ...(signal === undefined ? {} : { signal }) })
  } finally {
    l.close()
  }
}

describe("payload files mapped and not sent through since", () => {
  it("are named, and the campaign is not complete, until a run has read them to the end", async () => {
    const ledger = join(dir, `campaign-${n++}.ledger`)
    const a = join(dir, "a.ndjson")
    const b = join(dir, "b.ndjson")
    map(ledger, a, [1, 2])
    await send(ledger, a, [1, 2])
    expect(reportOf(ledger)).toMatchObject({ complete: true, unsent_payload_files: [] })

    // A second export mapped, never sent: every record of the ledger is stored, yet b's two are missing.
    map(ledger, b, [3, 4])
    expect(reportOf(ledger)).toMatchObject({ complete: false, unsent_payload_files: [{ output: b, payloads: 2 }] })

    // a mapped again (a fix) after it was sent: its new version has not been sent.
    map(ledger, a, [1, 2, 5])
    expect(reportOf(ledger).unsent_payload_files.map((f) => f.output).sort()).toEqual([a, b].sort())

    // A run stopped before it read b: not sent through.
    const stopped = new AbortController()
    stopped.abort()
    await send(ledger, b, [3, 4], stopped.signal)
    expect(reportOf(ledger).unsent_payload_files.map((f) => f.output).sort()).toEqual([a, b].sort())

    await send(ledger, a, [1, 2, 5])
    await send(ledger, b, [3, 4])
    expect(reportOf(ledger)).toMatchObject({ complete: true, unsent_payload_files: [] })
  })

  it("a ledger whose send runs did not record the files they read names none (it cannot tell)", async () => {
    const ledger = join(dir, `older-${n++}.ledger`)
    const a = join(dir, "old.ndjson")
    map(ledger, a, [1])
    await send(ledger, a, [1])
    // As a send of an earlier version wrote its run: counts without the files.
    const db = new DatabaseSync(ledger)
    db.exec("UPDATE runs SET counts = json_remove(counts, '$.files') WHERE command = 'send'")
    db.close()
    expect(reportOf(ledger)).toMatchObject({ complete: true, unsent_payload_files: [] })
  })
})
