/**
 * OpenAPI component names come from the schemas' `identifier` annotations, each a name of the public
 * `Schemas` that test/public-api.test.ts pins (or an inline response's `<Endpoint>Response<status>`), so a
 * renamed or added component is a deliberate change, and no two different schemas may carry
 * the same identifier (one component would silently stand for both).
 */
import { Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, endpoints, Schemas, toOpenApi } from "../../../src/index.js"

const identifierOf = (ast: SchemaAST.AST): string | undefined => {
  const identifier = SchemaAST.resolveIdentifier(ast)
  return typeof identifier === "string" ? identifier : undefined
}

/** Every AST under a schema's type side (properties, index signatures, list items, union members). */
const walk = (ast: SchemaAST.AST, visit: (ast: SchemaAST.AST) => void, seen = new Set<SchemaAST.AST>()): void => {
  if (seen.has(ast)) return
  seen.add(ast)
  visit(ast)
  const children: Array<SchemaAST.AST> = []
  if (SchemaAST.isObjects(ast)) {
    children.push(...ast.propertySignatures.map((p) => p.type))
    for (const index of ast.indexSignatures) children.push(index.parameter, index.type)
  } else if (SchemaAST.isArrays(ast)) children.push(...ast.elements, ...ast.rest)
  else if (SchemaAST.isUnion(ast)) children.push(...ast.types)
  for (const child of children) walk(child, visit, seen)
}

/** The JSON Schema of an AST with every reference inlined: what the schema checks, whatever its copy. */
const shapeOf = (ast: SchemaAST.AST): string =>
  JSON.stringify(
    Schema.toJsonSchemaDocument(Schema.make(ast), { onExcessProperty: "error", referencePolicy: () => undefined }).schema
  )

/** The identifiers that two schemas of different shape carry, among all schemas under `roots`. */
const sharedIdentifiers = (roots: ReadonlyArray<Schema.Top>): Array<string> => {
  const shapes = new Map<string, Set<string>>()
  for (const root of roots) {
    walk(root.ast, (ast) => {
      const identifier = identifierOf(ast)
      if (identifier !== undefined) {
        const set = shapes.get(identifier) ?? new Set()
        set.add(shapeOf(ast))
        shapes.set(identifier, set)
      }
    })
  }
  return [...shapes].filter(([, set]) => set.size > 1).map(([identifier]) => identifier)
}

const exported: Array<[string, Schema.Top]> = Object.entries(Schemas as Record<string, unknown>).flatMap(([name, value]) =>
  Schema.isSchema(value) ? [[name, value] as [string, Schema.Top]] : []
)

describe("OpenAPI component names", () => {
  it("are the names of Schemas, which test/public-api.test.ts pins, or name an inline response of the catalogue by its endpoint and status", () => {
    // So a renamed or added component is a deliberate change of the published document: of the pinned
    // Schemas, or of the catalogue, which catalogue.test.ts holds to docs/api.md.
    const components = Object.keys(toOpenApi().components.schemas)
    const inlineResponses = new Set(ENDPOINT_IDS.flatMap((id) => Object.keys(endpoints[id].responses).map((status) =>
      `${id.split("-").map((word) => word[0]!.toUpperCase() + word.slice(1)).join("")}Response${status}`
    )))
    expect(components.filter((name) => !Object.hasOwn(Schemas, name) && !inlineResponses.has(name))).toEqual([])
    // Worked out from the catalogue: every request is named, and the transactions 400 (a union, with no name of its own) is inline.
    for (const name of ["NotesRequest", "TransactionsRequest", "MarketParticipantFeesRequest", "ValidationErrorBody", "TransactionsResponse400"]) {
      expect(components).toContain(name)
    }
    expect(components.length).toBeGreaterThan(40)
  })

  it("are the export names: a schema's identifier is the name it is exported under (or the name of the schema it aliases)", () => {
    const identified = exported.filter(([, schema]) => identifierOf(schema.ast) !== undefined)
    expect(identified.length).toBeGreaterThan(40)
    for (const [name, schema] of identified) {
      const identifier = identifierOf(schema.ast)!
      expect(identifier === name || (Schemas as Record<string, unknown>)[identifier] === schema, name).toBe(true)
    }
  })

  it("are carried by every object schema of Schemas (without one, a request would still get its name from the endpoint, and the loss would go unseen)", () => {
    const objects = exported.filter(([, schema]) => SchemaAST.isObjects(schema.ast))
    expect(objects.length).toBeGreaterThan(40)
    // AccountIdentification is never a node of a document: requests spread its fields.
    expect(objects.filter(([, schema]) => identifierOf(schema.ast) === undefined).map(([name]) => name)).toEqual(["AccountIdentification"])
  })

  it("are never shared by two different schemas", () => {
    const roots = [
      ...exported.map(([, schema]) => schema),
      ...ENDPOINT_IDS.flatMap((id) => [endpoints[id].request, ...Object.values(endpoints[id].responses).map((r) => r.schema)])
    ]
    expect(sharedIdentifiers(roots)).toEqual([])
  })

  it("a shared identifier is found (the check above can fail)", () => {
    const a = Schema.Struct({ a: Schema.String }).annotate({ identifier: "Same" })
    const b = Schema.Struct({ b: Schema.String }).annotate({ identifier: "Same" })
    const c = Schema.Struct({ inner: a, other: Schema.optionalKey(a) })
    expect(sharedIdentifiers([c])).toEqual([])
    expect(sharedIdentifiers([Schemas.Note, c, Schema.Array(b)])).toEqual(["Same"])
  })
})
