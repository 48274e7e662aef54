/**
 * Runs the cross-field rules of a schema over a raw input, each wherever the fields it reads are valid.
 * Effect runs an object's filters only when all of its fields decode; this pass runs a rule also when
 * other fields of the object are broken, so one report lists every error the payload has.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { CROSS_FIELD_RULE, type CrossFieldRule, type RuleContext } from "../schemas/conventions.js"
import type { PathError } from "./issue-to-errors.js"
import type { Path } from "./path.js"

type Check = NonNullable<SchemaAST.AST["checks"]>[number]

const rulesCache = new WeakMap<SchemaAST.AST, ReadonlyArray<CrossFieldRule>>()

/** The rules declared on a schema node (by its filters' {@link CROSS_FIELD_RULE} annotations). */
export const rulesOf = (ast: SchemaAST.AST): ReadonlyArray<CrossFieldRule> => {
  let rules = rulesCache.get(ast)
  if (rules === undefined) {
    const found: Array<CrossFieldRule> = []
    const visit = (check: Check): void => {
      if (check._tag === "FilterGroup") {
        for (const inner of check.checks) visit(inner)
        return
      }
      const rule = (check.annotations as Record<string, unknown> | undefined)?.[CROSS_FIELD_RULE]
      if (rule !== undefined) found.push(rule as CrossFieldRule)
    }
    for (const check of ast.checks ?? []) visit(check)
    rules = found
    rulesCache.set(ast, rules)
  }
  return rules
}

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const pathKey = (path: Path): string => path.map((step) => (typeof step === "number" ? `#${step}` : `.${step}`)).join("")

/**
 * The errors of the rules of `ast` over `input` that are not among `errors` already: each rule runs on
 * every value it is declared on whose read fields hold no error (at or below them). `onlyClock`: run the
 * rules that need the clock only (the decode ran the others).
 */
export const ruleErrors = (
  ast: SchemaAST.AST,
  input: unknown,
  errors: ReadonlyArray<PathError>,
  context: RuleContext,
  onlyClock: boolean
): Array<PathError> => {
  // Every place an error lies at or below.
  const broken = new Set<string>()
  for (const e of errors) {
    let key = ""
    broken.add(key)
    for (const step of e.path) {
      key += pathKey([step])
      broken.add(key)
    }
  }
  const isValid = (path: Path, field: string | number): boolean => !broken.has(pathKey(path) + pathKey([field]))
  const out: Array<PathError> = []
  const report = (rule: CrossFieldRule, path: Path, value: unknown): void => {
    for (const f of rule.check(value, context)) {
      out.push({ path: [...path, ...f.path], code: f.code, detail: f.detail, covers: rule.fields.map((field) => [...path, field]) })
    }
  }
  const walk = (node: SchemaAST.AST, value: unknown, path: Path): void => {
    for (const rule of rulesOf(node)) {
      if (onlyClock && rule.clock !== true) continue
      const reads = rule.reads ?? rule.fields
      switch (rule.scope ?? "object") {
        case "object":
          if (isRecord(value) && reads.every((field) => isValid(path, field))) report(rule, path, value)
          break
        case "items":
          if (Array.isArray(value)) {
            const trusted = value.map((item, index) =>
              isRecord(item) && reads.every((field) => isValid([...path, index], field)) ? item : undefined
            )
            report(rule, path, trusted)
          }
          break
        case "list":
          if (Array.isArray(value)) report(rule, path, value)
          break
      }
    }
    switch (node._tag) {
      case "Objects":
        if (!isRecord(value)) return
        for (const property of node.propertySignatures) {
          const name = property.name
          if (typeof name === "string" && Object.hasOwn(value, name)) walk(property.type, value[name], [...path, name])
        }
        return
      case "Arrays": {
        const item = node.rest[0]
        if (!Array.isArray(value) || item === undefined || node.elements.length > 0) return
        value.forEach((element: unknown, index) => walk(item, element, [...path, index]))
        return
      }
      case "Union":
        for (const member of node.types) walk(member, value, path)
        return
      case "Suspend":
        return walk(node.thunk(), value, path)
      default:
        return
    }
  }
  walk(ast, input, [])
  return out
}
