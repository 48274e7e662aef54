/**
 * Reading a request schema for the writer of the accept-only check: the filters of a node, their
 * annotations and Effect's representation of a built-in check, the cross-field rules of a node, and the
 * one way the writer refuses what it does not know.
 *
 * @module
 */
import { crossFieldRulesOf, type Filter, filtersOf } from "../../schemas/rules.js"

export { crossFieldRulesOf, type Filter, filtersOf }

/** The annotations of a filter, as a record. */
export const annotationsOf = (filter: Filter): Record<string, unknown> => (filter.annotations ?? {}) as Record<string, unknown>

/** Effect's description of a built-in check (`{ id: "effect/schema/isPattern", payload: { source, flags } }`). */
export const representation = (filter: Filter): { readonly id?: unknown; readonly payload?: unknown } => {
  const r = annotationsOf(filter)["representation"]
  return typeof r === "object" && r !== null ? r : {}
}

/**
 * Stops the writer at a construct it does not know: a new kind of check is taught before it is used,
 * never skipped: `unsupported("a tuple")` throws "compileCheck: a tuple is not supported; …".
 */
export const unsupported = (what: string): never => {
  throw new Error(`compileCheck: ${what} is not supported; teach src/validation/compile/`)
}

/** A value as JavaScript source. */
export const js = (value: unknown): string => JSON.stringify(value)
