/**
 * data-import-payloads: the Customer Data Import API (`/v1/data-import/…`) contract as code.
 *
 * - Schemas (Effect Schema) for every request, response and error body of the 14 endpoints.
 * - `validatePayload` / `validateResponse`: total validation answered in the API's 400 shape.
 * - The endpoint catalogue and `buildPath`.
 * - The client: sans-IO `buildRequest` / `parseResponse`, and `createClient` over `fetch` with retries.
 *
 * @module
 */
export * from "./schemas/index.js"

export {
  type EndpointDefinition,
  endpoints,
  type QueryParameterDefinition,
  type ResponseDefinition,
  type RetryAdvice
} from "./endpoints/catalogue.js"
export {
  ENDPOINT_IDS,
  type EndpointId,
  type GetEndpointId,
  isEndpointId,
  POST_ENDPOINT_IDS,
  type PostEndpointId,
  type RequestOf,
  type ResponseOf,
  type StatusOf
} from "./endpoints/endpoint-id.js"
export { buildPath, encodePathSegment } from "./endpoints/build-path.js"

export {
  ADDITIONAL_FIELD,
  ERROR_CODES,
  type ErrorCode,
  NON_FIELD_ERRORS,
  PAYLOAD_FAILED_VALIDATION,
  WARNING_CODES,
  type WarningCode
} from "./validation/codes.js"
export type {
  PayloadError,
  PayloadErrorBody,
  PayloadWarning,
  ValidatePayloadOptions,
  ValidationFailure,
  ValidationResult,
  ValidationSuccess
} from "./validation/result.js"
export { validatePayload } from "./validation/validate-payload.js"
export { type CompileValidatorOptions, compileValidator, type PayloadValidator } from "./validation/compile-validator.js"
export {
  type ResponseValidationResult,
  type ResponseWarning,
  type ValidateResponse,
  type ValidateResponseOptions,
  validateResponse
} from "./validation/validate-response.js"
export { PayloadValidationError, validatePayloadEffect } from "./validation/validate-payload-effect.js"

export * from "./mappers/index.js"

export { buildRequest, effectiveQuery, type HttpRequest, type RequestTarget } from "./client/build-request.js"
export { type ParseResponseOptions, parseResponse, parseRetryAfter } from "./client/parse-response.js"
export type { ItemOutcome, ItemResult, ResponseOutcome, ResponseOutcomeKind, SendOutcome } from "./client/outcome.js"
export { isRepeatHarmless, REPEAT_IS_HARMLESS } from "./client/repeat-is-harmless.js"
export {
  backoffDelay,
  createRetryBudget,
  type RetryBudget,
  type RetryPolicy,
  STANDARD_RETRY_POLICY
} from "./client/retry-policy.js"
export {
  checkBaseUrl,
  type Client,
  type ClientClock,
  type ClientOptions,
  createClient,
  InsecureBaseUrlError,
  type SendOptions
} from "./client/create-client.js"

export {
  type PayloadIssue,
  type PayloadStandardProps,
  type PayloadStandardResult,
  type PayloadStandardSchema,
  standardSchema
} from "./standard-schema/standard-schema.js"
export { type JsonSchemaDocument, toJsonSchema } from "./json-schema/to-json-schema.js"
export { mappingJsonSchema } from "./json-schema/mapping-json-schema.js"
export {
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
  toOpenApi
} from "./json-schema/to-open-api.js"
