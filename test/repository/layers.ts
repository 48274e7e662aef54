/**
 * The import graph of `src/`: the order of its layers (the one place that states it), the reading of a
 * file's imports, and the cycles of a graph, which the layer test (layers.test.ts) and the module cycle
 * test (import-cycles.test.ts) check.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"

export const ROOT = resolve(new URL("../../", import.meta.url).pathname)
export const SRC = join(ROOT, "src")

/**
 * The layers, lowest first: a file may import its own layer and the layers before it, never one after.
 * A layer is a folder of `src/`, or a folder inside one that sits higher than its parent (an engine beside
 * its stage: `mappers/run/` is the map engine, above the readers and the ledger it drives). A file belongs
 * to the longest layer its path starts with.
 */
export const LAYERS: ReadonlyArray<string> = [
  "schemas", // the contract: one folder per resource, the registry, the catalogue, shared conventions
  "validation", // one payload against the contract: the 400 body and located warnings
  "mappers", // the mapping format and its converters (each payload is checked as it is made)
  "readers", // every record reader, one per format: located records (converting dates and decimals)
  "ledger", // the campaign's SQLite file: schema, open/lock/recover, writers, the queries read by report and status
  "validation/run", // the validate engine: batches, worker pool
  "mappers/run", // the map engine: reading, mapping in workers, outcomes, journal
  "client", // requests and responses, retries, tokens
  "send", // the send engine: plans, outcomes, in-doubt records
  "report", // the ledger's queries rendered
  "service", // the reference service, with its own store
  "testing", // the kit: arbitraries and the model of the service
  "cli" // thin commands
]

/** The layer of a file (relative to `src/`, `/`-separated), or `undefined` for the entries (`index.ts`). */
export const layerOf = (file: string): string | undefined => {
  let best: string | undefined
  for (const layer of LAYERS) if (file.startsWith(`${layer}/`) && (best === undefined || layer.length > best.length)) best = layer
  return best
}

/** Every `.ts` file below `dir`, as absolute paths. */
export const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** One import of a file: the module named, and whether only types are imported (`import type`, `export type`: erased). */
export interface ImportOf {
  readonly specifier: string
  readonly typeOnly: boolean
}

/** Every module a file names: static imports and exports, `import(…)` calls and `import("…")` types. */
export const importsOf = (text: string): Array<ImportOf> =>
  [...text.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)/gmu)].map((m) =>
    m[4] !== undefined ? { specifier: m[4], typeOnly: false } : { specifier: m[3]!, typeOnly: m[2] !== undefined }
  )

/** The file (relative to `src/`) a relative specifier of `file` names. */
export const targetOf = (file: string, specifier: string): string =>
  relative(SRC, resolve(join(file, ".."), specifier)).replace(/\.js$/u, ".ts").split("\\").join("/")

/** The relative imports of every file of `src/`: from, to (both relative to `src/`), type only. */
export const sourceImports = (): Array<{ readonly from: string; readonly to: string; readonly typeOnly: boolean }> =>
  sourceFiles(SRC).flatMap((file) =>
    importsOf(readFileSync(file, "utf8"))
      .filter((i) => i.specifier.startsWith("."))
      .map((i) => ({ from: relative(SRC, file).split("\\").join("/"), to: targetOf(file, i.specifier), typeOnly: i.typeOnly }))
  )

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
