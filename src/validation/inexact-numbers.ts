/**
 * Exact numbers in `validate` and `send`: a JSON number that a double cannot hold exactly
 * (`12345678901234567.89`) is `inexact_number`, never sent rounded. `JSON.parse` has rounded it already,
 * so this reads the raw text: a fast scan for numbers that may be inexact (more than 15 digits, or an
 * exponent), then, on the few texts that have one, a second parse whose reviver sees each number's source
 * (`context.source`, Node 21 and later; without it nothing is found).
 *
 * @module
 */
import { toValidationErrorBody } from "./run-validation.js"
import { isExactJsonNumber } from "./is-exact-json-number.js"
import { compareOrderKeys, documentOrderKey, isRecord, type Path, toAttr } from "./path.js"
import type { PayloadError, ValidationResult } from "./result.js"

/**
 * A value (after `:`, `,` or `[`) that is a number token that may be inexact: 16 or more digits and dots,
 * or an exponent. Up to 15 significant digits, without an exponent, a decimal is always the double nearest
 * to it and back (DBL_DIG). A number at the root is not looked for: a root that is no object is invalid
 * anyway. Without the `u` flag, which makes the scan slower (on 100,000 energy-amount lines: about 0.4 of
 * the time of their JSON.parse, instead of 0.5).
 */
const MAYBE_INEXACT_RE = /[:,[]\s*-?\d(?:[\d.]{15}|[\d.]*[eE])/

/** The source and the value of a number the reviver found inexact. */
class Inexact {
  constructor(readonly source: string, readonly value: number) {}
}

type Reviver = (this: unknown, key: string, value: unknown, context?: { readonly source?: string }) => unknown
const reviver: Reviver = (_key, value, context) =>
  typeof value === "number" && context?.source !== undefined && !isExactJsonNumber(context.source)
    ? new Inexact(context.source, value)
    : value

const collect = (node: unknown, path: Array<string | number>, out: Array<{ path: Path; found: Inexact }>): void => {
  if (node instanceof Inexact) out.push({ path: [...path], found: node })
  else if (Array.isArray(node)) node.forEach((item, i) => collect(item, [...path, i], out))
  else if (isRecord(node)) for (const key of Object.keys(node)) collect(node[key], [...path, key], out)
}

/**
 * The `inexact_number` errors of a JSON text, in document order: each number whose value as a double
 * differs from what the text says. `[]` for text that is not JSON (its parse reports that).
 *
 * @example
 * inexactNumberErrors('{"transactions":[{"amount":12.5}]}') // => []
 * inexactNumberErrors('{"transactions":[{"amount":12345678901234567.89}]}')
 * // => [{ attr: "transactions.0.amount", code: "inexact_number", detail: "12345678901234567.89 cannot be sent as a JSON number without changing it (it would become 12345678901234568)." }]
 *
 * @since 0.1.0
 */
export const inexactNumberErrors = (text: string): Array<PayloadError> => {
  if (!MAYBE_INEXACT_RE.test(text)) return []
  let root: unknown
  try {
    root = JSON.parse(text, reviver as (key: string, value: unknown) => unknown)
  } catch {
    return []
  }
  const found: Array<{ path: Path; found: Inexact }> = []
  collect(root, [], found)
  return found.map(({ path, found: { source, value } }) => ({
    detail: `${source} cannot be sent as a JSON number without changing it (it would become ${JSON.stringify(value)}).`,
    code: "inexact_number" as const,
    attr: toAttr(path)
  }))
}

/** Whether a parsed JSON value holds a number anywhere (most records hold none, or few). */
const hasNumber = (node: unknown): boolean => {
  if (typeof node === "number") return true
  if (typeof node !== "object" || node === null) return false
  if (Array.isArray(node)) {
    for (const item of node) if (hasNumber(item)) return true
    return false
  }
  for (const key in node) if (hasNumber((node as Record<string, unknown>)[key])) return true
  return false
}

/** The steps of an attr (`\.` and `\\` unescaped), indexes as numbers where `root` has an array. */
const pathOfAttr = (root: unknown, attr: string): Path => {
  const steps = attr.match(/(?:\\.|[^.\\])+/gu) ?? []
  const path: Array<string | number> = []
  let node = root
  for (const raw of steps) {
    const step = raw.replace(/\\(.)/gu, "$1")
    const key = Array.isArray(node) && /^\d+$/u.test(step) ? Number(step) : step
    path.push(key)
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined
  }
  return path
}

/**
 * `result` (the validation of `value`, parsed from `text`) with the `inexact_number` errors of `text`:
 * invalid when there is one, its errors in document order. A number whose place has an error already
 * (an `amount_total` too large for an integer) keeps that error alone. A value without numbers is not
 * scanned at all (a walk of the parsed value costs about a fifth of the text scan).
 *
 * @example
 * const text = '{"import_supplier":"STADTWERKE_NORD","external_account_number":"KD-1","transactions":[{"transaction_id":"BU-1","transaction_date":"2024-01-15","amount":12345678901234567.89,"type":"CREDIT"}]}'
 * const result = withExactNumbers(text, JSON.parse(text), validatePayload("transactions", JSON.parse(text), { now: new Date("2025-01-01") }))
 * result.ok // => false
 * result.ok ? [] : result.error.errors.map((e) => `${e.attr} ${e.code}`) // => ["transactions.0.amount inexact_number"]
 *
 * @since 0.1.0
 */
export const withExactNumbers = <A>(text: string, value: unknown, result: ValidationResult<A>): ValidationResult<A> => {
  if (!hasNumber(value)) return result
  const inexact = inexactNumberErrors(text)
  if (inexact.length === 0) return result
  const existing = result.ok ? [] : result.error.errors
  const fresh = inexact.filter((e) => !existing.some((x) => x.attr === e.attr || e.attr.startsWith(`${x.attr}.`)))
  if (fresh.length === 0) return result
  const errors = [...existing, ...fresh]
    .map((e, i) => ({ e, i, key: e.attr === "non_field_errors" ? [] : documentOrderKey(value, pathOfAttr(value, e.attr)) }))
    .sort((a, b) => compareOrderKeys(a.key, b.key) || a.i - b.i)
    .map(({ e }) => e)
  return { ok: false, error: toValidationErrorBody(errors), warnings: result.warnings }
}
