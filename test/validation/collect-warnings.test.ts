/**
 * Warnings found by walking a schema beside the input (`src/validation/collect-warnings.ts`) in every kind
 * of node a warning can sit below: an object whose only warning is a rule, a union with null, a recursive
 * schema; and only in what the input owns (an inherited key is not sent, a symbol key has no attr).
 * The schemas are small ones made here; expected warnings are worked out by hand.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { openEnum, WARNING_RULES, type WarningRule } from "../../src/schemas/conventions.js"
import { collectWarnings } from "../../src/validation/collect-warnings.js"
import { runValidation } from "../../src/validation/run-validation.js"
import { errorsOf, warningsOf } from "../support/payloads.js"

const validate = (schema: Schema.Top, input: unknown) => runValidation<unknown>(schema, input, { rootMustBeObject: true })

/** `legacy` set to true is suspicious. */
const legacyFlag: WarningRule = {
  code: "legacy_flag",
  description: "`legacy` set to true.",
  check: (value) => value["legacy"] === true ? [{ path: ["legacy"], code: "legacy_flag", detail: "legacy is deprecated." }] : []
}

const Kind = openEnum(["A", "B"])

describe("where a warning is found", () => {
  it("the warning rule of an object none of whose fields can warn", () => {
    const Flagged = Schema.Struct({ legacy: Schema.Boolean }).annotate({ [WARNING_RULES]: [legacyFlag] })
    expect(warningsOf(validate(Flagged, { legacy: true }))).toEqual([["legacy", "legacy_flag"]])
    expect(warningsOf(validate(Flagged, { legacy: false }))).toEqual([])
  })

  it("a value outside an open enumeration inside a union with null", () => {
    const Holder = Schema.Struct({ item: Schema.NullOr(Schema.Struct({ kind: Kind })) })
    const warned = validate(Holder, { item: { kind: "C" } })
    expect(warned.ok).toBe(true)
    expect(warningsOf(warned)).toEqual([["item.kind", "unknown_choice"]])
    expect(warningsOf(validate(Holder, { item: null }))).toEqual([])
  })

  it("a value outside an open enumeration at any depth of a recursive schema", () => {
    interface Tree {
      readonly kind: string
      readonly children?: ReadonlyArray<Tree>
    }
    const Tree: Schema.Codec<Tree> = Schema.Struct({
      kind: Kind,
      children: Schema.optionalKey(Schema.Array(Schema.suspend((): Schema.Codec<Tree> => Tree)))
    })
    const input = { kind: "A", children: [{ kind: "B" }, { kind: "C", children: [{ kind: "D" }] }] }
    expect(warningsOf(validate(Tree, input))).toEqual([["children.1.kind", "unknown_choice"], ["children.1.children.0.kind", "unknown_choice"]])
  })

  it("beside a suspended schema that cannot warn", () => {
    const Leaf = Schema.Struct({ name: Schema.String })
    const Holder = Schema.Struct({ leaf: Schema.suspend(() => Leaf), kind: Kind })
    const result = validate(Holder, { leaf: { name: "x" }, kind: "C" })
    expect(errorsOf(result)).toEqual([])
    expect(warningsOf(result)).toEqual([["kind", "unknown_choice"]])
  })
})

describe("only what the input owns", () => {
  const Tagged = Schema.Struct({ tags: Schema.optionalKey(Schema.Array(Schema.String)), kind: Schema.optionalKey(Kind) })

  it("an inherited key is not read: no warning for a list or a value it would hold", () => {
    const inherited = Object.create({ tags: [], kind: "C" }) as object
    expect(collectWarnings(Tagged.ast, inherited)).toEqual([])
    expect(collectWarnings(Tagged.ast, { tags: [], kind: "C" }).map((w) => [w.path, w.code])).toEqual([
      [["tags"], "empty_optional"],
      [["kind"], "unknown_choice"]
    ])
  })

  it("a field keyed by a symbol is not walked: a warning needs an attr, and JSON has no symbol keys", () => {
    const key = Symbol("tags")
    const Symbolic = Schema.Struct({ [key]: Schema.optionalKey(Schema.Array(Schema.String)), kind: Kind })
    expect(collectWarnings(Symbolic.ast, { [key]: [], kind: "C" }).map((w) => [w.path, w.code])).toEqual([[["kind"], "unknown_choice"]])
  })
})
