/**
 * Pre-flight validation of a request, answered in the API's own 400 shape.
 *
 * @module
 */
import { endpoints, type EndpointDefinition } from "../schemas/endpoints/catalogue.js"
import { type EndpointId, isEndpointId, type RequestOf } from "../schemas/endpoints/endpoint-id.js"
import { NON_FIELD_ERRORS } from "./codes.js"
import type { ValidatePayloadOptions, ValidationResult } from "./result.js"
import { runValidation, toValidationErrorBody } from "./run-validation.js"

/**
 * Validates a request of an endpoint: the JSON body of a POST endpoint, or the path parameters
 * (`{ import_supplier_code, … }`) of a GET endpoint. Total: any input gives a result, never an exception,
 * and the input is not modified.
 *
 * @example
 * const result = validatePayload("energy-amount", { ...JSON.parse(line), import_supplier: "" })
 * if (!result.ok) for (const e of result.error.errors) console.log(e.attr, e.code, e.detail)
 * // import_supplier blank This field may not be blank.
 *
 * @since 0.1.0
 */
export const validatePayload = <E extends EndpointId>(
  endpointId: E,
  input: unknown,
  options?: ValidatePayloadOptions
): ValidationResult<RequestOf<E>> => validateRequest(endpointId, input, options, false)

/**
 * {@link validatePayload}, told whether the input comes straight from `JSON.parse` (then its property
 * descriptors are not walked for getters and inherited keys: it has none).
 */
export const validateRequest = <E extends EndpointId>(
  endpointId: E,
  input: unknown,
  options: ValidatePayloadOptions | undefined,
  inputIsJson: boolean
): ValidationResult<RequestOf<E>> => {
  if (!isEndpointId(endpointId)) {
    return {
      ok: false,
      error: toValidationErrorBody([{
        detail: `Unknown endpoint id: ${String(endpointId)}.`,
        code: "invalid",
        attr: NON_FIELD_ERRORS
      }]),
      warnings: []
    }
  }
  const endpoint: EndpointDefinition = endpoints[endpointId]
  return runValidation<RequestOf<E>>(endpoint.request, input, {
    rootMustBeObject: true,
    inputIsJson,
    now: options?.now
  })
}
