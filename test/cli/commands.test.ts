/**
 * The other commands and the program itself: help and version, endpoints, schema, sample (which alone
 * loads fast-check, lazily), and what happens without fast-check installed.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { Validator } from "@seriousme/openapi-schema-validator"
import { describe, expect, it } from "vitest"
import { endpoints } from "../../src/schemas/endpoints/catalogue.js"
import { BUILT_CLI, jsonReport, ROOT, runCli, tempDir } from "./run-cli.js"

const packageCopyDir = tempDir()
const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version

describe("the program", () => {
  it("prints --version and --help on every command, with the exit codes, and exits 0", async () => {
    expect((await runCli(["--version"])).stdout.trim()).toBe(version)
    for (const command of [[], ["validate"], ["map"], ["schema"], ["sample"], ["endpoints"]]) {
      const run = await runCli([...command, "--help"])
      expect(run.code, command.join(" ")).toBe(0)
      expect(run.stdout).toContain("Exit codes:")
      expect(run.stdout).toContain("Usage: data-import")
    }
    expect((await runCli(["validate", "--help"])).stdout).toContain("line_too_long")
  })

  it("says in each command's --help what its exit codes 0 and 1 mean", async () => {
    const exitCodes = async (command: string) => (await runCli([command, "--help"])).stdout.split("Exit codes:\n")[1] ?? ""
    const send = await exitCodes("send")
    expect(send).toMatch(/^ {2}0 {2}every record read is stored/u)
    expect(send).toMatch(/^130 {2}stopped by SIGINT/mu)
    expect(await exitCodes("status")).toMatch(/^ {2}0 {2}nothing known blocks the supplier's records/u)
    expect(await exitCodes("report")).toMatch(/^ {2}0 {2}every record of the ledger is stored/u)
    // Neither reads rows nor checks records: the lines of validate and map would mislead.
    for (const command of ["send", "status", "report"]) expect(await exitCodes(command)).not.toContain("every row mapped")
    const map = await exitCodes("map")
    expect(map).toMatch(/^ {2}0 {2}every row mapped/u)
    expect(map).toMatch(/^130 {2}stopped by SIGINT/mu)
  })

  it("exits 2 without a command", async () => {
    expect((await runCli([])).code).toBe(2)
  })
})

describe("endpoints", () => {
  it("lists every endpoint of the catalogue as text and as JSON", async () => {
    const text = await runCli(["endpoints"])
    expect(text.stdout).toMatch(/^energy-amount\s+POST\s+\/v1\/data-import\/energy-amount\/create\/$/mu)
    const json = JSON.parse((await runCli(["endpoints", "--format", "json"])).stdout) as Array<{ id: string; method: string }>
    expect(json.map((e) => [e.id, e.method])).toEqual(Object.values(endpoints).map((e) => [e.id, e.method]))
  })
})

describe("schema", () => {
  it("prints the JSON Schema of a request, and the OpenAPI document reduced to the endpoint", async () => {
    const schema = JSON.parse((await runCli(["schema", "energy-amount"])).stdout) as Record<string, unknown>
    expect(schema["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema")
    expect(schema["required"]).toEqual(expect.arrayContaining(["import_supplier", "external_account_number", "energy_amount"]))
    const openapi = JSON.parse((await runCli(["schema", "transactions", "--openapi"])).stdout) as {
      openapi: string
      paths: Record<string, unknown>
      components: { schemas: Record<string, unknown> }
    }
    expect(openapi.openapi).toBe("3.1.0")
    expect(Object.keys(openapi.paths)).toEqual(["/v1/data-import/transactions/create/"])
    const refs = JSON.stringify(openapi).match(/#\/components\/schemas\/[A-Za-z0-9_]+/gu) ?? []
    for (const ref of refs) expect(openapi.components.schemas).toHaveProperty(ref.slice("#/components/schemas/".length))
    expect(Object.keys(openapi.components.schemas)).not.toContain("NotesRequest")
  })

  it("--openapi alone prints the document of every endpoint, with its licence, that an OpenAPI 3.1 validator accepts", async () => {
    const run = await runCli(["schema", "--openapi"])
    expect(run.code).toBe(0)
    const openapi = JSON.parse(run.stdout) as { info: { license?: { name: string } }; paths: Record<string, Record<string, unknown>> }
    const operations = Object.values(openapi.paths).flatMap((path) => Object.keys(path))
    expect(operations).toHaveLength(Object.keys(endpoints).length)
    expect(openapi.info.license?.name).toBe("MIT")
    const validator = new Validator()
    const result = await validator.validate(JSON.parse(run.stdout) as Parameters<Validator["validate"]>[0])
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect((await runCli(["schema", "--openapi", "--mapping"])).code).toBe(2)
  })

  it("exits 2 for an unknown endpoint", async () => {
    const run = await runCli(["schema", "energy"])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("unknown endpoint energy")
  })
})

describe("sample", () => {
  it("prints N payloads that validate, the same ones for the same seed", async () => {
    const first = await runCli(["sample", "transactions", "-n", "5", "--seed", "42"])
    expect(first.code).toBe(0)
    expect(first.stdout.trim().split("\n")).toHaveLength(5)
    expect((await runCli(["sample", "transactions", "-n", "5", "--seed", "42"])).stdout).toBe(first.stdout)
    const checked = await runCli(["validate", "--format", "json", "-"], { stdin: first.stdout })
    expect(jsonReport(checked).totals).toMatchObject({ records: 5, valid: 5 })
  })

  it("prints broken payloads with --invalid, each with its expected error on stderr", async () => {
    const run = await runCli(["sample", "notes", "-n", "4", "--seed", "1", "--invalid"])
    expect(run.code).toBe(0)
    expect(run.stderr.trim().split("\n").every((l) => l.startsWith("expected: "))).toBe(true)
    const checked = await runCli(["validate", "--endpoint", "notes", "--format", "json", "-"], { stdin: run.stdout })
    expect(jsonReport(checked).totals).toMatchObject({ records: 4, invalid: 4 })
  })

  it("needs a POST endpoint", async () => {
    expect((await runCli(["sample", "account-transfer-status"])).code).toBe(2)
  })

  it("says clearly that fast-check is missing, and validate works without it", async () => {
    // A copy of the package whose node_modules has everything but fast-check.
    const dir = packageCopyDir
    cpSync(join(ROOT, "dist"), join(dir, "dist"), { recursive: true })
    cpSync(BUILT_CLI, join(dir, "dist", "cli.js"))
    cpSync(join(ROOT, "package.json"), join(dir, "package.json"))
    mkdirSync(join(dir, "node_modules"))
    // Every runtime dependency of package.json but fast-check (an optional peer), as an install has them.
    const dependencies = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies)
    expect(dependencies).not.toContain("fast-check")
    for (const name of [...dependencies, "date-fns", "@date-fns"]) {
      symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name))
    }
    const cli = join(dir, "dist", "cli.js")
    const sample = await runCli(["sample", "notes"], { cli, cwd: dir })
    expect(sample.code).toBe(2)
    expect(sample.stderr).toContain("fast-check")
    expect(sample.stderr).toContain("npm install --save-dev fast-check")
    const validate = await runCli(["validate", join(ROOT, "examples", "payloads", "notes.json")], { cli, cwd: dir })
    expect(validate.code).toBe(0)
  })
})
