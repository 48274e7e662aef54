/**
 * Every export of the package's entries (`data-import-payloads`, `data-import-payloads/testing`, and the
 * members of the `Schemas` namespace) carries a JSDoc: what it is, `@since` (the version that brought it,
 * effect's convention), and for a function or a value an `@example` (run by examples.test.ts).
 */
import { join } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const ROOT = new URL("../../", import.meta.url).pathname
const ENTRIES = ["src/index.ts", "src/testing/index.ts"].map((entry) => join(ROOT, entry))

const program = ts.createProgram(ENTRIES, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true })
const checker = program.getTypeChecker()

interface Documented {
  readonly name: string
  readonly text: string
  readonly tags: ReadonlyArray<string>
  /** A value (function, constant, class): it needs an example; a type needs none. */
  readonly value: boolean
}

const documentedOf = (name: string, symbol: ts.Symbol): Documented => {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  // A namespace re-export (`export * as Schemas from …`) is documented on its export statement, as effect does:
  // the checker gives the module it names no JSDoc of its own.
  if (symbol.flags & ts.SymbolFlags.Alias && target.flags & ts.SymbolFlags.ValueModule) {
    const statement = ts.findAncestor(symbol.declarations?.[0], ts.isExportDeclaration)
    const docs = statement === undefined ? [] : ts.getJSDocCommentsAndTags(statement).filter(ts.isJSDoc)
    return {
      name,
      text: docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? "").join("\n").trim(),
      tags: docs.flatMap((d) => (d.tags ?? []).map((t) => t.tagName.text)),
      value: true
    }
  }
  return {
    name,
    text: ts.displayPartsToString(target.getDocumentationComment(checker)).trim(),
    tags: target.getJsDocTags(checker).map((tag) => tag.name),
    value: (target.flags & (ts.SymbolFlags.Value & ~ts.SymbolFlags.ValueModule)) !== 0
  }
}

/** The exports of an entry, and the members of the namespaces it exports (`Schemas`). */
const exportsOf = (entry: string): Array<Documented> => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!
  return checker.getExportsOfModule(module).flatMap((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    const own = documentedOf(symbol.name, symbol)
    if (!(target.flags & ts.SymbolFlags.ValueModule)) return [own]
    return [own, ...checker.getExportsOfModule(target).map((member) => documentedOf(`${symbol.name}.${member.name}`, member))]
  })
}

const ALL = ENTRIES.flatMap(exportsOf)

describe("every public export is documented", () => {
  it("finds the exports of both entries and the schemas of the Schemas namespace", () => {
    const names = ALL.map((d) => d.name)
    expect(names).toContain("validatePayload")
    expect(names).toContain("arbitraryPayload")
    expect(names).toContain("Schemas.EnergyAmountRequest")
    expect(ALL.length).toBeGreaterThan(150)
  })

  it("has a JSDoc saying what it is, with @since", () => {
    expect(ALL.filter((d) => d.text === "").map((d) => d.name)).toEqual([])
    expect(ALL.filter((d) => !d.tags.includes("since")).map((d) => d.name)).toEqual([])
  })

  it("has an @example when it is a value", () => {
    expect(ALL.filter((d) => d.value && !d.tags.includes("example")).map((d) => d.name)).toEqual([])
  })
})
