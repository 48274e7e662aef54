/**
 * Names for the sub-schemas of the JSON Schema and OpenAPI exports: every object schema of the public
 * `Schemas` namespace carries its export name as its `identifier` annotation (`Note`, `Transaction`,
 * `InvoiceAddress`, …), and becomes a named definition under that name, so the exported documents read
 * like the TypeScript API. Primitive schemas (dates, decimal strings, …) stay inline: a `$ref` for
 * `{ "type": "string", "pattern": "\\S" }` would only hide what it checks.
 *
 * @module
 */
import { SchemaAST, type SchemaRepresentation } from "effect"

/**
 * The `identifier` annotation of a schema: its component name (the export name under `Schemas`).
 *
 * @example
 * identifierOf(Schemas.Note.ast) // => "Note"
 * identifierOf(Schemas.IsoDate.ast) // => undefined
 */
export const identifierOf = (ast: SchemaAST.AST): string | undefined => {
  const identifier = SchemaAST.resolveIdentifier(ast)
  return typeof identifier === "string" ? identifier : undefined
}

/**
 * A reference policy that extracts the object schemas with an identifier, and the schemas named in
 * `extra`, except the ones in `inline` (the root of a standalone document stays at the top, where readers
 * look for it).
 */
export const namedObjects = (
  extra: ReadonlyMap<SchemaAST.AST, string> = new Map(),
  inline: ReadonlySet<SchemaAST.AST> = new Set()
): SchemaRepresentation.ReferencePolicy =>
({ ast }) => inline.has(ast) ? undefined : extra.get(ast) ?? (ast._tag === "Objects" ? identifierOf(ast) : undefined)
