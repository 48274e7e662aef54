/**
 * Mutations of a valid payload: what one is (a kind and a function that breaks a payload at one place),
 * the helpers breakers share, and the generic mutations every site gets from its schema (a required key
 * removed, an unknown key added, a wrong JSON type, a malformed value, `null`, a blank string, an empty
 * list, a string over its limit).
 *
 * @module
 */
import type { ErrorCode } from "../validation/codes.js"
import { type Path, toAttr } from "../validation/path.js"
import type { InvalidPayload } from "./arbitrary-invalid-payload.js"
import type { Json, JsonObject } from "./arbitrary-values.js"
import { BAD_DOCUMENT_PATHS, BAD_PHONE_NUMBERS, BLANK, MALFORMED, NOT_A_LIST, UNKNOWN_KEYS, WRONG_TYPE, badIntegers, longString } from "./bad-values.js"
import { changedAt, type Site } from "./payload-sites.js"

/** A mutation that can be applied at one place of one payload. */
export interface Candidate {
  /** Groups candidates for a fair choice: each kind of mistake is picked equally often. */
  readonly kind: string
  readonly apply: (payload: JsonObject, variant: number) => InvalidPayload | undefined
}

/** Where `validatePayload` reports a problem at `path`. */
export const attrOf = toAttr
export const pick = <A>(values: ReadonlyArray<A>, variant: number): A => values[variant % values.length] as A
export const parentOf = (path: Path): Path => path.slice(0, -1)
export const lastOf = (path: Path): string | number => path[path.length - 1] as string | number

/** A payload with the value at `path` replaced (or added, for an absent optional key). */
export const withValue = (payload: JsonObject, path: Path, value: Json): JsonObject =>
  changedAt(payload, parentOf(path), (container) => {
    container[lastOf(path)] = value
  })

export const broken = (payload: JsonObject, path: Path, code: ErrorCode, description: string): InvalidPayload => ({
  payload,
  expected: { attr: attrOf(path), code },
  description
})

export const show = (value: Json): string => JSON.stringify(value)

/** The generic mutations that apply at one site of a payload. */
export const genericCandidates = (site: Site): Array<Candidate> => {
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
