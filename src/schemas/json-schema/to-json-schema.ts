/**
 * The request of an endpoint as a standalone JSON Schema (draft 2020-12), generated from the same Effect
 * schemas that `validatePayload` decodes with, for tooling that is not written in TypeScript.
 *
 * @module
 */
import { JsonSchema, Schema } from "effect"
import { endpoints } from "../endpoints/catalogue.js"
import { type EndpointId, isEndpointId } from "../endpoints/endpoint-id.js"
import { namedObjects } from "./component-names.js"

/**
 * A standalone JSON Schema document: `$schema` (draft 2020-12), the root schema, and its `$defs`.
 *
 * @example
 * const document: JsonSchemaDocument = toJsonSchema("notes")
 * document.$defs["Note"]?.type // => "object"
 *
 * @since 0.1.0
 */
export interface JsonSchemaDocument extends JsonSchema.JsonSchema {
  readonly $schema: typeof JsonSchema.META_SCHEMA_URI_DRAFT_2020_12
  readonly title: string
  readonly description: string
  readonly $defs: JsonSchema.Definitions
}

const cache = new Map<EndpointId, string>()

/**
 * The JSON Schema (draft 2020-12) of an endpoint's request: the JSON body of a POST endpoint, or the path
 * parameters object of a GET endpoint (what `validatePayload` checks). Objects are closed
 * (`additionalProperties: false`) and list their `required` keys; strings carry their `pattern`s, dates and
 * datetimes their `format` (`date`, `date-time`), bounded identifiers their `maxLength` (in code points);
 * non-empty lists have `minItems`; "a body or document paths", the SUPPLY_CHARGE fields, the two `units`
 * and "definitions or rolled-out definitions" are written as `anyOf` / `if`-`then` / `minItems`.
 *
 * What JSON Schema cannot say is left to `validatePayload`: start before end (datetimes compared as
 * instants), `unpin_at` not before `created_at`, `lower_bound` not above `upper_bound`, unique
 * `transaction_id`s, `transaction_in_future` (needs a clock), and every warning. The calendar check (no
 * `2023-02-29`) is expressed by `format`, so the validator must assert formats (ajv: `ajv-formats`).
 *
 * Each call returns a fresh object. Throws a `TypeError` for an unknown endpoint id.
 *
 * @example
 * import { writeFileSync } from "node:fs"
 * import { toJsonSchema } from "data-import-payloads"
 *
 * writeFileSync("energy-amount.schema.json", JSON.stringify(toJsonSchema("energy-amount"), null, 2))
 * toJsonSchema("energy-amount").required // => ["import_supplier", "external_account_number", "energy_amount"]
 *
 * @since 0.1.0
 */
export const toJsonSchema = (endpointId: EndpointId): JsonSchemaDocument => {
  if (!isEndpointId(endpointId)) throw new TypeError(`Unknown endpoint id: ${String(endpointId)}`)
  let text = cache.get(endpointId)
  if (text === undefined) {
    const endpoint = endpoints[endpointId]
    const request: Schema.Top = endpoint.request
    const document = Schema.toJsonSchemaDocument(request, {
      onExcessProperty: "error",
      referencePolicy: namedObjects(new Map(), new Set([request.ast]))
    })
    const standalone: JsonSchemaDocument = {
      $schema: JsonSchema.META_SCHEMA_URI_DRAFT_2020_12,
      title: endpoint.requestKind === "body"
        ? `Request body of ${endpoint.method} ${endpoint.path}`
        : `Path parameters of ${endpoint.method} ${endpoint.path}`,
      description: `${endpoint.summary} Generated from the data-import-payloads schemas (endpoint id ${endpointId}).`,
      ...document.schema,
      $defs: document.definitions
    }
    text = JSON.stringify(standalone)
    cache.set(endpointId, text)
  }
  return JSON.parse(text) as JsonSchemaDocument
}
