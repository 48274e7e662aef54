/**
 * The JSON Schema of a mapping file, for editors: point a mapping's `$schema` at it (or configure the
 * editor) to get completion and checks of keys, converters and their options while writing it.
 *
 * @module
 */
import { JsonSchema, Schema } from "effect"
import { MappingJsonSchema } from "./mapping-schema.js"
import type { JsonSchemaDocument } from "../schemas/json-schema/to-json-schema.js"

let cached: string | undefined

/**
 * The JSON Schema (draft 2020-12) of a `data-import map` mapping file, generated from the same Effect
 * schema that checks mappings. Objects are closed, so an editor flags a misspelt key.
 *
 * @example
 * import { writeFileSync } from "node:fs"
 * writeFileSync("mapping.schema.json", JSON.stringify(mappingJsonSchema(), null, 2))
 * mappingJsonSchema().$schema // => "https://json-schema.org/draft/2020-12/schema"
 *
 * @since 0.1.0
 */
export const mappingJsonSchema = (): JsonSchemaDocument => {
  if (cached === undefined) {
    const document = Schema.toJsonSchemaDocument(MappingJsonSchema, { onExcessProperty: "error" })
    cached = JSON.stringify({
      $schema: JsonSchema.META_SCHEMA_URI_DRAFT_2020_12,
      title: "data-import mapping",
      description: "How the rows of a legacy export become payloads of one endpoint (data-import map --mapping).",
      ...document.schema,
      $defs: document.definitions
    })
  }
  return JSON.parse(cached) as JsonSchemaDocument
}
