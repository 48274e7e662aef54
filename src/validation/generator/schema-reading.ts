/**
 * Reading a request schema for the writer of the accept-only check: the filters of a node, their
 * annotations and Effect's representation of a built-in check, the cross-field rules of a node, and the
 * one way the writer refuses what it does not know.
 *
 * @module
 */
import type { SchemaAST } from "effect"
import { CROSS_FIELD_RULE, type CrossFieldRule } from "../../schemas/conventions.js"

type Check = NonNullable<SchemaAST.AST["checks"]>[number]

/** One filter of a schema node (a check that is not a group). */
export type Filter = Extract<Check, { readonly _tag: "Filter" }>

/**
 * The filters of a node, groups flattened, in the order Effect runs them.
 *
 * @example
 * filtersOf(Schema.String.check(Schema.isMinLength(1)).ast).length // => 1
 */
export const filtersOf = (ast: SchemaAST.AST): Array<Filter> => {
  const out: Array<Filter> = []
  const visit = (check: Check): void => {
    if (check._tag === "FilterGroup") for (const inner of check.checks) visit(inner)
    else out.push(check)
  }
  for (const check of ast.checks ?? []) visit(check)
  return out
}

/** The annotations of a filter, as a record. */
export const annotationsOf = (filter: Filter): Record<string, unknown> => (filter.annotations ?? {}) as Record<string, unknown>

/** Effect's description of a built-in check (`{ id: "effect/schema/isPattern", payload: { source, flags } }`). */
export const representation = (filter: Filter): { readonly id?: unknown; readonly payload?: unknown } => {
  const r = annotationsOf(filter)["representation"]
  return typeof r === "object" && r !== null ? r : {}
}

/** The cross-field rules declared on a node, in the order of its filters. */
export const crossFieldRulesOf = (ast: SchemaAST.AST): Array<CrossFieldRule> =>
  filtersOf(ast).flatMap((f) => {
    const rule = annotationsOf(f)[CROSS_FIELD_RULE]
    return rule === undefined ? [] : [rule as CrossFieldRule]
  })

/**
 * Stops the writer at a construct it does not know: a new kind of check is taught before it is used,
 * never skipped: `unsupported("a tuple")` throws "compileCheck: a tuple is not supported; …".
 */
export const unsupported = (what: string): never => {
  throw new Error(`compileCheck: ${what} is not supported; teach src/validation/generator/`)
}

/** A value as JavaScript source. */
export const js = (value: unknown): string => JSON.stringify(value)
