/**
 * Runs the built `data-import` (dist/cli.js, built by the global setup) as a child process, the way a
 * user does, and checks what every run must satisfy: no stack trace on stderr, and in a JSON report
 * records = valid + invalid + unparseable.
 */
import { spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect } from "vitest"

/** The package root. */
export const ROOT = new URL("../../", import.meta.url).pathname
/** The built command line. */
export const BUILT_CLI = join(ROOT, "dist", "cli.js")

/**
 * A private copy of the built command line, inside the package (so it resolves its dependencies the same
 * way): a build started by another test run (tsup cleans dist/ first) cannot pull it away mid-test. The
 * bundle is `cli.js` and the chunks it imports (the testing kit behind `sample` is one of them).
 */
const privateCopy = (): string => {
  const dir = join(ROOT, ".tmp-cli", `${process.pid}-${Math.random().toString(36).slice(2)}`)
  mkdirSync(dir, { recursive: true })
  const dist = join(ROOT, "dist")
  for (const file of readdirSync(dist)) if (file.endsWith(".js")) copyFileSync(join(dist, file), join(dir, file))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, "cli.js")
}

/** The command line the tests run. */
export const CLI = privateCopy()

/** A run that takes longer than this is a hang: the child is killed and the test fails. */
const RUN_TIMEOUT_MS = 60_000

/**
 * The environment that sends every batch of `map --jobs N` (N > 1) to the worker threads, small inputs
 * too, as a long input's are: for the tests of the workers' path (by default a small input is mapped in
 * the main thread, see src/mappers/run/map-run-workers.ts).
 */
export const WORKERS_ALWAYS: NodeJS.ProcessEnv = { DATA_IMPORT_MAP_WORKERS: "always" }

/** What a run printed and how it ended. */
export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly stdoutBytes: Buffer
}

/** Runs `data-import …args` with Node (the one running the tests), optionally feeding stdin. */
export const runCli = (
  args: ReadonlyArray<string>,
  options: { readonly stdin?: string | Buffer; readonly cwd?: string; readonly env?: NodeJS.ProcessEnv; readonly cli?: string } = {}
): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.cli ?? CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"]
    })
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS)
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.stderr.on("data", (b: Buffer) => err.push(b))
    child.on("error", reject)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      if (signal === "SIGKILL") return reject(new Error(`data-import ${args.join(" ")} did not finish within ${RUN_TIMEOUT_MS} ms`))
      const stdoutBytes = Buffer.concat(out)
      const run = { code, stdout: stdoutBytes.toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), stdoutBytes }
      assertNoStackTrace(run)
      resolve(run)
    })
    child.stdin.on("error", () => undefined)
    child.stdin.end(options.stdin ?? "")
  })

/** A stack trace line (`    at fn (file.js:1:2)`) or an uncaught error banner must never reach the user. */
export const assertNoStackTrace = (run: Pick<Run, "stdout" | "stderr">): void => {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/mu)
    expect(text).not.toMatch(/^(?:Type|Range|Syntax|Reference)?Error: /mu)
    expect(text).not.toContain("node:internal")
  }
}

/** A listed record's location and what was found there. */
interface ReportEntry {
  readonly file: string
  readonly line: number
  readonly column?: number
  readonly warnings: ReadonlyArray<{ detail: string; code: string; attr: string }>
}

/** The JSON report of a run, checked for records = valid + invalid + unparseable and breakdowns summing to totals. */
export interface JsonReport {
  readonly ok: boolean
  readonly totals: { records: number; valid: number; invalid: number; unparseable: number; errors: number; warnings: number }
  readonly truncated: boolean
  readonly warningsTruncated: boolean
  readonly byCode: Record<string, number>
  readonly byAttr: Record<string, number>
  readonly warningsByCode: Record<string, number>
  readonly byEndpoint: Record<string, number>
  readonly results: ReadonlyArray<ReportEntry & {
    kind: "invalid" | "unparseable"
    endpoint: string | null
    error: { detail: string; code: string; errors: ReadonlyArray<{ detail: string; code: string; attr: string }> }
  }>
  readonly warned: ReadonlyArray<ReportEntry & { kind: "warned"; endpoint: string; error: null }>
  readonly empty: ReadonlyArray<string>
  readonly unreadable: ReadonlyArray<{ file: string; detail: string }>
}

const sum = (counts: Readonly<Record<string, number>>): number => Object.values(counts).reduce((a, b) => a + b, 0)

/** Parses a `--format json` report and checks the totals add up and every breakdown sums to its total. */
export const jsonReport = (run: Run): JsonReport => {
  const report = JSON.parse(run.stdout) as JsonReport
  const t = report.totals
  expect(t.records).toBe(t.valid + t.invalid + t.unparseable)
  expect(sum(report.byEndpoint), "byEndpoint sums to records").toBe(t.records)
  expect(sum(report.byCode), "byCode sums to errors").toBe(t.errors)
  expect(sum(report.byAttr), "byAttr sums to errors").toBe(t.errors)
  expect(sum(report.warningsByCode), "warningsByCode sums to warnings").toBe(t.warnings)
  expect(t.errors).toBeGreaterThanOrEqual(t.invalid + t.unparseable)
  return report
}

/** A fresh temporary directory for fixtures, removed after the test file. */
export const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "data-import-cli-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Writes a fixture file and returns its path. */
export const write = (dir: string, name: string, content: string | Uint8Array): string => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

/** An example payload (a fresh copy). */
export const example = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, "examples", "payloads", `${id}.json`), "utf8")) as Record<string, unknown>

/** A copy of `value` with the value at a dot path replaced (`undefined` removes it). */
export const changed = (value: Record<string, unknown>, path: string, replacement: unknown): Record<string, unknown> => {
  const copy = structuredClone(value)
  const steps = path.split(".")
  let node: Record<string, unknown> = copy
  for (const step of steps.slice(0, -1)) node = node[step] as Record<string, unknown>
  const last = steps[steps.length - 1]!
  if (replacement === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1)
    else delete node[last]
  } else {
    node[last] = replacement
  }
  return copy
}
