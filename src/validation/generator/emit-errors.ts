/**
 * The generated error collector of one endpoint: for a request its check did not accept, the errors the
 * strict decode of `validatePayload` finds, in the order it finds them, without running the decode over
 * the whole request. It walks the request as Effect's parser does (an object's unknown keys first, then
 * its fields in schema order, its cross-field rules only when all of its fields are valid; a list's checks
 * only when all of its items are), and hands a value the generated test does not accept to Effect's
 * decode of that node alone, which gives the node's issues exactly as inside the whole decode.
 *
 * It answers `undefined` for an input it cannot read as the decode does (a field given as `undefined`, a
 * hole in a list): the caller then validates in full.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { fieldNames, leafTest, nullableStructure, refuseEncoding, refuseOtherIndexSignatures, valueChecks } from "./emit-leaf.js"
import type { Constants, EndpointNames } from "./generated-names.js"
import { crossFieldRulesOf, js, pathSource, unsupported } from "./schema-reading.js"

/**
 * Writes the body of an endpoint's error collector: statements that push the decode's path errors of the
 * input in `v0` to `out`, clear the flag of every node with an error at or below it, and return
 * `undefined` where the input is beyond them.
 * `generate-validators.ts` writes an endpoint with it (`writer.node(ast, "v0", [], "(root)", "ok0", 2)`).
 */
export class ErrorsWriter {
  readonly lines: Array<string> = []
  constructor(private readonly constants: Constants, private readonly names: EndpointNames) {}

  private emit(indent: number, line: string): void {
    this.lines.push(`${"  ".repeat(indent)}${line}`)
  }

  /** The statement that decodes the node alone and clears `ok` on an error. */
  private decode(ast: SchemaAST.AST, v: string, path: ReadonlyArray<string>, label: string, ok: string): string {
    return `if (!decodeAt(${this.names.ref(`node ${label}`, ast)}, ${v}, ${pathSource(path)}, out)) ${ok} = false`
  }

  /** Statements that push the errors of the value in `v` (at `path`) and clear `ok` when there are any. */
  node(ast: SchemaAST.AST, v: string, path: ReadonlyArray<string>, label: string, ok: string, indent: number): void {
    refuseEncoding(ast)
    const leaf = leafTest(ast, v, this.constants)
    if (leaf !== undefined) {
      if (leaf !== "true") this.emit(indent, `if (!(${leaf})) { ${this.decode(ast, v, path, label, ok)} }`)
      return
    }
    switch (ast._tag) {
      case "Objects":
        return this.object(ast, v, path, label, ok, indent)
      case "Arrays":
        return this.array(ast, v, path, label, ok, indent)
      case "Union":
        // A `NullOr(X)` of a structure: rare enough to be decoded whole.
        nullableStructure(ast)
        this.emit(indent, `if (${v} !== null) { ${this.decode(ast, v, path, label, ok)} }`)
        return
      default:
        return unsupported(`the schema node ${ast._tag}`)
    }
  }

  private object(ast: SchemaAST.Objects, v: string, path: ReadonlyArray<string>, label: string, ok: string, indent: number): void {
    const notObject = `typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})`
    if (ast.indexSignatures.length > 0) {
      refuseOtherIndexSignatures(ast)
      this.emit(indent, `if (${notObject}) { ${this.decode(ast, v, path, label, ok)} }`)
      return
    }
    this.emit(indent, `if (${notObject}) { ${this.decode(ast, v, path, label, ok)} } else {`)
    const own = this.names.fresh("ok")
    this.emit(indent + 1, `let ${own} = true`)
    const names = fieldNames(ast)
    const known = this.constants.add("FIELDS", `new Set(${js(names)})`)
    const key = this.names.fresh("k")
    this.emit(indent + 1, `for (const ${key} in ${v}) if (!${known}.has(${key})) { out.push(unknownFieldError(${pathSource(path, [key])})); ${own} = false }`)
    ast.propertySignatures.forEach((property, i) => {
      const name = names[i]!
      const field = this.names.fresh("v")
      const at = [...path, js(name)]
      this.emit(indent + 1, `const ${field} = ${v}[${js(name)}]`)
      // A key given as undefined is not what JSON gives: the full validation answers for it.
      if (SchemaAST.isOptional(property.type)) {
        this.emit(indent + 1, `if (${field} === undefined) { if (${js(name)} in ${v}) return undefined } else {`)
      } else {
        this.emit(indent + 1, `if (${field} === undefined) {`)
        this.emit(indent + 2, `if (${js(name)} in ${v}) return undefined`)
        this.emit(indent + 2, `out.push(requiredError(${pathSource(at)})); ${own} = false`)
        this.emit(indent + 1, "} else {")
      }
      this.node(property.type, field, at, `${label}.${name}`, own, indent + 2)
      this.emit(indent + 1, "}")
    })
    if (valueChecks(ast, v, this.constants).length > 0) unsupported("checks of an object other than cross-field rules")
    const rules = crossFieldRulesOf(ast).filter((rule) => rule.clock !== true)
    if (rules.length > 0) {
      const refs = rules.map((rule) => this.names.ref(`rule ${rule.name}(${rule.fields.join(", ")})`, rule))
      // As the decode's filters: every rule, once all of the object's fields are valid.
      this.emit(indent + 1, `if (${own}) { ${refs.map((r) => `if (!ruleHolds(${r}, ${v}, ${pathSource(path)}, out)) ${own} = false`).join("; ")} }`)
    }
    this.emit(indent + 1, `if (!${own}) ${ok} = false`)
    this.emit(indent, "}")
  }

  private array(ast: SchemaAST.Arrays, v: string, path: ReadonlyArray<string>, label: string, ok: string, indent: number): void {
    if (ast.elements.length > 0 || ast.rest.length !== 1) unsupported("a tuple")
    this.emit(indent, `if (!Array.isArray(${v})) { ${this.decode(ast, v, path, label, ok)} } else {`)
    const own = this.names.fresh("ok")
    const index = this.names.fresh("i")
    const item = this.names.fresh("v")
    this.emit(indent + 1, `let ${own} = true`)
    this.emit(indent + 1, `for (let ${index} = 0; ${index} < ${v}.length; ${index}++) {`)
    this.emit(indent + 2, `const ${item} = ${v}[${index}]`)
    this.emit(indent + 2, `if (${item} === undefined) return undefined`)
    this.node(ast.rest[0]!, item, [...path, index], `${label}[]`, own, indent + 2)
    this.emit(indent + 1, "}")
    // The list's own checks run once all items are valid; where one fails, the decode of the list says how.
    const checks = [
      ...valueChecks(ast, v, this.constants),
      ...crossFieldRulesOf(ast).filter((rule) => rule.clock !== true)
        .map((rule) => `ruleHolds(${this.names.ref(`rule ${rule.name}(${rule.fields.join(", ")})`, rule)}, ${v}, [], [])`)
    ]
    if (checks.length > 0) this.emit(indent + 1, `if (${own} && !(${checks.join(" && ")})) { ${this.decode(ast, v, path, label, own)} }`)
    this.emit(indent + 1, `if (!${own}) ${ok} = false`)
    this.emit(indent, "}")
  }
}
