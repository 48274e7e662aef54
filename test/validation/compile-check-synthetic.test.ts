/**
 * The accept-only check on small schemas of constructs it supports but no endpoint uses (a literal, an
 * `Unknown` field, a nullable structure, a group of filters, a string without annotations): the check
 * compiled for each must accept an input exactly when the full validation of the same schema
 * (`runValidation`, the engine of `validatePayload`) finds no error and no warning in it.
 */
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { KNOWN_VALUES, NON_BLANK_RE, openEnum } from "../../src/schemas/conventions.js"
import { ruleFilter } from "../../src/schemas/rules.js"
import { type AcceptCheck, compileCheck } from "../../src/validation/compile-check.js"
import { Constants, EndpointNames } from "../../src/validation/compile/check-names.js"
import { CheckWriter } from "../../src/validation/compile/emit-check.js"
import { runValidation } from "../../src/validation/run-validation.js"

const NOW = new Date("2025-06-15T12:00:00Z")
const context = { now: NOW }

/** The accept-only check of `schema`, compiled as `compileValidator` compiles an endpoint's. */
const compile = (schema: Schema.Top): AcceptCheck => compileCheck(schema.ast)!.accepts

/**
 * The check accepts `input` exactly when the full validation of `schema` finds no error and no warning;
 * returns whether the full validation finds it valid.
 */
const agree = (schema: Schema.Top, compiled: AcceptCheck, input: unknown): boolean => {
  const reference = runValidation(schema, input, { rootMustBeObject: true, now: NOW })
  expect(compiled(input, context), JSON.stringify(input)).toBe(reference.ok && reference.warnings.length === 0)
  return reference.ok
}

/** Each input's answer of the full validation (after checking the check agrees with it). */
const answers = (schema: Schema.Top, inputs: ReadonlyArray<unknown>): Array<boolean> => {
  const compiled = compile(schema)
  return inputs.map((input) => agree(schema, compiled, input))
}

/** Arbitrary JSON in a field of `{ known: "k", field }`, or instead of the whole object. */
const agreesOnArbitraryFields = (schema: Schema.Top, field: fc.Arbitrary<unknown>): void => {
  const compiled = compile(schema)
  let valid = 0
  let drawn = 0
  fc.assert(fc.property(fc.oneof(
    { arbitrary: field.map((value) => ({ known: "k", field: value })), weight: 8 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
    { arbitrary: fc.dictionary(fc.constantFrom("known", "field", "other"), fc.jsonValue({ maxDepth: 1 })), weight: 1 }
  ), (input) => {
    drawn++
    if (agree(schema, compiled, input)) valid++
  }), { numRuns: 300, seed: 5 })
  // Both answers are drawn.
  expect(valid).toBeGreaterThan(drawn / 20)
  expect(valid).toBeLessThan(drawn - drawn / 20)
}

const withField = (schema: Schema.Top) => Schema.Struct({ known: Schema.String, field: schema })

describe("the accept-only checks of schemas no endpoint has", () => {
  it("a literal field: only that value", () => {
    const schema = withField(Schema.Literal("on"))
    expect(answers(schema, [
      { known: "k", field: "on" }, { known: "k", field: "off" }, { known: "k", field: null }, { known: "k" }
    ])).toEqual([true, false, false, false])
    agreesOnArbitraryFields(schema, fc.oneof(fc.constant("on"), fc.jsonValue({ maxDepth: 1 })))
  })

  it("an Unknown field: any value, given or not as the field is required or optional", () => {
    const schema = Schema.Struct({ known: Schema.String, field: Schema.Unknown, maybe: Schema.optionalKey(Schema.Unknown) })
    expect(answers(schema, [
      { known: "k", field: null }, { known: "k", field: { deep: [1, "x"] } }, { known: "k", field: 0, maybe: "m" }, { known: "k" }, { known: 1, field: 1 }
    ])).toEqual([true, true, true, false, false])
    agreesOnArbitraryFields(schema, fc.jsonValue({ maxDepth: 2 }))
  })

  it("a nullable structure: null or the structure, its errors and its open enumeration's warnings as the full validation's", () => {
    const schema = withField(Schema.NullOr(Schema.Struct({ a: Schema.String, kind: Schema.optionalKey(openEnum(["A", "B"])) })))
    expect(answers(schema, [
      { known: "k", field: null }, { known: "k", field: { a: "x" } }, { known: "k", field: { a: "x", kind: "C" } },
      { known: "k", field: { a: 1, kind: "C" } }, { known: "k", field: {} }, { known: "k", field: "x" }, { known: "k", field: { a: "x", b: 1 } }
    ])).toEqual([true, true, true, false, false, false, false])
    // Valid, with a warning: not accepted.
    expect(compile(schema)({ known: "k", field: { a: "x", kind: "C" } }, context)).toBe(false)
    agreesOnArbitraryFields(schema, fc.oneof(
      fc.constant(null),
      fc.record({ a: fc.oneof(fc.string(), fc.integer()), kind: fc.constantFrom("A", "C", " ", 1) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 1 })
    ))
  })

  it("a group of filters: each of its checks, in order", () => {
    const schema = withField(Schema.String.check(Schema.makeFilterGroup([Schema.isMinLength(2), Schema.isPattern(/^a/u)])))
    expect(answers(schema, [
      { known: "k", field: "ab" }, { known: "k", field: "a" }, { known: "k", field: "ba" }, { known: "k", field: 2 }
    ])).toEqual([true, false, false, false])
    agreesOnArbitraryFields(schema, fc.oneof(fc.stringMatching(/^a?b?$/u), fc.string({ maxLength: 3 })))
  })

  it("known values on a number: no open enumeration, so no warning (only strings warn)", () => {
    const schema = withField(Schema.Number.annotate({ [KNOWN_VALUES]: [1] }))
    expect(answers(schema, [{ known: "k", field: 1 }, { known: "k", field: 5 }, { known: "k", field: "5" }])).toEqual([true, true, false])
    expect(compile(schema)({ known: "k", field: 5 }, context)).toBe(true)
    // Nor inside a union, where a string of an open enumeration is refused.
    expect(answers(withField(Schema.NullOr(Schema.Number.annotate({ [KNOWN_VALUES]: [1] }))), [
      { known: "k", field: null }, { known: "k", field: 5 }, { known: "k", field: "5" }
    ])).toEqual([true, true, false])
  })

  it("a range of numbers: its bounds included", () => {
    const schema = withField(Schema.Number.check(Schema.isBetween({ minimum: 1, maximum: 3 })))
    expect(answers(schema, [0, 1, 2.5, 3, 3.5].map((field) => ({ known: "k", field })))).toEqual([false, true, true, true, false])
  })

  it("a pattern whose description gives no flags: tested without flags", () => {
    const filter = Schema.makeFilter((s: string) => /^a/.test(s), {
      representation: { id: "effect/schema/isPattern", payload: { source: "^a" } }
    } as Schema.Annotations.Filter)
    const schema = withField(Schema.String.check(filter))
    expect(answers(schema, ["ab", "ba", "A"].map((field) => ({ known: "k", field })))).toEqual([true, false, false])
  })
})

/** The lines the writer writes for `schema` on its own, and the labels of the refs it takes. */
const written = (schema: Schema.Top) => {
  const names = new EndpointNames()
  const check = new CheckWriter(new Constants(), names)
  check.node(schema.ast, "v0", 0)
  return { check: check.lines, refs: names.refs.map((r) => r.label) }
}

const later = { name: "later", description: "`to` before `from`.", fields: ["from", "to"], check: (v: { readonly from: string; readonly to: string }) => (v.from > v.to ? [{ path: ["to"], code: "start_date_later_than_end_date", detail: "to before from" }] : []) }
const distinct = { name: "distinct", description: "Never found.", fields: ["from", "to"], scope: "items" as const, check: () => [] }

describe("the source the writer writes", () => {
  it("indents a nullable structure's statements one level deeper than the test for null", () => {
    const lines = written(withField(Schema.NullOr(Schema.Struct({ a: Schema.String })))).check
    const open = lines.findIndex((line) => line.endsWith("!== null) {"))
    expect(open).toBeGreaterThan(0)
    expect(lines[open + 1]!.startsWith(`${lines[open]!.match(/^ */u)![0]}  `)).toBe(true)
  })

  it("labels the rules by name and fields, on an object and on a list", () => {
    const schema = Schema.Struct({
      period: Schema.Struct({ from: Schema.String, to: Schema.String }).check(ruleFilter(later)),
      periods: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String })).check(ruleFilter(distinct))
    })
    const rules = (labels: ReadonlyArray<string>) => labels.filter((label) => label.startsWith("rule "))
    expect(rules(written(schema).refs)).toEqual(["rule later(from, to)", "rule distinct(from, to)"])
  })

  it("takes the non-blank shortcut for the non-blank pattern only: with other flags, the pattern is written as it is", () => {
    expect(written(withField(Schema.String.check(Schema.isPattern(NON_BLANK_RE)))).check.join("\n")).toContain("isNonBlank(")
    const other = new Constants()
    new CheckWriter(other, new EndpointNames()).node(withField(Schema.String.check(Schema.isPattern(new RegExp(NON_BLANK_RE.source, "iu")))).ast, "v0", 0)
    expect([...other.declarations.keys()]).toEqual([`new RegExp(${JSON.stringify(NON_BLANK_RE.source)}, "iu")`])
  })
})
