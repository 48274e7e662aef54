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

/** Options of `validateResponse`. */
export interface ValidateResponseOptions {
  /**
   * A field the contract does not name: `"error"` (default, `unknown_field`) or `"warn"` (a warning
   * `additional_field`, and the body is valid). The spec says additions to existing endpoints may
   * appear, and the real API sends fields the spec does not name, so a client reads with `"warn"`.
   */
  readonly additionalFields?: "error" | "warn"
}

/**
 * Validates a response body of an endpoint for an HTTP status. A status the endpoint does not document
 * is itself an error. Total, like `validatePayload`.
 *
 * @example
 * validateResponse("transactions", 201, { results: [] }).ok // true
 * const read = validateResponse("account-transfer-status", 200,
 *   { status: "COMPLETED", service_account_number: "A-1", kraken_account_number: "A-1" }, { additionalFields: "warn" })
 * read.ok // true; read.warnings: [{ attr: "kraken_account_number", code: "additional_field", … }]
 */
export const validateResponse = (
  endpointId: EndpointId,
  status: number,
  body: unknown,
  options?: ValidateResponseOptions
): ValidationResult<unknown> => {
  if (!isEndpointId(endpointId)) return fail(`Unknown endpoint id: ${String(endpointId)}.`)
  const endpoint: EndpointDefinition = endpoints[endpointId]
  const response = Object.hasOwn(endpoint.responses, status) ? endpoint.responses[status] : undefined
  if (response === undefined) {
    const documented = Object.keys(endpoint.responses).join(", ")
    return fail(`Status ${String(status)} is not documented for ${endpointId} (documented: ${documented}).`)
  }
  return runValidation(response.schema, body, { rootMustBeObject: false, additionalFields: options?.additionalFields })
}
