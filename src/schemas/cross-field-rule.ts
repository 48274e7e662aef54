/**
 * A cross-field rule: a check relating several fields of one object or list, declared once as data.
 *
 * @module
 */

/** A finding of a {@link CrossFieldRule}: where (relative to the value the rule is declared on) and why. */
export interface RuleFinding {
  readonly path: ReadonlyArray<string | number>
  readonly code: string
  readonly detail: string
}

/** What a rule may know beyond the payload: the clock. */
export interface RuleContext {
  readonly now: Date
}

/**
 * A cross-field rule, declared once as data: its name (its error code, where it has one), the fields it
 * relates in order (`[start, end]`), the field values under which it applies, what it reads, and its check.
 * Validation runs it whenever the fields it reads are valid, even when other fields of the same object are
 * not, so one report lists every error; the schema's filter, the compiled accept-only check and the
 * testing kit's breakers all come from this declaration.
 *
 * @example
 * const rule: CrossFieldRule = {
 *   name: "lower_bound_greater_than_upper_bound",
 *   fields: ["lower_bound", "upper_bound"],
 *   check: (zone) => zone.lower_bound <= zone.upper_bound ? [] : [{ path: ["upper_bound"], code: "lower_bound_greater_than_upper_bound", detail: "…" }]
 * }
 * rule.check({ lower_bound: 2, upper_bound: 1 }, { now: new Date() }).map((f) => f.code) // => ["lower_bound_greater_than_upper_bound"]
 * rule.check({ lower_bound: 1, upper_bound: 1 }, { now: new Date() }) // => []
 */
export interface CrossFieldRule<A = any> {
  readonly name: string
  readonly fields: ReadonlyArray<string>
  readonly when?: Readonly<Record<string, string>>
  /** The fields the check reads, when more than {@link CrossFieldRule.fields}. */
  readonly reads?: ReadonlyArray<string>
  /**
   * What the rule is declared on. `"object"` (default): an object, whose `reads` it reads. `"items"`: a list,
   * whose items' `reads` it reads; the check sees only the items whose fields are valid (others are
   * `undefined`). `"list"`: a list, of which it reads the length only.
   */
  readonly scope?: "object" | "items" | "list"
  /** The rule needs the clock: a schema cannot check it, validation does (with `now`). */
  readonly clock?: true
  /**
   * The rule in JSON Schema, where JSON Schema can say it exactly (a keyword fragment the exported schemas
   * add to the object or list); absent where it cannot (comparing two values, say).
   */
  readonly jsonSchema?: Readonly<Record<string, unknown>>
  /** The findings of the rule on a value whose read fields are valid; none when it holds. */
  readonly check: (value: A, context: RuleContext) => ReadonlyArray<RuleFinding>
}
