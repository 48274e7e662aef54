/**
 * A compiled validator per endpoint: the same answers as `validatePayload`, several times faster on
 * valid payloads, for checking exports of millions of records.
 *
 * A valid payload without warnings (the common record) is recognised by the endpoint's accept-only
 * check, compiled from the schemas at first use (`compile-check.ts`: straight-line key counts, types,
 * patterns, the calendar check and the cross-field rules, and no value that would warn). Every other
 * input, and any the check cannot read, is answered by `validatePayload`'s own pipeline, the one place
 * that reports errors and warnings.
 *
 * @module
 */
import { Result, type Schema, SchemaParser } from "effect"
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { type EndpointId, isEndpointId, type RequestOf } from "../schemas/endpoints/endpoint-id.js"
import { collectWarnings } from "./collect-warnings.js"
import { compileCheck } from "./compile-check.js"
import type { PayloadWarning, ValidatePayloadOptions, ValidationResult } from "./result.js"
import { inDocumentOrder } from "./run-validation.js"
import { validateRequest } from "./validate-payload.js"
import { isWireData } from "./wire-data.js"

/**
 * Validates one request of an endpoint; the same result as `validatePayload(endpointId, input, options)`.
 *
 * @since 0.1.0
 */
export type PayloadValidator<E extends EndpointId> = (
  input: unknown,
  options?: ValidatePayloadOptions
) => ValidationResult<RequestOf<E>>

const prototypeIsPolluted = (): boolean => {
  for (const _ in Object.prototype) return true
  return false
}

/** Deeper than any payload of the contract: such an input takes the full validation. */
const MAX_DEPTH = 64
const INDEX = /^(?:0|[1-9][0-9]*)$/u

/**
 * Whether `value` is what `JSON.parse` makes: plain objects and arrays of own, enumerable data properties
 * with string keys (array items at their indexes). The compiled checks read such values only.
 */
const isJsonShaped = (value: unknown, depth: number): boolean => {
  if (typeof value !== "object" || value === null) return true
  if (depth > MAX_DEPTH) return false
  const array = Array.isArray(value)
  const prototype = Object.getPrototypeOf(value)
  if (array ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null) return false
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "symbol") return false
    if (array && key === "length") continue
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!
    if (descriptor.get !== undefined || descriptor.set !== undefined || descriptor.enumerable !== true) return false
    if (array && !INDEX.test(key)) return false
    if (!isJsonShaped(descriptor.value, depth + 1)) return false
  }
  return true
}

/**
 * Options of {@link compileValidator}.
 *
 * @since 0.1.0
 */
export interface CompileValidatorOptions {
  /**
   * `"json"`: every input comes straight from `JSON.parse` (plain objects and arrays, no symbol keys,
   * no getters), which spares a walk over each input's property descriptors. Other inputs may then be
   * misjudged. Default `"any"`.
   */
  readonly input?: "any" | "json"
}

// Stryker disable next-line ObjectLiteral: equivalent, only an endpoint without a rule of the clock gets it, and no other rule reads `now`
const NO_CLOCK = { now: new Date(Number.NaN) }

const validators = new Map<string, PayloadValidator<EndpointId>>()

/**
 * Returns a validator for one endpoint that answers exactly as `validatePayload` does (same errors,
 * warnings and order), but several times faster on the common record: an accept-only check compiled
 * from the schemas at first use recognises a valid payload without warnings, and `validatePayload`'s
 * pipeline answers every other input. For such a payload, `value` is the input itself (the schemas
 * transform nothing), not a copy. Compile once, call per record.
 *
 * @example
 * const validate = compileValidator("energy-amount", { input: "json" })
 * validate(JSON.parse(lines[0])).ok // => true
 * const result = validate({ ...JSON.parse(lines[0]), energy_amount: { ...amount, quantity: "1,5" } })
 * if (!result.ok) console.log(result.error.errors.map((e) => `${e.attr} ${e.code}`))
 * // ["energy_amount.quantity invalid"]
 *
 * @since 0.1.0
 */
export const compileValidator = <E extends EndpointId>(endpointId: E, options?: CompileValidatorOptions): PayloadValidator<E> => {
  const json = options?.input === "json"
  // Stryker disable next-line StringLiteral: "json" or "any" emptied is equivalent, an endpoint's two keys stay distinct; the emptied template is killed by the tests of other endpoints
  const key = `${String(endpointId)}\u0000${json ? "json" : "any"}`
  const cached = validators.get(key)
  if (cached !== undefined) return cached as PayloadValidator<E>
  const ast = isEndpointId(endpointId) ? endpoints[endpointId as EndpointId].request.ast : undefined
  const compiled = ast === undefined ? undefined : compileCheck(ast)
  // The check of validity alone: a valid input that warns (an MSCONS code outside the spec's values, say)
  // needs only the reporter's warning walk, not its decode.
  const validity = ast === undefined ? undefined : compileCheck(ast, { warnings: false })
  // Inputs from JSON.parse are plain data: validation need not look for getters and inherited keys.
  const report = (input: unknown, options: ValidatePayloadOptions | undefined): ValidationResult<RequestOf<E>> =>
    validateRequest(endpointId, input, options, json && !prototypeIsPolluted())
  if (compiled === undefined) return report
  const { accepts, clock } = compiled
  // Whether the last input the check of validity passed had warnings. Inputs come in runs alike (every
  // payload of a sample carries the same code outside the spec's values): after one that warned, the
  // full check, which would only refuse the next one too, is skipped. A valid input without warnings
  // then gets the same answer from the walk (none), and an invalid one is refused by either check.
  let warnedLast = false
  const validator: PayloadValidator<E> = (input, options) => {
    let plain = false
    try {
      plain = !prototypeIsPolluted() && (json || isJsonShaped(input, 0))
      const context = clock ? { now: options?.now ?? new Date() } : NO_CLOCK
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, the check of validity and the walk below give a valid input without warnings the same answer
      if (plain && !warnedLast && accepts(input, context)) {
        return { ok: true, value: input as RequestOf<E>, warnings: [] }
      }
      if (plain && validity !== undefined && ast !== undefined && validity.accepts(input, context)) {
        const warnings = inDocumentOrder(input, collectWarnings(ast, input)) as Array<PayloadWarning>
        warnedLast = warnings.length > 0
        return { ok: true, value: input as RequestOf<E>, warnings }
      }
    } catch {
      // Whatever went wrong, the reporter below answers (and is total itself).
      plain = false
    }
    const result = report(input, options)
    // A valid input the check passed on (it has warnings) is plain data all the same: its value is the
    // input itself, as for the inputs the check accepts (the schemas transform nothing).
    return plain && result.ok ? { ...result, value: input as RequestOf<E> } : result
  }
  validators.set(key, validator as PayloadValidator<EndpointId>)
  return validator
}

const bodyChecks = new Map<string, WeakMap<Schema.Top, (input: unknown) => boolean>>()

/** The first error is enough to say "not known": the caller then validates in full. */
const FIRST_STRICT = { errors: "first", onExcessProperty: "error" } as const

/**
 * A pre-check of bodies against one schema (a response body, say): `true` only when the body is valid
 * with nothing to report (no error, no warning, no field the schema does not name); `false` means "not
 * known", and the caller validates in full. For `input: "json"`, as in {@link CompileValidatorOptions}.
 *
 * @example
 * const clean = compileBodyCheck(endpoints["energy-amount"].responses[201].schema, { input: "json" })
 * clean(JSON.parse(line)) // => true
 * clean({ ...JSON.parse(line), energy_amount: {} }) // => false
 */
export const compileBodyCheck = (schema: Schema.Top, options?: CompileValidatorOptions): (input: unknown) => boolean => {
  const json = options?.input === "json"
  // Stryker disable next-line StringLiteral: equivalent, the two modes' keys stay distinct
  const key = json ? "json" : "any"
  const cache = bodyChecks.get(key) ?? new WeakMap<Schema.Top, (input: unknown) => boolean>()
  bodyChecks.set(key, cache)
  const cached = cache.get(schema)
  if (cached !== undefined) return cached
  const decode = SchemaParser.decodeUnknownResult(schema as Schema.Decoder<unknown>, FIRST_STRICT)
  const check = (input: unknown): boolean => {
    try {
      if (prototypeIsPolluted() || !(json || isWireData(input))) return false
      return Result.isSuccess(decode(input)) && collectWarnings(schema.ast, input).length === 0
    } catch {
      return false
    }
  }
  cache.set(schema, check)
  return check
}
