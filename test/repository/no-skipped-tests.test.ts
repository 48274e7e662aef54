/**
 * Every test runs and asserts: no test file skips, focuses or postpones a test (`.skip`, `.only`, `.todo`,
 * `.skipIf`, `.runIf`, `xit`, `xdescribe`, `fit`, `fdescribe`), and both vitest configurations fail a test
 * that makes no `expect` call (`expect.requireAssertions`), so a loop over cases that turns out empty
 * cannot pass by asserting nothing.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = resolve(new URL("../../", import.meta.url).pathname)
/** This file, whose examples of skipping are data. */
const SELF = resolve(new URL(import.meta.url).pathname)

const testFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : testFiles(path)
    return entry.name.endsWith(".ts") && path !== SELF ? [path] : []
  })

/** A call that skips, focuses or postpones a test or a suite. */
const SKIPPING = new RegExp(
  ["\\b(?:it|test|describe|suite|bench)\\.(?:skip|only|todo|skipIf|runIf|fails)\\b", "\\b(?:xit|xdescribe|xtest|fit|fdescribe)\\s*\\("].join("|")
)

/** Every line that skips, focuses or postpones a test, as `path:line: text`. */
const skippingLines = (files: ReadonlyArray<string>): Array<string> =>
  files.flatMap((file) =>
    readFileSync(file, "utf8").split("\n").flatMap((line, i) =>
      SKIPPING.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : []
    )
  )

describe("no test is skipped, focused or without an assertion", () => {
  it("no test file skips, focuses or postpones a test", () => {
    const files = testFiles(join(ROOT, "test"))
    expect(files.length).toBeGreaterThan(100)
    expect(skippingLines(files)).toEqual([])
  })

  it("recognises each way of skipping, and not the words in prose", () => {
    const ways = ["it.skip(", "test.only(", "describe.todo(", "it.skipIf(CI)(", "it.runIf(x)(", "it.fails(", "xit(", "fdescribe ("]
    expect(ways.filter((line) => !SKIPPING.test(line))).toEqual([])
    const prose = ["// skip the header", "it(\"skips blank lines\", () => {", "const only = 1", "bench(\"map\", run)"]
    expect(prose.filter((line) => SKIPPING.test(line))).toEqual([])
  })

  it("both vitest configurations require an assertion in every test", () => {
    for (const config of ["vitest.config.ts", "vitest.mutation.config.ts"]) {
      expect(readFileSync(join(ROOT, config), "utf8"), config).toMatch(/expect: \{ requireAssertions: true \}/)
    }
  })
})
