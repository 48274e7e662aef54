/**
 * `issueToPathErrors` on every kind of issue Effect's decoder produces and every kind of expected type: the
 * code, the path and the detail text of each (the details are what a user of the CLI reads).
 */
import { Schema, SchemaAST, SchemaIssue } from "effect"
import { describe, expect, it } from "vitest"
import { ruleFilter, startNotAfterEndRule } from "../../src/schemas/rules.js"
import { issueToPathErrors, type PathError } from "../../src/validation/issue-to-errors.js"

const STRICT = { errors: "all", onExcessProperty: "error" } as const

/** The path errors of decoding `input` with `schema`, as `validatePayload` decodes. */
const errorsOf = (schema: Schema.Top, input: unknown): Array<PathError> => {
  const result = Schema.decodeUnknownResult(schema as Schema.Decoder<unknown>, STRICT)(input)
  if (result._tag !== "Failure") throw new Error(`expected ${JSON.stringify(input)} to fail`)
  return issueToPathErrors(result.failure.issue, input)
}

const error = (path: PathError["path"], code: string, detail: string): PathError => ({ path, code, detail })

describe("issueToPathErrors: a value of the wrong type", () => {
  it.each<[string, Schema.Top, unknown, string]>([
    ["a string", Schema.String, 1, "Expected a string but got number."],
    ["a number", Schema.Number, "1", "Expected a number but got string."],
    ["a boolean", Schema.Boolean, "true", "Expected a boolean but got string."],
    ["an object", Schema.Struct({ a: Schema.String }), [], "Expected an object but got array."],
    ["null", Schema.Null, {}, "Expected null but got object."],
    ["a string literal", Schema.Literal("A"), 1, "Expected \"A\" but got number."],
    ["a number literal", Schema.Literal(7), "7", "Expected 7 but got string."],
    ["any other type (bigint)", Schema.BigInt, true, "Expected a valid value but got boolean."]
  ])("%s: invalid, naming what was expected and what was found", (_, schema, input, detail) => {
    expect(errorsOf(schema, input)).toEqual([error([], "invalid", detail)])
  })

  it("a list expected: not_a_list", () => {
    expect(errorsOf(Schema.Array(Schema.String), "a")).toEqual([error([], "not_a_list", "Expected a list of items but got string.")])
    expect(errorsOf(Schema.Array(Schema.String), {})).toEqual([error([], "not_a_list", "Expected a list of items but got object.")])
  })

  it("null where no null is allowed: null, whatever type was expected", () => {
    for (const schema of [Schema.String, Schema.Number, Schema.Array(Schema.String), Schema.Struct({})]) {
      expect(errorsOf(schema, null)).toEqual([error([], "null", "This field may not be null.")])
    }
  })

  it("at the path of the field, through objects and lists", () => {
    const schema = Schema.Struct({ xs: Schema.Array(Schema.Struct({ n: Schema.Number, s: Schema.String })) })
    expect(errorsOf(schema, { xs: [{ n: 1, s: "a" }, { n: "x", s: null }] })).toEqual([
      error(["xs", 1, "n"], "invalid", "Expected a number but got string."),
      error(["xs", 1, "s"], "null", "This field may not be null.")
    ])
  })
})

describe("issueToPathErrors: keys", () => {
  it("a missing key is required, an undocumented one unknown_field", () => {
    const schema = Schema.Struct({ a: Schema.String, b: Schema.optionalKey(Schema.Number) })
    expect(errorsOf(schema, { c: 1 })).toEqual([
      error(["c"], "unknown_field", "This field is not documented for this endpoint."),
      error(["a"], "required", "This field is required.")
    ])
  })

  it("a symbol key is written as its description", () => {
    const key = Symbol.for("k")
    const issue = new SchemaIssue.Pointer([key, 0], new SchemaIssue.MissingKey(undefined))
    expect(issueToPathErrors(issue, {})).toEqual([error(["Symbol(k)", 0], "required", "This field is required.")])
  })
})

describe("issueToPathErrors: unions", () => {
  it("a string outside a list of literals: invalid_choice, naming the choices", () => {
    expect(errorsOf(Schema.Literals(["A", "B"]), "C")).toEqual([error([], "invalid_choice", "\"C\" is not a valid choice (A, B).")])
  })

  it("a non-string where literals are expected: invalid, naming each", () => {
    expect(errorsOf(Schema.Literals(["A", "B"]), 3)).toEqual([error([], "invalid", "Expected \"A\" or \"B\" but got number.")])
  })

  it("null where the union has no null member: null", () => {
    expect(errorsOf(Schema.Literals(["A", "B"]), null)).toEqual([error([], "null", "This field may not be null.")])
    expect(errorsOf(Schema.Union([Schema.String, Schema.Number]), null)).toEqual([error([], "null", "This field may not be null.")])
  })

  it("null where the union has a null member is no issue at all", () => {
    const result = Schema.decodeUnknownResult(Schema.NullOr(Schema.Literals(["A", "B"])), STRICT)(null)
    expect(result._tag).toBe("Success")
  })

  it("a value of none of the members' types: invalid, naming each type", () => {
    expect(errorsOf(Schema.Union([Schema.String, Schema.Number]), true)).toEqual([
      error([], "invalid", "Expected a string or a number but got boolean.")
    ])
    expect(errorsOf(Schema.NullOr(Schema.String), 1)).toEqual([error([], "invalid", "Expected a string or null but got number.")])
  })

  it("a value of a member's type that fails the member's checks: that member's error", () => {
    const schema = Schema.Union([Schema.String.check(Schema.isMinLength(3, { code: "too_short", message: "At least 3." })), Schema.Number])
    expect(errorsOf(schema, "ab")).toEqual([error([], "too_short", "At least 3.")])
  })

  it("a union mixing literals and other types, or with no member: invalid, naming each member (lists too)", () => {
    expect(errorsOf(Schema.Union([Schema.Literal("A"), Schema.Number]), "B")).toEqual([
      error([], "invalid", "Expected \"A\" or a number but got string.")
    ])
    expect(errorsOf(Schema.Union([Schema.Array(Schema.String), Schema.Number]), "x")).toEqual([
      error([], "invalid", "Expected a list or a number but got string.")
    ])
    expect(errorsOf(Schema.Union([]), "x")).toEqual([error([], "invalid", "Expected  but got string.")])
  })

  it("a value that matches two members of a oneOf union: invalid", () => {
    const schema = Schema.Union([Schema.String, Schema.String.check(Schema.isMinLength(1))], { mode: "oneOf" })
    expect(errorsOf(schema, "ab")).toEqual([error([], "invalid", "This value is not valid.")])
  })
})

describe("issueToPathErrors: checks", () => {
  it("a check with a code and a message: both", () => {
    expect(errorsOf(Schema.String.check(Schema.isMinLength(3, { code: "too_short", message: "At least 3." })), "a")).toEqual([
      error([], "too_short", "At least 3.")
    ])
  })

  it("a check with neither: invalid, with the generic detail", () => {
    const check = Schema.makeFilter((s: string) => s.length > 2)
    expect(errorsOf(Schema.String.check(check), "a")).toEqual([error([], "invalid", "This value is not valid.")])
  })

  it("a check with a code only keeps the generic detail, one with a message only the code invalid", () => {
    expect(errorsOf(Schema.String.check(Schema.makeFilter((s: string) => s.length > 2, { code: "too_short" })), "a")).toEqual([
      error([], "too_short", "This value is not valid.")
    ])
    expect(errorsOf(Schema.String.check(Schema.makeFilter((s: string) => s.length > 2, { message: "At least 3." })), "a")).toEqual([
      error([], "invalid", "At least 3.")
    ])
  })

  it("annotations that are not strings are not taken for a code or a message", () => {
    const check = Schema.makeFilter((s: string) => s.length > 2, { code: 7 as never, message: ["x"] as never })
    expect(errorsOf(Schema.String.check(check), "a")).toEqual([error([], "invalid", "This value is not valid.")])
  })

  it("an invalid value outside any check: invalid, with the generic detail", () => {
    expect(issueToPathErrors(new SchemaIssue.InvalidValue(undefined), "x")).toEqual([error([], "invalid", "This value is not valid.")])
  })

  it("the issue's own code and message come before the check's", () => {
    const inner = new SchemaIssue.InvalidValue({ code: "inner", message: "Inner." })
    const filter = new SchemaAST.Filter(() => undefined, { code: "outer", message: "Outer." })
    expect(issueToPathErrors(new SchemaIssue.Filter(filter, inner), "x")).toEqual([error([], "inner", "Inner.")])
    const bare = new SchemaIssue.InvalidValue(undefined)
    expect(issueToPathErrors(new SchemaIssue.Filter(filter, bare), "x")).toEqual([error([], "outer", "Outer.")])
    // An inner filter without annotations of its own passes the outer one's on.
    const plain = new SchemaAST.Filter(() => undefined, {})
    expect(issueToPathErrors(new SchemaIssue.Filter(filter, new SchemaIssue.Filter(plain, bare)), "x")).toEqual([error([], "outer", "Outer.")])
  })

  it("a cross-field rule's error names the fields it relates, below the object's path", () => {
    const range = Schema.Struct({ from: Schema.String, to: Schema.String }).check(ruleFilter(startNotAfterEndRule("from", "to", "date")))
    const schema = Schema.Struct({ period: range })
    expect(errorsOf(schema, { period: { from: "2024-02-01", to: "2024-01-01" } })).toEqual([
      { path: ["period", "to"], code: "start_date_later_than_end_date", detail: "to must not be earlier than from.", covers: [["period", "from"], ["period", "to"]] }
    ])
  })

  it("a failed transformation (Encoding) and a forbidden operation: invalid", () => {
    expect(errorsOf(Schema.FiniteFromString, "abc")).toEqual([error([], "invalid", "This value is not valid.")])
    const forbidden = new SchemaIssue.Forbidden(undefined)
    expect(issueToPathErrors(new SchemaIssue.Encoding(Schema.String.ast, new SchemaIssue.Pointer(["a"], forbidden)), {})).toEqual([
      error(["a"], "invalid", "This value is not valid.")
    ])
  })

  it("every issue of a composite, in order", () => {
    const issue = new SchemaIssue.Composite(Schema.String.ast, [
      new SchemaIssue.Pointer(["b"], new SchemaIssue.MissingKey(undefined)),
      new SchemaIssue.Pointer(["a"], new SchemaIssue.InvalidValue({ code: "c", message: "m" }))
    ])
    expect(issueToPathErrors(issue, {})).toEqual([error(["b"], "required", "This field is required."), error(["a"], "c", "m")])
  })
})
