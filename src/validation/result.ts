/**
 * The result types of validation.
 *
 * @module
 */
import type { ApiError, ValidationErrorBody } from "../schemas/errors.js"

/** A valid payload: the decoded value and the warnings found in it. */
export interface ValidationSuccess<A> {
  readonly ok: true
  readonly value: A
  readonly warnings: ReadonlyArray<ApiError>
}

/** An invalid payload: the API's 400 body and the warnings found in the input. */
export interface ValidationFailure {
  readonly ok: false
  readonly error: ValidationErrorBody
  readonly warnings: ReadonlyArray<ApiError>
}

/** What `validatePayload` and `validateResponse` return: never an exception. */
export type ValidationResult<A> = ValidationSuccess<A> | ValidationFailure

/** Options of `validatePayload`. */
export interface ValidatePayloadOptions {
  /** The clock for `transaction_in_future`; default: the current time. */
  readonly now?: Date
}
