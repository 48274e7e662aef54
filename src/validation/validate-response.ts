/**
 * Validation of response bodies against the statuses each endpoint documents.
 *
 * @module
 */
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
  return runValidation(response.schema, body, { rootMustBeObject: false })
}
