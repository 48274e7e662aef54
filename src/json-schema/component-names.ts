/**
 * Names for the sub-schemas of the JSON Schema and OpenAPI exports: every object schema of the public
 * `Schemas` namespace (`Note`, `Transaction`, `InvoiceAddress`, …; src/schemas/index.ts lists them) becomes
 * a named definition under its name there, so the exported documents read like the TypeScript API. Primitive schemas (dates, decimal strings, …)
 * stay inline: a `$ref` for `{ "type": "string", "pattern": "\\S" }` would only hide what it checks.
 *
 * @module
 */
import { Schema, type SchemaAST, type SchemaRepresentation } from "effect"
import * as schemas from "../schemas/index.js"

let objectNames: ReadonlyMap<SchemaAST.AST, string> | undefined
let allNames: ReadonlyMap<SchemaAST.AST, string> | undefined

const collect = (keep: (ast: SchemaAST.AST) => boolean): ReadonlyMap<SchemaAST.AST, string> => {
  const names = new Map<SchemaAST.AST, string>()
  // A namespace object lists its exports alphabetically, so an alias (`DeliveryNoteResponse` is
  // `DeliveryNoteRequest`) always gets the same, first name.
  for (const [name, value] of Object.entries(schemas)) {
    if (!Schema.isSchema(value) || !keep(value.ast)) continue
    // The exports describe the canonical JSON codec, which is a copy wherever a schema holds a non-JSON
    // part (`Schema.Unknown` in `paid_in_advance_amounts`): name both.
    for (const ast of [value.ast, Schema.toCodecJson(value).ast]) if (!names.has(ast)) names.set(ast, name)
  }
  return names
}

/** Export names of the library's object schemas, by AST (identity survives `optionalKey` copies). */
export const objectSchemaNames = (): ReadonlyMap<SchemaAST.AST, string> =>
  (objectNames ??= collect((ast) => ast._tag === "Objects"))

/** Export names of every exported schema, by AST: used to name the roots of the OpenAPI document. */
export const exportedSchemaNames = (): ReadonlyMap<SchemaAST.AST, string> => (allNames ??= collect(() => true))

/**
 * A reference policy that extracts the named object schemas, except the ones in `inline` (the root of a
 * standalone document stays at the top, where readers look for it).
 */
export const namedObjects = (
  extra: ReadonlyMap<SchemaAST.AST, string> = new Map(),
  inline: ReadonlySet<SchemaAST.AST> = new Set()
): SchemaRepresentation.ReferencePolicy =>
({ ast }) => inline.has(ast) ? undefined : extra.get(ast) ?? objectSchemaNames().get(ast)
