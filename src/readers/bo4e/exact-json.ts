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

/** The value of `text`, or the parser's message when it is not JSON. */
export const parseExactJson = (text: string): { readonly ok: true; readonly value: ExactJson } | { readonly ok: false; readonly message: string } => {
  try {
    return { ok: true, value: JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown) as ExactJson }
  } catch (cause) {
    return { ok: false, message: (cause as Error).message }
  }
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
