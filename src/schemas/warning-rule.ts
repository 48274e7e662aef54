/**
 * A warning rule: a check over one value of a payload that reports allowed but suspicious data, declared
 * once as data with its code and what the code means.
 *
 * @module
 */

/** A warning found by a {@link WarningRule}: where (relative to the value) and why. */
export interface RuleWarning {
  readonly path: ReadonlyArray<string | number>
  readonly code: string
  readonly detail: string
}

/**
 * A rule over one object of a payload (or, with `A`, another value) that reports allowed but suspicious
 * data: its code, what the code means (for the list of warning codes, `WARNING_CODES`, built from the
 * rules the resources register), and its check. The check sees the raw input (which may be malformed
 * elsewhere), so it must check the types it reads.
 *
 * @example
 * const legacyFlag: WarningRule = {
 *   code: "legacy_flag",
 *   description: "A `legacy` flag set: the field is ignored.",
 *   check: (value) => value["legacy"] === true ? [{ path: ["legacy"], code: "legacy_flag", detail: "legacy is ignored." }] : []
 * }
 * legacyFlag.check({ legacy: true }).map((w) => w.code) // => ["legacy_flag"]
 */
export interface WarningRule<A = Readonly<Record<string, unknown>>, C extends string = string> {
  readonly code: C
  readonly description: string
  readonly check: (input: A) => ReadonlyArray<RuleWarning>
}

/** The `detail` of an `undocumented_shape` warning: an item whose shape the spec does not give. */
const UNDOCUMENTED_SHAPE_DETAIL = "The spec does not give the shape of this item: it is passed on unchecked."

/**
 * `undocumented_shape`: every item of a list whose items' shape the spec does not give (a list schema
 * annotated with `UNDOCUMENTED_SHAPE`; validation runs it there). Registered by the resource that has such
 * a list.
 *
 * @example
 * undocumentedShape.check([{}, {}]).map((w) => w.path) // => [[0], [1]]
 */
export const undocumentedShape = {
  code: "undocumented_shape",
  description: "An item of `paid_in_advance_amounts`, whose shape the spec does not give.",
  check: (items) => items.map((_, index) => ({ path: [index], code: "undocumented_shape", detail: UNDOCUMENTED_SHAPE_DETAIL }))
} as const satisfies WarningRule<ReadonlyArray<unknown>>
