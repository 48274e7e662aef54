/**
 * Shared helpers of the example-based request tests: load a valid example payload (a fresh deep clone
 * each time), change or remove a value at a dot path, and read a validation result as `[attr, code]` pairs.
 */
import { readFileSync } from "node:fs"
import type { PostEndpointId, ValidationResult } from "../../src/index.js"

/** A JSON object as parsed from an example file. */
export type JsonObject = Record<string, unknown>

/** An `[attr, code]` pair of an error or a warning. */
export type AttrCode = [attr: string, code: string]

const examples = new Map<PostEndpointId, string>()

/** The example payload of a POST endpoint (`examples/payloads/<id>.json`), as a deep clone. */
export const loadExample = (id: PostEndpointId): JsonObject => {
  let text = examples.get(id)
  if (text === undefined) {
    text = readFileSync(new URL(`../../examples/payloads/${id}.json`, import.meta.url), "utf8")
    examples.set(id, text)
  }
  const parsed: unknown = JSON.parse(text)
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`The example of ${id} is not a JSON object.`)
  }
  return parsed as JsonObject
}

type Container = Record<string, unknown> | Array<unknown>

const isContainer = (u: unknown): u is Container => typeof u === "object" && u !== null

const keyOf = (container: Container, segment: string): string | number => {
  if (!Array.isArray(container)) return segment
  const index = Number(segment)
  if (!Number.isInteger(index) || index < 0) throw new Error(`"${segment}" is not an array index.`)
  return index
}

/** The parent container of the last segment of `path`; throws when a step does not exist (a typo in a test). */
const parentOf = (root: unknown, path: string): { parent: Container; key: string | number } => {
  const segments = path.split(".")
  const last = segments.pop()
  if (last === undefined || last === "") throw new Error(`Empty path.`)
  let current: unknown = root
  for (const segment of segments) {
    if (!isContainer(current)) throw new Error(`${path}: "${segment}" is not inside an object or array.`)
    const key = keyOf(current, segment)
    if (!Object.hasOwn(current, key)) throw new Error(`${path}: "${segment}" does not exist.`)
    current = (current as Record<string | number, unknown>)[key]
  }
  if (!isContainer(current)) throw new Error(`${path}: the parent of "${last}" is not an object or array.`)
  return { parent: current, key: keyOf(current, last) }
}

/** The value at a dot path (`transactions.2.line_items.0.units`); throws when the path does not exist. */
export const getAt = (root: unknown, path: string): unknown => {
  const { parent, key } = parentOf(root, path)
  if (!Object.hasOwn(parent, key)) throw new Error(`${path} does not exist.`)
  return (parent as Record<string | number, unknown>)[key]
}

/** Sets the value at a dot path (the parent must exist; the key may be new). Returns `root`. */
export const setAt = <T>(root: T, path: string, value: unknown): T => {
  const { parent, key } = parentOf(root, path)
  ;(parent as Record<string | number, unknown>)[key] = value
  return root
}

/** Removes the key at a dot path (it must exist; an array item is spliced out). Returns `root`. */
export const deleteAt = <T>(root: T, path: string): T => {
  const { parent, key } = parentOf(root, path)
  if (!Object.hasOwn(parent, key)) throw new Error(`${path} does not exist, so it cannot be removed.`)
  if (Array.isArray(parent)) parent.splice(key as number, 1)
  else delete parent[key]
  return root
}

/** The example of `id` with `value` at `path`. */
export const exampleWith = (id: PostEndpointId, path: string, value: unknown): JsonObject =>
  setAt(loadExample(id), path, value)

/** The example of `id` without the key at `path`. */
export const exampleWithout = (id: PostEndpointId, path: string): JsonObject => deleteAt(loadExample(id), path)

/** The errors of a result as `[attr, code]` pairs, in the order reported (none for a valid payload). */
export const errorsOf = (result: ValidationResult<unknown>): Array<AttrCode> =>
  result.ok ? [] : result.error.errors.map((e): AttrCode => [e.attr, e.code])

/** The warnings of a result as `[attr, code]` pairs, in the order reported. */
export const warningsOf = (result: ValidationResult<unknown>): Array<AttrCode> =>
  result.warnings.map((w): AttrCode => [w.attr, w.code])

/** Every `[attr, value]` combination of some fields and some values, for `it.each`. */
export const cross = (attrs: ReadonlyArray<string>, values: ReadonlyArray<unknown>): Array<[string, unknown]> =>
  attrs.flatMap((attr) => values.map((value): [string, unknown] => [attr, value]))

/** Strings that are `blank`: empty and whitespace-only. */
export const BLANKS: ReadonlyArray<string> = ["", "   ", "\t\n"]

/** Roots that are not a JSON object: one `invalid` error at `non_field_errors`. */
export const NOT_OBJECTS: ReadonlyArray<unknown> = [null, [], "x", 42, true]

/** Decimal strings that break the contract's `-?digits[.digits]` shape, and a decimal sent as a JSON number. */
export const MALFORMED_DECIMALS: ReadonlyArray<unknown> = ["1,5", "1e3", "1E3", "+1.5", "1.000,50", "1 000", ".5", "1.", "0x10", "NaN", 1.5]

/** Well-formed `YYYY-MM-DD` shapes that name no real day, and other malformed dates. */
export const MALFORMED_DATES: ReadonlyArray<unknown> = [
  "2024-02-30",
  "2023-02-29",
  "2024-04-31",
  "2024-13-01",
  "2024-1-5",
  "01.03.2024",
  "2024-03-01T00:00:00Z",
  20240301
]

/** Datetimes without a zone, impossible datetimes and other malformed ones. */
export const MALFORMED_DATETIMES: ReadonlyArray<unknown> = [
  "2024-01-01T10:00:00",
  "2024-02-30T10:00:00Z",
  "2024-01-01T24:00:00Z",
  "2024-01-01T10:00Z",
  "2024-01-01 10:00:00Z",
  "2024-01-01T10:00:00+0100",
  "2024-01-01",
  1704103200000
]

/** Document paths that are absolute, escape the root, use a backslash or a scheme, or have empty segments. */
export const INVALID_DOCUMENT_PATHS: ReadonlyArray<string> = [
  "/abs.pdf",
  "a/../b.pdf",
  "../b.pdf",
  "./a.pdf",
  "a/./b.pdf",
  "a\\b.pdf",
  "s3://x/y.pdf",
  "https://example.com/y.pdf",
  "a//b.pdf",
  "a/b/",
  "a/\u0000b.pdf",
  "a/\u0085b.pdf",
  "C:/x.pdf",
  "c:x.pdf",
  "file:///x.pdf"
]

/** Market participant codes that are not a positive integer of 13 digits. */
export const INVALID_PARTICIPANT_CODES: ReadonlyArray<unknown> = [
  990012345678,
  99001234567890,
  9900123456789.5,
  -9900123456789,
  0,
  "9900123456789",
  true
]

/** `n` copies of `c`: a string of exactly `n` characters. */
export const ofLength = (n: number, c = "x"): string => c.repeat(n)
