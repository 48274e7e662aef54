/**
 * Schema-guided removal of optional keys that carry no data, so a mapped payload follows the spec's
 * "omit optional fields that carry no data" convention.
 *
 * @module
 */
import { SchemaAST, type Schema } from "effect"
import { isRecord } from "../validation/path.js"
import { defineData } from "./define-data.js"

const acceptsNull = (ast: SchemaAST.AST): boolean =>
  ast._tag === "Null" || (ast._tag === "Union" && ast.types.some(acceptsNull))

const carriesNoData = (value: unknown, ast: SchemaAST.AST): boolean =>
  value === undefined ||
  (value === null && !acceptsNull(ast)) ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0)

/**
 * The member of a union that describes `value` (a nullable field's non-null schema, for instance),
 * looked for inside nested unions too (`Schema.optional(Schema.NullOr(…))` is one inside another).
 */
const memberFor = (ast: SchemaAST.Union, value: unknown): SchemaAST.AST | undefined => {
  // Only a list or an object has anything inside to compact.
  const tag = Array.isArray(value) ? "Arrays" : isRecord(value) ? "Objects" : undefined
  // Stryker disable next-line ConditionalExpression: equivalent, a shortcut: no member has the tag undefined
  if (tag === undefined) return undefined
  for (const t of ast.types) {
    const member = t._tag === "Union" ? memberFor(t, value) : t._tag === tag ? t : undefined
    if (member !== undefined) return member
  }
  return undefined
}

/** The fields of an object schema by name, built once per schema (compaction runs for every payload). */
const fieldsOf = new WeakMap<SchemaAST.Objects, ReadonlyMap<PropertyKey, SchemaAST.AST>>()

const fieldMap = (ast: SchemaAST.Objects): ReadonlyMap<PropertyKey, SchemaAST.AST> => {
  let fields = fieldsOf.get(ast)
  // Stryker disable next-line ConditionalExpression: equivalent, a cache: building the map again gives the same map
  if (fields === undefined) {
    fields = new Map(ast.propertySignatures.map((p) => [p.name, p.type] as const))
    fieldsOf.set(ast, fields)
  }
  return fields
}


const compactAt = (ast: SchemaAST.AST, value: unknown): unknown => {
  switch (ast._tag) {
    case "Objects": {
      if (!isRecord(value)) return value
      const out: Record<string, unknown> = {}
      const fields = fieldMap(ast)
      for (const key of Object.keys(value)) {
        const fieldAst = fields.get(key)
        const child = value[key]
        if (fieldAst === undefined) {
          // Not a documented field: left as it is, so validation reports it instead of it vanishing.
          defineData(out, key, child)
          continue
        }
        const compacted = compactAt(fieldAst, child)
        if (SchemaAST.isOptional(fieldAst) && carriesNoData(compacted, fieldAst)) continue
        // A key named "__proto__" must stay data, never a prototype.
        defineData(out, key, compacted)
      }
      return out
    }
    case "Arrays": {
      if (!Array.isArray(value)) return value
      const item = ast.rest[0]
      return item === undefined ? [...value] : value.map((element: unknown) => compactAt(item, element))
    }
    case "Union": {
      const member = memberFor(ast, value)
      return member === undefined ? value : compactAt(member, value)
    }
    case "Suspend":
      return compactAt(ast.thunk(), value)
    default:
      return value
  }
}

/**
 * Removes the optional keys of `value` that carry no data: `undefined`, `null` where the field is not
 * nullable, blank strings, empty arrays and empty objects (after their own contents are compacted).
 * Required keys, the `null`s of nullable fields, array items and undocumented keys stay, so validation
 * still reports what is missing or wrong. Pure: `value` is not modified.
 *
 * @example
 * // qualifier and plausibility_indications carry no data; cancelled_at: null stays (nullable)
 * compact(Schemas.EnergyAmountRequest, { import_supplier: "S", external_account_number: "1",
 *   energy_amount: { malo_number: "51238696781", qualifier: "", plausibility_indications: [], cancelled_at: null } })
 * // => { import_supplier: "S", external_account_number: "1", energy_amount: { malo_number: "51238696781", cancelled_at: null } }
 *
 * @since 0.1.0
 */
export const compact = (schema: Schema.Top, value: unknown): unknown => compactAt(schema.ast, value)

/**
 * Whether {@link compact} has nothing to remove from plain JSON data `value` whatever the schema:
 * nowhere in it is an `undefined`, a `null`, a blank string, an empty array or an empty object. Cheaper
 * than compacting, and true for the usual mapped payload.
 *
 * @example
 * isCompact({ a: "x", b: [1] }) // => true
 * isCompact({ a: "x", b: { c: "" } }) // => false
 */
export const isCompact = (value: unknown): boolean => {
  if (value === undefined || value === null) return false
  if (typeof value === "string") return value.trim() !== ""
  if (typeof value !== "object") return true
  if (Array.isArray(value)) {
    if (value.length === 0) return false
    // Index by index: a hole reads as undefined.
    for (let i = 0; i < value.length; i++) if (!isCompact(value[i])) return false
    return true
  }
  // Any other object (a class instance, a Date) is left to compact, which copies it as a plain object.
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return false
  let keys = 0
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    keys++
    if (!isCompact((value as Record<string, unknown>)[key])) return false
  }
  return keys > 0
}
