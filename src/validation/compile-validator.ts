/**
 * A compiled validator per endpoint: the same answers as `validatePayload`, several times faster on
 * valid payloads, for checking exports of millions of records.
 *
 * A valid payload is recognised by the endpoint's check generated ahead of time from the schemas
 * (`src/validation/generated/validators.ts`: straight-line key counts, types, patterns, the calendar
 * check and the cross-field rules), which also collects the warnings. For a payload it does not accept,
 * the endpoint's generated error collector lists the errors the strict decode of `validatePayload` would
 * find (decoding only the values that fail), a generated warning collector its warnings, and the rest of
 * the report (rules, order, superseded warnings) is `validatePayload`'s own; an input the collector cannot read as the decode does is validated in full.
 *
 * @module
 */
import { Result, type Schema, SchemaParser } from "effect"
import { endpoints } from "../endpoints/catalogue.js"
import { type EndpointId, isEndpointId, type RequestOf } from "../endpoints/endpoint-id.js"
import { collectWarnings } from "./collect-warnings.js"
import { generatedRefs } from "./generate-validators.js"
import { GENERATED_VALIDATORS } from "./generated/validators.js"
import type { PathError } from "./issue-to-errors.js"
import type { PayloadWarning, ValidatePayloadOptions, ValidationResult } from "./result.js"
import { isRecord } from "./path.js"
import { inDocumentOrder, reportValidation } from "./run-validation.js"
import { validatePayload, validateRequest } from "./validate-payload.js"
import { isWireData } from "./wire-data.js"

/** Validates one request of an endpoint; the same result as `validatePayload(endpointId, input, options)`. */
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
 * with string keys (array items at their indexes). The generated checks read such values only.
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

/** Options of {@link compileValidator}. */
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

/** The generated check of an endpoint, given the rules it calls; `undefined` if it does not fit the schemas. */
const generatedCheck = (endpointId: EndpointId) => {
  const generated = GENERATED_VALIDATORS[endpointId]
  if (generated === undefined) return undefined
  const refs = generatedRefs(endpointId)
  // A generated file that no longer matches the schemas (the test of it fails) is not used.
  if (refs.length !== generated.refs.length || refs.some((r, i) => r.label !== generated.refs[i])) return undefined
  const values = refs.map((r) => r.value)
  return { check: generated.make(values), errors: generated.errors(values), warnings: generated.warnings(values), clock: generated.clock }
}

/**
 * Returns a validator for one endpoint that answers exactly as `validatePayload` does (same errors,
 * warnings and order), but several times faster: a check generated from the schemas ahead of time
 * recognises valid payloads, and generated collectors list the errors and warnings of the others
 * (Effect decodes only the values that fail; an input they cannot read is validated in full). For valid
 * payloads, `value` is the input itself (the schemas transform nothing), not a copy. Compile once, call
 * per record.
 *
 * @example
 * const validate = compileValidator("energy-amount", { input: "json" })
 * validate(JSON.parse(lines[0])).ok // => true
 * const result = validate({ ...JSON.parse(lines[0]), energy_amount: { ...amount, quantity: "1,5" } })
 * if (!result.ok) console.log(result.error.errors.map((e) => `${e.attr} ${e.code}`))
 * // ["energy_amount.quantity invalid"]
 */
export const compileValidator = <E extends EndpointId>(endpointId: E, options?: CompileValidatorOptions): PayloadValidator<E> => {
  const json = options?.input === "json"
  // Stryker disable next-line StringLiteral: "json" or "any" emptied is equivalent, an endpoint's two keys stay distinct; the emptied template is killed by the tests of other endpoints
  const key = `${String(endpointId)}\u0000${json ? "json" : "any"}`
  const cached = validators.get(key)
  if (cached !== undefined) return cached as PayloadValidator<E>
  const generated = isEndpointId(endpointId) ? generatedCheck(endpointId) : undefined
  if (generated === undefined) return (input, options) => validatePayload(endpointId, input, options)
  const { check, errors, warnings, clock } = generated
  const ast = endpoints[endpointId as EndpointId].request.ast
  const validator: PayloadValidator<E> = (input, options) => {
    try {
      if (!prototypeIsPolluted() && (json || isJsonShaped(input, 0))) {
        const found: Array<PathError> = []
        if (check(input, found, clock ? { now: options?.now ?? new Date() } : NO_CLOCK)) {
          // Stryker disable next-line ConditionalExpression: "=> false" is equivalent, inDocumentOrder of no warnings is []; "=> true" is killed by "compileValidator agrees with validatePayload on one to three mutations of every example"
          return { ok: true, value: input as RequestOf<E>, warnings: found.length === 0 ? [] : inDocumentOrder(input, found) as Array<PayloadWarning> }
        }
        // The decode's errors, collected without the decode; none found (a rule of the clock, say): in full.
        // Stryker disable next-line ArrayDeclaration: equivalent, an item that is no path error makes reportValidation throw, and the catch's full validation answers alike
        const decodeErrors: Array<PathError> = []
        // Stryker disable next-line BooleanLiteral,BlockStatement,ConditionalExpression,LogicalOperator,EqualityOperator: equivalent but for two, as the collector answers true only when it found no error, and reportValidation runs every rule (the clock's too): skipping this shortcut, or taking it with nothing found, gives the full validation's answer; the whole test "=> true" is killed by the README's examples (test/docs/examples.test.ts), "isRecord || ..." by "compileValidator agrees with validatePayload on one to three mutations of every example"
        if (isRecord(input) && errors(input, decodeErrors) === false && decodeErrors.length > 0) {
          // Stryker disable next-line ArrayDeclaration: equivalent, an item that is no path error makes reportValidation throw, and the catch's full validation answers alike
          const warned: Array<PathError> = []
          warnings(input, warned)
          // Stryker disable next-line OptionalChaining: equivalent, without options the TypeError is caught and the full validation answers alike (the same default clock)
          return reportValidation<RequestOf<E>>(ast, input, decodeErrors, undefined, options?.now, warned)
        }
      }
    } catch {
      // Whatever went wrong, the full validation below answers (and is total itself).
    }
    // Inputs from JSON.parse are plain data: validation need not look for getters and inherited keys.
    return validateRequest(endpointId, input, options, json && !prototypeIsPolluted())
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
