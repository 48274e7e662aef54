/**
 * The layers of `src/` (their order is stated once, in layers.ts): no import runs upward, no folder
 * cycle, no library module imports the public entry `src/index.ts`, and the CLI reaches the library only
 * through its entries and a few named exceptions.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { cyclesOf, importsOf, LAYERS, layerOf, SRC, sourceFiles, sourceImports, targetOf } from "./layers.js"

interface Edge {
  readonly from: string
  readonly to: string
  readonly typeOnly: boolean
}

const rank = (file: string): number => LAYERS.indexOf(layerOf(file) ?? "")

/**
 * Imports that run upward. Imports of types only are erased from the build and load nothing: the one kind
 * that runs upward is named in TYPE_ONLY_UPWARD.
 */
const upward = (edges: ReadonlyArray<Edge>): Array<string> =>
  edges.filter((e) => e.from !== "index.ts" && e.to !== "index.ts" && rank(e.to) > rank(e.from)).map((e) => `${e.from} -> ${e.to}${e.typeOnly ? " (types)" : ""}`)

/**
 * The payload generators in each resource's folder (and the registry that lists them) receive the
 * testing kit as an argument and import its types only, so that the contract never loads fast-check
 * (test/testing/arbitrary-kit.test.ts).
 */
const TYPE_ONLY_UPWARD = /^schemas\/(registry|[a-z-]+\/arbitrary)\.ts -> testing\/arbitrary-kit\.ts \(types\)$/u

/** The folders in cycles: strongly connected sets of more than one folder of the edges' graph. */
const folderCycles = (edges: ReadonlyArray<readonly [string, string]>): Array<Array<string>> => {
  const graph = new Map<string, Array<string>>()
  for (const [a, b] of edges) if (a !== b) graph.set(a, [...(graph.get(a) ?? []), b])
  return cyclesOf(graph)
}

const folderOf = (file: string): string => (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".")
const within = (inner: string, outer: string): boolean => inner === outer || inner.startsWith(`${outer}/`)

/**
 * The folder edges whose cycles count: between layers, and between folders neither of which holds the
 * other (a folder's own files and its subfolders use each other by design: the registry beside the
 * resource folders it lists).
 */
const folderEdges = (edges: ReadonlyArray<Edge>): Array<readonly [string, string]> =>
  edges.filter((e) => !e.typeOnly && e.from !== "index.ts" && e.to !== "index.ts").flatMap((e) => {
    const [a, b] = [folderOf(e.from), folderOf(e.to)]
    const layers: Array<readonly [string, string]> = layerOf(e.from) !== layerOf(e.to) ? [[`layer ${layerOf(e.from)}`, `layer ${layerOf(e.to)}`]] : []
    return within(a, b) || within(b, a) ? layers : [...layers, [a, b] as const]
  })

/** The public entries, and the engines' entries the CLI calls (each a module that says what it exposes). */
const CLI_ENTRIES = new Set([
  "index.ts",
  "testing/index.ts",
  "readers/index.ts",
  "ledger/index.ts",
  "validation/run/index.ts",
  "mappers/run/index.ts",
  "report/index.ts",
  "service/index.ts"
])

/** Modules the CLI imports although they are no entry, and why. */
const CLI_EXCEPTIONS: Readonly<Record<string, string>> = {
  // main.ts starts the first validation worker before the rest of the tool is loaded, so the worker's
  // start-up overlaps the main thread's; the engine's entry would load the whole engine first.
  "validation/run/early-worker.ts": "main: the early worker of validate",
  // The token is checked for characters no HTTP header takes before the first request: a check of the
  // client's that its public API applies inside createClient only.
  "client/build-request.ts": "send, status: isHeaderSafe"
}

/** The packages the CLI imports itself (every other one it reaches through the library). */
const CLI_PACKAGES = new Set(["commander"])

const cliProblems = (from: string, specifier: string, to: string | undefined): Array<string> => {
  if (specifier.startsWith("node:") || CLI_PACKAGES.has(specifier)) return []
  if (to === undefined) return [`${from}: ${specifier} (a package the CLI does not use directly)`]
  if (to.startsWith("cli/") || CLI_ENTRIES.has(to) || Object.hasOwn(CLI_EXCEPTIONS, to)) return []
  return [`${from}: ${to} (neither an entry nor a named exception)`]
}

const edges = sourceImports()

describe("the layers of src/", () => {
  it("puts every source file in a layer", () => {
    const files = sourceFiles(SRC).map((f) => f.slice(SRC.length + 1).split("\\").join("/"))
    expect(files.filter((f) => f !== "index.ts" && layerOf(f) === undefined)).toEqual([])
  })

  it("has no import that runs upward (types of the testing kit aside)", () => {
    expect(upward(edges).filter((line) => !TYPE_ONLY_UPWARD.test(line))).toEqual([])
  })

  it("has no folder cycle", () => {
    expect(folderCycles(folderEdges(edges))).toEqual([])
  })

  it("has no library module that imports the public entry src/index.ts", () => {
    expect(edges.filter((e) => e.to === "index.ts" && !e.from.startsWith("cli/")).map((e) => e.from)).toEqual([])
  })

  it("lets the CLI import only the entries, its packages and at most three named exceptions", () => {
    expect(Object.keys(CLI_EXCEPTIONS).length).toBeLessThanOrEqual(3)
    const problems = sourceFiles(join(SRC, "cli")).flatMap((file) => {
      const from = file.slice(SRC.length + 1)
      return importsOf(readFileSync(file, "utf8")).flatMap((i) =>
        cliProblems(from, i.specifier, i.specifier.startsWith(".") ? targetOf(file, i.specifier) : undefined)
      )
    })
    expect(problems).toEqual([])
    const used = new Set(edges.filter((e) => e.from.startsWith("cli/")).map((e) => e.to))
    expect(Object.keys(CLI_EXCEPTIONS).filter((module) => !used.has(module))).toEqual([])
  })

  it("finds what it must refuse: an upward import, a cycle, a CLI import of an engine's inside", () => {
    expect(upward([{ from: "readers/io.ts", to: "ledger/ledger.ts", typeOnly: false }])).toEqual(["readers/io.ts -> ledger/ledger.ts"])
    expect(upward([{ from: "ledger/ledger.ts", to: "readers/io.ts", typeOnly: false }])).toEqual([])
    expect(upward([{ from: "schemas/notes/arbitrary.ts", to: "testing/arbitrary-kit.ts", typeOnly: true }]).filter((l) => !TYPE_ONLY_UPWARD.test(l))).toEqual([])
    expect(upward([{ from: "schemas/notes/notes.ts", to: "testing/arbitrary-kit.ts", typeOnly: false }]).filter((l) => !TYPE_ONLY_UPWARD.test(l))).toHaveLength(1)
    const cycle = folderEdges([
      { from: "readers/edifact/records.ts", to: "readers/lookup/accounts.ts", typeOnly: false },
      { from: "readers/lookup/accounts.ts", to: "readers/edifact/dtm.ts", typeOnly: false }
    ])
    expect(folderCycles(cycle)).toEqual([["readers/edifact", "readers/lookup"]])
    expect(folderCycles(folderEdges([
      { from: "schemas/registry.ts", to: "schemas/notes/notes.ts", typeOnly: false },
      { from: "schemas/notes/notes.ts", to: "schemas/rules.ts", typeOnly: false }
    ]))).toEqual([])
    expect(cliProblems("cli/commands/map.ts", "../../mappers/run/map-outcomes.js", "mappers/run/map-outcomes.ts")).toHaveLength(1)
    expect(cliProblems("cli/commands/map.ts", "../../mappers/run/index.js", "mappers/run/index.ts")).toEqual([])
    expect(cliProblems("cli/commands/sample.ts", "fast-check", undefined)).toEqual(["cli/commands/sample.ts: fast-check (a package the CLI does not use directly)"])
  })
})
