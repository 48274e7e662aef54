/**
 * The validation pipeline (`src/validation/run-validation.ts`): the error body's wording, a root that is
 * not an object, a failure inside validation answered as an error rather than thrown, which warnings an
 * error supersedes, errors at getters, and the additional fields of a tolerant read. Expected bodies are
 * written out from the contract's wording by hand; the schemas are small ones made here where the
 * contract has no such case.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { nonEmptyArray, openEnum } from "../../src/schemas/conventions.js"
import type { CrossFieldRule } from "../../src/schemas/cross-field-rule.js"
import { ruleFilter } from "../../src/schemas/rules.js"
import { additionalFields, reportValidation, runValidation } from "../../src/validation/run-validation.js"
import { errorsOf, warningsOf } from "../support/payloads.js"

const validate = (schema: Schema.Top, input: unknown) => runValidation<unknown>(schema, input, { rootMustBeObject: true })

describe("the error body", () => {
  it.each([
    [null, "null"],
    [[], "an array"],
    ["x", "a string"],
    [42, "a number"],
    [true, "a boolean"]
  ])("a root %j that is not an object is named in the detail: %s", (input, found) => {
    expect(validatePayload("notes", input)).toEqual({
      ok: false,
      error: {
        detail: "The payload failed validation with 1 error.",
        code: "payload_failed_validation",
        errors: [{ detail: `The payload must be a JSON object, not ${found}.`, code: "invalid", attr: "non_field_errors" }]
      },
      warnings: []
    })
  })

  it("the detail counts the errors, in the plural from two", () => {
    const result = validatePayload("notes", { notes: [{ body: "x" }] })
    expect(result.ok ? undefined : result.error.detail).toBe("The payload failed validation with 2 errors.")
  })

  it("a failure inside validation is one invalid error at non_field_errors, not an exception", () => {
    const throwing = (cause: unknown) =>
      new Proxy({}, {
        getPrototypeOf: () => {
          throw cause
        }
      })
    const body = (detail: string) => ({
      ok: false,
      error: {
        detail: "The payload failed validation with 1 error.",
        code: "payload_failed_validation",
        errors: [{ detail, code: "invalid", attr: "non_field_errors" }]
      },
      warnings: []
    })
    expect(validatePayload("notes", throwing(new Error("trap")))).toEqual(body("The payload could not be validated: trap"))
    expect(validatePayload("notes", throwing("not an Error"))).toEqual(body("The payload could not be validated: not an Error"))
  })

  it("a validation that has no decoded value fails, even with no error to name", () => {
    const result = reportValidation(Schema.Struct({ a: Schema.String }).ast, {}, [], undefined, undefined)
    expect(result.ok).toBe(false)
    expect(errorsOf(result)).toEqual([])
  })
})

/** `n` is positive; the error is the object's own (its path is the object). */
const nPositive: CrossFieldRule<{ readonly n?: unknown }> = {
  name: "n_positive",
  description: "`n` not positive.",
  fields: ["n"],
  check: (value) =>
    typeof value.n === "number" && value.n <= 0 ? [{ path: [], code: "n_positive", detail: "n must be positive." }] : []
}

describe("the warnings an error supersedes", () => {
  it("an error at a field drops the warning at that field", () => {
    const Strict = Schema.Struct({ tags: Schema.optionalKey(nonEmptyArray(Schema.String)) })
    const failed = validate(Strict, { tags: [] })
    expect(errorsOf(failed)).toEqual([["tags", "empty"]])
    expect(warningsOf(failed)).toEqual([])
    // Where the list may be empty, the same input is only the warning.
    const Lenient = Schema.Struct({ tags: Schema.optionalKey(Schema.Array(Schema.String)) })
    expect(warningsOf(validate(Lenient, { tags: [] }))).toEqual([["tags", "empty_optional"]])
  })

  it("an error at an object drops the warnings inside it", () => {
    const Holder = Schema.Struct({ p: Schema.Struct({ kind: openEnum(["A"]), n: Schema.Number }).check(ruleFilter(nPositive)) })
    const failed = validate(Holder, { p: { kind: "B", n: 0 } })
    expect(errorsOf(failed)).toEqual([["p", "n_positive"]])
    expect(warningsOf(failed)).toEqual([])
    const valid = validate(Holder, { p: { kind: "B", n: 1 } })
    expect(valid.ok).toBe(true)
    expect(warningsOf(valid)).toEqual([["p.kind", "unknown_choice"]])
  })

  it("an error of the root does not drop the warnings inside a field named non_field_errors", () => {
    const Root = Schema.Struct({
      non_field_errors: Schema.optionalKey(Schema.Struct({ kind: openEnum(["A"]) })),
      n: Schema.Number
    }).check(ruleFilter(nPositive))
    const failed = validate(Root, { non_field_errors: { kind: "B" }, n: 0 })
    expect(errorsOf(failed)).toEqual([["non_field_errors", "n_positive"]])
    expect(warningsOf(failed)).toEqual([["non_field_errors.kind", "unknown_choice"]])
  })
})

describe("errors at getters", () => {
  it("a getter is one error at its place: the decode's own error there is dropped, whatever its code", () => {
    const Text = Schema.Struct({
      text: Schema.Unknown.check(Schema.makeFilter((u: unknown) => typeof u === "string", { code: "not_text", message: "Text is required." }))
    })
    const input = Object.defineProperty({}, "text", { get: () => "hello", enumerable: true })
    expect(errorsOf(validate(Text, input))).toEqual([["text", "invalid"]])
    // Without the getter, the filter's own code is the answer.
    expect(errorsOf(validate(Text, { text: 1 }))).toEqual([["text", "not_text"]])
  })
})

describe("additionalFields", () => {
  it("lists the fields the tolerant decode dropped, with their detail, at any depth", () => {
    expect(additionalFields({ a: 1, b: { c: 1, d: 2 }, l: [{ e: 1 }, { e: 1, f: 1 }] }, { a: 1, b: { c: 1 }, l: [{ e: 1 }, { e: 1 }] })).toEqual([
      { detail: "This field is not part of the contract (read, and ignored).", code: "additional_field", attr: "b.d" },
      { detail: "This field is not part of the contract (read, and ignored).", code: "additional_field", attr: "l.1.f" }
    ])
  })

  it("finds none where the decoded value has another shape than the input (a schema that transforms)", () => {
    expect(additionalFields({ a: 1 }, [1])).toEqual([])
    expect(additionalFields([{ a: 1 }], { 0: {} })).toEqual([])
    expect(additionalFields({ a: 1 }, "a")).toEqual([])
    expect(additionalFields("ab", { a: 1 })).toEqual([])
  })
})
