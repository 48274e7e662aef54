/**
 * The validation pipeline shared by requests and responses: strict decode, the contract's codes,
 * context rules, warnings, document order.
 *
 * @module
 */
import { Schema } from "effect"
import type { ContextRule } from "../endpoints/catalogue.js"
import type { ApiError } from "../schemas/errors.js"
import { ADDITIONAL_FIELD, NON_FIELD_ERRORS, PAYLOAD_FAILED_VALIDATION } from "./codes.js"
import { collectWarnings } from "./collect-warnings.js"
import { issueToPathErrors, type PathError } from "./issue-to-errors.js"
import { compareOrderKeys, documentOrderKey, toAttr } from "./path.js"
import type { ValidationResult } from "./result.js"

const STRICT = { errors: "all", onExcessProperty: "error" } as const
/** Decoding drops fields the schema does not name; {@link additionalFields} finds them again. */
const TOLERANT = { errors: "all", onExcessProperty: "ignore" } as const

type Decoder = (input: unknown) => ReturnType<ReturnType<typeof Schema.decodeUnknownResult>>

const decoders = { error: new WeakMap<Schema.Top, Decoder>(), warn: new WeakMap<Schema.Top, Decoder>() }

const decoderFor = (schema: Schema.Top, additional: "error" | "warn"): Decoder => {
  let decode = decoders[additional].get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknownResult(schema as Schema.Decoder<unknown>, additional === "error" ? STRICT : TOLERANT)
    decoders[additional].set(schema, decode)
  }
  return decode
}

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** The fields of `input` that tolerant decoding dropped from `decoded`: one warning each. */
const additionalFields = (input: unknown, decoded: unknown, path: Array<string | number> = []): Array<PathError> => {
  if (Array.isArray(input) && Array.isArray(decoded)) {
    return input.flatMap((item, i) => additionalFields(item, decoded[i], [...path, i]))
  }
  if (!isPlainObject(input) || !isPlainObject(decoded)) return []
  return Object.keys(input).flatMap((key) =>
    Object.hasOwn(decoded, key)
      ? additionalFields(input[key], decoded[key], [...path, key])
      : [{ path: [...path, key], code: ADDITIONAL_FIELD, detail: "This field is not part of the contract (read, and ignored)." }]
  )
}

/** Writes path errors as API errors in document order, without repeating an attr and code. */
export const inDocumentOrder = (input: unknown, errors: ReadonlyArray<PathError>): Array<ApiError> => {
  const seen = new Set<string>()
  return errors
    .map((e) => ({ e, key: documentOrderKey(input, e.path) }))
    .sort((a, b) => compareOrderKeys(a.key, b.key))
    .flatMap(({ e }) => {
      const attr = toAttr(e.path)
      const id = `${attr}\u0000${e.code}`
      if (seen.has(id)) return []
      seen.add(id)
      return [{ detail: e.detail, code: e.code, attr }]
    })
}

/** Builds the API's 400 body from a list of errors. */
export const toValidationErrorBody = (errors: ReadonlyArray<ApiError>) => ({
  detail: `The payload failed validation with ${errors.length} ${errors.length === 1 ? "error" : "errors"}.`,
  code: PAYLOAD_FAILED_VALIDATION,
  errors
})

const internalFailure = (cause: unknown): ValidationResult<never> => ({
  ok: false,
  error: toValidationErrorBody([{
    detail: `The payload could not be validated: ${cause instanceof Error ? cause.message : String(cause)}`,
    code: "invalid",
    attr: NON_FIELD_ERRORS
  }]),
  warnings: []
})

/**
 * Validates `input` against `schema`: never throws, never mutates `input`. The root must be an object
 * when `rootMustBeObject` is set (request bodies), else one `invalid` error at `non_field_errors`.
 */
export const runValidation = <A>(
  schema: Schema.Top,
  input: unknown,
  options: {
    readonly rootMustBeObject: boolean
    readonly contextRules?: ReadonlyArray<ContextRule> | undefined
    readonly now?: Date | undefined
    /** `"error"` (default): a field the schema does not name is `unknown_field`; `"warn"`: a warning. */
    readonly additionalFields?: "error" | "warn" | undefined
  }
): ValidationResult<A> => {
  try {
    if (options.rootMustBeObject && (typeof input !== "object" || input === null || Array.isArray(input))) {
      const found = input === null ? "null" : Array.isArray(input) ? "an array" : `a ${typeof input}`
      return {
        ok: false,
        error: toValidationErrorBody([{
          detail: `The payload must be a JSON object, not ${found}.`,
          code: "invalid",
          attr: NON_FIELD_ERRORS
        }]),
        warnings: []
      }
    }
    const additional = options.additionalFields ?? "error"
    const result = decoderFor(schema, additional)(input)
    const pathErrors: Array<PathError> = result._tag === "Failure" ? issueToPathErrors(result.failure.issue, input) : []
    const now = options.now ?? new Date()
    for (const rule of options.contextRules ?? []) pathErrors.push(...rule(input, { now }))
    const warnings = inDocumentOrder(input, [
      ...collectWarnings(schema.ast, input),
      ...(additional === "warn" && result._tag === "Success" ? additionalFields(input, result.success) : [])
    ])
    if (result._tag === "Success" && pathErrors.length === 0) {
      return { ok: true, value: result.success as A, warnings }
    }
    const errors = inDocumentOrder(input, pathErrors)
    // An error supersedes a warning at the same place (`line_items: []` of a SUPPLY_CHARGE is `empty`,
    // not also an optional list to omit).
    const erroneous = new Set(errors.map((e) => e.attr))
    return { ok: false, error: toValidationErrorBody(errors), warnings: warnings.filter((w) => !erroneous.has(w.attr)) }
  } catch (cause) {
    return internalFailure(cause)
  }
}
