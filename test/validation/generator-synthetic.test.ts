/**
 * The validator generator on small schemas of constructs it supports but no endpoint uses (a literal, an
 * `Unknown` field, a nullable structure, a group of filters, a string without annotations): the check, the
 * error collector and the warning collector it writes for each are compiled here and must answer as the
 * full validation of the same schema (`runValidation`, the engine of `validatePayload`) does: valid or not,
 * the same warnings, and from the collected errors the same report.
 */
import { Schema, SchemaAST } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { KNOWN_VALUES, NON_BLANK_RE, openEnum } from "../../src/schemas/conventions.js"
import { ruleFilter } from "../../src/schemas/rules.js"
import { collectWarnings } from "../../src/validation/collect-warnings.js"
import * as runtime from "../../src/validation/generated-runtime.js"
import { CheckWriter } from "../../src/validation/generator/emit-check.js"
import { ErrorsWriter } from "../../src/validation/generator/emit-errors.js"
import { WarningsWriter } from "../../src/validation/generator/emit-warnings.js"
import { Constants, EndpointNames } from "../../src/validation/generator/generated-names.js"
import type { PathError } from "../../src/validation/issue-to-errors.js"
import { isRecord } from "../../src/validation/path.js"
import { inDocumentOrder, reportValidation, runValidation } from "../../src/validation/run-validation.js"

const NOW = new Date("2025-06-15T12:00:00Z")
const context = { now: NOW }

interface Compiled {
  readonly check: (input: unknown, out: Array<PathError>, context: { readonly now: Date }) => boolean
  readonly errors: (input: unknown, out: Array<PathError>) => boolean | undefined
  readonly warnings: (input: unknown, out: Array<PathError>) => void
}

const RUNTIME_NAMES = [
  "countCodePointsUpTo", "decodeAt", "isCalendarDate", "isInstantInRange", "isNonBlank", "NON_BLANK_RE",
  "requiredError", "ruleHolds", "unknownChoiceDetail", "unknownFieldError"
] as const

/** The three generated functions of `schema`, written as `generate-validators.ts` writes an endpoint's. */
const compile = (schema: Schema.Top): Compiled => {
  const ast = schema.ast
  const constants = new Constants()
  const names = new EndpointNames()
  const check = new CheckWriter(constants, names)
  check.node(ast, "v0", [], 2)
  const errors = new ErrorsWriter(constants, names)
  errors.node(ast, "v0", [], "(root)", "ok0", 2)
  const warnings = new WarningsWriter(constants, names).node(ast, "v0", [])
  const refs = names.refs.map((_, i) => `r${i}`).join(", ")
  const source = `
${[...constants.declarations].map(([s, name]) => `const ${name} = ${s}`).join("\n")}
const [${refs}] = refs
return {
  check: (v0, out, context) => {
${check.lines.join("\n")}
    return true
  },
  errors: (v0, out) => {
    let ok0 = true
${errors.lines.join("\n")}
    return ok0
  },
  warnings: (v0, out) => {
${warnings.join("\n")}
  }
}`
  // The generated code, run as the generated module would run it (its helpers as parameters).
  const make = new Function("refs", ...RUNTIME_NAMES, source) as (refs: unknown, ...helpers: Array<unknown>) => Compiled
  return make(names.refs.map((r) => r.value), ...RUNTIME_NAMES.map((name) => runtime[name]))
}

/**
 * The generated functions answer `input` as the full validation of `schema` does; returns whether the
 * check accepted it.
 */
const agree = (schema: Schema.Top, compiled: Compiled, input: unknown): boolean => {
  const reference = runValidation(schema, input, { rootMustBeObject: true, now: NOW })
  const found: Array<PathError> = []
  const ok = compiled.check(input, found, context)
  expect(ok, JSON.stringify(input)).toBe(reference.ok)
  if (ok) expect(inDocumentOrder(input, found)).toEqual(reference.warnings)
  const warned: Array<PathError> = []
  compiled.warnings(input, warned)
  expect(warned).toStrictEqual(collectWarnings(schema.ast, input))
  if (!isRecord(input)) return ok
  const decodeErrors: Array<PathError> = []
  const answer = compiled.errors(input, decodeErrors)
  if (reference.ok) expect(decodeErrors).toEqual([])
  expect(answer === false).toBe(decodeErrors.length > 0)
  if (answer === false) {
    expect(reportValidation(schema.ast, input, decodeErrors, undefined, NOW, warned)).toStrictEqual(reference)
  }
  return ok
}

/** Each input's answer of the check (after checking it agrees with the full validation in every way). */
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

describe("the generated validators of schemas no endpoint has", () => {
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
    const warned: Array<PathError> = []
    compile(schema).warnings({ known: "k", field: { a: "x", kind: "C" } }, warned)
    expect(warned.map((w) => [w.path, w.code])).toEqual([[["field", "kind"], "unknown_choice"]])
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
    const found: Array<PathError> = []
    expect(compile(schema).check({ known: "k", field: 5 }, found, context)).toBe(true)
    expect(found).toEqual([])
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

/** The lines each writer writes for `schema` on its own, and the labels of the refs it takes. */
const written = (schema: Schema.Top) => {
  const check = new CheckWriter(new Constants(), new EndpointNames())
  check.node(schema.ast, "v0", [], 0)
  const errorsNames = new EndpointNames()
  const errors = new ErrorsWriter(new Constants(), errorsNames)
  errors.node(schema.ast, "v0", [], "(root)", "ok0", 0)
  return { check: check.lines, errors: errors.lines, errorsRefs: errorsNames.refs.map((r) => r.label) }
}

const later = { name: "later", fields: ["from", "to"], check: (v: { readonly from: string; readonly to: string }) => (v.from > v.to ? [{ path: ["to"], code: "start_date_later_than_end_date", detail: "to before from" }] : []) }
const distinct = { name: "distinct", fields: ["from", "to"], scope: "items" as const, check: () => [] }
const soon = { name: "soon", fields: ["from", "to"], scope: "items" as const, clock: true as const, check: () => [] }

describe("the source the generator writes", () => {
  it("indents a nullable structure's statements one level deeper than the test for null", () => {
    const lines = written(withField(Schema.NullOr(Schema.Struct({ a: Schema.String })))).check
    const open = lines.findIndex((line) => line.endsWith("!== null) {"))
    expect(open).toBeGreaterThan(0)
    expect(lines[open + 1]!.startsWith(`${lines[open]!.match(/^ */u)![0]}  `)).toBe(true)
  })

  it("writes nothing in the error collector for an Unknown field, which has no error, and takes no ref for it", () => {
    const { errors, errorsRefs } = written(Schema.Struct({ a: Schema.Unknown }))
    expect(errors.join("\n")).not.toContain("if (!(true))")
    expect(errorsRefs).toEqual(["node (root)"])
  })

  it("labels the rules in the error collector as in the check: name and fields, on an object and on a list", () => {
    const schema = Schema.Struct({
      period: Schema.Struct({ from: Schema.String, to: Schema.String }).check(ruleFilter(later)),
      periods: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String })).check(ruleFilter(distinct))
    })
    const names = new EndpointNames()
    new CheckWriter(new Constants(), names).node(schema.ast, "v0", [], 0)
    const rules = (labels: ReadonlyArray<string>) => labels.filter((label) => label.startsWith("rule "))
    expect(rules(names.refs.map((r) => r.label))).toEqual(["rule later(from, to)", "rule distinct(from, to)"])
    expect(rules(written(schema).errorsRefs)).toEqual(["rule later(from, to)", "rule distinct(from, to)"])
  })

  it("calls no rule of the clock of a list in the error collector (the full validation runs it)", () => {
    const { errors, errorsRefs } = written(Schema.Struct({ periods: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String })).check(ruleFilter(soon)) }))
    expect(errors.join("\n")).not.toContain("ruleHolds")
    expect(errorsRefs.filter((label) => label.startsWith("rule "))).toEqual([])
  })

  it("takes the non-blank shortcut for the non-blank pattern only: with other flags, the pattern is written as it is", () => {
    expect(written(withField(Schema.String.check(Schema.isPattern(NON_BLANK_RE)))).check.join("\n")).toContain("isNonBlank(")
    const other = new Constants()
    new CheckWriter(other, new EndpointNames()).node(withField(Schema.String.check(Schema.isPattern(new RegExp(NON_BLANK_RE.source, "iu")))).ast, "v0", [], 0)
    expect([...other.declarations.keys()]).toEqual([`new RegExp(${JSON.stringify(NON_BLANK_RE.source)}, "iu")`])
  })
})

describe("the warning collector's writer on its own", () => {
  const warningLines = (schema: Schema.Top) => new WarningsWriter(new Constants(), new EndpointNames()).node(schema.ast, "v0", [])

  it("passes over a symbol key (never sent as JSON) and writes the other fields' warnings", () => {
    const withSymbol = Schema.Struct({ [Symbol.for("s")]: Schema.optionalKey(Schema.Array(Schema.String)), a: openEnum(["A"]) })
    const lines = warningLines(withSymbol)
    expect(lines).toEqual(warningLines(Schema.Struct({ a: openEnum(["A"]) })))
    expect(lines.join("\n")).toContain("unknown_choice")
  })

  it("writes nothing for a tuple of plain strings: nothing in it can warn", () => {
    expect(warningLines(Schema.Tuple([Schema.String]))).toEqual([])
  })
})
