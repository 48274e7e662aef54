/**
 * Validation of response bodies against the statuses each endpoint documents.
 *
 * @module
 */
import { type Schema, SchemaAST } from "effect"
import { endpoints, type EndpointDefinition } from "../schemas/endpoints/catalogue.js"
import { type EndpointId, isEndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { ApiError } from "../schemas/errors.js"
import { type ADDITIONAL_FIELD, NON_FIELD_ERRORS, type WarningCode } from "./codes.js"
import type { ValidationFailure, ValidationResult, ValidationSuccess } from "./result.js"
import { additionalFields, runValidation, toValidationErrorBody } from "./run-validation.js"

/**
 * Options of `validateResponse`.
 *
 * @since 0.1.0
 */
export interface ValidateResponseOptions {
  /**
   * A field the contract does not name: `"error"` (default, `unknown_field`) or `"warn"` (a warning
   * `additional_field`, and the body is valid). The spec says additions to existing endpoints may
   * appear, and the real API sends fields the spec does not name, so a client reads with `"warn"`.
   */
  readonly additionalFields?: "error" | "warn"
}

/**
 * A warning about a response body: one a payload can have, or a field the contract does not name.
 *
 * @since 0.1.0
 */
export interface ResponseWarning extends ApiError {
  readonly code: WarningCode | typeof ADDITIONAL_FIELD
}

/**
 * What `validateResponse` returns: a validation result whose warnings may name additional fields.
 *
 * @since 0.1.0
 */
export type ResponseValidationResult<A> =
  & (Omit<ValidationSuccess<A>, "warnings"> | Omit<ValidationFailure, "warnings">)
  & { readonly warnings: ReadonlyArray<ResponseWarning> }

const fail = (detail: string): ValidationResult<never> => ({
  ok: false,
  error: toValidationErrorBody([{ detail, code: "invalid", attr: NON_FIELD_ERRORS }]),
  warnings: []
})

/**
 * `validateResponse`: with `{ additionalFields: "warn" }`, the warnings may name additional fields.
 *
 * @since 0.1.0
 */
export interface ValidateResponse {
  (endpointId: EndpointId, status: number, body: unknown, options?: { readonly additionalFields?: "error" }): ValidationResult<unknown>
  (endpointId: EndpointId, status: number, body: unknown, options: ValidateResponseOptions): ResponseValidationResult<unknown>
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
 *
 * @since 0.1.0
 */
export const validateResponse: ValidateResponse = ((
  endpointId: EndpointId,
  status: number,
  body: unknown,
  options?: ValidateResponseOptions
): ResponseValidationResult<unknown> => {
  if (!isEndpointId(endpointId)) return fail(`Unknown endpoint id: ${String(endpointId)}.`)
  const endpoint: EndpointDefinition = endpoints[endpointId]
  const response = Object.hasOwn(endpoint.responses, status) ? endpoint.responses[status] : undefined
  if (response === undefined) {
    const documented = Object.keys(endpoint.responses).join(", ")
    return fail(`Status ${String(status)} is not documented for ${endpointId} (documented: ${documented}).`)
  }
  const additional = options?.additionalFields ?? "error"
  const result = runValidation(response.schema, body, { rootMustBeObject: false, additionalFields: additional })
  if (!result.ok) return closestShape(response.schema, body, additional) ?? result
  return additional === "warn" ? { ...result, warnings: [...result.warnings, ...additionalFields(body, result.value)] } : result
}) as ValidateResponse

const errorCount = (result: ValidationResult<unknown>): number => (result.ok ? 0 : result.error.errors.length)

/**
 * For a body of several documented shapes (the transactions 400: a validation error body or a
 * `TransactionImportError`), the failure against the shape it comes closest to (fewest errors; the first
 * shape on a tie), rather than the errors against every shape at once.
 */
const closestShape = (schema: Schema.Top, body: unknown, additional: "error" | "warn"): ValidationResult<unknown> | undefined => {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, only a union has `members`, so any one of the three tests alone already refuses every other schema
  if (!SchemaAST.isUnion(schema.ast) || !("members" in schema) || !Array.isArray(schema.members)) return undefined
  const members = schema.members as ReadonlyArray<Schema.Top>
  // Stryker disable next-line ConditionalExpression,MethodExpression: equivalent for the documented responses, whose one union (the transactions 400) has object members only
  if (!members.every((member) => SchemaAST.isObjects(member.ast))) return undefined
  return members
    .map((member) => runValidation<unknown>(member, body, { rootMustBeObject: false, additionalFields: additional }))
    .reduce((best, next) => (errorCount(next) < errorCount(best) ? next : best))
}
