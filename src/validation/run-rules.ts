/**
 * Runs the cross-field rules of a schema over a raw input, each wherever the fields it reads are valid.
 * Effect runs an object's filters only when all of its fields decode; this pass runs a rule also when
 * other fields of the object are broken, so one report lists every error the payload has.
 *
 * @module
 */
import { SchemaAST } from "effect"
import type { CrossFieldRule, RuleContext } from "../schemas/conventions.js"
import { crossFieldRulesOf } from "../schemas/rules.js"
import type { PathError } from "./issue-to-errors.js"
import { isRecord, type Path } from "./path.js"
import { perNode } from "./per-node.js"


/** The places errors lie at or below, as a tree of path steps (an index and its digits as a key differ). */
type BrokenPlaces = Map<string | number, BrokenPlaces>

const brokenPlaces = (errors: ReadonlyArray<PathError>): BrokenPlaces => {
  const root: BrokenPlaces = new Map()
  for (const e of errors) {
    let node = root
    for (const step of e.path) {
      let next = node.get(step)
      if (next === undefined) {
        next = new Map()
        node.set(step, next)
      }
      node = next
    }
  }
  return root
}

/** What a walk over one input shares: the errors found so far, whether a field is valid, the findings. */
interface Walk {
  readonly context: RuleContext
  readonly onlyClock: boolean
  readonly isValid: (path: Path, field: string | number) => boolean
  readonly out: Array<PathError>
}

/** Runs the rules at and below one schema node over a value at `path`. */
type Walker = (value: unknown, path: Path, walk: Walk) => void

/** The walker of a schema node; `undefined` when no rule is declared at or below it. */
const walkerOf = perNode<Walker>((ast) => compile(ast))

const report = (rule: CrossFieldRule, path: Path, value: unknown, walk: Walk): void => {
  for (const f of rule.check(value, walk.context)) {
    walk.out.push({ path: [...path, ...f.path], code: f.code, detail: f.detail, covers: rule.fields.map((field) => [...path, field]) })
  }
}

/** Runs one rule declared on the value at `path`, when the fields it reads are valid. */
const runRule = (rule: CrossFieldRule, value: unknown, path: Path, walk: Walk): void => {
  if (walk.onlyClock && rule.clock !== true) return
  const reads = rule.reads ?? rule.fields
  switch (rule.scope ?? "object") {
    case "object":
      if (isRecord(value) && reads.every((field) => walk.isValid(path, field))) report(rule, path, value, walk)
      return
    case "items":
      if (Array.isArray(value)) {
        const trusted = value.map((item, index) =>
          isRecord(item) && reads.every((field) => walk.isValid([...path, index], field)) ? item : undefined
        )
        report(rule, path, trusted, walk)
      }
      return
    case "list":
      if (Array.isArray(value)) report(rule, path, value, walk)
      return
  }
}

const compile = (ast: SchemaAST.AST): Walker | undefined => {
  const rules = crossFieldRulesOf(ast)
  let below: Walker | undefined
  switch (ast._tag) {
    case "Objects": {
      const fields = ast.propertySignatures.flatMap((property) => {
        const walk = typeof property.name === "string" ? walkerOf(property.type) : undefined
        return walk === undefined ? [] : [{ name: property.name as string, walk }]
      })
      if (fields.length > 0) {
        below = (value, path, walk) => {
          if (!isRecord(value)) return
          for (const { name, walk: child } of fields) if (Object.hasOwn(value, name)) child(value[name], [...path, name], walk)
        }
      }
      break
    }
    case "Arrays": {
      const item = ast.elements.length === 0 && ast.rest[0] !== undefined ? walkerOf(ast.rest[0]) : undefined
      if (item !== undefined) {
        below = (value, path, walk) => {
          if (!Array.isArray(value)) return
          value.forEach((element: unknown, index) => item(element, [...path, index], walk))
        }
      }
      break
    }
    case "Union": {
      const members = ast.types.map(walkerOf).filter((w) => w !== undefined)
      if (members.length > 0) {
        below = (value, path, walk) => {
          for (const member of members) member(value, path, walk)
        }
      }
      break
    }
    case "Suspend":
      below = (value, path, walk) => walkerOf(ast.thunk())?.(value, path, walk)
      break
    // Stryker disable next-line ConditionalExpression: equivalent, the default case only leaves the switch, as an empty one does
    default:
      break
  }
  if (rules.length === 0) return below
  return (value, path, walk) => {
    for (const rule of rules) runRule(rule, value, path, walk)
    below?.(value, path, walk)
  }
}

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
  const walker = walkerOf(ast)
  if (walker === undefined) return []
  // Every place an error lies at or below (a tree of path steps), made when a rule first asks.
  let broken: BrokenPlaces | undefined
  const isValid = (path: Path, field: string | number): boolean => {
    broken ??= brokenPlaces(errors)
    let node: BrokenPlaces | undefined = broken
    for (const step of path) {
      node = node.get(step)
      if (node === undefined) return true
    }
    return !node.has(field)
  }
  const out: Array<PathError> = []
  walker(input, [], { context, onlyClock, isValid, out })
  return out
}
