/**
 * OpenAPI component names come from the schemas' `identifier` annotations: the set of names is pinned
 * here, so a renamed or added component is a deliberate change, and no two different schemas may carry
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
  it("are exactly these (a change here is a change of the published document)", () => {
    expect(Object.keys(toOpenApi().components.schemas).sort()).toEqual([
      "AccountImportProcess",
      "AccountTransferStatusResponse",
      "AllAccountImportProcessesResponse",
      "ApiError",
      "ArticlePrice",
      "DeliveryNote",
      "DeliveryNoteAmount",
      "DeliveryNoteRequest",
      "DetailBody",
      "EnergyAmount",
      "EnergyAmountRequest",
      "HistoricalStatement",
      "HistoricalStatementsRequest",
      "ImportedAccountImportProcessesResponse",
      "IntervalZone",
      "InvoiceAddress",
      "InvoiceLineItem",
      "InvoiceTaxAmount",
      "MarketParticipantContact",
      "MarketParticipantDefinitionsRequest",
      "MarketParticipantFeesRequest",
      "MarketParticipantInvoice",
      "MarketParticipantInvoiceRequest",
      "MarketParticipantRequest",
      "NotFoundErrorBody",
      "Note",
      "NoteDocument",
      "NoteResult",
      "NotesRequest",
      "NotesResponse",
      "PaidInAdvanceAmount",
      "PaymentInstructionRequest",
      "PaymentInstructionResponse",
      "PendingAccountImportProcess",
      "PendingAccountImportProcessesResponse",
      "PriceSheet",
      "RolledOutDefinition",
      "RolledOutDefinitionEntry",
      "TimeDefinition",
      "TimeDefinitionRegister",
      "Transaction",
      "TransactionData",
      "TransactionImportError",
      "TransactionLineItem",
      "TransactionResult",
      "TransactionTaxItem",
      "TransactionsRequest",
      "TransactionsResponse",
      "TransactionsResponse400",
      "ValidationErrorBody"
    ])
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
