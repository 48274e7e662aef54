/**
 * The validator generator stops at a schema construct it does not know, in both of its writers (the
 * check and the error collector): a new kind of check must be taught to it before a schema can use it,
 * never skipped. Each case is a small schema with one such construct; the same schema without it is
 * written.
 */
import { Schema, type SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { CheckWriter } from "../../src/validation/generator/emit-check.js"
import { ErrorsWriter } from "../../src/validation/generator/emit-errors.js"
import { Constants, EndpointNames } from "../../src/validation/generator/generated-names.js"

const writeCheck = (ast: SchemaAST.AST): string => {
  const writer = new CheckWriter(new Constants(), new EndpointNames())
  writer.node(ast, "v0", [], 2)
  return writer.lines.join("\n")
}

const writeErrors = (ast: SchemaAST.AST): string => {
  const writer = new ErrorsWriter(new Constants(), new EndpointNames())
  writer.node(ast, "v0", [], "(root)", "ok0", 2)
  return writer.lines.join("\n")
}

const field = (schema: Schema.Top) => Schema.Struct({ known: Schema.String, field: schema })

/** [what, a schema with the construct, the message's subject] */
const UNKNOWN: ReadonlyArray<readonly [string, Schema.Top, RegExp]> = [
  ["a built-in check it has no code for", field(Schema.Number.check(Schema.isGreaterThan(0))), /the check/u],
  ["a filter of its own without a named check", field(Schema.String.check(Schema.makeFilter((s: string) => s.length > 2))), /the check/u],
  ["a tuple", field(Schema.Tuple([Schema.String])), /a tuple/u],
  ["a union of two structures", field(Schema.Union([Schema.Struct({ a: Schema.String }), Schema.Struct({ b: Schema.String })])), /a union of structures/u],
  ["a record of other values than unknown", field(Schema.Record(Schema.String, Schema.Number)), /index signature/u],
  ["a field every object has", Schema.Struct({ constructor: Schema.String }), /the field name constructor/u],
  ["a value decoded from another form", field(Schema.NumberFromString), /encoding/u]
]

describe("the validator generator", () => {
  it("writes a schema of the constructs it knows", () => {
    const known = field(Schema.NullOr(Schema.String)).ast
    expect(writeCheck(known)).toContain('typeof v0 !== "object"')
    expect(writeErrors(known)).toContain("requiredError")
  })

  for (const [what, schema, message] of UNKNOWN) {
    it(`stops at ${what}, in the check and in the error collector`, () => {
      expect(() => writeCheck(schema.ast)).toThrow(message)
      expect(() => writeErrors(schema.ast)).toThrow(message)
      expect(() => writeErrors(schema.ast)).toThrow(/is not supported; teach src\/validation\/generator\//u)
    })
  }
})
