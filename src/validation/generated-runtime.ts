/**
 * What the generated validators (`src/validation/generated/validators.ts`) call and how they look.
 *
 * @module
 */
import { Schema, type SchemaAST, SchemaParser } from "effect"
import { type CrossFieldRule, isCalendarDate, NON_BLANK_RE, type RuleContext } from "../schemas/conventions.js"
import { isInstantInRange } from "../schemas/instant.js"
import { issueToPathErrors, type PathError, requiredError, unknownFieldError } from "./issue-to-errors.js"
import type { Path } from "./path.js"

export { isCalendarDate, isInstantInRange, NON_BLANK_RE, requiredError, unknownFieldError }
export { unknownChoiceDetail } from "./warning-details.js"

/** `NON_BLANK_RE.test(text)`, answered without the pattern when the first character is printable ASCII. */
export const isNonBlank = (text: string): boolean => {
  const first = text.charCodeAt(0)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the shortcut answers as NON_BLANK_RE does (DEL is no blank either)
  return (first > 32 && first < 127) || NON_BLANK_RE.test(text)
}

/** The number of code points of `text`, counted up to `limit` (as Effect's `isMaxCodePoints` counts). */
export const countCodePointsUpTo = (text: string, limit: number): number => {
  let count = 0
  for (const _ of text) if (++count >= limit) break
  return count
}

/** The options of `validatePayload`'s decode: every error, a field the schema does not name is one. */
const STRICT = { errors: "all", onExcessProperty: "error" } as const

type Decoder = (input: unknown) => ReturnType<ReturnType<typeof SchemaParser.decodeUnknownResult>>

const decoders = new WeakMap<SchemaAST.AST, Decoder>()

/**
 * Decodes the value of one schema node as `validatePayload`'s decode does inside the whole request (a
 * node's parser sees its value alone), pushes its errors with their paths under `path`, and answers
 * whether it had none.
 *
 * @example
 * import { Schema } from "effect"
 * const out = []
 * decodeAt(Schema.String.ast, 12, ["energy_amount", "quantity"], out) // => false
 * out // => [{ path: ["energy_amount", "quantity"], code: "invalid", detail: "Expected a string but got number." }]
 */
export const decodeAt = (ast: SchemaAST.AST, value: unknown, path: Path, out: Array<PathError>): boolean => {
  let decode = decoders.get(ast)
  // Stryker disable next-line ConditionalExpression: equivalent, a decoder made again decodes alike
  if (decode === undefined) {
    decode = SchemaParser.decodeUnknownResult(Schema.make(ast) as Schema.Decoder<unknown>, STRICT)
    decoders.set(ast, decode)
  }
  const result = decode(value)
  if (result._tag === "Success") return true
  for (const e of issueToPathErrors(result.failure, value)) {
    const at: PathError = { path: [...path, ...e.path], code: e.code, detail: e.detail }
    out.push(e.covers === undefined ? at : { ...at, covers: e.covers.map((c) => [...path, ...c]) })
  }
  return false
}

/** A schema's clock is unknown: its decode passes the rules that need one (see `ruleFilter`). */
// Stryker disable next-line ObjectLiteral: equivalent, a rule that reads the clock is passed before it runs
const NO_CLOCK = { now: new Date(Number.NaN) }

/**
 * Runs a cross-field rule as the decode's filter of it does (see `ruleFilter`) on the value at `path`,
 * pushes its findings as the decode reports them, and answers whether it holds.
 *
 * @example
 * const later = { name: "later", fields: ["from", "to"], check: (v) => (v.from > v.to ? [{ path: ["to"], code: "start_date_later_than_end_date", detail: "to must not be earlier than from." }] : []) }
 * const out = []
 * ruleHolds(later, { from: "2024-02-01", to: "2024-01-31" }, ["period"], out) // => false
 * out[0].path // => ["period", "to"]
 */
export const ruleHolds = (rule: CrossFieldRule, value: unknown, path: Path, out: Array<PathError>): boolean => {
  if (rule.clock === true) return true
  const findings = rule.check(value, NO_CLOCK)
  for (const f of findings) {
    out.push({ path: [...path, ...f.path], code: f.code, detail: f.detail, covers: rule.fields.map((field) => [...path, field]) })
  }
  return findings.length === 0
}

/**
 * The generated validator of one endpoint. `make` takes the values it calls (in the order of `refs`, their
 * labels) and returns the check, which answers whether `input` is valid and pushes the warnings of a valid
 * input to `out`. `errors` takes the same values and returns the error collector, which pushes the strict
 * decode's path errors of `input` (an object) to `out` and answers whether it found none, or `undefined`
 * where it cannot tell (the caller then validates in full).
 */
export interface GeneratedValidator {
  readonly refs: ReadonlyArray<string>
  /** The check runs a rule that needs the clock: `context.now` must be the clock of the validation. */
  readonly clock: boolean
  readonly make: (refs: ReadonlyArray<any>) => (input: any, out: Array<PathError>, context: RuleContext) => boolean
  readonly errors: (refs: ReadonlyArray<any>) => (input: any, out: Array<PathError>) => boolean | undefined
  /** Takes the same values and returns the warning collector: `collectWarnings` of any input, in its order. */
  readonly warnings: (refs: ReadonlyArray<any>) => (input: any, out: Array<PathError>) => void
}
