/**
 * fast-check is an optional peer dependency used only by `data-import-payloads/testing`: importing or
 * requiring the main entry of the built package must not load it. Each check runs in a fresh Node process
 * and has a positive control (the testing entry does load it), so a broken detector cannot pass.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const dist = new URL("../../dist/", import.meta.url)
const work = mkdtempSync(join(tmpdir(), "entry-isolation-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/**
 * An ES module that records the URL of every module Node loads (a `load` hook appending to a file, so
 * nothing is lost between the hook thread and this one), imports the file it is given, and prints the
 * loaded URLs that belong to fast-check.
 */
const esmProbe = `
import { register } from "node:module"
import { readFileSync, writeFileSync } from "node:fs"
const [entry, log] = process.argv.slice(2)
writeFileSync(log, "")
const hooks = 'import { appendFileSync } from "node:fs"; let log;' +
  'export function initialize(data) { log = data.log }' +
  'export async function load(url, context, next) { appendFileSync(log, url + "\\\\n"); return next(url, context) }'
register("data:text/javascript," + encodeURIComponent(hooks), { data: { log } })
const lib = await import(entry)
const loaded = readFileSync(log, "utf8").split("\\n").filter(Boolean)
console.log(JSON.stringify({ exports: Object.keys(lib).length, loaded: loaded.length, fastCheck: loaded.filter((u) => u.includes("/fast-check/")) }))
`

/** A CommonJS script that requires the file it is given and prints the fast-check files in the require cache. */
const cjsProbe = `
const lib = require(process.argv[2])
const loaded = Object.keys(require.cache)
console.log(JSON.stringify({ exports: Object.keys(lib).length, loaded: loaded.length, fastCheck: loaded.filter((f) => /[\\\\/]fast-check[\\\\/]/.test(f)) }))
`

interface Probe {
  readonly exports: number
  readonly loaded: number
  readonly fastCheck: ReadonlyArray<string>
}

const run = (probe: "esm" | "cjs", entry: string): Probe => {
  const file = join(work, probe === "esm" ? "probe.mjs" : "probe.cjs")
  writeFileSync(file, probe === "esm" ? esmProbe : cjsProbe)
  const target = new URL(entry, dist)
  const args = probe === "esm" ? [file, target.href, join(work, "loaded.log")] : [file, target.pathname]
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" })) as Probe
}

describe("the main entry does not load fast-check", () => {
  it("import of dist/index.js loads no fast-check module; import of dist/testing.js does", () => {
    const main = run("esm", "index.js")
    expect(main.exports).toBeGreaterThan(30)
    expect(main.loaded).toBeGreaterThan(5)
    expect(main.fastCheck).toEqual([])
    const testing = run("esm", "testing.js")
    expect(testing.exports).toBeGreaterThanOrEqual(3)
    expect(testing.fastCheck.length).toBeGreaterThan(0)
  })

  it("require of dist/index.cjs loads no fast-check file; require of dist/testing.cjs does", () => {
    const main = run("cjs", "index.cjs")
    expect(main.exports).toBeGreaterThan(30)
    expect(main.fastCheck).toEqual([])
    const testing = run("cjs", "testing.cjs")
    expect(testing.exports).toBeGreaterThanOrEqual(3)
    expect(testing.fastCheck.length).toBeGreaterThan(0)
  })

  it("the testing entry ships declarations for both formats", () => {
    for (const name of ["testing.d.ts", "testing.d.cts"]) {
      const text = readFileSync(new URL(name, dist), "utf8")
      for (const fn of ["arbitraryPayload", "arbitraryInvalidPayload", "arbitraryResponse"]) expect(text).toContain(fn)
    }
    expect(readFileSync(new URL("index.d.ts", dist), "utf8")).toContain("toOpenApi")
  })
})

describe("the built testing entry", () => {
  /** Samples payloads of every POST endpoint with the built kit and validates them with the built library. */
  const check = (lib: string, kit: string, fc: string) => `
const ids = lib.POST_ENDPOINT_IDS
const verdicts = ids.map((id) => {
  const valid = fc.sample(kit.arbitraryPayload(id), { numRuns: 20, seed: 1 }).every((p) => lib.validatePayload(id, p).ok)
  const broken = fc.sample(kit.arbitraryInvalidPayload(id), { numRuns: 20, seed: 1 }).every(({ payload, expected }) => {
    const r = lib.validatePayload(id, payload)
    return !r.ok && r.error.errors.some((e) => e.attr === expected.attr && e.code === expected.code)
  })
  return valid && broken
})
console.log(JSON.stringify({ endpoints: ids.length, ok: verdicts.every(Boolean) }))
`.replaceAll("lib.", `${lib}.`).replaceAll("kit.", `${kit}.`).replaceAll("fc.sample", `${fc}.sample`)

  it("generates payloads the built library judges as announced, from ES modules and from CommonJS", () => {
    // Inside the package (in its ignored .tmp/ folder), so that `fast-check` resolves from its node_modules.
    const root = new URL("../../", import.meta.url).pathname
    const folder = join(root, ".tmp")
    mkdirSync(folder, { recursive: true })
    const scripts = {
      [join(folder, "kit-check.mjs")]: `import * as lib from "data-import-payloads"
import * as kit from "data-import-payloads/testing"
import * as fc from "fast-check"
${check("lib", "kit", "fc")}`,
      [join(folder, "kit-check.cjs")]: `const lib = require("data-import-payloads")
const kit = require("data-import-payloads/testing")
const fc = require("fast-check")
${check("lib", "kit", "fc")}`
    }
    for (const [file, text] of Object.entries(scripts)) {
      writeFileSync(file, text)
      try {
        expect(JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8" }))).toEqual({ endpoints: 10, ok: true })
      } finally {
        rmSync(file, { force: true })
      }
    }
  })
})
