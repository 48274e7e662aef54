/**
 * Finds warnings (allowed but suspicious data) by walking a schema's AST alongside the raw input:
 * values outside an open enumeration, optional arrays sent empty, items of undocumented shape, and the
 * warning rules that resource schemas attach to their objects. The walk is compiled once per schema
 * into closures that visit only the nodes that can warn.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { KNOWN_VALUES, NON_BLANK_RE, UNDOCUMENTED_SHAPE, undocumentedShape, WARNING_RULES, type WarningRule } from "../schemas/conventions.js"
import type { PathError } from "./issue-to-errors.js"
import { isRecord, type Path } from "./path.js"
import { perNode } from "./per-node.js"

/** The `detail` of an `unknown_choice` warning: `value` is not among the values the spec lists (`list`). */
const unknownChoiceDetail = (value: string, list: string): string => `"${value}" is not among the values the spec lists (${list}).`

/** The `detail` of an `empty_optional` warning for the optional list `name`, sent empty. */
const emptyOptionalDetail = (name: string): string => `${name} is empty: omit an optional list that carries no data.`

/** Pushes the warnings of `value` (at `path`) to `out`. */
type Walker = (value: unknown, path: Path, out: Array<PathError>) => void

/** The walker of a schema node; `undefined` when nothing at or below it can warn. */
const walkerOf = perNode<Walker>((ast) => compile(ast))

const compile = (ast: SchemaAST.AST): Walker | undefined => {
  const annotations = SchemaAST.resolve(ast)
  switch (ast._tag) {
    case "String": {
      const known = annotations?.[KNOWN_VALUES]
      if (!Array.isArray(known)) return undefined
      const values = new Set<unknown>(known)
      const list = known.join(", ")
      return (value, path, out) => {
        if (typeof value === "string" && NON_BLANK_RE.test(value) && !values.has(value)) {
          out.push({ path, code: "unknown_choice", detail: unknownChoiceDetail(value, list) })
        }
      }
    }
    case "Objects": {
      const rules = annotations?.[WARNING_RULES]
      const warningRules: ReadonlyArray<WarningRule> = Array.isArray(rules) ? (rules as ReadonlyArray<WarningRule>) : []
      const fields = ast.propertySignatures.flatMap((property) => {
        const name = property.name
        // Stryker disable next-line ArrayDeclaration: equivalent, a string in place of a field entry has no optional flag or walker, so it warns of nothing
        if (typeof name !== "string") return []
        const optional = SchemaAST.isOptional(property.type)
        const walk = walkerOf(property.type)
        return optional || walk !== undefined ? [{ name, optional, walk }] : []
      })
      if (warningRules.length === 0 && fields.length === 0) return undefined
      return (value, path, out) => {
        if (!isRecord(value)) return
        for (const rule of warningRules) {
          for (const w of rule.check(value)) out.push({ path: [...path, ...w.path], code: w.code, detail: w.detail })
        }
        for (const { name, optional, walk } of fields) {
          if (!Object.hasOwn(value, name)) continue
          const child = value[name]
          if (optional && Array.isArray(child) && child.length === 0) {
            out.push({ path: [...path, name], code: "empty_optional", detail: emptyOptionalDetail(name) })
          }
          if (walk !== undefined) walk(child, [...path, name], out)
        }
      }
    }
    case "Arrays": {
      const item = ast.rest[0] === undefined ? undefined : walkerOf(ast.rest[0])
      const undocumented = annotations?.[UNDOCUMENTED_SHAPE] === true
      if (item === undefined && !undocumented) return undefined
      return (value, path, out) => {
        if (!Array.isArray(value)) return
        // One warning per item, each before the item's own (the rule's findings are in item order).
        const shapes = undocumented ? undocumentedShape.check(value) : []
        value.forEach((element: unknown, index) => {
          const shape = shapes[index]
          if (shape !== undefined) out.push({ path: [...path, ...shape.path], code: shape.code, detail: shape.detail })
          if (item !== undefined) item(element, [...path, index], out)
        })
      }
    }
    case "Union": {
      const members = ast.types.map(walkerOf).filter((w) => w !== undefined)
      if (members.length === 0) return undefined
      return (value, path, out) => {
        for (const member of members) member(value, path, out)
      }
    }
    case "Suspend":
      return (value, path, out) => walkerOf(ast.thunk())?.(value, path, out)
    // Stryker disable next-line ConditionalExpression: equivalent, without its return the default case leaves the switch and compile returns undefined all the same
    default:
      return undefined
  }
}

/** Collects the warnings of `input` against the schema `ast`, in document order of the walk. */
export const collectWarnings = (ast: SchemaAST.AST, input: unknown): Array<PathError> => {
  const out: Array<PathError> = []
  walkerOf(ast)?.(input, [], out)
  return out
}
