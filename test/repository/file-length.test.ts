/**
 * Short files: no TypeScript file under `src/` is over 300 lines, so each holds one concept that can be
 * read at once. The generated validators are exempt (they are written by `npm run generate`, not read).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = resolve(new URL("../../", import.meta.url).pathname)
const SRC = join(ROOT, "src")
const MAX_LINES = 300
const EXEMPT_DIRS = new Set(["src/validation/generated"])

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return EXEMPT_DIRS.has(relative(ROOT, path)) ? [] : sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** Lines as `wc -l` counts them: a last line without a newline counts too. */
const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0))

/** Every file over the limit, as `path: N lines`. */
const tooLong = (files: ReadonlyArray<string>): Array<string> =>
  files.flatMap((file) => {
    const lines = lineCount(readFileSync(file, "utf8"))
    return lines > MAX_LINES ? [`${relative(ROOT, file)}: ${lines} lines`] : []
  })

describe("no file in src/ is over 300 lines", () => {
  it("lists every file over the limit with its line count", () => {
    const files = sourceFiles(SRC)
    expect(files.length).toBeGreaterThan(100)
    expect(tooLong(files)).toEqual([])
  })

  it("counts lines as wc -l does, the last one with or without a newline", () => {
    expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount("a\n\nb\n")]).toEqual([0, 1, 1, 2, 3])
  })

  it("leaves out the generated validators only", () => {
    const files = sourceFiles(SRC).map((file) => relative(ROOT, file))
    expect(files.filter((file) => file.startsWith("src/validation/generated/"))).toEqual([])
    expect(files).toContain("src/validation/run-validation.ts")
  })
})
