/**
 * Cross-field rules run wherever the fields they read are valid (`src/validation/run-rules.ts`), in every
 * kind of schema node a rule can sit below: filter groups, unions (with `null`), lists whose items or
 * length a rule reads, tuples, recursive schemas. Each case breaks a field the rule does not read, so the
 * decode alone (which runs an object's filters only when all its fields decode) would not report it.
 * The schemas are small ones made here; expected errors are worked out by hand from the rule.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { CrossFieldRule } from "../../src/schemas/cross-field-rule.js"
import { ruleFilter, startNotAfterEndRule } from "../../src/schemas/rules.js"
import { toAttr } from "../../src/validation/path.js"
import { ruleErrors } from "../../src/validation/run-rules.js"
import { runValidation } from "../../src/validation/run-validation.js"
import { errorsOf, warningsOf } from "../support/payloads.js"

const validate = (schema: Schema.Top, input: unknown, now?: Date) =>
  runValidation<unknown>(schema, input, { rootMustBeObject: true, now })

const LATER_THAN_END = "start_date_later_than_end_date"
const periodRule = startNotAfterEndRule("from", "to", "date")
/** A period (`from` not after `to`) with a number `n` the rule does not read. */
const periodFields = { from: Schema.String, to: Schema.String, n: Schema.optionalKey(Schema.Number) }
const Period = Schema.Struct(periodFields).check(ruleFilter(periodRule))
/** Reversed dates: the rule fails on them. */
const REVERSED = { from: "2024-02-01", to: "2024-01-01" }

describe("where a rule is declared", () => {
  it("a rule inside a filter group runs while a field it does not read is broken", () => {
    const Grouped = Schema.Struct(periodFields).check(Schema.makeFilterGroup([ruleFilter(periodRule)]))
    expect(errorsOf(validate(Grouped, { ...REVERSED, n: "x" }))).toEqual([["to", LATER_THAN_END], ["n", "invalid"]])
  })

  it("a rule of an object inside a union with null runs while a field it does not read is broken", () => {
    const Holder = Schema.Struct({ x: Schema.String, u: Schema.NullOr(Period) })
    expect(errorsOf(validate(Holder, { x: 1, u: { ...REVERSED, n: "x" } }))).toEqual([
      ["x", "invalid"],
      ["u.to", LATER_THAN_END],
      ["u.n", "invalid"]
    ])
    expect(errorsOf(validate(Holder, { x: 1, u: null }))).toEqual([["x", "invalid"]])
  })

  it("a rule of a union member the input does not take is not run on a valid input", () => {
    // The input is a "b" (no rule); the "a" member's rule would fail on it.
    const A = Schema.Struct({ kind: Schema.Literal("a"), from: Schema.String, to: Schema.String }).check(ruleFilter(periodRule))
    const B = Schema.Struct({ kind: Schema.Literal("b"), from: Schema.String, to: Schema.String })
    const result = validate(Schema.Union([A, B]), { kind: "b", ...REVERSED })
    expect(result.ok).toBe(true)
    expect(errorsOf(validate(Schema.Union([A, B]), { kind: "a", ...REVERSED }))).toEqual([["to", LATER_THAN_END]])
  })

  it("a rule inside a recursive schema runs at every depth while a field it does not read is broken", () => {
    interface Tree {
      readonly from: string
      readonly to: string
      readonly n?: number
      readonly children?: ReadonlyArray<Tree>
    }
    const Tree: Schema.Codec<Tree> = Schema.Struct({
      ...periodFields,
      children: Schema.optionalKey(Schema.Array(Schema.suspend((): Schema.Codec<Tree> => Tree)))
    }).check(ruleFilter(periodRule))
    const input = { from: "2024-01-01", to: "2024-01-02", children: [{ from: "2024-01-01", to: "2024-01-01" }, { ...REVERSED, n: "x" }] }
    expect(errorsOf(validate(Tree, input))).toEqual([["children.1.to", LATER_THAN_END], ["children.1.n", "invalid"]])
  })

  it("a recursive or suspended schema with no rule below it validates as any other", () => {
    interface Node {
      readonly name: string
      readonly next?: Node
    }
    const Node: Schema.Codec<Node> = Schema.Struct({
      name: Schema.String,
      next: Schema.optionalKey(Schema.suspend((): Schema.Codec<Node> => Node))
    })
    const Leaf = Schema.Struct({ name: Schema.String })
    const Holder = Schema.Struct({ node: Node, leaf: Schema.suspend(() => Leaf), period: Period })
    expect(errorsOf(validate(Holder, { node: { name: "a", next: { name: 1 } }, leaf: { name: 2 }, period: REVERSED }))).toEqual([
      ["node.next.name", "invalid"],
      ["leaf.name", "invalid"],
      ["period.to", LATER_THAN_END]
    ])
    const valid = { node: { name: "a", next: { name: "b" } }, leaf: { name: "c" }, period: { from: "2024-01-01", to: "2024-01-01" } }
    expect(validate(Holder, valid).ok).toBe(true)
  })

  it("tuples validate as any other list, a rule in a period beside them included", () => {
    const Holder = Schema.Struct({ pair: Schema.Tuple([Schema.String, Schema.String]), none: Schema.Tuple([]), period: Period })
    expect(errorsOf(validate(Holder, { pair: ["a", 1], none: [], period: { ...REVERSED, n: "x" } }))).toEqual([
      ["pair.1", "invalid"],
      ["period.to", LATER_THAN_END],
      ["period.n", "invalid"]
    ])
  })

  it("a tuple's rest schema and its rules apply to the rest items, not to its fixed elements", () => {
    const Plain = Schema.Struct(periodFields)
    const Holder = Schema.Struct({ x: Schema.String, t: Schema.TupleWithRest(Schema.Tuple([Plain]), [Period]) })
    // Element 0 is a plain period: reversed dates are allowed there.
    expect(errorsOf(validate(Holder, { x: 1, t: [REVERSED] }))).toEqual([["x", "invalid"]])
  })
})

/** The `id`s of a list's items are unique; the rule reads `id` and `n` of each item. */
const uniqueIds: CrossFieldRule<ReadonlyArray<{ readonly id?: unknown } | undefined>> = {
  name: "duplicate_ids",
  description: "Two items share an id.",
  fields: ["id"],
  reads: ["id", "n"],
  scope: "items",
  check: (items) => {
    const seen = new Set<unknown>()
    return items.flatMap((item, index) => {
      if (item === undefined) return []
      const repeated = seen.has(item.id)
      seen.add(item.id)
      return repeated ? [{ path: [index, "id"], code: "duplicate_ids", detail: "This id occurs more than once." }] : []
    })
  }
}

/** A list of exactly two values (reads the length only). */
const twoValues: CrossFieldRule<ReadonlyArray<unknown>> = {
  name: "two_values",
  description: "A list of other than two values.",
  fields: [],
  scope: "list",
  check: (list) => (list.length === 2 ? [] : [{ path: [], code: "two_values", detail: "Exactly two values." }])
}

describe("rules declared on a list", () => {
  it("a rule over the items sees only the items whose every read field is valid", () => {
    const Items = Schema.Struct({ list: Schema.Array(Schema.Struct({ id: Schema.String, n: Schema.Number })).check(ruleFilter(uniqueIds)) })
    // Item 1 repeats the id of item 0 but its `n` is broken: it is not compared. Item 2 is valid and repeats it.
    const input = { list: [{ id: "a", n: 1 }, { id: "a", n: "x" }, { id: "a", n: 2 }] }
    expect(errorsOf(validate(Items, input))).toEqual([["list.1.n", "invalid"], ["list.2.id", "duplicate_ids"]])
  })

  it("a rule over a list's length runs while its items are broken", () => {
    const Units = Schema.Struct({ x: Schema.String, units: Schema.Array(Schema.Number).check(ruleFilter(twoValues)) })
    expect(errorsOf(validate(Units, { x: 1, units: [1, "y", 3] }))).toEqual([
      ["x", "invalid"],
      ["units", "two_values"],
      ["units.1", "invalid"]
    ])
  })
})

describe("what a rule's error supersedes", () => {
  /** `tags` may not be empty when `strict` is set; the error is the object's, and covers `tags`. */
  const tagsRequired: CrossFieldRule<{ readonly tags?: unknown; readonly strict?: unknown }> = {
    name: "tags_required",
    description: "Tags missing on a strict value.",
    fields: ["tags"],
    reads: ["tags", "strict"],
    check: (value) =>
      value.strict === true && Array.isArray(value.tags) && value.tags.length === 0
        ? [{ path: [], code: "tags_required", detail: "Tags are required here." }]
        : []
  }
  const Tagged = Schema.Struct({
    tags: Schema.optionalKey(Schema.Array(Schema.String)),
    strict: Schema.Boolean,
    n: Schema.Number
  }).check(ruleFilter(tagsRequired))

  it("the empty_optional warning at a field the failed rule relates is dropped, also when the decode did not run the rule", () => {
    const failed = validate(Tagged, { tags: [], strict: true, n: "x" })
    expect(errorsOf(failed)).toEqual([["non_field_errors", "tags_required"], ["n", "invalid"]])
    expect(warningsOf(failed)).toEqual([])
    // Where the rule holds, the warning stays.
    const held = validate(Tagged, { tags: [], strict: false, n: "x" })
    expect(errorsOf(held)).toEqual([["n", "invalid"]])
    expect(warningsOf(held)).toEqual([["tags", "empty_optional"]])
  })
})

describe("field names that are words of JavaScript", () => {
  it("a field named undefined is an unknown field like any other, beside a rule", () => {
    const Holder = Schema.Struct({ x: Schema.String, period: Period })
    expect(errorsOf(validate(Holder, { x: "a", period: { from: "2024-01-01", to: "2024-01-01" }, undefined: 1 }))).toEqual([
      ["undefined", "unknown_field"]
    ])
  })
})

describe("only what the input owns", () => {
  it("a field inherited rather than own is not walked: the rules below it do not run", () => {
    const Holder = Schema.Struct({ period: Schema.optionalKey(Period) })
    const attrsOf = (input: unknown) => ruleErrors(Holder.ast, input, [], { now: new Date() }, false).map((e) => [toAttr(e.path), e.code])
    expect(attrsOf(Object.create({ period: REVERSED }))).toEqual([])
    expect(attrsOf({ period: REVERSED })).toEqual([["period.to", LATER_THAN_END]])
  })

  it("a field keyed by a symbol is not walked: JSON has no symbol keys, and an error needs an attr", () => {
    const key = Symbol("period")
    const Holder = Schema.Struct({ [key]: Period, other: Schema.optionalKey(Period) })
    const pathsOf = (input: unknown) => ruleErrors(Holder.ast, input, [], { now: new Date() }, false).map((e) => [e.path, e.code])
    expect(pathsOf({ [key]: REVERSED, other: REVERSED })).toEqual([[["other", "to"], LATER_THAN_END]])
  })
})
