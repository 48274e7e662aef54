/**
 * No import cycles in `src/`: two modules that need each other are one concept cut in two, and a cycle
 * makes the order modules are evaluated in (and so which constant is still undefined) depend on which
 * one a user happens to import first. Type-only imports count too: they tie the files together as much.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { cyclesOf, importsOf, SRC, sourceFiles, targetOf } from "./layers.js"

/** The import graph of `files` (relative to `src/`): each file and the files it imports, types included. */
const graphOf = (files: ReadonlyArray<string>, read: (file: string) => string): Map<string, Array<string>> =>
  new Map(files.map((file) => [file.slice(SRC.length + 1).split("\\").join("/"), importsOf(read(file)).filter((i) => i.specifier.startsWith(".")).map((i) => targetOf(file, i.specifier))]))

describe("no import cycle in src/", () => {
  it("lists every set of modules that import each other", () => {
    const files = sourceFiles(SRC)
    expect(files.length).toBeGreaterThan(100)
    const graph = graphOf(files, (file) => readFileSync(file, "utf8"))
    // Every module of src/ is read: more imports than files, each naming a file that exists.
    expect([...graph.values()].flat().length).toBeGreaterThan(files.length)
    expect([...graph.values()].flat().filter((to) => !graph.has(to))).toEqual([])
    expect(cyclesOf(graph)).toEqual([])
  })

  it("finds a cycle through three modules, a module importing itself, and none in a chain", () => {
    const chain = new Map([["a", ["b"]], ["b", ["c"]], ["c", []]])
    expect(cyclesOf(chain)).toEqual([])
    const ring = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]])
    expect(cyclesOf(ring)).toEqual([["a", "b", "c"]])
    expect(cyclesOf(new Map([["a", ["a"]]]))).toEqual([["a"]])
  })

  it("reads every kind of import, tells imports of types only, and resolves .js to .ts", () => {
    const text = `import { a } from "./a.js"\nimport type { B } from "../b.js"\nexport { c } from "./c.js"\nimport "./d.js"\nconst e = await import("./e.js")\nimport { f } from "effect"`
    expect(importsOf(text).map((i) => i.specifier)).toEqual(["./a.js", "../b.js", "./c.js", "./d.js", "./e.js", "effect"])
    expect(importsOf(text).filter((i) => i.typeOnly).map((i) => i.specifier)).toEqual(["../b.js"])
    expect(targetOf(join(SRC, "index.ts"), "./validation/path.js")).toBe("validation/path.ts")
    // A multi-line import is one import.
    expect(importsOf(`import {\n  a,\n  type B\n} from "./m.js"`)).toEqual([{ specifier: "./m.js", typeOnly: false }])
  })
})
