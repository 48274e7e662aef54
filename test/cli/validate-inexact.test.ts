/**
 * `data-import validate` reads numbers from the raw text: a JSON number that JSON.parse rounds is
 * `inexact_number` at its attr (NDJSON lines and the values of a JSON array alike), never accepted.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { jsonReport, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()

const transactions = (account: string, amount: string): string =>
  `{"import_supplier":"STADTWERKE_NORD","external_account_number":"${account}","transactions":[{"transaction_id":"BU-${account}","transaction_date":"2024-01-15","amount":${amount},"type":"CREDIT"}]}`

describe("validate: inexact numbers", () => {
  it("NDJSON: 12345678901234567.89 as an amount is invalid with inexact_number; exact long numbers pass; 1e400 stays invalid alone", async () => {
    const lines = [
      transactions("KD-1", "86.00"),
      transactions("KD-2", "12345678901234567.89"),
      transactions("KD-3", "9007199254740992"),
      transactions("KD-4", "1e400")
    ]
    const file = write(dir, "amounts.ndjson", `${lines.join("\n")}\n`)
    const rejects = join(dir, "rejects.ndjson")
    const run = await runCli(["validate", "--format", "json", "--jobs", "2", "--reject-file", rejects, file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 4, valid: 2, invalid: 2, errors: 2 })
    // 1e400 parses to Infinity, which is no JSON number at all: the validator's invalid, without a second error there.
    expect(report.byCode).toEqual({ inexact_number: 1, invalid: 1 })
    expect(report.byAttr).toEqual({ "transactions.*.amount": 2 })
    expect(report.results.map((r) => [r.line, r.error.errors.map((e) => `${e.attr} ${e.code}`)])).toEqual([
      [2, ["transactions.0.amount inexact_number"]],
      [4, ["transactions.0.amount invalid"]]
    ])
    expect(report.results[0]?.error.errors[0]?.detail).toBe(
      "12345678901234567.89 cannot be sent as a JSON number without changing it (it would become 12345678901234568)."
    )
    // The reject file holds the records as they were written, digits intact.
    expect(readFileSync(rejects, "utf8")).toBe(`${lines[1]}\n${lines[3]}\n`)
  })

  it("a JSON array document: the inexact element is located by its line", async () => {
    const file = write(dir, "amounts.json", `[\n${transactions("KD-1", "12.5")},\n${transactions("KD-2", "0.30000000000000000001")}\n]\n`)
    const run = await runCli(["validate", "--format", "json", file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.results.map((r) => [r.line, r.error.errors.map((e) => `${e.attr} ${e.code}`)])).toEqual([[3, ["transactions.0.amount inexact_number"]]])
  })

  it("the text report names the code; --help lists it among the error codes", async () => {
    const file = write(dir, "one.ndjson", `${transactions("KD-9", "123456789012345678")}\n`)
    const run = await runCli(["validate", file])
    expect(run.code).toBe(1)
    expect(run.stdout + run.stderr).toContain("transactions.0.amount inexact_number")
    const help = await runCli(["validate", "--help"])
    expect(help.stdout).toMatch(/inexact_number/u)
  })
})
