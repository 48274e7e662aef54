/**
 * A payload file whose lines named no record (a legacy export mapped in the wrong encoding: every line is
 * not valid UTF-8), fixed and sent again: each line now names a record, and the ledger forgets the old
 * place. How the time grows with the lines is measured by bench/ledger-scale.mjs, not here.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { openLedger, sendRecords } from "../../src/index.js"

const dir = mkdtempSync(join(tmpdir(), "send-identified-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("lines that named no record, read again as records", () => {
  it("20,000 of them are forgotten, every one", async () => {
    const path = join(dir, "fixed.ledger")
    const ledger = openLedger(path)
    try {
      const lines = 20_000
      const file = "/data/export.ndjson"
      const broken = ledger.startRun("send", null, {})
      ledger.batch(() => {
        for (let line = 1; line <= lines; line++) ledger.unidentified(broken, file, line, "The line is not valid UTF-8.")
      })
      ledger.endRun(broken, "completed", {})
      // The fixed file: each line a note without body or document, invalid here, so nothing is sent.
      const note = (i: number) => JSON.stringify({ import_supplier: "S", external_account_number: `A-${i}`, notes: [{ is_pinned: true }] })
      const client = { send: () => Promise.reject(new Error("nothing is sent")), authenticate: () => Promise.resolve() }
      const summary = await sendRecords(Array.from({ length: lines }, (_, i) => ({ file, line: i + 1, text: note(i) })), { ledger, client })
      expect(summary.outcomes.invalid).toBe(lines)
      expect(ledger.unidentifiedPlaces()).toEqual([])
    } finally {
      ledger.close()
    }
  })
})
