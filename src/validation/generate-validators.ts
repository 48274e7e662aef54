/**
 * Writes, from the request schemas of the catalogue, one plain JavaScript check per endpoint: straight-line
 * code of key counts, `typeof`, the conventions' patterns, the calendar check and the cross-field rules,
 * which answers valid or invalid and collects the warnings `validatePayload` would give a valid payload.
 * `scripts/generate-validators.ts` writes the result to `src/validation/generated/validators.ts`; a test
 * checks that file is what the schemas give today.
 *
 * A schema construct the writer does not know stops it with an error, so a new kind of check is taught
 * here before it can be used, never skipped.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { endpoints } from "../endpoints/catalogue.js"
import { ENDPOINT_IDS, type EndpointId } from "../endpoints/endpoint-id.js"
import {
  CROSS_FIELD_RULE,
  type CrossFieldRule,
  KNOWN_VALUES,
  NAMED_CHECK,
  NON_BLANK_RE,
  UNDOCUMENTED_SHAPE,
  WARNING_RULES,
  type WarningRule
} from "../schemas/conventions.js"

/** A function the generated code calls, handed to it at run time: a rule, or a warning rule. */
export interface GeneratedRef {
  readonly label: string
  readonly value: CrossFieldRule | WarningRule
}

/** The generated code of one endpoint and the functions it calls, in the order of its `refs` parameter. */
export interface GeneratedEndpoint {
  readonly body: string
  readonly refs: ReadonlyArray<GeneratedRef>
  readonly clock: boolean
}

type Check = NonNullable<SchemaAST.AST["checks"]>[number]
type Filter = Extract<Check, { readonly _tag: "Filter" }>

/** The functions a check may name (see `NAMED_CHECK`); the generated module imports them. */
const NAMED_CHECKS: ReadonlySet<string> = new Set(["isCalendarDate", "isInstantInRange"])

/** Constants shared by every endpoint of the module (patterns, sets of known values), by their source. */
class Constants {
  readonly declarations = new Map<string, string>()
  add(prefix: string, source: string): string {
    const found = this.declarations.get(source)
    if (found !== undefined) return found
    const name = `${prefix}${this.declarations.size}`
    this.declarations.set(source, name)
    return name
  }
}

const filtersOf = (ast: SchemaAST.AST): Array<Filter> => {
  const out: Array<Filter> = []
  const visit = (check: Check): void => {
    if (check._tag === "FilterGroup") for (const inner of check.checks) visit(inner)
    else out.push(check)
  }
  for (const check of ast.checks ?? []) visit(check)
  return out
}

const annotationsOf = (filter: Filter): Record<string, unknown> => (filter.annotations ?? {}) as Record<string, unknown>

const representation = (filter: Filter): { readonly id?: unknown; readonly payload?: unknown } => {
  const r = annotationsOf(filter)["representation"]
  return typeof r === "object" && r !== null ? r : {}
}

const unsupported = (what: string): never => {
  throw new Error(`generate-validators: ${what} is not supported; teach src/validation/generate-validators.ts`)
}

const js = (value: unknown): string => JSON.stringify(value)

/** Writes the check of one endpoint's request schema. */
class EndpointWriter {
  readonly lines: Array<string> = []
  readonly refs: Array<GeneratedRef> = []
  clock = false
  private counter = 0
  constructor(private readonly constants: Constants) {}

  private fresh(prefix: string): string {
    return `${prefix}${++this.counter}`
  }

  private ref(label: string, value: CrossFieldRule | WarningRule): string {
    let index = this.refs.findIndex((r) => r.value === value)
    if (index < 0) {
      index = this.refs.length
      this.refs.push({ label, value })
    }
    return `r${index}`
  }

  private emit(indent: number, line: string): void {
    this.lines.push(`${"  ".repeat(indent)}${line}`)
  }

  /** The conditions of a node's checks that test one value, as expressions true when the value passes. */
  private valueChecks(ast: SchemaAST.AST, v: string): Array<string> {
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
          out.push(`${this.constants.add("RE", `new RegExp(${js(p["source"])}, ${js(flags)})`)}.test(${v})`)
          break
        }
        case "effect/schema/isMaxCodePoints":
          out.push(`(${v}.length <= ${Number(p["maxCodePoints"])} || countCodePointsUpTo(${v}, ${Number(p["maxCodePoints"]) + 1}) <= ${Number(p["maxCodePoints"])})`)
          break
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

  private rulesOf(ast: SchemaAST.AST): Array<CrossFieldRule> {
    return filtersOf(ast).flatMap((f) => {
      const rule = annotationsOf(f)[CROSS_FIELD_RULE]
      return rule === undefined ? [] : [rule as CrossFieldRule]
    })
  }

  /** The expression that a leaf value is valid, or `undefined` when the node is not a leaf. */
  private leaf(ast: SchemaAST.AST, v: string): string | undefined {
    const own = (type: string): string => [type, ...this.valueChecks(ast, v)].join(" && ")
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
          if (this.warns(member)) unsupported("warnings inside a union")
          return this.leaf(member, v)
        })
        if (members.some((m) => m === undefined)) return undefined
        return own(`(${members.map((m) => `(${m})`).join(" || ")})`)
      }
      default:
        return undefined
    }
  }

  /** Whether a leaf node can warn (only strings of an open enumeration can). */
  private warns(ast: SchemaAST.AST): boolean {
    return ast._tag === "String" && Array.isArray(SchemaAST.resolve(ast)?.[KNOWN_VALUES])
  }

  private pathOf(path: ReadonlyArray<string>, more: ReadonlyArray<string> = []): string {
    return `[${[...path, ...more].join(", ")}]`
  }

  /** Statements that return `false` unless the value in `v` is valid, and push its warnings to `out`. */
  node(ast: SchemaAST.AST, v: string, path: ReadonlyArray<string>, indent: number): void {
    if (ast.encoding !== undefined || (ast as { readonly encodingChecks?: unknown }).encodingChecks !== undefined) {
      unsupported("a schema with an encoding")
    }
    const leaf = this.leaf(ast, v)
    if (leaf !== undefined) {
      this.emit(indent, `if (!(${leaf})) return false`)
      const known = SchemaAST.resolve(ast)?.[KNOWN_VALUES]
      if (ast._tag === "String" && Array.isArray(known)) {
        const test = known.length === 1
          ? `${v} !== ${js(known[0])}`
          : `!${this.constants.add("KNOWN", `new Set(${js(known)})`)}.has(${v})`
        const detail = `'"' + ${v} + ${js(`" is not among the values the spec lists (${known.join(", ")}).`)}`
        this.emit(indent, `if (${test} && NON_BLANK_RE.test(${v})) out.push({ path: ${this.pathOf(path)}, code: "unknown_choice", detail: ${detail} })`)
      }
      return
    }
    switch (ast._tag) {
      case "Objects":
        return this.object(ast, v, path, indent)
      case "Arrays":
        return this.array(ast, v, path, indent)
      case "Union": {
        // `NullOr(X)` of a structure: null, or an X.
        const others = ast.types.filter((t) => t._tag !== "Null")
        if (others.length !== 1 || ast.types.length !== 2 || filtersOf(ast).length > 0) unsupported("a union of structures")
        this.emit(indent, `if (${v} !== null) {`)
        this.node(others[0]!, v, path, indent + 1)
        this.emit(indent, "}")
        return
      }
      default:
        return unsupported(`the schema node ${ast._tag}`)
    }
  }

  private rules(ast: SchemaAST.AST, v: string, indent: number): void {
    for (const rule of this.rulesOf(ast)) {
      if (rule.clock === true) this.clock = true
      const r = this.ref(`rule ${rule.name}(${rule.fields.join(", ")})`, rule)
      this.emit(indent, `if (${r}.check(${v}, context).length !== 0) return false`)
    }
  }

  private object(ast: SchemaAST.Objects, v: string, path: ReadonlyArray<string>, indent: number): void {
    this.emit(indent, `if (typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})) return false`)
    if (ast.indexSignatures.length > 0) {
      const [signature] = ast.indexSignatures
      if (ast.propertySignatures.length > 0 || ast.indexSignatures.length > 1 || signature?.parameter._tag !== "String" ||
        signature.type._tag !== "Unknown" || filtersOf(ast).length > 0) {
        unsupported("an object with an index signature other than Record(String, Unknown)")
      }
      return
    }
    // Warning rules first, as validatePayload lists an object's warnings before its fields' (at one place).
    const warningRules = SchemaAST.resolve(ast)?.[WARNING_RULES]
    if (Array.isArray(warningRules)) {
      for (const rule of warningRules as ReadonlyArray<WarningRule>) {
        const w = this.ref(`warning ${rule.name}`, rule)
        this.emit(indent, `for (const w of ${w}(${v})) out.push({ path: ${this.pathOf(path, ["...w.path"])}, code: w.code, detail: w.detail })`)
      }
    }
    const keys = this.fresh("k")
    const count = this.fresh("n")
    this.emit(indent, `let ${keys} = 0`)
    this.emit(indent, `for (const _ in ${v}) ${keys}++`)
    const required = ast.propertySignatures.filter((p) => !SchemaAST.isOptional(p.type)).length
    this.emit(indent, `let ${count} = ${required}`)
    for (const property of ast.propertySignatures) {
      const name = property.name
      if (typeof name !== "string") unsupported("a symbol or number key")
      const key = name as string
      // A field read as `v.name` must not find a property of every object.
      if (key in Object.prototype) unsupported(`the field name ${key}`)
      const field = this.fresh("v")
      const at = [...path, js(key)]
      this.emit(indent, `const ${field} = ${v}[${js(key)}]`)
      if (SchemaAST.isOptional(property.type)) {
        this.emit(indent, `if (${field} !== undefined) {`)
        this.emit(indent + 1, `${count}++`)
        this.node(property.type, field, at, indent + 1)
        if (property.type._tag === "Arrays") {
          this.emit(indent + 1, `if (${field}.length === 0) out.push({ path: ${this.pathOf(at)}, code: "empty_optional", detail: ${js(`${key} is empty: omit an optional list that carries no data.`)} })`)
        }
        this.emit(indent, "}")
      } else {
        this.emit(indent, `if (${field} === undefined) return false`)
        this.node(property.type, field, at, indent)
      }
    }
    // Every own key is a field of the schema (an unknown key, or a field given as undefined, makes more keys than fields found).
    this.emit(indent, `if (${keys} !== ${count}) return false`)
    const valueChecks = this.valueChecks(ast, v)
    if (valueChecks.length > 0) unsupported("checks of an object other than cross-field rules")
    this.rules(ast, v, indent)
  }

  private array(ast: SchemaAST.Arrays, v: string, path: ReadonlyArray<string>, indent: number): void {
    if (ast.elements.length > 0 || ast.rest.length !== 1) unsupported("a tuple")
    this.emit(indent, `if (!Array.isArray(${v})) return false`)
    for (const check of this.valueChecks(ast, v)) this.emit(indent, `if (!(${check})) return false`)
    const index = this.fresh("i")
    const item = this.fresh("v")
    this.emit(indent, `for (let ${index} = 0; ${index} < ${v}.length; ${index}++) {`)
    this.emit(indent + 1, `const ${item} = ${v}[${index}]`)
    if (SchemaAST.resolve(ast)?.[UNDOCUMENTED_SHAPE] === true) {
      this.emit(indent + 1, `out.push({ path: ${this.pathOf(path, [index])}, code: "undocumented_shape", detail: ${js("The spec does not give the shape of this item: it is passed on unchecked.")} })`)
    }
    this.node(ast.rest[0]!, item, [...path, index], indent + 1)
    this.emit(indent, "}")
    this.rules(ast, v, indent)
  }
}

const writeEndpoint = (id: EndpointId, constants: Constants): GeneratedEndpoint => {
  const writer = new EndpointWriter(constants)
  writer.node(endpoints[id].request.ast, "v0", [], 2)
  return { body: writer.lines.join("\n"), refs: writer.refs, clock: writer.clock }
}

/** The functions the generated check of an endpoint calls, as it expects them (labels and values). */
export const generatedRefs = (id: EndpointId): ReadonlyArray<GeneratedRef> => writeEndpoint(id, new Constants()).refs

const camel = (id: string): string => id.replace(/-([a-z])/gu, (_, c: string) => c.toUpperCase())

/**
 * The source of `src/validation/generated/validators.ts`: one check per endpoint, made from the schemas
 * of today.
 */
export const generateValidatorsSource = (): string => {
  const constants = new Constants()
  const parts = ENDPOINT_IDS.map((id) => {
    const endpoint = writeEndpoint(id, constants)
    const refs = endpoint.refs.map((_, i) => `r${i}`).join(", ")
    return `/** \`${id}\`: ${endpoints[id].method} ${endpoints[id].path} */
const ${camel(id)}: GeneratedValidator = {
  refs: ${js(endpoint.refs.map((r) => r.label))},
  clock: ${endpoint.clock},
  make: ([${refs}]) => (v0, out, context) => {
${endpoint.body}
    return true
  }
}
`
  })
  return `// Generated by scripts/generate-validators.ts from the request schemas: do not edit by hand.
// After a change to a schema, run \`npm run generate\` (test/validation/generated-validators.test.ts
// fails while this file is out of date).
/* eslint-disable */
import { countCodePointsUpTo, type GeneratedValidator, isCalendarDate, isInstantInRange, isNonBlank, NON_BLANK_RE } from "../generated-runtime.js"

${[...constants.declarations].map(([source, name]) => `const ${name} = ${source}`).join("\n")}

${parts.join("\n")}
/** The generated check of every endpoint, by endpoint id. */
export const GENERATED_VALIDATORS: Readonly<Record<string, GeneratedValidator>> = {
${ENDPOINT_IDS.map((id) => `  ${js(id)}: ${camel(id)}`).join(",\n")}
}
`
}
