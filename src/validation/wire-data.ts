/**
 * What a payload is on the wire: `JSON.stringify` sends an object's own enumerable properties and nothing
 * it inherits, so validation reads exactly those. A property defined by a getter is refused: a getter is
 * code, not data, and may answer differently when the payload is serialised than when it was checked.
 *
 * @module
 */
import type { PathError } from "./issue-to-errors.js"
import type { Path } from "./path.js"

/** The input as validation reads it, and the getters found in it. */
export interface WireData {
  readonly value: unknown
  readonly errors: ReadonlyArray<PathError>
}

/** Deeper than any payload of the contract: below this, values are passed on as they are. */
const MAX_DEPTH = 64

/** Stands for a getter's value: no schema accepts it, so its place is reported once, as `invalid`. */
const GETTER = Symbol("getter")

const isPlainPrototype = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value)
  return Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype || prototype === null
}

/** Whether a key was added to `Object.prototype` (validation would read it as a field of every object). */
const prototypeIsPolluted = (): boolean => {
  for (const _ in Object.prototype) return true
  return false
}

/**
 * Whether `value` is data throughout: plain objects and arrays whose own properties are all data
 * properties. Most inputs are (straight from `JSON.parse` or a mapper), and are then validated as they are.
 */
const isPlainData = (value: unknown, depth: number): boolean => {
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return true
  if (!isPlainPrototype(value)) return false
  const descriptors = Object.getOwnPropertyDescriptors(value)
  for (const key in descriptors) {
    const descriptor = descriptors[key]!
    if (descriptor.get !== undefined || descriptor.set !== undefined) return false
    if (descriptor.enumerable === true && !isPlainData(descriptor.value, depth + 1)) return false
  }
  return true
}

/** A copy holding own enumerable data properties only, in null-prototype objects, with the getters noted. */
const copyData = (value: unknown, path: Path, errors: Array<PathError>, depth: number): unknown => {
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return value
  const array = Array.isArray(value)
  const copy: Record<string, unknown> = array ? ([] as unknown as Record<string, unknown>) : Object.create(null)
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (descriptor.enumerable !== true) continue
    const step = array && /^(?:0|[1-9][0-9]*)$/u.test(key) ? Number(key) : key
    if (descriptor.get !== undefined || descriptor.set !== undefined) {
      errors.push({
        path: [...path, step],
        code: "invalid",
        detail: "A getter is not data: JSON.stringify would call it when sending. Pass the value itself."
      })
      copy[key] = GETTER
    } else {
      copy[key] = copyData(descriptor.value, [...path, step], errors, depth + 1)
    }
  }
  return copy
}

/**
 * The input as `JSON.stringify` would send its properties: itself when it is plain data throughout,
 * else a copy of its own enumerable data properties (inherited ones dropped), with an `invalid` error at
 * each getter.
 */
export const toWireData = (input: unknown): WireData => {
  if (!prototypeIsPolluted() && isPlainData(input, 0)) return { value: input, errors: [] }
  const errors: Array<PathError> = []
  return { value: copyData(input, [], errors, 0), errors }
}

/** Whether validation reads `input` as it is (plain data throughout, nothing inherited in the way). */
export const isWireData = (input: unknown): boolean => !prototypeIsPolluted() && isPlainData(input, 0)
