/**
 * Error bodies the API documents, and the placeholder for response bodies it does not describe.
 *
 * @module
 */
import { Schema } from "effect"

/**
 * One error (or warning) of a validation failure: what, a stable machine code, and where (`attr`).
 *
 * @example
 * Schema.is(Schemas.ApiError)({ detail: "This field may not be blank.", code: "blank", attr: "import_supplier" }) // => true
 * Schema.is(Schemas.ApiError)({ detail: "This field may not be blank.", code: "blank" }) // => false
 *
 * @since 0.1.0
 */
export const ApiError = Schema.Struct({
  detail: Schema.String,
  code: Schema.String,
  attr: Schema.String
}).annotate({ identifier: "ApiError" })
/** One error of a validation failure; `attr` is a dot path with zero-based indexes, or `non_field_errors`. */
export type ApiError = typeof ApiError.Type

/**
 * The API's 400 body: `{ detail, code, errors: [{ detail, code, attr }] }`.
 *
 * @example
 * const result = validatePayload("notes", { import_supplier: "STADTWERKE_NORD" })
 * !result.ok && Schema.is(Schemas.ValidationErrorBody)(result.error) // => true
 * Schema.is(Schemas.ValidationErrorBody)({ detail: "Invalid input.", code: "invalid" }) // => false
 *
 * @since 0.1.0
 */
export const ValidationErrorBody = Schema.Struct({
  detail: Schema.String,
  code: Schema.String,
  errors: Schema.Array(ApiError)
}).annotate({ identifier: "ValidationErrorBody" })
/** The API's 400 body. */
export type ValidationErrorBody = typeof ValidationErrorBody.Type

/**
 * 404 body of the delivery-note, energy-amount and invoice endpoints: the account was not found.
 *
 * @example
 * Schema.is(Schemas.NotFoundErrorBody)({ error: "Account not found." }) // => true
 * Schema.is(Schemas.NotFoundErrorBody)({ detail: "Not found." }) // => false
 *
 * @since 0.1.0
 */
export const NotFoundErrorBody = Schema.Struct({ error: Schema.String }).annotate({ identifier: "NotFoundErrorBody" })
/** 404 body of the delivery-note, energy-amount and invoice endpoints. */
export type NotFoundErrorBody = typeof NotFoundErrorBody.Type

/**
 * `{ detail }`: the body of the answers every endpoint may give beyond its own (401 missing or invalid
 * credentials, 429 too many requests, 503 unavailable), as Django REST framework servers send them.
 *
 * @example
 * Schema.is(Schemas.DetailBody)({ detail: "Invalid token." }) // => true
 * Schema.is(Schemas.DetailBody)({ error: "Invalid token." }) // => false
 *
 * @since 0.1.0
 */
export const DetailBody = Schema.Struct({ detail: Schema.String }).annotate({ identifier: "DetailBody" })
/** `{ detail }`. */
export type DetailBody = typeof DetailBody.Type

/**
 * A response status the spec documents without giving its body ("not shown"): any JSON value is accepted,
 * because there is nothing to check it against.
 *
 * @example
 * Schema.is(Schemas.UndocumentedBody)({ anything: ["goes"] }) // => true
 * Schema.is(Schemas.UndocumentedBody)(null) // => true
 *
 * @since 0.1.0
 */
// Nothing reads the description; the annotation makes this schema an object of its own, apart from
// Schema.Unknown, which the catalogue and the testing kit tell apart by identity.
// Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, see above
export const UndocumentedBody = Schema.Unknown.annotate({ description: "The spec documents this status but not its body." })
/** A response body the spec does not describe. */
export type UndocumentedBody = typeof UndocumentedBody.Type
