/**
 * Paths into a JSON value, and the words for JSON values: reading the value at a path without touching
 * prototypes, writing a path as the API's `attr`, telling objects from arrays. Validation and the testing
 * kit share them.
 *
 * @module
 */
import { NON_FIELD_ERRORS } from "./codes.js"
import { isRecord } from "../schemas/is-record.js"

export { isRecord }

/** A path of field names and zero-based array indexes. */
export type Path = ReadonlyArray<string | number>

/** A field name with a character {@link attrStep} escapes (most have none, and are their own step). */
const ESCAPED = /[.\\]/u

/**
 * One step of an `attr`: an index as its digits; a field name with `\` and `.` escaped by a backslash, so a
 * key named `energy_amount.quantity` (`energy_amount\.quantity`) is not the nested field.
 */
const attrStep = (step: string | number): string =>
  typeof step === "number" ? String(step) : ESCAPED.test(step) ? step.replaceAll("\\", "\\\\").replaceAll(".", "\\.") : step

/**
 * The API's `attr`: a dot path, or `non_field_errors` for the root. Field names that hold `.` or `\` have
 * them escaped with `\`, so every attr names one place.
 *
 * @example
 * toAttr(["transactions", 3, "line_items", 0, "net_amount"]) // => "transactions.3.line_items.0.net_amount"
 * toAttr(["energy_amount.quantity"]) // => "energy_amount\\.quantity"
 */
export const toAttr = (path: Path): string => (path.length === 0 ? NON_FIELD_ERRORS : path.map(attrStep).join("."))

/** The value at `path` in `root`, reading own properties only; `undefined` where the path does not exist. */
export const valueAt = (root: unknown, path: Path): unknown => {
  let current: unknown = root
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined
    if (!Object.hasOwn(current, key)) return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return current
}

/** The JSON type name of a value, for messages. */
export const jsonTypeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value

/** The position of `key`, an own enumerable key of `object`, among `Object.keys(object)`, without making that list. */
const ownKeyIndex = (object: object, key: string): number => {
  let index = 0
  // for-in lists the own enumerable keys first, in the order of Object.keys; inherited ones come after.
  // Stryker disable next-line BlockStatement: equivalent, the fast path only; Object.keys(object).indexOf(key) below gives the same position
  for (const k in object) {
    if (k === key) return index
    index++
  }
  return Object.keys(object).indexOf(key)
}

/**
 * A sort key that puts a path in document order: each step is the position of the key among the
 * object's own keys (or the array index); a key that is absent (a missing required field) sorts after
 * the keys that are present, in schema order.
 */
export const documentOrderKey = (root: unknown, path: Path): ReadonlyArray<number> => {
  const key: Array<number> = []
  let current: unknown = root
  for (const step of path) {
    if (Array.isArray(current) && typeof step === "number") {
      key.push(step)
      current = current[step]
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, step)) {
      key.push(ownKeyIndex(current, String(step)))
      current = (current as Record<string, unknown>)[step]
    } else {
      key.push(Number.MAX_SAFE_INTEGER)
      current = undefined
    }
  }
  return key
}

/** Compares two document-order keys; a prefix (the object itself) comes before its fields. */
export const compareOrderKeys = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0)
  }
  return a.length - b.length
}
