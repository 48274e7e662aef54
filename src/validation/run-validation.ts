/**
 * The validation pipeline shared by requests and responses: strict decode, the contract's codes,
 * cross-field rules wherever the fields they read are valid, warnings, document order.
 *
 * @module
 */
import { type Schema, type SchemaAST, SchemaParser } from "effect"
import type { ApiError } from "../schemas/errors.js"
import { ADDITIONAL_FIELD, NON_FIELD_ERRORS, PAYLOAD_FAILED_VALIDATION } from "./codes.js"
import { collectWarnings } from "./collect-warnings.js"
import { issueToPathErrors, type PathError } from "./issue-to-errors.js"
import { compareOrderKeys, documentOrderKey, isRecord, toAttr } from "./path.js"
import type { PayloadError, PayloadErrorBody, PayloadWarning, ValidationResult } from "./result.js"
import { ruleErrors } from "./run-rules.js"
import { toWireData } from "./wire-data.js"

const STRICT = { errors: "all", onExcessProperty: "error" } as const
/** Decoding drops fields the schema does not name; {@link additionalFields} finds them again. */
const TOLERANT = { errors: "all", onExcessProperty: "ignore" } as const

/** Fails with the issue itself: a `SchemaError` around it would only be unwrapped again. */
type Decoder = (input: unknown) => ReturnType<ReturnType<typeof SchemaParser.decodeUnknownResult>>

const decoders = { error: new WeakMap<Schema.Top, Decoder>(), warn: new WeakMap<Schema.Top, Decoder>() }

const decoderFor = (schema: Schema.Top, additional: "error" | "warn"): Decoder => {
  let decode = decoders[additional].get(schema)
  if (decode === undefined) {
    decode = SchemaParser.decodeUnknownResult(schema as Schema.Decoder<unknown>, additional === "error" ? STRICT : TOLERANT)
    decoders[additional].set(schema, decode)
  }
  return decode
}

/**
 * The fields of `input` that tolerant decoding (`additionalFields: "warn"`) dropped from `decoded`, as
 * `additional_field` warnings in document order.
 */
export const additionalFields = (input: unknown, decoded: unknown): Array<ApiError & { readonly code: typeof ADDITIONAL_FIELD }> => {
  const found = (value: unknown, kept: unknown, path: Array<string | number>): Array<PathError> => {
    if (Array.isArray(value) && Array.isArray(kept)) return value.flatMap((item, i) => found(item, kept[i], [...path, i]))
    if (!isRecord(value) || !isRecord(kept)) return []
    return Object.keys(value).flatMap((key) =>
      Object.hasOwn(kept, key)
        ? found(value[key], kept[key], [...path, key])
        : [{ path: [...path, key], code: ADDITIONAL_FIELD, detail: "This field is not part of the contract (read, and ignored)." }]
    )
  }
  return inDocumentOrder(input, found(input, decoded, [])) as Array<ApiError & { readonly code: typeof ADDITIONAL_FIELD }>
}

/** Whether `attr` is one of `places` or lies inside one of them. */
const within = (attr: string, places: ReadonlyArray<string>): boolean =>
  places.some((place) => attr === place || (place !== NON_FIELD_ERRORS && attr.startsWith(`${place}.`)))

/** Writes path errors as API errors in document order, without repeating an attr and code. */
export const inDocumentOrder = (input: unknown, errors: ReadonlyArray<PathError>): Array<ApiError> => {
  // One error is in order as it is (the common case of a broken record): no sort keys to compute.
  if (errors.length <= 1) return errors.map((e) => ({ detail: e.detail, code: e.code, attr: toAttr(e.path) }))
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
export const toValidationErrorBody = (errors: ReadonlyArray<PayloadError>): PayloadErrorBody => ({
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
 * The result of a validation, from the errors the strict decode found in `data` (`decoded`: its value,
 * when it found none): the cross-field rules run wherever the fields they read are valid, the warnings,
 * document order, and the warnings an error supersedes. Throws where the rules or the warning walk do.
 */
export const reportValidation = <A>(
  ast: SchemaAST.AST,
  data: unknown,
  decodeErrors: ReadonlyArray<PathError>,
  decoded: { readonly value: A } | undefined,
  now: Date | undefined,
  /** The warnings of `data` as `collectWarnings` finds them, when the caller has them already. */
  found?: ReadonlyArray<PathError>
): ValidationResult<A> => {
  // The decode ran every rule of an object whose fields all decode; the others run here wherever the
  // fields they read are valid (a repeat of one the decode found is dropped below), and so do the rules
  // that need the clock.
  const context = { now: now ?? new Date() }
  const pathErrors = [...decodeErrors, ...ruleErrors(ast, data, decodeErrors, context, decoded !== undefined)]
  // The codes come from schema annotations as strings; the property tests check each is in
  // ERROR_CODES or WARNING_CODES.
  const warnings = inDocumentOrder(data, found ?? collectWarnings(ast, data)) as Array<PayloadWarning>
  if (decoded !== undefined && pathErrors.length === 0) {
    return { ok: true, value: decoded.value, warnings }
  }
  const errors = inDocumentOrder(data, pathErrors) as Array<PayloadError>
  if (warnings.length === 0) return { ok: false, error: toValidationErrorBody(errors), warnings }
  // An error supersedes a warning at the same place (`line_items: []` of a SUPPLY_CHARGE is `empty`,
  // not also an optional list to omit), and a cross-field rule's error one at the fields it relates
  // (`definitions: []` and `rolled_out_definitions: []` are `definitions_required`, not two lists to omit).
  const superseded = [
    ...errors.map((e) => e.attr),
    ...pathErrors.flatMap((e) => (e.covers ?? []).map(toAttr))
  ]
  return { ok: false, error: toValidationErrorBody(errors), warnings: warnings.filter((w) => !within(w.attr, superseded)) }
}

/**
 * Validates `input` against `schema`: never throws, never mutates `input`. The root must be an object
 * when `rootMustBeObject` is set (request bodies), else one `invalid` error at `non_field_errors`.
 */
export const runValidation = <A>(
  schema: Schema.Top,
  input: unknown,
  options: {
    readonly rootMustBeObject: boolean
    /** The clock of the rules that need one (default: the current time). */
    readonly now?: Date | undefined
    /**
     * `"error"` (default): a field the schema does not name is `unknown_field`; `"warn"`: it is dropped
     * from the decoded value, and the caller reports it with {@link additionalFields}.
     */
    readonly additionalFields?: "error" | "warn" | undefined
    /** The input comes straight from `JSON.parse` (plain data throughout): its descriptors need no walk. */
    readonly inputIsJson?: boolean | undefined
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
    // Validated as it goes on the wire: own data only (a getter is an error of its own).
    const wire = options.inputIsJson === true ? { value: input, errors: [] } : toWireData(input)
    const data = wire.value
    const result = decoderFor(schema, options.additionalFields ?? "error")(data)
    const getters = wire.errors.map((e) => toAttr(e.path))
    const decodeErrors = result._tag === "Failure" ? issueToPathErrors(result.failure, data) : []
    const pathErrors: Array<PathError> = getters.length === 0
      ? decodeErrors
      : [...wire.errors, ...decodeErrors.filter((e) => !within(toAttr(e.path), getters))]
    return reportValidation<A>(schema.ast, data, pathErrors, result._tag === "Success" ? { value: result.success as A } : undefined, options.now)
  } catch (cause) {
    return internalFailure(cause)
  }
}
