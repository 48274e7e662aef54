/**
 * The Effect-native form of validation.
 *
 * @module
 */
import { Data, Effect } from "effect"
import type { EndpointId, RequestOf } from "../schemas/endpoints/endpoint-id.js"
import type { PayloadErrorBody, PayloadWarning, ValidatePayloadOptions, ValidationSuccess } from "./result.js"
import { validatePayload } from "./validate-payload.js"

/**
 * The typed failure of {@link validatePayloadEffect}: the API's 400 body and the warnings.
 *
 * @example
 * const failure = Effect.runSync(Effect.flip(validatePayloadEffect("notes", {})))
 * failure instanceof PayloadValidationError // => true
 * failure._tag // => "PayloadValidationError"
 * failure.endpointId // => "notes"
 *
 * @since 0.1.0
 */
export class PayloadValidationError extends Data.TaggedError("PayloadValidationError")<{
  readonly endpointId: EndpointId
  readonly body: PayloadErrorBody
  readonly warnings: ReadonlyArray<PayloadWarning>
}> {}

/**
 * `validatePayload` as an Effect: succeeds with the value and warnings, fails with
 * {@link PayloadValidationError}.
 *
 * @example
 * const program = validatePayloadEffect("notes", { ...input, notes: [] }).pipe(
 *   Effect.catchTag("PayloadValidationError", (e) => Effect.succeed(e.body))
 * )
 * Effect.runSync(program) // => { code: "payload_failed_validation", errors: [{ attr: "notes", code: "empty", ... }], ... }
 *
 * @since 0.1.0
 */
export const validatePayloadEffect = <E extends EndpointId>(
  endpointId: E,
  input: unknown,
  options?: ValidatePayloadOptions
): Effect.Effect<ValidationSuccess<RequestOf<E>>, PayloadValidationError> =>
  Effect.suspend(() => {
    const result = validatePayload(endpointId, input, options)
    return result.ok
      ? Effect.succeed(result)
      : Effect.fail(new PayloadValidationError({ endpointId, body: result.error, warnings: result.warnings }))
  })
