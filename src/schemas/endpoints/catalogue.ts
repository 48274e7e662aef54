/**
 * The endpoints of the Customer Data Import API as data: method, path template, parameters, request
 * schema, response schemas by status, and what a client should do on each error status. Everything that
 * needs "the schema of endpoint X" reads it from here. Each entry is declared beside its resource
 * (`src/schemas/<resource>/`) and registered in `src/schemas/registry.ts`.
 *
 * @module
 */
import type { EndpointDefinition } from "../endpoint-definition.js"
import resources from "../registry.js"

export type {
  EndpointDefinition,
  NaturalKey,
  QueryParameterDefinition,
  RepeatRule,
  ResponseDefinition,
  RetryAdvice,
  ServiceBehaviour,
  UniqueInInput
} from "../endpoint-definition.js"

/**
 * The catalogue of every endpoint, keyed by endpoint id (the path segment after `/v1/data-import/`).
 *
 * @example
 * endpoints["payment-instruction"].responses[500].retry // "retry-as-is"
 *
 * @since 0.1.0
 */
export const endpoints = resources.endpoints satisfies Record<string, EndpointDefinition>
