/**
 * The result types of validation.
 *
 * @module
 */
import type { ApiError } from "../schemas/errors.js"
import type { ErrorCode, PAYLOAD_FAILED_VALIDATION, WarningCode } from "./codes.js"

/**
 * One error of a failed validation: an {@link ApiError} whose `code` is one of {@link ErrorCode}.
 *
 * @example
 * const result = validatePayload("notes", { import_supplier: "STADTWERKE_NORD" })
 * const codes: Array<PayloadError["code"]> = result.ok ? [] : result.error.errors.map((e) => e.code)
 * codes // => ["required", "required"]
 *
 * @since 0.1.0
 */
export interface PayloadError extends ApiError {
  readonly code: ErrorCode
}

/**
 * One warning (allowed but suspicious data): an {@link ApiError} whose `code` is one of {@link WarningCode}.
 *
 * @since 0.1.0
 */
export interface PayloadWarning extends ApiError {
  readonly code: WarningCode
}

/**
 * The API's 400 body as validation writes it: the top-level code and errors with the contract's codes.
 *
 * @since 0.1.0
 */
export interface PayloadErrorBody {
  readonly detail: string
  readonly code: typeof PAYLOAD_FAILED_VALIDATION
  readonly errors: ReadonlyArray<PayloadError>
}

/**
 * A valid payload: the decoded value and the warnings found in it.
 *
 * @since 0.1.0
 */
export interface ValidationSuccess<A> {
  readonly ok: true
  readonly value: A
  readonly warnings: ReadonlyArray<PayloadWarning>
}

/**
 * An invalid payload: the API's 400 body and the warnings found in the input.
 *
 * @since 0.1.0
 */
export interface ValidationFailure {
  readonly ok: false
  readonly error: PayloadErrorBody
  readonly warnings: ReadonlyArray<PayloadWarning>
}

/**
 * What `validatePayload` and `validateResponse` return: never an exception.
 *
 * @since 0.1.0
 */
export type ValidationResult<A> = ValidationSuccess<A> | ValidationFailure

/**
 * Options of `validatePayload`.
 *
 * @since 0.1.0
 */
export interface ValidatePayloadOptions {
  /** The clock for `transaction_in_future`; default: the current time. */
  readonly now?: Date
}
