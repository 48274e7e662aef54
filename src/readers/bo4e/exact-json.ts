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

/** Whether `value` is a JSON object (not an array, not a number). */
export const isJsonObject = (value: ExactJson | undefined): value is { readonly [key: string]: ExactJson } =>
  isRecord(value) && !(value instanceof JsonNumberText)
