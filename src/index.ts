/**
 * data-import-payloads: the Customer Data Import API (`/v1/data-import/…`) contract as code.
 *
 * The public API, by concern (each name is documented in its module):
 *
 * - **Schemas**: every request, response and error body of every endpoint, as Effect schemas.
 * - **Endpoints**: the catalogue (method, path, request schema, responses, retry advice) and its ids.
 * - **Validation**: total validation answered in the API's 400 shape, with located warnings.
 * - **Mapping**: legacy rows to payloads, with value converters that never guess.
 * - **Client**: sans-IO `buildRequest` / `parseResponse`, and `createClient` over `fetch` with retries.
 * - **Export formats**: Standard Schema, JSON Schema and OpenAPI, derived from the same schemas.
 *
 * Generators of payloads for property tests are in the testing entry, `data-import-payloads/testing`.
 *
 * @module
 */

// Schemas ─────────────────────────────────────────────────────────────────────────────────────────────
import * as Schemas from "./schemas/index.js"

/**
 * Every schema of the contract, by the spec's names: request bodies (`NotesRequest`, …), response bodies
 * (`NotesResponse`, …), error bodies (`ValidationErrorBody`, …), the objects inside them (`Note`,
 * `Transaction`, …) and the shared building blocks (`IsoDate`, `DecimalString`, …). Each name is also
 * the type of its decoded value (`Schemas.Note`).
 *
 * @example
 * import { Schema } from "effect"
 * Schema.is(Schemas.IsoDate)("2024-02-29") // => true
 * const note: Schemas.Note = { body: "Rückruf erbeten" }
 *
 * @since 0.1.0
 */
export { Schemas }
export type { ApiError, NotFoundErrorBody, ValidationErrorBody } from "./schemas/errors.js"

// Endpoints ───────────────────────────────────────────────────────────────────────────────────────────
export {
  type EndpointDefinition,
  endpoints,
  type QueryParameterDefinition,
  type ResponseDefinition,
  type RetryAdvice
} from "./schemas/endpoints/catalogue.js"
export {
  ENDPOINT_IDS,
  type EndpointId,
  type GetEndpointId,
  isEndpointId,
  isPostEndpointId,
  POST_ENDPOINT_IDS,
  type PostEndpointId,
  type RequestOf,
  type ResponseOf,
  type StatusOf
} from "./schemas/endpoints/endpoint-id.js"
export { buildPath, pathParameterProblem } from "./schemas/endpoints/build-path.js"
export { type EndpointInference, inferEndpoint } from "./schemas/endpoints/infer-endpoint.js"

// Validation ──────────────────────────────────────────────────────────────────────────────────────────
export { ERROR_CODES, type ErrorCode, NON_FIELD_ERRORS, WARNING_CODES, type WarningCode } from "./validation/codes.js"
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
export { withExactNumbers } from "./validation/inexact-numbers.js"
export {
  type ResponseValidationResult,
  type ResponseWarning,
  type ValidateResponse,
  type ValidateResponseOptions,
  validateResponse
} from "./validation/validate-response.js"
export { PayloadValidationError, validatePayloadEffect } from "./validation/validate-payload-effect.js"

// Mapping ─────────────────────────────────────────────────────────────────────────────────────────────
export type { ConversionError, ConversionResult } from "./mappers/conversion-result.js"
export { toBoolean, type ToBooleanOptions } from "./mappers/to-boolean.js"
export {
  type DecimalLocale,
  type DecimalRounding,
  toDecimalString,
  type ToDecimalStringOptions
} from "./mappers/to-decimal-string.js"
export { type DateTimeFormat, toIsoDateTime, type ToIsoDateTimeOptions } from "./mappers/to-iso-date-time.js"
export { type DateFormat, toIsoDate, type ToIsoDateOptions } from "./mappers/to-iso-date.js"
export { fromMinorUnits, type MinorUnitsOptions, toMinorUnits } from "./mappers/to-minor-units.js"
export { compact } from "./mappers/compact.js"
export { type Converter, CONVERTERS } from "./mappers/converters.js"
export {
  type CollectionMapping,
  defineMapping,
  type Mapping,
  type MappingProblem,
  type MappingSpec,
  type RowFilter
} from "./mappers/define-mapping.js"
export type {
  Cell,
  ColumnSource,
  ConstantSource,
  ConverterName,
  FieldSource,
  FunctionSource,
  LegacyRecord
} from "./mappers/field-source.js"
export { mapRecords } from "./mappers/map-records.js"
export type { MappedPayload, MappingError, MappingEvent, MappingResult, MapRecordsOptions, RejectedRows } from "./mappers/mapping-result.js"

// Client ──────────────────────────────────────────────────────────────────────────────────────────────
export { buildRequest, type HttpRequest, type RequestTarget } from "./client/build-request.js"
export { type ParseResponseOptions, parseResponse } from "./client/parse-response.js"
export type { ItemOutcome, ItemResult, ResponseOutcome, ResponseOutcomeKind, SendOutcome } from "./client/outcome.js"
export { isRepeatHarmless } from "./client/repeat-is-harmless.js"
export { redactSecrets } from "./client/redact-secrets.js"
export { type RetryBudget, type RetryPolicy, STANDARD_RETRY_POLICY } from "./client/retry-policy.js"
export { TokenError } from "./client/token-source.js"
export {
  type Client,
  type ClientClock,
  type ClientOptions,
  createClient,
  InsecureBaseUrlError,
  type SendOptions
} from "./client/create-client.js"

// Sending a campaign ──────────────────────────────────────────────────────────────────────────────────
export { type KeyedRecord, recordsOf } from "./schemas/endpoints/natural-key.js"
export type { NaturalKey, UniqueInInput } from "./schemas/endpoint-definition.js"
export {
  type BlockedCause,
  type Ledger,
  type LedgerConflict,
  LedgerDamagedError,
  LedgerMismatchError,
  type LedgerOutcome,
  type LedgerRecord,
  type LedgerSighting,
  type OpenLedgerOptions,
  RECORD_OUTCOMES,
  type RecordOutcome,
  type RecordState,
  type UnidentifiedLine
} from "./ledger/ledger-types.js"
export { openLedger } from "./ledger/ledger.js"
export { campaignReport, type CampaignReportOptions } from "./report/campaign-report.js"
export { openReportSource, type ReportSource } from "./ledger/report-source.js"
export type { CampaignReport, Problem, ProblemKind, Tally } from "./report/report-types.js"
export type { Disposition } from "./send/plan-line.js"
export { OPTION_DECISIONS, type OptionDecision } from "./send/option-decisions.js"
export { readKeyList, type Resolution, resolveInDoubt, UnmatchedKeysError } from "./send/resolve-in-doubt.js"
export { type SendRecordsOptions, sendRecords, type SourceLine } from "./send/send-records.js"
export type { SendSummary } from "./send/send-summary.js"

// Export formats ──────────────────────────────────────────────────────────────────────────────────────
export {
  type PayloadIssue,
  type PayloadStandardProps,
  type PayloadStandardResult,
  type PayloadStandardSchema,
  standardSchema
} from "./validation/standard-schema.js"
export { type JsonSchemaDocument, toJsonSchema } from "./schemas/json-schema/to-json-schema.js"
export { mappingJsonSchema } from "./mappers/mapping-json-schema.js"
export {
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
  toOpenApi
} from "./schemas/json-schema/to-open-api.js"
