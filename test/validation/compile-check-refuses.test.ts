/**
 * The writer of the accept-only check stops at a schema construct it does not know: a new kind of check
 * must be taught to it before a schema can use it, never skipped. Each case is a small schema with one
 * such construct; the same schema without it is written.
 */
import { Schema, SchemaAST } from "effect"
import { NAMED_CHECK, openEnum } from "../../src/schemas/conventions.js"
import { describe, expect, it } from "vitest"
import { Constants, EndpointNames } from "../../src/validation/compile/check-names.js"
import { CheckWriter } from "../../src/validation/compile/emit-check.js"

const writeCheck = (ast: SchemaAST.AST): string => {
  const writer = new CheckWriter(new Constants(), new EndpointNames())
  writer.node(ast, "v0", 2)
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
  ["a value decoded from another form", field(Schema.NumberFromString), /encoding/u],
  ["checks of the encoded side", Schema.make(SchemaAST.flip(Schema.Struct({ a: Schema.String }).check(Schema.makeFilter(() => true)).ast)), /encoding/u],
  ["a named check it has no function for", field(Schema.String.check(Schema.makeFilter(() => true, { [NAMED_CHECK]: "isWeekday" }))), /the named check isWeekday /u],
  ["a pattern with the flag g", field(Schema.String.check(Schema.isPattern(/a/gu))), /a pattern with flags gu /u],
  ["a range with an excluded bound", field(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1, exclusiveMinimum: true }))), /isBetween with \{"minimum":0,"maximum":1,"exclusiveMinimum":true\}/u],
  ["an open enumeration in a union", field(Schema.Union([openEnum(["A"]), Schema.Number])), /warnings inside a union/u],
  ["checks on Unknown", field(Schema.Unknown.check(Schema.makeFilter(() => true))), /checks on Unknown/u],
  ["a schema node it has no code for", field(Schema.BigInt), /the schema node BigInt/u],
  ["fields beside an index signature", Schema.StructWithRest(Schema.Struct({ a: Schema.String }), [Schema.Record(Schema.String, Schema.Unknown)]), /index signature/u],
  ["two index signatures", Schema.StructWithRest(Schema.Struct({}), [Schema.Record(Schema.String, Schema.Unknown), Schema.Record(Schema.Symbol, Schema.Unknown)]), /index signature/u],
  ["an index signature of symbols", Schema.Record(Schema.Symbol, Schema.Unknown), /index signature/u],
  ["an index signature with a check", Schema.Record(Schema.String, Schema.Unknown).check(Schema.makeFilter(() => true)), /index signature/u],
  ["a symbol key", Schema.Struct({ [Symbol.for("s")]: Schema.String }), /a symbol or number key/u],
  ["a union of null, a structure and null again", field(Schema.Union([Schema.Null, Schema.Struct({ a: Schema.String }), Schema.Null])), /a union of structures/u],
  ["a nullable structure with a check", field(Schema.NullOr(Schema.Struct({ a: Schema.String })).check(Schema.makeFilter(() => true))), /a union of structures/u],
  ["a check of an object that is no cross-field rule", field(Schema.Struct({ a: Schema.String }).check(Schema.makeFilter(() => true, { [NAMED_CHECK]: "isCalendarDate" }))), /checks of an object other than cross-field rules/u],
  ["a tuple with a rest", field(Schema.TupleWithRest(Schema.Tuple([Schema.String]), [Schema.Number])), /a tuple/u],
  ["an empty tuple", field(Schema.Tuple([])), /a tuple/u],
  ["a list of two rest elements", field(Schema.TupleWithRest(Schema.Tuple([]), [Schema.String, Schema.Number])), /a tuple/u]
]

describe("the writer of the accept-only check", () => {
  it("writes a schema of the constructs it knows", () => {
    const known = field(Schema.NullOr(Schema.String)).ast
    expect(writeCheck(known)).toContain('typeof v0 !== "object"')
  })

  for (const [what, schema, message] of UNKNOWN) {
    it(`stops at ${what}`, () => {
      expect(() => writeCheck(schema.ast)).toThrow(message)
      expect(() => writeCheck(schema.ast)).toThrow(/is not supported; teach src\/validation\/compile\//u)
    })
  }
})

describe("the message of a check the writer has no code for", () => {
  const message = (filter: Parameters<typeof Schema.String.check>[0]): string => {
    try {
      writeCheck(field(Schema.String.check(filter)).ast)
    } catch (e) {
      return (e as Error).message
    }
    return "written"
  }

  it("names the check by what it expects, else by its id, else says it has no representation", () => {
    expect(message(Schema.isGreaterThan(0) as never)).toContain('the check "a value greater than 0" is not supported')
    expect(message(Schema.makeFilter(() => true, { representation: { id: "my/check" } } as never))).toContain('the check "my/check" is not supported')
    expect(message(Schema.makeFilter(() => true))).toContain('the check "without a representation" is not supported')
    expect(message(Schema.makeFilter(() => true, { representation: null } as never))).toContain('the check "without a representation" is not supported')
  })
})

describe("the writer on a recursive schema", () => {
  it("stops at it (Suspend)", () => {
    interface Tree { readonly children: ReadonlyArray<Tree> }
    const Tree: Schema.Codec<Tree> = Schema.Struct({ children: Schema.Array(Schema.suspend((): Schema.Codec<Tree> => Tree)) })
    expect(() => writeCheck(Tree.ast)).toThrow(/the schema node Suspend is not supported/u)
  })
})
