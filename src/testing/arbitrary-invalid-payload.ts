/**
 * Generators of broken request bodies: a valid payload with exactly one mutation, and the error that
 * mutation must cause. The generic mutations (a required key removed, an unknown key added, a wrong JSON
 * type, a malformed value, `null`, a blank string, an empty list, a string over its limit) are derived
 * from the schema's AST (drawing on the tables of bad-values.ts); each cross-field rule has
 * one breaker, here, found through the rule's `CROSS_FIELD_RULE` annotation on the schema.
 *
 * @module
 */
import type { SchemaAST } from "effect"
import * as fc from "fast-check"
import { endpoints } from "../endpoints/catalogue.js"
import type { PostEndpointId } from "../endpoints/endpoint-id.js"
import type { CrossFieldRule } from "../schemas/conventions.js"
import { ISO_DATE_RE } from "../schemas/conventions.js"
import { dateOfDay, dayOfDate, toInstant } from "../schemas/instant.js"
import type { ErrorCode } from "../validation/codes.js"
import { type Path, toAttr } from "../validation/path.js"
import { formatInstant } from "./arbitrary-dates.js"
import { type ArbitraryPayloadOptions, contextOf, payloadGenerator } from "./arbitrary-payload.js"
import type { Json, JsonObject } from "./arbitrary-values.js"
import { BAD_DOCUMENT_PATHS, BAD_PHONE_NUMBERS, BLANK, MALFORMED, NOT_A_LIST, UNKNOWN_KEYS, WRONG_TYPE, badIntegers, longString } from "./bad-values.js"
import { changedAt, fieldInfo, type Site, sitesOf } from "./payload-sites.js"

// Mutations of a valid payload: what one is (a kind and a function that breaks a payload at one place),
// the helpers breakers share, and the generic mutations every site gets from its schema.

/** A mutation that can be applied at one place of one payload. */
interface Candidate {
  /** Groups candidates for a fair choice: each kind of mistake is picked equally often. */
  readonly kind: string
  readonly apply: (payload: JsonObject, variant: number) => InvalidPayload | undefined
}

/** Where `validatePayload` reports a problem at `path`. */
const attrOf = toAttr
const pick = <A>(values: ReadonlyArray<A>, variant: number): A => values[variant % values.length] as A
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
// Cross-field rules: one breaker per rule, by its name.

const ZONES: ReadonlyArray<readonly [string, number]> = [["Z", 0], ["+01:00", 60], ["+02:00", 120], ["-05:00", -300]]

/** A date or datetime strictly before `value` (same kind), written in one of a few zones. */
const before = (value: string, variant: number): string => {
  const step = 1 + (variant % 5) * 37
  if (ISO_DATE_RE.test(value)) return dateOfDay(dayOfDate(value) - step)
  const [zone, minutes] = pick(ZONES, variant)
  return formatInstant({ seconds: toInstant(value).seconds - step * 60, nanos: 0, fractionDigits: 0 }, zone, minutes)
}

type Breaker = (site: Site, rule: CrossFieldRule) => Array<Candidate>

/** A repeated id, on a later item (the rule's name is its code). */
const duplicateIds: Breaker = ({ path, value }, rule) => {
  const [field] = rule.fields
  if (field === undefined || !Array.isArray(value) || value.length === 0) return []
  const list = value as ReadonlyArray<JsonObject>
  return [{
    kind: rule.name,
    apply: (payload, variant) => {
      if (list.length === 1) {
        const at = [...path, 1, field]
        return broken(withValue(payload, [...path, 1], structuredClone(list[0]) as Json), at, rule.name as ErrorCode, `${attrOf(at)} repeats ${attrOf([...path, 0, field])}`)
      }
      const later = 1 + (variant % (list.length - 1))
      const earlier = variant % later
      const at = [...path, later, field]
      const id = list[earlier]?.[field] ?? "X"
      return broken(withValue(payload, at, id), at, rule.name as ErrorCode, `${attrOf(at)} repeats ${attrOf([...path, earlier, field])}`)
    }
  }]
}

const breakers: Readonly<Record<string, Breaker>> = {
  // end moved before start (as instants, possibly in another zone)
  start_date_later_than_end_date: ({ path, value }, rule) => {
    const [start, end] = rule.fields
    if (start === undefined || end === undefined || typeof value !== "object" || value === null) return []
    const from = (value as JsonObject)[start]
    if (typeof from !== "string") return []
    return [{
      kind: rule.name,
      apply: (payload, variant) => {
        const to = before(from, variant)
        return broken(withValue(payload, [...path, end], to), [...path, end], "start_date_later_than_end_date", `${attrOf([...path, end])} (${to}) is before ${start} (${from})`)
      }
    }]
  },
  // neither body nor document paths
  note_body_or_document_path_not_found: ({ path }, rule) => [{
    kind: rule.name,
    apply: (payload) =>
      broken(
        changedAt(payload, path, (c) => {
          for (const field of rule.fields) delete c[field]
        }),
        path,
        "note_body_or_document_path_not_found",
        `the note ${attrOf(path)} has neither ${rule.fields.join(" nor ")}`
      )
  }],
  // unpin before creation
  note_unpin_at_earlier_than_creation_date: ({ path, value }, rule) => {
    const [created, unpin] = rule.fields
    if (created === undefined || unpin === undefined || typeof value !== "object" || value === null) return []
    const existing = (value as JsonObject)[created]
    return [{
      kind: rule.name,
      apply: (payload, variant) => {
        const createdAt = typeof existing === "string" ? existing : "2024-03-31T03:00:00+02:00"
        const unpinAt = before(createdAt, variant)
        return broken(
          changedAt(payload, path, (c) => {
            c[created] = createdAt
            c["is_pinned"] = true
            c[unpin] = unpinAt
          }),
          [...path, unpin],
          "note_unpin_at_earlier_than_creation_date",
          `${attrOf([...path, unpin])} (${unpinAt}) is before ${created} (${createdAt})`
        )
      }
    }]
  },
  // one value, or three
  line_item_units_must_be_two_values: ({ path }, rule) => [{
    kind: rule.name,
    apply: (payload, variant) => {
      const units = pick([[120.5], [1, 2, 3], [0, 100, 200, 300]], variant)
      return broken(withValue(payload, path, units), path, "line_item_units_must_be_two_values", `${attrOf(path)} holds ${units.length} values`)
    }
  }],
  // a SUPPLY_CHARGE without one of the fields it needs (or with an empty list)
  supply_charge_fields: ({ path, value, info }, rule) => {
    if (typeof value !== "object" || value === null || Array.isArray(value) || rule.when === undefined) return []
    const object = value as JsonObject
    const applies = Object.entries(rule.when).every(([k, v]) => object[k] === v)
    return rule.fields.flatMap((field): Array<Candidate> => {
      const child = info.children.get(field)
      const isList = child !== undefined && fieldInfo(child.ast).json === "array"
      const removal: Candidate = {
        kind: rule.name,
        apply: (payload) => {
          const next = changedAt(payload, path, (c) => {
            Object.assign(c, rule.when)
            delete c[field]
          })
          const condition = Object.entries(rule.when ?? {}).map(([k, v]) => `${k} ${v}`).join(", ")
          return broken(next, [...path, field], "required", `${attrOf([...path, field])} is missing (${condition})`)
        }
      }
      const emptied: Candidate = {
        kind: rule.name,
        apply: (payload) =>
          broken(withValue(payload, [...path, field], []), [...path, field], "empty", `${attrOf([...path, field])} is empty`)
      }
      return applies && isList && Object.hasOwn(object, field) ? [removal, emptied] : [removal]
    })
  },
  // a repeated id, on a later item
  duplicate_transaction_ids: duplicateIds,
  duplicate_statement_ids: duplicateIds,
  // lower bound above the upper one
  lower_bound_greater_than_upper_bound: ({ path, info }, rule) => {
    const [lower, upper] = rule.fields
    if (lower === undefined || upper === undefined || !info.requiredKeys.every((k) => rule.fields.includes(k))) return []
    return [{
      kind: rule.name,
      apply: (payload, variant) => {
        const high = 10 + (variant % 9) * 1000
        const low = pick([high - 0.5, high - 1, 0], variant)
        const zone = { [lower]: high, [upper]: low }
        return broken(withValue(payload, path, zone), [...path, upper], "lower_bound_greater_than_upper_bound", `${attrOf([...path, upper])} is below ${lower}: ${show(zone)}`)
      }
    }]
  },
  // neither list, or both empty
  definitions_required: ({ path }, rule) => [{
    kind: rule.name,
    apply: (payload, variant) =>
      broken(
        changedAt(payload, path, (c) => {
          for (const field of rule.fields) {
            if (variant % 2 === 0) delete c[field]
            else c[field] = []
          }
        }),
        path,
        "definitions_required",
        `${attrOf(path)}: ${variant % 2 === 0 ? `neither ${rule.fields.join(" nor ")}` : `${rule.fields.join(" and ")} both empty`}`
      )
  }],
  // a date far enough ahead to be in the future on any clock
  transaction_in_future: ({ path }, rule) => {
    const [field] = rule.fields
    if (field === undefined) return []
    const at = [...path, field]
    return [{
      kind: rule.name,
      apply: (payload, variant) => {
        const date = dateOfDay(dayOfDate("2200-01-01") + variant * 97 % 200_000)
        return broken(withValue(payload, at, date), at, "transaction_in_future", `${attrOf(at)} is ${date}`)
      }
    }]
  }
}

/** The names of the cross-field rules the kit knows how to break (a rule without a breaker yields no broken payloads). */
export const BREAKABLE_RULES: ReadonlySet<string> = new Set(Object.keys(breakers))

/** The ways to break `rule` at `site` (an object or list the rule is declared on, present in the payload). */
export const ruleBreakers = (site: Site, rule: CrossFieldRule): Array<Candidate> => breakers[rule.name]?.(site, rule) ?? []

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
 * that `validatePayload` reports for it (among possibly others). The mutations: a required key removed,
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
  fc.tuple(payloadGenerator(endpointId, contextOf(options)), fc.nat(), fc.nat(), fc.nat())
    .map(([payload, kind, site, variant]) => mutate(endpointId, payload, kind, site, variant))
