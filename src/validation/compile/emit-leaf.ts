/**
 * The compiled test of a leaf value (a string, number, boolean, null, literal, or a union of them) and
 * of a node's value checks: one JavaScript expression, true when the value passes.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { CROSS_FIELD_RULE, KNOWN_VALUES, NAMED_CHECK, NON_BLANK_RE } from "../../schemas/conventions.js"
import type { Constants } from "./check-names.js"
import { annotationsOf, filtersOf, js, representation, unsupported } from "./schema-reading.js"

/** The functions a check may name (see `NAMED_CHECK`); the compiled check receives them (`CHECK_HELPERS`). */
const NAMED_CHECKS: ReadonlySet<string> = new Set(["isCalendarDate", "isInstantInRange"])

/**
 * The conditions of a node's checks that test one value (cross-field rules left out), as expressions true
 * when the value in `v` passes (`["v1.length >= 1"]` for `Schema.String.check(Schema.isMinLength(1))`).
 */
export const valueChecks = (ast: SchemaAST.AST, v: string, constants: Constants): Array<string> => {
  const out: Array<string> = []
  for (const filter of filtersOf(ast)) {
    const annotations = annotationsOf(filter)
    if (annotations[CROSS_FIELD_RULE] !== undefined) continue
    const named = annotations[NAMED_CHECK]
    if (typeof named === "string") {
      if (!NAMED_CHECKS.has(named)) unsupported(`the named check ${named}`)
      out.push(`${named}(${v})`)
      continue
    }
    const { id, payload } = representation(filter)
    const p = (payload ?? {}) as Record<string, unknown>
    switch (id) {
      case "effect/schema/isPattern": {
        const flags = String(p["flags"] ?? "")
        if (/[gy]/u.test(flags)) unsupported(`a pattern with flags ${flags}`)
        if (p["source"] === NON_BLANK_RE.source && flags === NON_BLANK_RE.flags) {
          out.push(`isNonBlank(${v})`)
          break
        }
        out.push(`${constants.add("RE", `new RegExp(${js(p["source"])}, ${js(flags)})`)}.test(${v})`)
        break
      }
      case "effect/schema/isMaxCodePoints": {
        const max = Number(p["maxCodePoints"])
        out.push(`(${v}.length <= ${max} || countCodePointsUpTo(${v}, ${max + 1}) <= ${max})`)
        break
      }
      case "effect/schema/isMinLength":
        out.push(`${v}.length >= ${Number(p["minLength"])}`)
        break
      case "effect/schema/isFinite":
        out.push(`Number.isFinite(${v})`)
        break
      case "effect/schema/isInt":
        out.push(`Number.isSafeInteger(${v})`)
        break
      case "effect/schema/isBetween":
        if (Object.keys(p).some((k) => k !== "minimum" && k !== "maximum")) unsupported(`isBetween with ${js(p)}`)
        out.push(`${v} >= ${js(p["minimum"])} && ${v} <= ${js(p["maximum"])}`)
        break
      default:
        unsupported(`the check ${js(annotations["expected"] ?? id ?? "without a representation")}`)
    }
  }
  return out
}

/** Whether a leaf node can warn (only strings of an open enumeration can). */
export const warns = (ast: SchemaAST.AST): boolean => ast._tag === "String" && Array.isArray(SchemaAST.resolve(ast)?.[KNOWN_VALUES])

/**
 * The expression that the leaf value in `v` is valid, or `undefined` when the node is not a leaf (an
 * object, a list, a union of them): `typeof v1 === "boolean"` for `Schema.Boolean`.
 */
export const leafTest = (ast: SchemaAST.AST, v: string, constants: Constants): string | undefined => {
  const own = (type: string): string => [type, ...valueChecks(ast, v, constants)].join(" && ")
  switch (ast._tag) {
    case "String":
      return own(`typeof ${v} === "string"`)
    case "Number":
      return own(`typeof ${v} === "number"`)
    case "Boolean":
      return own(`typeof ${v} === "boolean"`)
    case "Null":
      return own(`${v} === null`)
    case "Literal":
      return own(`${v} === ${js(ast.literal)}`)
    case "Unknown":
      return filtersOf(ast).length === 0 ? "true" : unsupported("checks on Unknown")
    case "Union": {
      const members = ast.types.map((member) => {
        if (warns(member)) unsupported("warnings inside a union")
        return leafTest(member, v, constants)
      })
      if (members.some((m) => m === undefined)) return undefined
      return own(`(${members.map((m) => `(${m})`).join(" || ")})`)
    }
    // Stryker disable next-line ConditionalExpression: equivalent, an emptied default falls out of the switch, which returns undefined too
    default:
      return undefined
  }
}

/** Refuses a node whose decoding transforms the value: the compiled check reads inputs as they are. */
export const refuseEncoding = (ast: SchemaAST.AST): void => {
  if (ast.encoding !== undefined || (ast as { readonly encodingChecks?: unknown }).encodingChecks !== undefined) {
    unsupported("a schema with an encoding")
  }
}

/** The one index signature the writer knows: `Record(String, Unknown)` alone, without checks. */
export const refuseOtherIndexSignatures = (ast: SchemaAST.Objects): void => {
  const [signature] = ast.indexSignatures
  // Stryker disable next-line OptionalChaining: equivalent, both writers call this only for an object with an index signature
  if (ast.propertySignatures.length > 0 || ast.indexSignatures.length > 1 || signature?.parameter._tag !== "String" ||
    signature.type._tag !== "Unknown" || filtersOf(ast).length > 0) {
    unsupported("an object with an index signature other than Record(String, Unknown)")
  }
}

/** The string field names of an object, refusing symbol keys and names every object has (`constructor`). */
export const fieldNames = (ast: SchemaAST.Objects): Array<string> =>
  ast.propertySignatures.map((property) => {
    const name = property.name
    if (typeof name !== "string") return unsupported("a symbol or number key")
    // A field read as `v.name` must not find a property of every object.
    if (name in Object.prototype) unsupported(`the field name ${name}`)
    return name
  })

/** A `NullOr(X)` of a structure X: its X; anything else in a union of structures is refused. */
export const nullableStructure = (ast: SchemaAST.Union): SchemaAST.AST => {
  const others = ast.types.filter((t) => t._tag !== "Null")
  if (others.length !== 1 || ast.types.length !== 2 || filtersOf(ast).length > 0) unsupported("a union of structures")
  return others[0]!
}
