/**
 * The split of the suite into the "unit" project (on the sources, no build) and the "built" project
 * (after building dist/): a file that runs the built CLI or reads dist/, itself or through a test module
 * it imports, must be in "built", or it would run against a missing or stale build.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { builtTestFiles } from "../built-tests.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

/** A scratch tree with a `test/` folder of the given files. */
const tree = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "data-import-projects-"))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe("which test files need the build", () => {
  it("finds the build through run-cli, a dist/ path or a \"dist\" part, directly or through imported test modules", () => {
    const root = tree({
      "test/cli/run-cli.ts": "export const BUILT_CLI = 'x'",
      "test/a.test.ts": 'import { runCli } from "./cli/run-cli.js"',
      "test/b.test.ts": 'const cli = new URL("../dist/cli.js", import.meta.url)',
      "test/c.test.ts": 'const lib = join(ROOT, "dist", "index.js")',
      "test/support/helper.ts": 'export { runCli } from "../cli/run-cli.js"',
      "test/d.test.ts": 'import { runCli } from "./support/helper.js"',
      "test/e.test.ts": 'import { Ajv2020 } from "ajv/dist/2020.js"\nimport { x } from "../src/index.js"',
      "test/f.test.ts": 'import { y } from "./support/plain.js"',
      "test/support/plain.ts": "export const y = 1",
      "test/g.test.ts": 'import { g } from "./h.js"',
      "test/h.ts": 'import { g } from "./g.test.js"\nexport const g = 1'
    })
    expect(builtTestFiles(root)).toEqual(["test/a.test.ts", "test/b.test.ts", "test/c.test.ts", "test/d.test.ts"])
  })

  it("puts this repository's CLI tests in the built project, and its converter tests in the unit one", () => {
    const built = builtTestFiles(ROOT)
    expect(built).toContain("test/cli/map.test.ts")
    expect(built).toContain("test/ledger/lock-readers.test.ts")
    expect(built).toContain("test/testing/main-entry-isolation.test.ts")
    expect(built).not.toContain("test/mappers/compact.test.ts")
    expect(built).not.toContain("test/schemas/json-schema/to-json-schema.test.ts")
  })
})
