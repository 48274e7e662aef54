/**
 * Which test files need the built package (`dist/`): those that read it, run the built CLI through
 * `test/cli/run-cli.ts`, or import a test module that does, however indirectly. Derived from the files
 * themselves, so a new test that starts using the build moves to the project that builds first without a
 * list to keep. Read by `vitest.config.ts`.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"

/** A mention of the build: `dist/…` or a `"dist"` path part (not a package's own `dist/`), or the CLI runner. */
const USES_BUILD = /(?<![\w@-]\/)\bdist\/|["']dist["']|run-cli/u
/** The test modules a file imports, by relative path. */
const LOCAL_IMPORT = /(?:from\s+|import\(\s*)["'](\.{1,2}\/[^"']+)["']/gu

const testModules = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "fixtures" ? [] : testModules(path)
    return name.endsWith(".ts") ? [path] : []
  })

/**
 * The test files (`*.test.ts`, paths relative to `root`, with `/`) that need `dist/`.
 *
 * @example
 * builtTestFiles(process.cwd()).includes("test/cli/map.test.ts") // => true
 */
export const builtTestFiles = (root: string): Array<string> => {
  const testDir = join(root, "test")
  const texts = new Map(testModules(testDir).map((path) => [path, readFileSync(path, "utf8")]))
  const memo = new Map<string, boolean>()
  const needsBuild = (path: string, visiting: Set<string>): boolean => {
    const known = memo.get(path)
    if (known !== undefined) return known
    const text = texts.get(path)
    if (text === undefined || visiting.has(path)) return false
    visiting.add(path)
    let uses = USES_BUILD.test(text)
    for (const match of text.matchAll(LOCAL_IMPORT)) {
      if (uses) break
      const target = normalize(join(dirname(path), match[1]!)).replace(/\.js$/u, ".ts")
      uses = needsBuild(target, visiting)
    }
    visiting.delete(path)
    memo.set(path, uses)
    return uses
  }
  return [...texts.keys()]
    .filter((path) => path.endsWith(".test.ts") && needsBuild(path, new Set()))
    .map((path) => relative(root, path).split("\\").join("/"))
    .sort()
}
