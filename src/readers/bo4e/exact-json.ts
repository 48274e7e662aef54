/**
 * JSON parsed without losing a digit: every number is kept as the text it was written as (`10000.0`,
 * `0.1`, `1e3`), never through a JavaScript number. Uses the `context.source` that Node 22's
 * `JSON.parse` gives a reviver (the raw text of a primitive).
 *
 * @module
 */
import { isRecord } from "../../schemas/is-record.js"

/** A JSON number as written in the document. */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

/** A parsed JSON value whose numbers are {@link JsonNumberText}. */
export type ExactJson = string | boolean | null | JsonNumberText | ReadonlyArray<ExactJson> | { readonly [key: string]: ExactJson }

type Reviver = (this: unknown, key: string, value: unknown, context: { readonly source?: string }) => unknown

const reviver: Reviver = (_key, value, context) => {
  if (typeof value !== "number") return value
  // Without `context.source` (an older engine) the number would be rounded: refuse rather than guess.
  if (context?.source === undefined) throw new Error("JSON.parse gives no number source text: this needs Node 22 or later")
  return new JsonNumberText(context.source)
}

/**
 * How deep objects and lists nest in a JSON text (`1` for `{}` or `[1]`), counted without parsing and
 * without recursion; the count stops as soon as it passes `limit`. Brackets inside strings do not count.
 *
 * @example
 * jsonNestingDepth('{"a":[1,{"b":"]]"}]}', 10) // => 3
 * // More than the limit: the count stops there.
 * jsonNestingDepth("[[[[1]]]]", 2) // => 3
 */
export const jsonNestingDepth = (text: string, limit: number): number => {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // Skip the string: a backslash escapes the character after it.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return deepest
}

/** A parse of {@link parseExactJson}: the value, or why there is none. */
export type ExactJsonParse =
  | { readonly ok: true; readonly value: ExactJson }
  | { readonly ok: false; readonly message: string; readonly tooDeep?: { readonly limit: number } }

/**
 * The value of `text`, or the parser's message when it is not JSON. With `maxDepth`, a text that is JSON
 * but nests deeper than that is no value either (`tooDeep`): the reviver that keeps the numbers' text
 * recurses once per level, so thousands of levels would exhaust the stack, where the plain parse (which
 * checks the syntax here) does not.
 *
 * @example
 * String(parseExactJson('{"wert":10000.0}').ok) // => "true"
 * parseExactJson("[[[1]]]", 2) // => { ok: false, message: "objects and lists nest more than 2 levels deep", tooDeep: { limit: 2 } }
 */
export const parseExactJson = (text: string, maxDepth = Number.POSITIVE_INFINITY): ExactJsonParse => {
  try {
    if (jsonNestingDepth(text, maxDepth) > maxDepth) {
      JSON.parse(text)
      return { ok: false, message: `objects and lists nest more than ${maxDepth} levels deep`, tooDeep: { limit: maxDepth } }
    }
    return { ok: true, value: JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown) as ExactJson }
  } catch (cause) {
    return { ok: false, message: (cause as Error).message }
  }
}

/**
 * The texts of the elements of a JSON array text, in order, cut at its top-level commas (strings and nested
 * values are skipped, without recursion): the elements of an array too deep to parse whole can then be
 * parsed one by one. `undefined` when `text` is no array.
 *
 * @example
 * jsonArrayElements(' [1, {"a":[2,3]}, "x,y"] ') // => ["1", ' {"a":[2,3]}', ' "x,y"']
 * jsonArrayElements("[]") // => []
 */
export const jsonArrayElements = (text: string): Array<string> | undefined => {
  const start = text.indexOf("[")
  if (start === -1 || text.slice(0, start).trim() !== "") return undefined
  const elements: Array<string> = []
  let depth = 0
  let from = start + 1
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
    } else if (c === 0x7b || c === 0x5b) depth++
    else if ((c === 0x7d || c === 0x5d) && depth > 0) depth--
    else if ((c === 0x2c || c === 0x5d) && depth === 0) {
      const element = text.slice(from, i)
      if (c === 0x2c || element.trim() !== "") elements.push(element)
      if (c === 0x5d) return elements
      from = i + 1
    }
  }
  return undefined
}

// A JSON number: sign, integer digits, fraction digits, exponent (JSON's grammar, so the groups always fit).
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/u

/** The longest number text an exponent is written out to; beyond, the text stays as written. */
const MAX_PLAIN_LENGTH = 1000

/**
 * The number a JSON text writes, as a plain decimal (`-?digits[.digits]`): what the decimal converters
 * read. A number without an exponent is its text as written (`10000.0`, `-0`); one with an exponent is
 * written out digit by digit, with as many decimals as it has (`1E+3` → `1000`, `1.50e-1` → `0.150`).
 * JSON allows an exponent in any number, and the converters (rightly, for CSV cells such as `1,5e3`) refuse
 * one in text, so without this a valid `1E+3` would be a reject. A number that would take more than
 * 1,000 characters (`1e1000000000`) stays as written: no amount has that many digits, and the converter
 * refuses it, located, instead of this building a gigabyte of zeros.
 *
 * @example
 * plainNumberText("1.5E+3") // => "1500"
 * plainNumberText("12e-5") // => "0.00012"
 * plainNumberText("10000.0") // => "10000.0"
 */
export const plainNumberText = (text: string): string => {
  const m = NUMBER_PARTS.exec(text)
  if (m === null || m[4] === undefined) return text
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = m
  const digits = whole + fraction
  // Where the decimal point goes in `digits`, and how many decimals the number has.
  const point = whole.length + Number(exponent)
  const decimals = Math.max(0, fraction.length - Number(exponent))
  if (Math.max(point, 1) + decimals > MAX_PLAIN_LENGTH) return text
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0")
  const at = Math.max(point, 1)
  const integer = padded.slice(0, at).replace(/^0+(?=\d)/u, "")
  const kept = padded.slice(at, at + decimals)
  return `${sign}${integer}${kept === "" ? "" : `.${kept}`}`
}

/** Whether `value` is a JSON object (not an array, not a number). */
export const isJsonObject = (value: ExactJson | undefined): value is { readonly [key: string]: ExactJson } =>
  isRecord(value) && !(value instanceof JsonNumberText)
