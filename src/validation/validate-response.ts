/**
 * Validation of response bodies against the statuses each endpoint documents.
 *
 * @module
 */
import { type Schema, SchemaAST } from "effect"
import { endpoints, type EndpointDefinition } from "../endpoints/catalogue.js"
import { type EndpointId, isEndpointId } from "../endpoints/endpoint-id.js"
import { NON_FIELD_ERRORS } from "./codes.js"
import type { ValidationResult } from "./result.js"
import { runValidation, toValidationErrorBody } from "./run-validation.js"

const fail = (detail: string): ValidationResult<never> => ({
  ok: false,
  error: toValidationErrorBody([{ detail, code: "invalid", attr: NON_FIELD_ERRORS }]),
  warnings: []
})

/**
 * Validates a response body of an endpoint for an HTTP status. A status the endpoint does not document
 * is itself an error. Total, like `validatePayload`.
 *
 * @example
 * validateResponse("transactions", 201, { results: [] }).ok // true
 */
export const validateResponse = (endpointId: EndpointId, status: number, body: unknown): ValidationResult<unknown> => {
  if (!isEndpointId(endpointId)) return fail(`Unknown endpoint id: ${String(endpointId)}.`)
  const endpoint: EndpointDefinition = endpoints[endpointId]
  const response = Object.hasOwn(endpoint.responses, status) ? endpoint.responses[status] : undefined
  if (response === undefined) {
    const documented = Object.keys(endpoint.responses).join(", ")
    return fail(`Status ${String(status)} is not documented for ${endpointId} (documented: ${documented}).`)
  }
  const result = runValidation(response.schema, body, { rootMustBeObject: false })
  return result.ok ? result : closestShape(response.schema, body) ?? result
}

const errorCount = (result: ValidationResult<unknown>): number => (result.ok ? 0 : result.error.errors.length)

/**
 * For a body of several documented shapes (the transactions 400: a validation error body or a
 * `TransactionImportError`), the failure against the shape it comes closest to (fewest errors; the first
 * shape on a tie), rather than the errors against every shape at once.
 */
const closestShape = (schema: Schema.Top, body: unknown): ValidationResult<unknown> | undefined => {
  if (!SchemaAST.isUnion(schema.ast) || !("members" in schema) || !Array.isArray(schema.members)) return undefined
  const members = schema.members as ReadonlyArray<Schema.Top>
  if (!members.every((member) => SchemaAST.isObjects(member.ast))) return undefined
  return members
    .map((member) => runValidation<unknown>(member, body, { rootMustBeObject: false }))
    .reduce((best, next) => (errorCount(next) < errorCount(best) ? next : best))
}
