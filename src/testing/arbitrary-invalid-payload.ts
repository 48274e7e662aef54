/**
 * Generators of broken request bodies: a valid payload with exactly one mutation, and the error that
 * mutation must cause. The generic mutations (a required key removed, an unknown key added, a wrong JSON
 * type, a malformed value, `null`, a blank string, an empty list, a string over its limit) are derived
 * from the schema's AST (drawing on the tables of bad-values.ts); each cross-field rule is broken by the
 * breaker its declaration carries, found through the rule's `CROSS_FIELD_RULE` annotation on the schema.
 *
 * @module
 */
import type { SchemaAST } from "effect"
import * as fc from "fast-check"
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { CrossFieldRule } from "../schemas/conventions.js"
import { pick } from "../schemas/rule-breaks.js"
import type { ErrorCode } from "../validation/codes.js"
import { type Path, toAttr } from "../validation/path.js"
import { type ArbitraryPayloadOptions, contextOf, payloadGenerator } from "./arbitrary-payload.js"
import type { Json, JsonObject } from "./arbitrary-values.js"
import { BAD_DOCUMENT_PATHS, BAD_PHONE_NUMBERS, BLANK, MALFORMED, NOT_A_LIST, UNKNOWN_KEYS, WRONG_TYPE, badIntegers, longString } from "./bad-values.js"
import { changedAt, type Site, sitesOf } from "./payload-sites.js"

// Mutations of a valid payload: what one is (a kind and a function that breaks a payload at one place),
// the helpers they share, and the generic mutations every site gets from its schema.

/** A mutation that can be applied at one place of one payload. */
interface Candidate {
  /** Groups candidates for a fair choice: each kind of mistake is picked equally often. */
  readonly kind: string
  readonly apply: (payload: JsonObject, variant: number) => InvalidPayload | undefined
}

/** Where `validatePayload` reports a problem at `path`. */
const attrOf = toAttr
const parentOf = (path: Path): Path => path.slice(0, -1)
const lastOf = (path: Path): string | number => path[path.length - 1] as string | number

/** A payload with the value at `path` replaced (or added, for an absent optional key). */
const withValue = (payload: JsonObject, path: Path, value: Json): JsonObject =>
  changedAt(payload, parentOf(path), (container) => {
    container[lastOf(path)] = value
  })

const broken = (payload: JsonObject, path: Path, code: ErrorCode, description: string): InvalidPayload => ({
  payload,
  expected: { attr: attrOf(path), code },
  description
})

const show = (value: Json): string => JSON.stringify(value)

/** The generic mutations that apply at one site of a payload. */
const genericCandidates = (site: Site): Array<Candidate> => {
  const { path, info, present } = site
  const out: Array<Candidate> = []
  const attr = attrOf(path)
  const isItem = typeof lastOf(path) === "number"
  const replace = (kind: string, code: ErrorCode, values: ReadonlyArray<Json>, what: string) =>
    out.push({
      kind,
      apply: (payload, variant) => {
        const value = pick(values, variant)
        return broken(withValue(payload, path, value), path, code, `${attr} holds ${show(value)}: ${what}`)
      }
    })

  if (path.length > 0 && present && !site.optional && !isItem) {
    out.push({
      kind: "required",
      apply: (payload) =>
        broken(
          changedAt(payload, parentOf(path), (c) => delete c[lastOf(path)]),
          path,
          "required",
          `the required key ${attr} is removed`
        )
    })
  }
  if (present && info.struct) {
    out.push({
      kind: "unknown_field",
      apply: (payload, variant) => {
        const key = pick(UNKNOWN_KEYS.filter((k) => !info.keys.includes(k)), variant)
        const at = [...path, key]
        return broken(
          changedAt(payload, path, (c) => Object.defineProperty(c, key, { value: "x", enumerable: true, writable: true, configurable: true })),
          at,
          "unknown_field",
          `the undocumented key ${attrOf(at)} is added`
        )
      }
    })
  }
  if (path.length === 0) return out

  if (info.json === "array") replace("not_a_list", "not_a_list", NOT_A_LIST, "not a list")
  else if (info.json !== "any") replace("wrong_type", "invalid", WRONG_TYPE[info.json], `not a JSON ${info.json}`)
  if (!info.nullable && info.json !== "any") replace("null", "null", [null], "null where the field is not nullable")
  if (info.json === "string" && info.nonBlank) replace("blank", "blank", BLANK, "a blank string")
  if (info.json === "array" && info.nonEmpty) replace("empty", "empty", [[]], "a required list, empty")
  if (info.literals !== undefined) replace("invalid_choice", "invalid_choice", ["UNKNOWN_VALUE", info.literals[0]?.toLowerCase() ?? "x"], "not one of the listed values")
  switch (info.format) {
    case "date":
    case "datetime":
    case "decimal":
    case "email":
    case "digits13":
      replace("malformed", "invalid", MALFORMED[info.format], `not a valid ${info.format}`)
      break
    case "document_path":
      replace("invalid_document_path", "invalid_document_path", BAD_DOCUMENT_PATHS, "not a relative path below the root")
      break
    case "phone":
      replace("invalid_phone_number", "invalid_phone_number", BAD_PHONE_NUMBERS, "not a phone number")
      break
    case undefined:
      break
  }
  if (info.json === "number" && info.integer) replace("malformed", "invalid", badIntegers(info), "not a valid integer here")
  const max = info.maxCodePoints
  if (max !== undefined) {
    out.push({
      kind: "max_length",
      apply: (payload, variant) => {
        const value = longString(max + 1 + (variant % 3) * 7, variant)
        return broken(withValue(payload, path, value), path, "max_length", `${attr} is ${[...value].length} characters long (at most ${max})`)
      }
    })
  }
  return out
}


/**
 * What a broken payload must be rejected with: the error's `attr` and `code`.
 *
 * @example
 * const expected: ExpectedError = { attr: "energy_amount.quantity", code: "invalid" }
 * const result = validatePayload("energy-amount", { ...JSON.parse(line), energy_amount: { ...amount, quantity: "1,5" } })
 * !result.ok && result.error.errors.some((e) => e.attr === expected.attr && e.code === expected.code) // => true
 *
 * @since 0.1.0
 */
export interface ExpectedError {
  readonly attr: string
  readonly code: ErrorCode
}

/**
 * A broken payload, the error `validatePayload` must report for it, and what was changed, in words.
 *
 * @example
 * const { payload, expected } = fc.sample(arbitraryInvalidPayload("notes"), 1)[0]!
 * const result = validatePayload("notes", payload)
 * !result.ok && result.error.errors.some((e) => e.attr === expected.attr && e.code === expected.code) // => true
 *
 * @since 0.1.0
 */
export interface InvalidPayload {
  readonly payload: JsonObject
  readonly expected: ExpectedError
  readonly description: string
}

// ---------------------------------------------------------------------------------------------------------
// Cross-field rules: each declares its own breaker (`CrossFieldRule.breaker`), applied here at the rule's place.

/**
 * The ways to break `rule` at `site` (an object or list the rule is declared on, present in the payload):
 * one candidate, which applies the rule's breaker to the value there, or none for a rule without one.
 */
export const ruleBreakers = (site: Site, rule: CrossFieldRule): Array<Candidate> => {
  const breaker = rule.breaker
  if (breaker === undefined || site.value === undefined) return []
  const { path, value } = site
  return [{
    kind: rule.name,
    apply: (payload, variant) => {
      // A copy: a breaker returns a new value, and must not reach into the payload it was given.
      const found = breaker(structuredClone(value), variant)
      if (found === undefined) return undefined
      const at = [...path, ...found.at]
      const next = path.length === 0 ? (found.value as JsonObject) : withValue(payload, path, found.value as Json)
      const where = at.length === 0 ? "the payload" : attrOf(at)
      return broken(next, at, (found.code ?? rule.name) as ErrorCode, `${where}: ${found.detail}`)
    }
  }]
}

/** Every mutation that can be applied to `payload`. */
const candidatesOf = (root: SchemaAST.AST, payload: JsonObject): Array<Candidate> =>
  sitesOf(root, payload).flatMap((site) => [
    ...genericCandidates(site),
    ...(site.present ? site.info.rules.flatMap((rule) => ruleBreakers(site, rule)) : [])
  ])

/**
 * Applies one mutation, chosen from three numbers: which kind of mistake (each kind that applies to the
 * payload equally often), where, and which bad value.
 */
export const mutate = (
  endpointId: PostEndpointId,
  payload: JsonObject,
  kindChoice: number,
  siteChoice: number,
  variant: number
): InvalidPayload => {
  const endpoint = endpoints[endpointId]
  const candidates = candidatesOf(endpoint.request.ast, payload)
  const kinds = [...new Set(candidates.map((c) => c.kind))]
  const kind = pick(kinds, kindChoice)
  const ofKind = candidates.filter((c) => c.kind === kind)
  // A candidate may find nothing to do on this payload (it returns undefined): try the next one.
  for (let i = 0; i < ofKind.length; i++) {
    const result = pick(ofKind, siteChoice + i).apply(payload, variant)
    if (result !== undefined) return result
  }
  throw new Error(`No mutation of kind ${kind} applies to this ${endpointId} payload.`)
}

/**
 * A fast-check arbitrary of broken request bodies of a POST endpoint: `{ payload, expected, description }`,
 * each a valid payload (from `arbitraryPayload`) with one mutation, and `expected` the `{ attr, code }`
 * of the one error `validatePayload` reports for it. The mutations: a required key removed,
 * an unknown key added (at any depth), a wrong JSON type, `null` on a non-nullable field, a blank string,
 * an empty required list, a malformed date, datetime, decimal, 13-digit code, integer, e-mail, phone
 * number or document path, a string over its length limit, and a broken cross-field rule (start after
 * end, a note without body or paths, `unpin_at` before `created_at`, a repeated `transaction_id`, a
 * SUPPLY_CHARGE without its fields, `units` without two values, `lower_bound` above `upper_bound`, no time
 * definitions, a transaction dated in the future). Each kind that applies to the payload is chosen
 * equally often; counterexamples shrink to a small payload.
 *
 * @example
 * import fc from "fast-check"
 * import { validatePayload } from "data-import-payloads"
 * import { arbitraryInvalidPayload } from "data-import-payloads/testing"
 *
 * const refusedAsExpected = fc.property(arbitraryInvalidPayload("notes"), ({ payload, expected }) => {
 *   const result = validatePayload("notes", payload)
 *   return !result.ok && result.error.errors.some((e) => e.attr === expected.attr && e.code === expected.code)
 * })
 * fc.assert(refusedAsExpected) // in a test: fails with the smallest payload not refused as expected
 * fc.check(refusedAsExpected).failed // => false
 *
 * @since 0.1.0
 */
export const arbitraryInvalidPayload = (
  endpointId: PostEndpointId,
  options?: Omit<ArbitraryPayloadOptions, "withWarnings">
): fc.Arbitrary<InvalidPayload> =>
  // Without warnings whatever a JavaScript caller passes: a broken payload carries its one error only.
  fc.tuple(payloadGenerator(endpointId, contextOf({ ...options, withWarnings: false })), fc.nat(), fc.nat(), fc.nat())
    .map(([payload, kind, site, variant]) => mutate(endpointId, payload, kind, site, variant))
