/**
 * Cross-field rules: declared once as data ({@link CrossFieldRule}), turned into Effect schema filters
 * here. Each failure is an issue with its own stable `code`, reported at the field the contract names
 * (the later field of a start/end pair).
 *
 * @module
 */
import { Schema, type SchemaAST, SchemaIssue } from "effect"
import { CROSS_FIELD_RULE, type CrossFieldRule, type RuleFinding } from "./conventions.js"
import { compareDateTimes } from "./instant.js"
import { before } from "./rule-breaks.js"

export { compareDateTimes }

/** Builds an issue that carries a contract error code and a human-readable detail. */
export const codedIssue = (code: string, message: string, input?: unknown): SchemaIssue.Issue =>
  new SchemaIssue.InvalidValue({ code, message }, input)

/** Compares two well-formed `YYYY-MM-DD` dates. */
export const compareDates = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** A schema's clock is unknown: decoding checks every rule but the ones that need it, which validation runs. */
const NO_CLOCK = { now: new Date(Number.NaN) }

/**
 * The schema filter of a rule: its findings as coded issues, and the rule itself as the filter's
 * {@link CROSS_FIELD_RULE} annotation. A rule that needs the clock passes here (a schema has none).
 *
 * @example
 * const Period = Schema.Struct({ from: Schema.String, to: Schema.String }).check(ruleFilter(startNotAfterEndRule("from", "to", "date")))
 * Schema.is(Period)({ from: "2024-02-01", to: "2024-01-31" }) // false
 */
export const ruleFilter = <A>(rule: CrossFieldRule<A>, annotations?: Schema.Annotations.Filter) =>
  Schema.makeFilter((value: A) => {
    if (rule.clock === true) return undefined
    const findings = rule.check(value, NO_CLOCK)
    // Stryker disable next-line ConditionalExpression: equivalent, Effect reads an empty list of issues as a pass (SchemaIssue.normalizeFilterOutput); the return saves the empty map
    if (findings.length === 0) return undefined
    return findings.map((f: RuleFinding) => ({ path: f.path, issue: codedIssue(f.code, f.detail) }))
  }, {
    ...annotations,
    ...(rule.jsonSchema === undefined ? {} : { toJsonSchema: (() => rule.jsonSchema) as NonNullable<Schema.Annotations.Filter["toJsonSchema"]> }),
    [CROSS_FIELD_RULE]: rule
  })

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

const rulesOfNode = new WeakMap<SchemaAST.AST, ReadonlyArray<CrossFieldRule>>()

/**
 * The cross-field rules declared on a schema node (its filters' {@link CROSS_FIELD_RULE} annotations), in
 * the order of its filters: the one reading of them, for validation's rule pass, the accept-only check and
 * the testing kit's breakers.
 *
 * @example
 * const Zone = Schema.Struct({ lower_bound: Schema.Number, upper_bound: Schema.Number })
 * const rule: CrossFieldRule = { name: "lower_bound_greater_than_upper_bound", description: "A lower bound above its upper bound.", fields: ["lower_bound", "upper_bound"], check: () => [] }
 * crossFieldRulesOf(Zone.check(ruleFilter(rule)).ast).map((r) => r.name) // => ["lower_bound_greater_than_upper_bound"]
 */
export const crossFieldRulesOf = (ast: SchemaAST.AST): ReadonlyArray<CrossFieldRule> => {
  let rules = rulesOfNode.get(ast)
  if (rules === undefined) {
    rules = filtersOf(ast).flatMap((f) => {
      const rule = (f.annotations as Record<string, unknown> | undefined)?.[CROSS_FIELD_RULE]
      return rule === undefined ? [] : [rule as CrossFieldRule]
    })
    rulesOfNode.set(ast, rules)
  }
  return rules
}

/**
 * How each kind of value is ordered. A table rather than a test of one kind: a kind it does not name fails
 * at once instead of quietly comparing as the other one.
 */
const ORDERS: Readonly<Record<"date" | "datetime", (a: string, b: string) => number>> = {
  date: compareDates,
  datetime: compareDateTimes
}

/**
 * The rule that `start` is not after `end` when both are given (`start_date_later_than_end_date`, reported
 * at the end key). Dates compare as text, datetimes as instants (across offsets). Its breaker moves the end
 * before the start (datetimes possibly in another zone).
 *
 * @example
 * const rule = startNotAfterEndRule("from", "to", "date")
 * rule.check({ from: "2024-02-01", to: "2024-01-31" }, { now: new Date() }).map((f) => f.path) // => [["to"]]
 * rule.breaker?.({ from: "2024-02-01", to: "2024-03-01" }, 0)?.value // => { from: "2024-02-01", to: "2024-01-31" }
 */
export const startNotAfterEndRule = <K extends string>(
  start: K,
  end: K,
  kind: "date" | "datetime"
): CrossFieldRule<{ readonly [P in K]?: unknown }, "start_date_later_than_end_date"> => ({
  name: "start_date_later_than_end_date",
  description: "A start/end pair (dates or datetimes, compared as instants) whose start is after its end.",
  fields: [start, end],
  check: (value) => {
    const from = value[start]
    const to = value[end]
    if (typeof from !== "string" || typeof to !== "string") return []
    const order = ORDERS[kind](from, to)
    return order <= 0
      ? []
      : [{ path: [end], code: "start_date_later_than_end_date", detail: `${end} must not be earlier than ${start}.` }]
  },
  breaker: (value, variant) => {
    const from = value[start]
    if (typeof from !== "string") return undefined
    const to = before(from, variant)
    return { value: { ...value, [end]: to }, at: [end], detail: `${end} (${to}) is before ${start} (${from})` }
  }
})
