/**
 * A compiled validator per endpoint: the same answers as `validatePayload`, several times faster on
 * valid payloads, for checking exports of millions of records.
 *
 * A valid payload is recognised by three cheap checks: the schema's compiled type guard (Effect's
 * schema JIT), a walk that rejects undocumented keys and collects the warnings at once, and the
 * endpoint's context rules (the clock). Only a payload that fails one of them is decoded in full by
 * `validatePayload`, which builds the errors. Every check is a pre-check: when in doubt it defers to
 * `validatePayload`, so the two never disagree.
 *
 * @module
 */
import { Schema, SchemaAST } from "effect"
import { SchemaJITCompiler } from "effect/schema"
import { type EndpointDefinition, endpoints } from "../endpoints/catalogue.js"
import { type EndpointId, isEndpointId, type RequestOf } from "../endpoints/endpoint-id.js"
import { KNOWN_VALUES, NON_BLANK_RE, UNDOCUMENTED_SHAPE, WARNING_RULES, type WarningRule } from "../schemas/conventions.js"
import type { PathError } from "./issue-to-errors.js"
import type { PayloadWarning, ValidatePayloadOptions, ValidationResult } from "./result.js"
import { inDocumentOrder } from "./run-validation.js"
import { validatePayload } from "./validate-payload.js"
import { isWireData } from "./wire-data.js"

/** Validates one request of an endpoint; the same result as `validatePayload(endpointId, input, options)`. */
export type PayloadValidator<E extends EndpointId> = (
  input: unknown,
  options?: ValidatePayloadOptions
) => ValidationResult<RequestOf<E>>

/** A path built as a linked list while walking, turned into an array only when a warning needs it. */
interface PathNode {
  readonly parent: PathNode | undefined
  readonly key: string | number
}

const toPath = (node: PathNode | undefined): Array<string | number> => {
  const out: Array<string | number> = []
  for (let n = node; n !== undefined; n = n.parent) out.push(n.key)
  return out.reverse()
}

/**
 * Walks a value along its schema: pushes the warnings `collectWarnings` would find, in the same order,
 * and returns `false` as soon as it meets a key the strict decode would reject (or anything it cannot
 * vouch for), which sends the payload to the full validation. The value's path is `parent` plus `key`
 * (no `key` at the root), so no path object is made for a value that has nothing to report.
 */
type Walker = (value: unknown, parent: PathNode | undefined, key: string | number | undefined, out: Array<PathError>) => boolean

const here = (parent: PathNode | undefined, key: string | number | undefined): PathNode | undefined =>
  key === undefined ? parent : { parent, key }

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const NON_BLANK = NON_BLANK_RE

const refuse: Walker = () => false

const prototypeIsPolluted = (): boolean => {
  for (const _ in Object.prototype) return true
  return false
}

/** Node kinds without children: nothing to walk unless they carry known values. */
const LEAVES: ReadonlySet<string> = new Set([
  "Null",
  "Undefined",
  "Void",
  "Never",
  "Any",
  "Unknown",
  "Number",
  "Boolean",
  "BigInt",
  "Symbol",
  "Literal",
  "UniqueSymbol",
  "Enum",
  "TemplateLiteral",
  "ObjectKeyword"
])

const hasEncoding = (ast: SchemaAST.AST): boolean =>
  (ast as { readonly encoding?: unknown }).encoding !== undefined ||
  (ast as { readonly encodingChecks?: unknown }).encodingChecks !== undefined

/** Compiles the walker of a schema node; `undefined` when the node can neither warn nor hide an excess key. */
interface WalkerContext {
  readonly cache: Map<SchemaAST.AST, Walker | undefined>
  /** The inputs come from JSON.parse: no symbol keys to look for. */
  readonly json: boolean
}

const compileWalker = (ast: SchemaAST.AST, context: WalkerContext): Walker | undefined => {
  const cache = context.cache
  if (cache.has(ast)) return cache.get(ast)
  // A transformation decodes something else than the value seen here: leave such schemas to the decoder.
  if (hasEncoding(ast)) return refuse
  const annotations = SchemaAST.resolve(ast)
  let walker: Walker | undefined
  switch (ast._tag) {
    case "String": {
      const known = annotations?.[KNOWN_VALUES]
      if (Array.isArray(known)) {
        const values = new Set<unknown>(known)
        const list = known.join(", ")
        walker = (value, parent, key, out) => {
          if (typeof value === "string" && !values.has(value) && NON_BLANK.test(value)) {
            out.push({
              path: toPath(here(parent, key)),
              code: "unknown_choice",
              detail: `"${value}" is not among the values the spec lists (${list}).`
            })
          }
          return true
        }
      }
      break
    }
    case "Objects": {
      // Placeholder first: a recursive schema (through Suspend) finds this node while it compiles.
      let compiled: Walker = refuse
      cache.set(ast, (value, parent, key, out) => compiled(value, parent, key, out))
      const rules = annotations?.[WARNING_RULES]
      const warningRules: ReadonlyArray<WarningRule> = Array.isArray(rules) ? (rules as ReadonlyArray<WarningRule>) : []
      // The value's own keys are visited in their order, not the schema's: warnings are put in document
      // order afterwards anyway, and one pass then both finds excess keys and walks the fields.
      const fields = new Map<string, { readonly name: string; readonly optional: boolean; readonly walk: Walker | undefined }>()
      for (const p of ast.propertySignatures) {
        const name = typeof p.name === "number" ? String(p.name) : p.name
        if (typeof name !== "string") continue
        fields.set(name, { name, optional: SchemaAST.isOptional(p.type), walk: compileWalker(p.type, context) })
      }
      const strict = ast.indexSignatures.length === 0
      const symbolKeyed = ast.propertySignatures.some((p) => typeof p.name === "symbol")
      compiled = (value, parent, key, out) => {
        if (!isRecord(value)) return true
        // Only plain objects (what JSON.parse makes): for…in then yields own keys only, as long as nobody
        // made a key of Object.prototype enumerable (checked once per payload). Symbol keys never come
        // from JSON (looked for unless the inputs are known to); whether they are excess is left to the decoder.
        const prototype = Object.getPrototypeOf(value)
        if (prototype !== Object.prototype && prototype !== null) return false
        if (symbolKeyed || (!context.json && Object.getOwnPropertySymbols(value).length > 0)) return false
        const path = here(parent, key)
        for (const rule of warningRules) {
          for (const w of rule(value)) out.push({ path: [...toPath(path), ...w.path], code: w.code, detail: w.detail })
        }
        for (const name in value) {
          const field = fields.get(name)
          if (field === undefined) {
            if (strict) return false
            continue
          }
          const child = value[name]
          if (field.optional && Array.isArray(child) && child.length === 0) {
            out.push({
              path: toPath({ parent: path, key: name }),
              code: "empty_optional",
              detail: `${name} is empty: omit an optional list that carries no data.`
            })
          }
          if (field.walk !== undefined && !field.walk(child, path, name, out)) return false
        }
        return true
      }
      cache.set(ast, compiled)
      return compiled
    }
    case "Arrays": {
      if (ast.elements.length > 0 || ast.rest.length > 1) {
        walker = refuse
        break
      }
      const item = ast.rest[0] === undefined ? undefined : compileWalker(ast.rest[0], context)
      const undocumented = annotations?.[UNDOCUMENTED_SHAPE] === true
      if (item !== undefined || undocumented) {
        walker = (value, parent, key, out) => {
          if (!Array.isArray(value)) return true
          const path = here(parent, key)
          for (let index = 0; index < value.length; index++) {
            if (undocumented) {
              out.push({
                path: toPath({ parent: path, key: index }),
                code: "undocumented_shape",
                detail: "The spec does not give the shape of this item: it is passed on unchecked."
              })
            }
            if (item !== undefined && !item(value[index], path, index, out)) return false
          }
          return true
        }
      }
      break
    }
    case "Union": {
      const members = ast.types.map((member) => compileWalker(member, context)).filter((w) => w !== undefined)
      if (members.length > 0) {
        // Every member is walked, as collectWarnings does; an excess key against any object member
        // defers to the decoder, which knows which member the value was decoded with.
        walker = (value, parent, key, out) => {
          for (const member of members) if (!member(value, parent, key, out)) return false
          return true
        }
      }
      break
    }
    case "Suspend": {
      let target: Walker | undefined | null = null
      walker = (value, parent, key, out) => {
        if (target === null) target = compileWalker(ast.thunk(), context)
        return target === undefined || target(value, parent, key, out)
      }
      break
    }
    default:
      walker = LEAVES.has(ast._tag) ? undefined : refuse
  }
  cache.set(ast, walker)
  return walker
}

const jitEnabled = new WeakSet<SchemaAST.AST>()

const enableJit = (ast: SchemaAST.AST): void => {
  for (const node of [ast, SchemaAST.toType(ast)]) {
    if (jitEnabled.has(node)) continue
    SchemaJITCompiler.enable(node)
    jitEnabled.add(node)
  }
}

/** Options of {@link compileValidator}. */
export interface CompileValidatorOptions {
  /**
   * `"json"`: every input comes straight from `JSON.parse` (plain objects and arrays, no symbol keys,
   * no getters), which spares a walk over each input's property descriptors. Other inputs may then be
   * misjudged. Default `"any"`.
   */
  readonly input?: "any" | "json"
}

const validators = new Map<string, PayloadValidator<EndpointId>>()

/**
 * Returns a validator for one endpoint that answers exactly as `validatePayload` does (same errors,
 * warnings and order), but checks a valid payload several times faster: Effect's schema JIT compiles
 * the schema's type guard, and only payloads that fail it (or carry an undocumented key, or break a
 * rule of the clock) are decoded in full. For valid payloads, `value` is the input itself (the
 * schemas transform nothing), not a copy. Compile once, call per record.
 *
 * @example
 * const validate = compileValidator("energy-amount", { input: "json" })
 * for (const line of lines) {
 *   const result = validate(JSON.parse(line))
 *   if (!result.ok) console.log(result.error.errors)
 * }
 */
export const compileValidator = <E extends EndpointId>(endpointId: E, options?: CompileValidatorOptions): PayloadValidator<E> => {
  const json = options?.input === "json"
  const key = `${String(endpointId)}\u0000${json ? "json" : "any"}`
  const cached = validators.get(key)
  if (cached !== undefined) return cached as PayloadValidator<E>
  if (!isEndpointId(endpointId)) return (input, options) => validatePayload(endpointId, input, options)
  const endpoint: EndpointDefinition = endpoints[endpointId]
  const schema = endpoint.request as Schema.Decoder<unknown>
  enableJit(schema.ast)
  const is = Schema.is(schema)
  const walk = compileWalker(schema.ast, { cache: new Map(), json }) ?? (() => true)
  const rules = endpoint.contextRules ?? []
  const validator: PayloadValidator<E> = (input, options) => {
    try {
      // Only data is read as it is; anything else (a getter, say) takes the full validation.
      if (isRecord(input) && !prototypeIsPolluted() && (json || isWireData(input)) && is(input)) {
        const found: Array<PathError> = []
        if (walk(input, undefined, undefined, found)) {
          const context = rules.length === 0 ? undefined : { now: options?.now ?? new Date() }
          if (context === undefined || rules.every((rule) => rule(input, context).length === 0)) {
            return { ok: true, value: input as RequestOf<E>, warnings: found.length === 0 ? [] : inDocumentOrder(input, found) as Array<PayloadWarning> }
          }
        }
      }
    } catch {
      // Whatever went wrong, the full validation below answers (and is total itself).
    }
    return validatePayload(endpointId, input, options)
  }
  validators.set(key, validator as PayloadValidator<EndpointId>)
  return validator
}

const bodyChecks = new Map<string, WeakMap<Schema.Top, (input: unknown) => boolean>>()

/**
 * A pre-check of bodies against one schema (a response body, say): `true` only when the body is valid
 * with nothing to report (no error, no warning, no field the schema does not name), as Effect's
 * compiled type guard and the warning walk find; `false` means "not known", and the caller validates in
 * full. For `input: "json"`, as in {@link CompileValidatorOptions}.
 *
 * @example
 * const clean = compileBodyCheck(endpoints["energy-amount"].responses[201].schema, { input: "json" })
 * clean(JSON.parse(text)) // true: validateResponse would answer ok without warnings
 */
export const compileBodyCheck = (schema: Schema.Top, options?: CompileValidatorOptions): (input: unknown) => boolean => {
  const json = options?.input === "json"
  const key = json ? "json" : "any"
  const cache = bodyChecks.get(key) ?? new WeakMap<Schema.Top, (input: unknown) => boolean>()
  bodyChecks.set(key, cache)
  const cached = cache.get(schema)
  if (cached !== undefined) return cached
  const decoder = schema as Schema.Decoder<unknown>
  enableJit(decoder.ast)
  const is = Schema.is(decoder)
  const walk = compileWalker(decoder.ast, { cache: new Map(), json }) ?? (() => true)
  const check = (input: unknown): boolean => {
    try {
      if (prototypeIsPolluted() || !(json || isWireData(input)) || !is(input)) return false
      const found: Array<PathError> = []
      return walk(input, undefined, undefined, found) && found.length === 0
    } catch {
      return false
    }
  }
  cache.set(schema, check)
  return check
}
