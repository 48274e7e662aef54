/**
 * Finds warnings (allowed but suspicious data) by walking a schema's AST alongside the raw input:
 * values outside an open enumeration, optional arrays sent empty, items of undocumented shape, and the
 * warning rules that resource schemas attach to their objects.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { KNOWN_VALUES, NON_BLANK_RE, UNDOCUMENTED_SHAPE, WARNING_RULES, type WarningRule } from "../schemas/conventions.js"
import type { PathError } from "./issue-to-errors.js"
import type { Path } from "./path.js"

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** Collects the warnings of `input` against the schema `ast`, in document order of the walk. */
export const collectWarnings = (ast: SchemaAST.AST, input: unknown): Array<PathError> => {
  const out: Array<PathError> = []
  const walk = (node: SchemaAST.AST, value: unknown, path: Path): void => {
    const annotations = SchemaAST.resolve(node)
    switch (node._tag) {
      case "String": {
        const known = annotations?.[KNOWN_VALUES]
        if (Array.isArray(known) && typeof value === "string" && NON_BLANK_RE.test(value) && !known.includes(value)) {
          out.push({
            path,
            code: "unknown_choice",
            detail: `"${value}" is not among the values the spec lists (${known.join(", ")}).`
          })
        }
        return
      }
      case "Objects": {
        if (!isRecord(value)) return
        const rules = annotations?.[WARNING_RULES]
        if (Array.isArray(rules)) {
          for (const rule of rules as ReadonlyArray<WarningRule>) {
            for (const w of rule(value)) out.push({ path: [...path, ...w.path], code: w.code, detail: w.detail })
          }
        }
        for (const property of node.propertySignatures) {
          const name = property.name
          if (typeof name !== "string" || !Object.hasOwn(value, name)) continue
          const child = value[name]
          if (SchemaAST.isOptional(property.type) && Array.isArray(child) && child.length === 0) {
            out.push({
              path: [...path, name],
              code: "empty_optional",
              detail: `${name} is empty: omit an optional list that carries no data.`
            })
          }
          walk(property.type, child, [...path, name])
        }
        return
      }
      case "Arrays": {
        if (!Array.isArray(value)) return
        const item = node.rest[0]
        const undocumented = annotations?.[UNDOCUMENTED_SHAPE] === true
        value.forEach((element: unknown, index) => {
          if (undocumented) {
            out.push({
              path: [...path, index],
              code: "undocumented_shape",
              detail: "The spec does not give the shape of this item: it is passed on unchecked."
            })
          }
          if (item !== undefined) walk(item, element, [...path, index])
        })
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
