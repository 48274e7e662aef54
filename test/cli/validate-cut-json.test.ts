/**
 * `data-import validate` on `.json` files that are cut off or broken around their array: every element
 * present is one record with one outcome, the break is reported once at the physical line (and column)
 * where it is, and nothing is counted twice, with one job or two.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { example, jsonReport, runCli, tempDir, write } from "./run-cli.js"

const line = (value: unknown): string => JSON.stringify(value)
const energy = line(example("energy-amount"))
const payment = line(example("payment-instruction"))

const dir = tempDir()

/** Where a text ends: its last physical line and the column (in characters, from 1) after its last character. */
const endOf = (text: string): { line: number; column: number } => {
  const lines = text.split("\n")
  return { line: lines.length, column: [...lines.at(-1)!].length + 1 }
}

/** The listed problems of a JSON report as `line:column code detail`. */
const problems = (report: ReturnType<typeof jsonReport>): Array<string> =>
  report.results.map((r) => `${r.line}:${r.column} ${r.error.errors[0]!.code} ${r.error.errors[0]!.detail}`)

describe.each([1, 2])("validate --jobs %i: a .json array cut off", (jobs) => {
  it("counts an element cut in the middle once, as one unparseable record where the file ends", async () => {
    const text = `[${energy},\n{"supplier": "x", "ext`
    const file = write(dir, `cut-element-${jobs}.json`, text)
    const rejects = join(dir, `cut-element-${jobs}.rejects.ndjson`)
    const run = await runCli(["validate", "--format", "json", "--jobs", String(jobs), "--reject-file", rejects, file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toEqual({ records: 2, valid: 1, invalid: 0, unparseable: 1, errors: 1, warnings: 0 })
    expect(endOf(text)).toEqual({ line: 2, column: 23 })
    expect(problems(report)).toEqual([
      "2:23 invalid_json Invalid JSON: Unexpected end of the file inside an element: the array is not closed with ']'."
    ])
    expect(report.results[0]).toMatchObject({ kind: "unparseable", file, endpoint: null })
    // The damaged element is rejected whole, once.
    expect(readFileSync(rejects, "utf8")).toBe(`{"supplier": "x", "ext\n`)
  })

  it("lists the cut once in the ndjson report and counts it once in the summary line", async () => {
    const file = write(dir, `cut-element-ndjson-${jobs}.json`, `[\n  ${energy},\n  {"supplier": "x",\n   "ext`)
    const ndjson = await runCli(["validate", "--format", "ndjson", "--jobs", String(jobs), file])
    expect(ndjson.code).toBe(1)
    const lines = ndjson.stdout.trim().split("\n").map((l) => JSON.parse(l) as { kind: string; line: number; column: number })
    expect(lines.map((l) => [l.kind, l.line, l.column])).toEqual([["unparseable", 4, 8]])
    const quiet = await runCli(["validate", "--quiet", "--jobs", String(jobs), file])
    expect(quiet.stdout).toContain("records 2  valid 1  invalid 0  unparseable 1")
  })

  it.each([
    // [name, text, records, valid, problems]
    ["a complete last element with the array never closed", `[${energy},\n${energy}\n`, 2, 1,
      ["3:1 invalid_json Invalid JSON: Unexpected end of the file inside an element: the array is not closed with ']'."]],
    ["a cut between elements", `[${energy},`, 2, 1,
      [`1:${energy.length + 3} invalid_json Invalid JSON: Unexpected end of the file: the array is not closed with ']'.`]],
    ["a cut between elements, after a line end", `[\n  ${energy},\n`, 2, 1,
      ["3:1 invalid_json Invalid JSON: Unexpected end of the file: the array is not closed with ']'."]],
    ["a cut right after [", `[`, 1, 0,
      ["1:2 invalid_json Invalid JSON: Unexpected end of the file: the array is not closed with ']'."]],
    ["a cut after [ and blank lines", `\uFEFF[\n\n  `, 1, 0,
      ["3:3 invalid_json Invalid JSON: Unexpected end of the file: the array is not closed with ']'."]],
    ["garbage after the closed array", `[\n  ${energy}\n]\nxyz\n`, 2, 1,
      ["4:1 invalid_json Invalid JSON: Unexpected 'x' after the end of the array."]],
    ["a top-level object cut off", `{\n  "import_supplier": "STADTWERKE_NORD",\n  "ext`, 1, 0,
      ["3:7 invalid_json Invalid JSON: Unterminated string."]]
  ] as const)("%s: consistent counts and one located problem", async (name, text, records, valid, expected) => {
    const file = write(dir, `${name.replaceAll(/\W+/gu, "-")}-${jobs}.json`, text)
    const run = await runCli(["validate", "--format", "json", "--jobs", String(jobs), file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toEqual({ records, valid, invalid: 0, unparseable: records - valid, errors: records - valid, warnings: 0 })
    expect(problems(report)).toEqual(expected)
    expect(report.empty).toEqual([])
  })

  it("a valid array cut at every byte: one record per element slot begun, exactly one problem where the cut is, no crash", async () => {
    // Two elements on their own lines: cuts fall before, inside and after each of them and the commas.
    const text = `[\n  ${payment},\n  ${payment}\n]\n`
    const commaAt = text.indexOf(",\n")
    const closedAt = text.lastIndexOf("]") + 1
    const files = Array.from({ length: text.length + 1 }, (_, cut) => write(dir, `every-cut-${jobs}-${String(cut).padStart(4, "0")}.json`, text.slice(0, cut)))
    const run = await runCli(["validate", "--format", "json", "--max-errors", "100000", "--jobs", String(jobs), ...files])
    const report = jsonReport(run)
    expect(run.code).toBe(1)
    let records = 0
    let broken = 0
    const expectedProblems: Array<string> = []
    for (const [cut, file] of files.entries()) {
      const prefix = text.slice(0, cut)
      if (cut === 0) continue // an empty file: no records
      if (cut >= closedAt) {
        records += 2
        continue
      }
      // The array's comma opens the second element's slot: the slot the file ends in is the one record of the cut.
      records += cut > commaAt ? 2 : 1
      broken++
      const at = endOf(prefix)
      expectedProblems.push(`${file}:${at.line}:${at.column}`)
    }
    expect(report.empty).toEqual([files[0]])
    expect(report.totals).toEqual({ records, valid: records - broken, invalid: 0, unparseable: broken, errors: broken, warnings: 0 })
    expect(report.results.map((r) => `${r.file}:${r.line}:${r.column}`)).toEqual(expectedProblems)
    expect(report.results.every((r) => r.error.errors[0]!.code === "invalid_json" && r.error.errors[0]!.detail.includes("Unexpected end of the file"))).toBe(true)
  })
})
