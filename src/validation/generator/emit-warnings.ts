/**
 * The generated warning collector of one endpoint: the warnings `collectWarnings` finds in any request,
 * valid or not (values outside an open enumeration, optional lists sent empty, items of undocumented
 * shape, the warning rules of objects), in the same order, as straight-line code. The check collects the
 * warnings of a valid request itself; this serves a request with errors.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { KNOWN_VALUES, UNDOCUMENTED_SHAPE, WARNING_RULES, type WarningRule } from "../../schemas/conventions.js"
import type { Constants, EndpointNames } from "./generated-names.js"
import { js, pathSource, unsupported } from "./schema-reading.js"
import { emptyOptionalPush, notKnownTest, undocumentedShapePush, unknownChoicePush, warningRulePush } from "./warning-statements.js"

const indented = (lines: ReadonlyArray<string>): Array<string> => lines.map((line) => `  ${line}`)

/**
 * Writes the statements of an endpoint's warning collector, without indentation: they push the warnings
 * of the value in `v` (at `path`) to `out`; none for a node below which nothing can warn.
 * `generate-validators.ts` writes an endpoint with it (`writer.node(ast, "v0", [])`).
 */
export class WarningsWriter {
  constructor(private readonly constants: Constants, private readonly names: EndpointNames) {}

  /** The statements that push the warnings of the value in `v` at `path`, as `collectWarnings` walks it. */
  node(ast: SchemaAST.AST, v: string, path: ReadonlyArray<string>): Array<string> {
    switch (ast._tag) {
      case "String": {
        const known = SchemaAST.resolve(ast)?.[KNOWN_VALUES]
        if (!Array.isArray(known)) return []
        return [`if (typeof ${v} === "string" && NON_BLANK_RE.test(${v}) && ${notKnownTest(v, known, this.constants)}) ${unknownChoicePush(v, path, known)}`]
      }
      case "Objects":
        return this.object(ast, v, path)
      case "Arrays":
        return this.array(ast, v, path)
      case "Union":
        return ast.types.flatMap((member) => this.node(member, v, path))
      case "Suspend":
        return unsupported("a recursive schema (Suspend)")
      default:
        return []
    }
  }

  private object(ast: SchemaAST.Objects, v: string, path: ReadonlyArray<string>): Array<string> {
    const body: Array<string> = []
    const rules = SchemaAST.resolve(ast)?.[WARNING_RULES]
    for (const rule of Array.isArray(rules) ? rules as ReadonlyArray<WarningRule> : []) body.push(warningRulePush(rule, v, path, this.names))
    for (const property of ast.propertySignatures) {
      const name = property.name
      if (typeof name !== "string") continue
      const field = this.names.fresh("v")
      const at = [...path, js(name)]
      const below = this.node(property.type, field, at)
      const optional = SchemaAST.isOptional(property.type)
      if (!optional && below.length === 0) continue
      body.push(`if (Object.hasOwn(${v}, ${js(name)})) {`, `  const ${field} = ${v}[${js(name)}]`)
      if (optional) {
        body.push(`  if (Array.isArray(${field}) && ${field}.length === 0) ${emptyOptionalPush(name, at)}`)
      }
      body.push(...indented(below), "}")
    }
    if (body.length === 0) return []
    return [`if (typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})) {`, ...indented(body), "}"]
  }

  private array(ast: SchemaAST.Arrays, v: string, path: ReadonlyArray<string>): Array<string> {
    const index = this.names.fresh("i")
    const item = this.names.fresh("v")
    const below = ast.rest[0] === undefined ? [] : this.node(ast.rest[0], item, [...path, index])
    const undocumented = SchemaAST.resolve(ast)?.[UNDOCUMENTED_SHAPE] === true
    if (below.length === 0 && !undocumented) return []
    return [
      `if (Array.isArray(${v})) {`,
      `  for (let ${index} = 0; ${index} < ${v}.length; ${index}++) {`,
      // As forEach: a hole is no item.
      `    if (!(${index} in ${v})) continue`,
      `    const ${item} = ${v}[${index}]`,
      ...(undocumented
        ? [`    ${undocumentedShapePush(path, index)}`]
        : []),
      ...indented(indented(below)),
      "  }",
      "}"
    ]
  }
}
