/**
 * The repository is self-contained: no test, source, script or benchmark reaches outside it, so the suite
 * passes on a clone with nothing beside it. Facts and data from elsewhere are copied in as fixtures.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = new URL("../../", import.meta.url).pathname
const SCANNED = ["test", "src", "scripts", "bench"]

/** Paths that leave the repository: its sibling `shared` folder, or more levels up than a file is deep in it. */
const OUTSIDE = [["..", "shared"].join("/"), ["..", "..", ".."].join("/")]

/** How many folders below the repository's root `file` is (`test/x/probe.ts`: 2). */
const depthOf = (file: string): number => relative(ROOT, file).split(/[\\/]/u).length - 1

/** Whether `text`, a line of a file `depth` folders deep, names a path more levels up than that. */
const leaves = (text: string, depth: number): boolean =>
  text.includes(OUTSIDE[0]!) || text.includes(OUTSIDE[0]!.replaceAll("/", "\\")) ||
  [...text.matchAll(/(?:\.\.[\\/])+/gu)].some((m) => m[0].length / 3 > depth)

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(path)
    return [path]
  })

/** The `file:line: text` of every line of `files` that names a path outside the repository (`depth`: how deep a file is). */
const hits = (files: ReadonlyArray<string>, depth: (file: string) => number = depthOf): Array<string> =>
  files.flatMap((file) =>
    readFileSync(file, "utf8").split("\n").flatMap((text, index) =>
      leaves(text, depth(file)) ? [`${relative(ROOT, file)}:${index + 1}: ${text.trim()}`] : []))

describe("the repository reads nothing outside itself", () => {
  const files = SCANNED.flatMap((dir) => filesUnder(join(ROOT, dir)))

  it("scans the files of test/, src/, scripts/ and bench/", () => {
    for (const dir of SCANNED) expect(files.some((f) => relative(ROOT, f).startsWith(`${dir}/`)), dir).toBe(true)
    expect(files).toContain(join(ROOT, "test", "repository", "self-contained.test.ts"))
  })

  it("the check finds such a path where there is one, with slashes or backslashes", () => {
    const dir = mkdtempSync(join(tmpdir(), "self-contained-"))
    try {
      const probe = join(dir, "probe.ts")
      const outside = OUTSIDE.map((path) => `${path}/x.json`)
      writeFileSync(probe, ["const a = 1", `read("${outside[0]}")`, `read("${outside[1]?.replaceAll("/", "\\")}")`, "read(\"../x\")"].join("\n"))
      // As if it were test/x/probe.ts: three levels up leave the repository, two do not.
      writeFileSync(probe, [...readFileSync(probe, "utf8").split("\n"), 'read("../../y.json")'].join("\n"))
      expect(hits([probe], () => 2).map((hit) => hit.split(": ")[0]?.replace(/^.*probe\.ts/u, "probe.ts"))).toEqual(["probe.ts:2", "probe.ts:3"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("no file names a path into the sibling shared folder or more levels up than it is deep", () => {
    expect(hits(files)).toEqual([])
  })

  it("no npm script does either", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts
    expect(Object.values(scripts).filter((script) => OUTSIDE.some((n) => script.includes(n)))).toEqual([])
  })
})
