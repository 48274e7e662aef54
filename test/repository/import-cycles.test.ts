/**
 * No import cycles in `src/`: two modules that need each other are one concept cut in two, and a cycle
 * makes the order modules are evaluated in (and so which constant is still undefined) depend on which
 * one a user happens to import first. Type-only imports count too: they tie the files together as much.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = resolve(new URL("../../", import.meta.url).pathname)
const SRC = join(ROOT, "src")

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** The relative modules a file names: static imports and re-exports, `import(…)` calls and types. */
const relativeImports = (text: string): Array<string> =>
  [...text.matchAll(/\bfrom\s+"(\.[^"]*)"|\bimport\s*\(\s*"(\.[^"]*)"\s*\)|^\s*import\s+"(\.[^"]*)"/gmu)].map((m) => (m[1] ?? m[2] ?? m[3])!)

/** The file a relative specifier of `from` names (`./x.js` is `./x.ts`, `./dir` is `./dir/index.ts`). */
const target = (from: string, specifier: string): string | undefined => {
  const base = resolve(dirname(from), specifier)
  return [base.replace(/\.js$/u, ".ts"), `${base}.ts`, join(base, "index.ts")].find((candidate) => candidate.endsWith(".ts") && existsSync(candidate))
}

/** The import graph of `files`: each file and the files it imports. */
const graphOf = (files: ReadonlyArray<string>, read: (file: string) => string): Map<string, Array<string>> =>
  new Map(files.map((file) => [file, relativeImports(read(file)).flatMap((s) => target(file, s) ?? [])]))

/** The cycles of a graph: its strongly connected components of more than one node, or a node that imports itself (Tarjan). */
export const cyclesOf = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<Array<string>> = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: Array<string> = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}

describe("no import cycle in src/", () => {
  it("lists every set of modules that import each other", () => {
    const files = sourceFiles(SRC)
    expect(files.length).toBeGreaterThan(100)
    const graph = graphOf(files, (file) => readFileSync(file, "utf8"))
    expect(cyclesOf(graph).map((cycle) => cycle.map((file) => relative(ROOT, file)))).toEqual([])
  })

  it("finds a cycle through three modules, a module importing itself, and none in a chain", () => {
    const chain = new Map([["a", ["b"]], ["b", ["c"]], ["c", []]])
    expect(cyclesOf(chain)).toEqual([])
    const ring = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]])
    expect(cyclesOf(ring)).toEqual([["a", "b", "c"]])
    expect(cyclesOf(new Map([["a", ["a"]]]))).toEqual([["a"]])
  })

  it("reads every kind of relative import, and resolves .js to .ts", () => {
    const text = `import { a } from "./a.js"\nimport type { B } from "../b.js"\nexport { c } from "./c.js"\nimport "./d.js"\nconst e = await import("./e.js")\nimport { f } from "effect"`
    expect(relativeImports(text)).toEqual(["./a.js", "../b.js", "./c.js", "./d.js", "./e.js"])
    expect(target(join(SRC, "index.ts"), "./validation/path.js")).toBe(join(SRC, "validation", "path.ts"))
  })
})
