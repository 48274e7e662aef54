/**
 * Every schema of the contract: the public `Schemas` namespace of the main entry. The shared building
 * blocks and error bodies are listed here; each resource's schemas come from the registry
 * (src/schemas/registry.ts), whose named exports are exactly the resource modules' schemas. The OpenAPI and
 * JSON Schema exports name their components after these names.
 *
 * @module
 */

// The shared building blocks.
export {
  AccountIdentification,
  DecimalString,
  DocumentPath,
  EmailAddress,
  ExternalAccountNumber,
  ImportSupplierCode,
  IsoDate,
  IsoDateTime,
  JsonInteger,
  JsonNumber,
  MaloNumber,
  MarketParticipantCode,
  NetworkOperatorCode,
  NonBlankString,
  PhoneNumber
} from "./conventions.js"

// Error bodies.
export { ApiError, DetailBody, NotFoundErrorBody, UndocumentedBody, ValidationErrorBody } from "./errors.js"

// Every resource's schemas, one module per resource (src/schemas/<resource>/), in the spec's order.
export * from "./registry.js"
