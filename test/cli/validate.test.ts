/**
 * `data-import validate`, run as a child process on generated fixtures: line numbers, totals, every
 * error code, unreadable records, unreadable inputs, stdin, the reject file, the listing limit, the
 * three report formats and the exit codes.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { changed, example, jsonReport, ROOT, runCli, tempDir, write } from "./run-cli.js"

const line = (value: unknown): string => JSON.stringify(value)
const energy = example("energy-amount")

const dir = tempDir()

describe("validate: valid input", () => {
  it("accepts the bundled example payloads, infers each endpoint and exits 0", async () => {
    const files = ["delivery-note", "energy-amount", "notes", "transactions", "market-participant-invoice", "market-participant-definitions"]
      .map((id) => join(ROOT, "examples", "payloads", `${id}.json`))
    const run = await runCli(["validate", "--format", "json", ...files])
    expect(run.code).toBe(0)
    const report = jsonReport(run)
    expect(report.ok).toBe(true)
    expect(report.totals).toMatchObject({ records: 6, valid: 6, invalid: 0, unparseable: 0, warnings: 0 })
    expect(report.byEndpoint).toEqual(Object.fromEntries(["delivery-note", "energy-amount", "notes", "transactions", "market-participant-invoice", "market-participant-definitions"].map((id) => [id, 1])))
    expect(run.stderr).toBe("")
  })

  it("counts nothing in an empty file, a blank-only file and an empty array, and exits 0 with --allow-empty", async () => {
    const empty = write(dir, "empty.ndjson", "")
    const blank = write(dir, "blank.ndjson", "\n  \r\n\t\n")
    const emptyJson = write(dir, "empty.json", "")
    const emptyArray = write(dir, "empty-array.json", " [ ]\n")
    const run = await runCli(["validate", "--allow-empty", "--format", "json", empty, blank, emptyJson, emptyArray])
    expect(run.code).toBe(0)
    const report = jsonReport(run)
    expect(report.totals).toEqual({ records: 0, valid: 0, invalid: 0, unparseable: 0, errors: 0, warnings: 0 })
    expect(report.empty).toEqual([empty, blank, emptyJson, emptyArray])
    expect(report.ok).toBe(true)
  })

  it("accepts a byte order mark and CRLF, skips blank lines without counting them, and counts lines physically", async () => {
    const broken = changed(energy, "energy_amount.quantity", "1,5")
    const file = write(dir, "bom-crlf.ndjson", `\uFEFF${line(energy)}\r\n\r\n   \r\n${line(broken)}\r\n\r\n${line(energy)}`)
    const run = await runCli(["validate", "--format", "json", file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 3, valid: 2, invalid: 1, unparseable: 0, warnings: 0 })
    expect(report.results.map((r) => [r.line, r.error.errors.map((e) => `${e.attr} ${e.code}`)])).toEqual([
      [4, ["energy_amount.quantity invalid"]]
    ])
  })

  it("counts warnings of valid records, which stay valid", async () => {
    const warned = changed(energy, "energy_amount.quantity_unit", "kWh")
    const file = write(dir, "warnings.ndjson", `${line(warned)}\n${line(warned)}\n`)
    const run = await runCli(["validate", "--format", "json", file])
    expect(run.code).toBe(0)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 2, valid: 2, invalid: 0, unparseable: 0, warnings: 2 })
    expect(report.warningsByCode).toEqual({ unknown_choice: 2 })
  })
})

/** One broken record per error code the requests can have, with where the code must be reported. */
const BROKEN: ReadonlyArray<readonly [code: string, attr: string, payload: Record<string, unknown>]> = [
  ["required", "energy_amount.malo_number", changed(energy, "energy_amount.malo_number", undefined)],
  ["null", "energy_amount.quantity", changed(energy, "energy_amount.quantity", null)],
  ["blank", "import_supplier", changed(energy, "import_supplier", "  ")],
  ["invalid", "energy_amount.quantity", changed(energy, "energy_amount.quantity", "1.263,42")],
  ["not_a_list", "notes", changed(example("notes"), "notes", "a note")],
  ["empty", "notes", changed(example("notes"), "notes", [])],
  ["unknown_field", "energy_amount.zaehlernummer", changed(energy, "energy_amount.zaehlernummer", "1ESY1160512345")],
  ["max_length", "import_supplier", changed(energy, "import_supplier", "S".repeat(33))],
  ["invalid_document_path", "notes.1.document_paths.0.document_path", changed(example("notes"), "notes.1.document_paths.0.document_path", "/etc/passwd")],
  ["invalid_phone_number", "contact_details.0.phone", changed(example("market-participant"), "contact_details.0.phone", "0431 12")],
  ["start_date_later_than_end_date", "energy_amount.period_end_at", changed(energy, "energy_amount.period_end_at", "2024-09-01T00:00:00+02:00")],
  ["lower_bound_greater_than_upper_bound", "price_sheets.0.article_prices.0.interval_zone.upper_bound",
    changed(example("market-participant-fees"), "price_sheets.0.article_prices.0.interval_zone", { lower_bound: 10, upper_bound: 1 })],
  ["note_body_or_document_path_not_found", "notes.0", changed(example("notes"), "notes.0", { created_at: "2024-03-28T09:15:00+01:00" })],
  ["note_unpin_at_earlier_than_creation_date", "notes.0.unpin_at", changed(example("notes"), "notes.0.unpin_at", "2024-01-01T00:00:00+01:00")],
  ["duplicate_transaction_ids", "transactions.1.transaction_id", changed(example("transactions"), "transactions.1.transaction_id", "BU-2024-000118")],
  ["transaction_in_future", "transactions.0.transaction_date", changed(example("transactions"), "transactions.0.transaction_date", "2999-01-01")],
  ["line_item_units_must_be_two_values", "transactions.2.line_items.0.units", changed(example("transactions"), "transactions.2.line_items.0.units", [1])],
  ["definitions_required", "non_field_errors", changed(changed(example("market-participant-definitions"), "definitions", undefined), "rolled_out_definitions", undefined)]
]

describe("validate: broken records", () => {
  it("reports every error code at its attr and line, with the inferred endpoint, in input order (--jobs 2)", async () => {
    const lines = BROKEN.flatMap(([, , payload]) => [line(energy), line(payload)])
    const file = write(dir, "every-code.ndjson", `${lines.join("\n")}\n`)
    const run = await runCli(["validate", "--format", "json", "--jobs", "2", file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: BROKEN.length * 2, valid: BROKEN.length, invalid: BROKEN.length, unparseable: 0, warnings: 0 })
    expect(report.results).toHaveLength(BROKEN.length)
    BROKEN.forEach(([code, attr], i) => {
      const result = report.results[i]!
      expect(result.line).toBe(2 * i + 2)
      expect(result.error.errors.map((e) => `${e.attr} ${e.code}`)).toContain(`${attr} ${code}`)
      expect(result.endpoint).not.toBeNull()
      expect(report.byCode[code]).toBeGreaterThanOrEqual(1)
    })
  })

  it("keeps input order and line numbers across many batches and two workers", async () => {
    // About 5 MB: several 1 MiB batches, checked by two workers that finish in any order.
    const broken = line(changed(energy, "energy_amount.quantity", "1,5"))
    const lines: Array<string> = []
    const expected: Array<number> = []
    for (let i = 1; i <= 8000; i++) {
      if (i % 1000 === 0) lines.push("")
      else if (i % 997 === 0 || i === 7999) {
        lines.push(i % 2 === 0 ? broken : "{oops")
        expected.push(i)
      } else lines.push(line(changed(energy, "external_account_number", `KD-${i}`)))
    }
    const file = write(dir, "many.ndjson", `${lines.join("\r\n")}\r\n`)
    const run = await runCli(["validate", "--format", "json", "--jobs", "2", file])
    const report = jsonReport(run)
    expect(report.totals.records).toBe(8000 - 8)
    expect(report.totals.invalid + report.totals.unparseable).toBe(expected.length)
    expect(report.results.map((r) => r.line)).toEqual(expected)
  })

  it("reports JSON syntax errors with line and column, and goes on with the next lines", async () => {
    const file = write(dir, "syntax.ndjson", [
      line(energy),
      `{"import_supplier": "X", oops}`,
      `{"a": 1,}`,
      `{"a": "unterminated`,
      `[1, 2`,
      `{"a": 1} {"b": 2}`,
      line(energy)
    ].join("\n"))
    const run = await runCli(["validate", "--format", "json", file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 7, valid: 2, invalid: 0, unparseable: 5, warnings: 0 })
    expect(report.results.map((r) => [r.line, r.column, r.error.errors[0]!.code])).toEqual([
      [2, 26, "invalid_json"],
      [3, 9, "invalid_json"],
      [4, 20, "invalid_json"],
      [5, 6, "invalid_json"],
      [6, 10, "invalid_json"]
    ])
    expect(report.byCode).toEqual({ invalid_json: 5 })
  })

  it("reports a line that is not UTF-8 and reads the others", async () => {
    const file = write(dir, "latin1.ndjson", Buffer.concat([
      Buffer.from(`${line(energy)}\n`),
      Buffer.from(`{"import_supplier": "M\xfcller"}\n`, "latin1"),
      Buffer.from(`${line(changed(energy, "external_account_number", "Zähler-ß"))}\n`)
    ]))
    const run = await runCli(["validate", "--format", "json", file])
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 3, valid: 2, invalid: 0, unparseable: 1, warnings: 0 })
    expect(report.results[0]).toMatchObject({ line: 2, error: { errors: [{ code: "invalid_utf8" }] } })
  })

  it("reports a record that fits no endpoint, or several, and one that is not an object", async () => {
    const file = write(dir, "inference.ndjson", [
      line({ kundennummer: "KD-1" }),
      line({ ...energy, notes: example("notes")["notes"] }),
      line([energy]),
      line({ import_supplier_code: "STADTWERKE_NORD", external_account_number: "KD-1" })
    ].join("\n"))
    const run = await runCli(["validate", "--format", "json", file])
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 4, valid: 1, invalid: 3, unparseable: 0, warnings: 0 })
    expect(report.results.map((r) => [r.line, r.endpoint, r.error.errors[0]!.code])).toEqual([
      [1, null, "unknown_endpoint"],
      [2, null, "ambiguous_endpoint"],
      [3, null, "invalid"]
    ])
    // The three records checked against no endpoint are counted too, so byEndpoint sums to records.
    expect(report.byEndpoint).toEqual({ "account-transfer-status": 1, "(none)": 3 })
  })

  it("checks every record against --endpoint when given", async () => {
    const file = write(dir, "fixed.ndjson", `${line(energy)}\n${line(example("notes"))}\n`)
    const run = await runCli(["validate", "--endpoint", "notes", "--format", "json", file])
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 2, valid: 1, invalid: 1 })
    expect(report.results[0]).toMatchObject({ line: 1, endpoint: "notes" })
    expect(report.results[0]!.error.errors.map((e) => e.code)).toContain("unknown_field")
  })
})

describe("validate: JSON documents", () => {
  it("reads an array of payloads, locating each element at the line where it starts", async () => {
    const pretty = JSON.stringify([energy, changed(energy, "energy_amount.quantity", "1,5"), example("notes")], null, 2)
    const file = write(dir, "array.json", pretty)
    const run = await runCli(["validate", "--format", "json", file])
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 3, valid: 2, invalid: 1, unparseable: 0, warnings: 0 })
    const secondStart = pretty.split("\n").findIndex((l, i) => i > 1 && l === "  {") + 1
    expect(report.results[0]).toMatchObject({ line: secondStart, endpoint: "energy-amount" })
  })

  it("keeps element lines right in an array of several megabytes, read in many chunks", async () => {
    const elements = Array.from({ length: 6000 }, (_, i) =>
      i % 1500 === 7 ? changed(energy, "energy_amount.quantity", "1,5") : changed(energy, "external_account_number", `KD-${i}`))
    const file = write(dir, "big-array.json", `[\n${elements.map((e) => `  ${line(e)}`).join(",\n")}\n]\n`)
    const report = jsonReport(await runCli(["validate", "--format", "json", "--jobs", "2", file]))
    expect(report.totals).toMatchObject({ records: 6000, valid: 5996, invalid: 4, unparseable: 0, warnings: 0 })
    expect(report.results.map((r) => r.line)).toEqual([9, 1509, 3009, 4509])
  })

  it("reports a broken element at its line and column, and goes on with the others", async () => {
    const file = write(dir, "broken-array.json", `[\n  ${line(energy)},\n  {"import_supplier": tru},\n  ${line(energy)}\n]\n`)
    const run = await runCli(["validate", "--format", "json", file])
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 3, valid: 2, invalid: 0, unparseable: 1, warnings: 0 })
    expect(report.results[0]).toMatchObject({ line: 3, column: 23, error: { errors: [{ code: "invalid_json" }] } })
  })

  it("reports content after the array and an array that is never closed", async () => {
    const trailing = write(dir, "trailing.json", `[${line(energy)}]\n{"x": 1}\n`)
    // The file ends inside the second element: it is the one record of the cut, not counted twice.
    const unclosed = write(dir, "unclosed.json", `[${line(energy)},\n${line(energy)}\n`)
    const run = await runCli(["validate", "--format", "json", trailing, unclosed])
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 4, valid: 2, invalid: 0, unparseable: 2, warnings: 0 })
    expect(report.results.map((r) => [r.file.endsWith("trailing.json"), r.line, r.column])).toEqual([
      [true, 2, 1],
      [false, 3, 1]
    ])
  })
})

describe("validate: long lines", () => {
  it("reads a 10 MB line, and reports it as too long below --max-line-length, with the next lines still right", async () => {
    const longNote = changed(example("notes"), "notes.0.body", "x".repeat(10 * 1024 * 1024))
    const file = write(dir, "long.ndjson", `${line(energy)}\n${line(longNote)}\n${line(changed(energy, "energy_amount.quantity", "1,5"))}\n`)
    const read = await runCli(["validate", "--format", "json", file])
    expect(jsonReport(read).totals).toMatchObject({ records: 3, valid: 2, invalid: 1, unparseable: 0, warnings: 0 })
    expect(jsonReport(read).results[0]!.line).toBe(3)
    const limited = await runCli(["validate", "--format", "json", "--max-line-length", "1M", file])
    const report = jsonReport(limited)
    expect(report.totals).toMatchObject({ records: 3, valid: 1, invalid: 1, unparseable: 1, warnings: 0 })
    expect(report.results.map((r) => [r.line, r.error.errors[0]!.code])).toEqual([[2, "line_too_long"], [3, "invalid"]])
  })

  it("measures CRLF lines without their CR alike with one job or two: a line of exactly the maximum is read", async () => {
    const text = line(energy)
    const file = write(dir, "crlf-max.ndjson", `${text}\r\n${text}\r\n${text}\r\n`)
    for (const jobs of ["1", "2"]) {
      const atMax = jsonReport(await runCli(["validate", "--format", "json", "--jobs", jobs, "--max-line-length", String(text.length), file]))
      expect(atMax.totals, `--jobs ${jobs}`).toMatchObject({ records: 3, valid: 3, unparseable: 0 })
      const below = jsonReport(await runCli(["validate", "--format", "json", "--jobs", jobs, "--max-line-length", String(text.length - 1), file]))
      expect(below.totals, `--jobs ${jobs}`).toMatchObject({ records: 3, valid: 0, unparseable: 3 })
      expect(below.results[0]!.error.errors[0]!.detail).toContain(`The line has ${text.length} bytes`)
    }
  })
})

describe("validate: inputs", () => {
  it("reads a file of many ranges as one job and stdin read the same bytes: the same report, lines and rejects", async () => {
    // Over 5 MiB, so the workers read it in several ranges: a byte order mark, blank and CRLF lines,
    // a line that is not UTF-8 and a line too long for --max-line-length cross or touch their ends.
    const broken = line(changed(energy, "energy_amount.quantity", "1,5"))
    const parts: Array<Buffer> = [Buffer.from("\uFEFF")]
    const expected: Array<[number, string]> = []
    for (let i = 1; i <= 9000; i++) {
      if (i === 3000) {
        parts.push(Buffer.from(`${line(changed(example("notes"), "notes.0.body", "x".repeat(1536 * 1024)))}\n`))
        expected.push([i, "line_too_long"])
      } else if (i === 4000) {
        parts.push(Buffer.concat([Buffer.from(broken.slice(0, 40)), Buffer.from([0xff, 0xfe]), Buffer.from(`${broken.slice(40)}\n`)]))
        expected.push([i, "invalid_utf8"])
      } else if (i % 997 === 0) {
        parts.push(Buffer.from(`${broken}\n`))
        expected.push([i, "invalid"])
      } else {
        parts.push(Buffer.from(i % 1499 === 0 ? "  \n" : i % 1777 === 0 ? `${line(energy)}\r\n` : `${line(energy)}\n`))
      }
    }
    const bytes = Buffer.concat(parts)
    expect(bytes.length).toBeGreaterThan(5 * 1024 * 1024)
    const file = write(dir, "ranges.ndjson", bytes)
    // Two jobs read a file in ranges; one job, and stdin, read it on the main thread.
    const args = (input: string, rejects: string, jobs = "2") => ["validate", "--format", "ndjson", "--jobs", jobs, "--max-line-length", "1M", "--reject-file", rejects, input]
    const fromFile = await runCli(args(file, join(dir, "ranges-file.rejects")))
    const fromStdin = await runCli(args("-", join(dir, "ranges-stdin.rejects")), { stdin: bytes })
    const oneJob = await runCli(args(file, join(dir, "ranges-one-job.rejects"), "1"))
    expect(fromFile.code).toBe(1)
    const listed = fromFile.stdout.trim().split("\n").map((l) => JSON.parse(l) as { file: string; line: number; kind: string; error: { errors: Array<{ code: string }> } })
    expect(listed.map((r) => [r.line, r.kind === "invalid" ? "invalid" : r.error.errors[0]!.code])).toEqual(expected)
    expect(fromFile.stdout.replaceAll(JSON.stringify(file), JSON.stringify("-"))).toBe(fromStdin.stdout)
    expect(oneJob.stdout).toBe(fromFile.stdout)
    expect(readFileSync(join(dir, "ranges-file.rejects"))).toEqual(readFileSync(join(dir, "ranges-stdin.rejects")))
    expect(readFileSync(join(dir, "ranges-file.rejects"))).toEqual(readFileSync(join(dir, "ranges-one-job.rejects")))
  })

  it("reads NDJSON from stdin as -", async () => {
    const run = await runCli(["validate", "--format", "json", "-"], { stdin: `${line(energy)}\n\n{oops\n` })
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 2, valid: 1, invalid: 0, unparseable: 1, warnings: 0 })
    expect(report.results[0]).toMatchObject({ file: "-", line: 3, column: 2 })
  })

  it("exits 3 for a missing file and a directory, naming them, after reporting the files it could read", async () => {
    const good = write(dir, "good.ndjson", `${line(energy)}\n`)
    mkdirSync(join(dir, "folder.ndjson"), { recursive: true })
    const run = await runCli(["validate", "--format", "json", join(dir, "missing.json"), good, join(dir, "folder.ndjson"), join(ROOT, "examples")])
    expect(run.code).toBe(3)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 1, valid: 1, invalid: 0, unparseable: 0, warnings: 0 })
    expect(report.ok).toBe(false)
    expect(report.unreadable.map((u) => u.detail)).toEqual(["no such file", "is a directory", "is a directory"])
    expect(run.stderr).toContain("missing.json: no such file")
    expect(run.stderr).toContain("folder.ndjson: is a directory")
  })
})

describe("validate: outputs", () => {
  const mixed = (): string => write(dir, "mixed.ndjson", Buffer.concat([
    Buffer.from(`${line(energy)}\n{"a": oops}\r\n${line(changed(energy, "energy_amount.quantity", "1,5"))}\n\n`),
    Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
    Buffer.from(`${line(energy)}\n`)
  ]))

  it("writes the invalid and unparseable records unchanged, one per line, to --reject-file", async () => {
    const file = mixed()
    const rejects = join(dir, "rejects.ndjson")
    const run = await runCli(["validate", "--reject-file", rejects, "--format", "json", "--jobs", "2", file])
    expect(jsonReport(run).totals).toMatchObject({ records: 5, valid: 2, invalid: 1, unparseable: 2, warnings: 0 })
    expect(readFileSync(rejects)).toEqual(Buffer.concat([
      Buffer.from(`{"a": oops}\n${line(changed(energy, "energy_amount.quantity", "1,5"))}\n`),
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a])
    ]))
  })

  it("lists at most --max-errors records, counts them all and says truncated", async () => {
    const file = mixed()
    const json = jsonReport(await runCli(["validate", "--format", "json", "--max-errors", "1", file]))
    expect(json.truncated).toBe(true)
    expect(json.results).toHaveLength(1)
    expect(json.totals).toMatchObject({ records: 5, valid: 2, invalid: 1, unparseable: 2, warnings: 0 })
    const all = jsonReport(await runCli(["validate", "--format", "json", file]))
    expect(all.truncated).toBe(false)
    expect(all.results.map((r) => r.line)).toEqual([2, 3, 5])
    const text = await runCli(["validate", "--max-errors", "2", file])
    expect(text.stdout).toContain("first 2 problem records")
    expect(text.stdout).toContain("1 more problem records not listed")
    expect(text.stdout).not.toContain("\u001b[")
    const ndjson = await runCli(["validate", "--format", "ndjson", "--max-errors", "2", file])
    expect(ndjson.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { line: number }).line)).toEqual([2, 3])
  })

  it("writes a text report with totals, counts by code and attr pattern, and file:line attr code detail", async () => {
    const file = write(dir, "text.ndjson", `${line(changed(example("transactions"), "transactions.1.amount", "12,50"))}\n{oops\n`)
    const run = await runCli(["validate", file])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("records 2  valid 0  invalid 1  unparseable 1  warnings 0")
    expect(run.stdout).toMatch(/errors by code\n(?:.*\n)*\s+invalid\s+1/u)
    expect(run.stdout).toMatch(/errors by attr\n(?:.*\n)*\s+transactions\.\*\.amount\s+1/u)
    expect(run.stdout).toContain(`${file}:1 [transactions] transactions.1.amount invalid `)
    expect(run.stdout).toContain(`${file}:2:2 [?] non_field_errors invalid_json `)
    expect(run.stderr).toBe("")
  })
})

describe("validate: usage errors", () => {
  it("exits 2 with one line of explanation, for bad options and arguments", async () => {
    const file = write(dir, "one.ndjson", `${line(energy)}\n`)
    for (const args of [
      ["validate"],
      ["validate", "--endpoint", "energy", file],
      ["validate", "--format", "xml", file],
      ["validate", "--jobs", "0", file],
      ["validate", "--max-errors", "-1", file],
      ["validate", "--max-line-length", "lots", file],
      ["validate", "--unknown", file],
      ["validate", write(dir, "data.csv", "a;b\n")],
      ["frobnicate"]
    ]) {
      const run = await runCli(args)
      expect(run.code, args.join(" ")).toBe(2)
      expect(run.stderr).toMatch(/^data-import: /u)
    }
  })
})
