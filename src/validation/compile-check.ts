/**
 * The accept-only check of a request schema, compiled from the schema at first use (as zod v4 compiles
 * its fast path): straight-line JavaScript that answers whether an input is valid **and** gets no
 * warning. It reports nothing; every other input goes to the one reporter (`runValidation`), which
 * finds the errors and warnings. The schemas, with their rules as data, stay the only description:
 * nothing is generated ahead of time, so nothing can be out of date.
 *
 * A schema construct the writer (`compile/`) does not know stops it with an error, so a new kind of
 * check is taught there before a schema can use it, never skipped (a test compiles every endpoint).
 * Where the runtime forbids making code from strings (`--disallow-code-generation-from-strings`, a
 * content security policy), there is no check: every input goes to the reporter, with the same answers.
 *
 * @module
 */
import type { SchemaAST } from "effect"
import type { RuleContext } from "../schemas/conventions.js"
import { CHECK_HELPERS } from "./compile/check-helpers.js"
import { type CheckRef, Constants, EndpointNames } from "./compile/check-names.js"
import { CheckWriter } from "./compile/emit-check.js"

/** Whether `input` (plain JSON data) is valid and without warnings; `context.now` is the clock of the rules that need one. */
export type AcceptCheck = (input: unknown, context: RuleContext) => boolean

/** The source of a schema's check and the values it receives (`r0`, `r1`, … in the order of `refs`). */
export interface CheckSource {
  readonly source: string
  readonly refs: ReadonlyArray<CheckRef>
  /** The check runs a rule that needs the clock: `context.now` must be the clock of the validation. */
  readonly clock: boolean
}

/**
 * The source of the accept-only check of `ast`: the body of a function of the helpers (`CHECK_HELPERS`)
 * and the refs, which returns the check `(v0, context) => boolean`. Throws at a construct it does not know.
 *
 * @example
 * const { source, refs, clock } = checkSource(endpoints["energy-amount"].request.ast)
 * source.includes("return (v0, context) => {") // => true
 * refs.map((r) => r.label) // => ["rule start_date_later_than_end_date(period_start_at, period_end_at)", …]
 * clock // => false
 */
export const checkSource = (ast: SchemaAST.AST, warnings = true): CheckSource => {
  const constants = new Constants()
  const names = new EndpointNames()
  const writer = new CheckWriter(constants, names, warnings)
  writer.node(ast, "v0", 1)
  const source = [
    ...[...constants.declarations].map(([value, name]) => `const ${name} = ${value}`),
    "return (v0, context) => {",
    ...writer.lines,
    "  return true",
    "}"
  ].join("\n")
  return { source, refs: names.refs, clock: writer.clock }
}

const HELPER_NAMES = Object.keys(CHECK_HELPERS)
const HELPERS = Object.values(CHECK_HELPERS)

/** A compiled check, or `null` where the runtime makes no code from strings. */
const compiled = {
  withWarnings: new WeakMap<SchemaAST.AST, { readonly accepts: AcceptCheck; readonly clock: boolean } | null>(),
  validityAlone: new WeakMap<SchemaAST.AST, { readonly accepts: AcceptCheck; readonly clock: boolean } | null>()
}

/**
 * The accept-only check of a schema, compiled once per schema node and kept; `undefined` where the
 * runtime forbids making code from strings (the caller then asks the reporter for every input).
 *
 * @example
 * const compiled = compileCheck(endpoints["energy-amount"].request.ast)
 * compiled?.accepts(JSON.parse(line), { now: new Date() }) // => true
 * compiled?.accepts({ ...JSON.parse(line), import_supplier: "" }, { now: new Date() }) // => false
 */
export const compileCheck = (
  ast: SchemaAST.AST,
  /** `warnings: false`: the check of validity alone, which also accepts a valid input that warns. */
  options?: { readonly warnings?: boolean }
): { readonly accepts: AcceptCheck; readonly clock: boolean } | undefined => {
  const warnings = options?.warnings !== false
  const cache = warnings ? compiled.withWarnings : compiled.validityAlone
  const known = cache.get(ast)
  if (known !== undefined) return known ?? undefined
  const { source, refs, clock } = checkSource(ast, warnings)
  let make: (...values: Array<unknown>) => AcceptCheck
  try {
    make = new Function(...HELPER_NAMES, ...refs.map((_, i) => `r${i}`), source) as typeof make
  } catch (cause) {
    // Code generation from strings is disallowed here: the reporter answers every input.
    if (!(cause instanceof EvalError)) throw cause
    cache.set(ast, null)
    return undefined
  }
  const check = { accepts: make(...HELPERS, ...refs.map((r) => r.value)), clock }
  cache.set(ast, check)
  return check
}
