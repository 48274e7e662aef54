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

/**
 * How a {@link CrossFieldRule.breaker} breaks its rule: the value the rule is declared on, changed so that
 * the rule fails (it replaces that value in the payload); where the error is then expected, relative to it
 * (`[]`: at the value itself, `["unpin_at"]`, `[1, "transaction_id"]`); the code expected there when it is
 * not the rule's name; and what was changed, in words.
 *
 * @example
 * const broken: RuleBreak = { value: { lower_bound: 10, upper_bound: 9 }, at: ["upper_bound"], detail: "upper_bound (9) is below lower_bound (10)" }
 * broken.at // => ["upper_bound"]
 */
export interface RuleBreak {
  readonly value: unknown
  readonly at: ReadonlyArray<string | number>
  readonly code?: string
  readonly detail: string
}

/** What a rule may know beyond the payload: the clock. */
export interface RuleContext {
  readonly now: Date
}

/**
 * A cross-field rule, declared once as data: its name (its error code, where it has one) and what that
 * code means, the fields it relates in order (`[start, end]`), the field values under which it applies,
 * what it reads, its check, and how to break it. Validation runs it whenever the fields it reads are
 * valid, even when other fields of the same object are not, so one report lists every error; the schema's
 * filter, the compiled accept-only check, the list of error codes (`ERROR_CODES`, from the rules the
 * resources register) and the testing kit's broken payloads all come from this declaration.
 *
 * @example
 * const rule: CrossFieldRule = {
 *   name: "lower_bound_greater_than_upper_bound",
 *   description: "An interval zone whose lower bound exceeds its upper bound.",
 *   fields: ["lower_bound", "upper_bound"],
 *   check: (zone) => zone.lower_bound <= zone.upper_bound ? [] : [{ path: ["upper_bound"], code: "lower_bound_greater_than_upper_bound", detail: "…" }]
 * }
 * rule.check({ lower_bound: 2, upper_bound: 1 }, { now: new Date() }).map((f) => f.code) // => ["lower_bound_greater_than_upper_bound"]
 * rule.check({ lower_bound: 1, upper_bound: 1 }, { now: new Date() }) // => []
 */
export interface CrossFieldRule<A = any, N extends string = string> {
  readonly name: N
  /** What the code {@link CrossFieldRule.name} means, for the list of error codes (`ERROR_CODES`). */
  readonly description: string
  /**
   * The codes the rule reports, when its name is not one: it names existing codes (`supply_charge_fields`
   * reports `required` and `empty`), and adds none to the list of error codes.
   */
  readonly reports?: ReadonlyArray<string>
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
  /**
   * How the testing kit breaks the rule: given a valid value the rule is declared on (the JSON object or
   * list at the rule's place) and a number that chooses among the ways (any natural number), that value
   * changed so that exactly this rule fails; `undefined` where this value cannot be broken so. A pure
   * function of plain data (the main bundle carries it; the kit draws the numbers).
   */
  readonly breaker?: (value: A, variant: number) => RuleBreak | undefined
}
