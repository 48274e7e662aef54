/**
 * `validate` across records: a transaction id repeated for one account in another record (or file) is
 * reported at the later one, naming the first; and an output never overwrites an input.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { example, jsonReport, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const transactions = example("transactions") as { transactions: Array<Record<string, unknown>> } & Record<string, unknown>
const record = (account: string, ids: ReadonlyArray<string>): string =>
  JSON.stringify({
    ...transactions,
    external_account_number: account,
    transactions: ids.map((id, i) => ({ ...transactions.transactions[i % transactions.transactions.length]!, transaction_id: id }))
  })

describe("validate: transaction ids across records", () => {
  it("reports an id repeated for one account in a later record, naming the first line; other accounts may reuse it", async () => {
    const file = write(dir, "tx.ndjson", [record("KD-1", ["T-1", "T-2"]), record("KD-2", ["T-1"]), "", record("KD-1", ["T-3", "T-2"])].join("\n"))
    const run = await runCli(["validate", "--format", "json", file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 3, valid: 2, invalid: 1 })
    expect(report.results).toEqual([expect.objectContaining({
      line: 4,
      error: expect.objectContaining({
        errors: [expect.objectContaining({ code: "duplicate_transaction_ids", attr: "transactions.1.transaction_id", detail: expect.stringContaining("line 1") })]
      })
    })])
  })

  it("finds the repeat in another file, with --jobs 2, and writes the record to --reject-file", async () => {
    const first = write(dir, "a.ndjson", `${record("KD-1", ["T-1"])}\n`)
    const second = write(dir, "b.ndjson", `${record("KD-1", ["T-9"])}\n${record("KD-1", ["T-1"])}\n`)
    const rejects = `${dir}/tx-rejects.ndjson`
    const run = await runCli(["validate", "--jobs", "2", "--reject-file", rejects, first, second])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("b.ndjson:2")
    expect(run.stdout).toContain("duplicate_transaction_ids")
    expect(run.stdout).toContain("a.ndjson line 1")
    expect(readFileSync(rejects, "utf8")).toBe(`${record("KD-1", ["T-1"])}\n`)
  })
})

describe("validate: outputs", () => {
  it("refuses a reject file that is one of the inputs, before anything is written", async () => {
    const input = write(dir, "self.ndjson", `${record("KD-1", ["T-1"])}\n{broken\n`)
    const before = readFileSync(input, "utf8")
    const run = await runCli(["validate", "--reject-file", input, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("is the input")
    expect(readFileSync(input, "utf8")).toBe(before)
  })
})
