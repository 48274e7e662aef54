/**
 * Walks a payload alongside its schema's AST and lists every place a mutation can go: each key (present,
 * or optional and absent) and each array item, with what the schema says about it (JSON type, nullable,
 * non-blank, format, length limit, non-empty, the cross-field rules attached to it). The broken-payload
 * generator derives its mutations from this list, so a field added to a schema is mutated without any
 * change here.
 *
 * @module
 */
import { SchemaAST } from "effect"
import {
  type CrossFieldRule,
  DECIMAL_RE,
  DOCUMENT_PATH_RE,
  EMAIL_RE,
  ISO_DATE_RE,
  ISO_DATETIME_RE,
  NON_BLANK_RE,
  PHONE_NUMBER_RE,
  THIRTEEN_DIGITS_RE
} from "../schemas/conventions.js"
import { crossFieldRulesOf, filtersOf } from "../schemas/rules.js"
import { isRecord, type Path, valueAt } from "../validation/path.js"
import type { Json, JsonObject } from "./arbitrary-values.js"

/** A string format the contract checks with a pattern. */
export type StringFormat = "date" | "datetime" | "decimal" | "document_path" | "phone" | "email" | "digits13"

const FORMATS: ReadonlyMap<string, StringFormat> = new Map([
  [ISO_DATE_RE.source, "date"],
  [ISO_DATETIME_RE.source, "datetime"],
  [DECIMAL_RE.source, "decimal"],
  [DOCUMENT_PATH_RE.source, "document_path"],
  [PHONE_NUMBER_RE.source, "phone"],
  [EMAIL_RE.source, "email"],
  [THIRTEEN_DIGITS_RE.source, "digits13"]
])

/** What the schema says about one place of a payload. */
export interface FieldInfo {
  /** The JSON type expected (for a nullable field: of its non-null values); `any` where anything goes. */
  readonly json: "string" | "number" | "boolean" | "object" | "array" | "any"
  readonly nullable: boolean
  /** An object with declared keys (a struct, not a record of any keys). */
  readonly struct: boolean
  /** The declared keys of a struct, and which of them are required. */
  readonly keys: ReadonlyArray<string>
  readonly requiredKeys: ReadonlyArray<string>
  readonly nonBlank: boolean
  readonly format: StringFormat | undefined
  readonly maxCodePoints: number | undefined
  readonly integer: boolean
  readonly minimum: number | undefined
  readonly maximum: number | undefined
  /** An array that must hold at least one item. */
  readonly nonEmpty: boolean
  /** The values of a closed enumeration. */
  readonly literals: ReadonlyArray<string> | undefined
  /** The cross-field rules checked on this object or array. */
  readonly rules: ReadonlyArray<CrossFieldRule>
  /** The schema of the object's keys (structs) or of the array's items. */
  readonly children: ReadonlyMap<string, { readonly ast: SchemaAST.AST; readonly optional: boolean }>
  readonly item: SchemaAST.AST | undefined
}

/** One place of a payload: a key of an object (present, or optional and absent) or an array item. */
export interface Site {
  readonly path: Path
  readonly info: FieldInfo
  readonly present: boolean
  /** The key is optional in its object (array items are not). */
  readonly optional: boolean
  /** The value at the place, when present. */
  readonly value: Json | undefined
}


interface Representation {
  readonly id?: unknown
  readonly payload?: unknown
}

const representationOf = (annotations: unknown): Representation => {
  const r = isRecord(annotations) ? (annotations as Record<string, unknown>)["representation"] : undefined
  return typeof r === "object" && r !== null ? (r as Representation) : {}
}

const payloadNumber = (payload: unknown, key: string): number | undefined => {
  const value = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)[key] : undefined
  return typeof value === "number" ? value : undefined
}

const cache = new WeakMap<SchemaAST.AST, FieldInfo>()

/** What the schema `ast` says about a value. */
export const fieldInfo = (ast: SchemaAST.AST): FieldInfo => {
  const cached = cache.get(ast)
  if (cached !== undefined) return cached
  let node = ast
  let nullable = false
  let literals: ReadonlyArray<string> | undefined
  if (node._tag === "Union") {
    const members = node.types.filter((t) => t._tag !== "Null")
    nullable = members.length < node.types.length
    if (members.length > 0 && members.every((t) => t._tag === "Literal" && typeof t.literal === "string")) {
      literals = members.map((t) => (t._tag === "Literal" ? String(t.literal) : ""))
    }
    node = members.length === 1 && members[0] !== undefined ? members[0] : node
  }
  while (node._tag === "Suspend") node = node.thunk()

  const filters = filtersOf(node)
  const patterns = filters.flatMap((f) => {
    const r = representationOf(f.annotations)
    const source = r.id === "effect/schema/isPattern" && isRecord(r.payload) ? (r.payload as { source?: unknown }).source : undefined
    return typeof source === "string" ? [source] : []
  })
  const numberOf = (id: string, key: string): number | undefined => {
    for (const f of filters) {
      const r = representationOf(f.annotations)
      if (r.id === id) return payloadNumber(r.payload, key)
    }
    return undefined
  }
  const rules = crossFieldRulesOf(node)

  const children = new Map<string, { ast: SchemaAST.AST; optional: boolean }>()
  let struct = false
  if (node._tag === "Objects") {
    struct = node.indexSignatures.length === 0
    for (const p of node.propertySignatures) {
      if (typeof p.name === "string") children.set(p.name, { ast: p.type, optional: SchemaAST.isOptional(p.type) })
    }
  }
  const json: FieldInfo["json"] = literals !== undefined
    ? "string"
    : node._tag === "String"
    ? "string"
    : node._tag === "Number"
    ? "number"
    : node._tag === "Boolean"
    ? "boolean"
    : node._tag === "Objects"
    ? "object"
    : node._tag === "Arrays"
    ? "array"
    : node._tag === "Literal"
    ? (typeof node.literal as "string" | "number" | "boolean")
    : "any"
  const info: FieldInfo = {
    json,
    nullable,
    struct,
    keys: [...children.keys()],
    requiredKeys: [...children].filter(([, c]) => !c.optional).map(([k]) => k),
    nonBlank: patterns.includes(NON_BLANK_RE.source),
    format: patterns.map((p) => FORMATS.get(p)).find((f) => f !== undefined),
    maxCodePoints: numberOf("effect/schema/isMaxCodePoints", "maxCodePoints"),
    integer: filters.some((f) => representationOf(f.annotations).id === "effect/schema/isInt"),
    minimum: numberOf("effect/schema/isBetween", "minimum"),
    maximum: numberOf("effect/schema/isBetween", "maximum"),
    nonEmpty: (numberOf("effect/schema/isMinLength", "minLength") ?? 0) >= 1,
    literals,
    rules,
    children,
    item: node._tag === "Arrays" ? node.rest[0] : undefined
  }
  cache.set(ast, info)
  return info
}

/**
 * Every place of `payload` (valid against `root`): the root object itself, each key of each object that
 * the schema declares (present or optional and absent), and each array item, in document order.
 */
export const sitesOf = (root: SchemaAST.AST, payload: JsonObject): Array<Site> => {
  const out: Array<Site> = []
  const walk = (info: FieldInfo, value: Json | undefined, path: Path): void => {
    if (value === null || value === undefined) return
    if (info.struct && isRecord(value)) {
      for (const [key, child] of info.children) {
        const present = Object.hasOwn(value, key)
        if (!present && !child.optional) continue
        const childInfo = fieldInfo(child.ast)
        const childValue = present ? value[key] : undefined
        out.push({ path: [...path, key], info: childInfo, present, optional: child.optional, value: childValue })
        walk(childInfo, childValue, [...path, key])
      }
    } else if (info.item !== undefined && Array.isArray(value)) {
      const itemInfo = fieldInfo(info.item)
      value.forEach((item: Json, index) => {
        out.push({ path: [...path, index], info: itemInfo, present: true, optional: false, value: item })
        walk(itemInfo, item, [...path, index])
      })
    }
  }
  const rootInfo = fieldInfo(root)
  out.push({ path: [], info: rootInfo, present: true, optional: false, value: payload })
  walk(rootInfo, payload, [])
  return out
}

/** A deep copy of `root` where `change` has been applied to the container at `parentPath`. */
export const changedAt = (
  root: JsonObject,
  parentPath: Path,
  change: (container: Record<string | number, Json>) => void
): JsonObject => {
  const copy = structuredClone(root) as Record<string | number, Json>
  const container = valueAt(copy, parentPath)
  if (typeof container !== "object" || container === null) throw new Error(`No object at ${parentPath.join(".")}`)
  change(container as Record<string | number, Json>)
  return copy
}
