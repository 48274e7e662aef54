/**
 * The source of an endpoint's accept-only check: straight-line code that answers whether a request is
 * valid and without warnings (key counts, `typeof`, the conventions' patterns, the calendar check, the
 * cross-field rules, and no value that would warn). It reports nothing: whatever it does not accept,
 * the one reporter (`runValidation`) answers.
 *
 * @module
 */
import { SchemaAST } from "effect"
import { KNOWN_VALUES, UNDOCUMENTED_SHAPE, WARNING_RULES, type WarningRule } from "../../schemas/conventions.js"
import {
  fieldNames,
  leafTest,
  nullableStructure,
  refuseEncoding,
  refuseOtherIndexSignatures,
  valueChecks
} from "./emit-leaf.js"
import type { Constants, EndpointNames } from "./check-names.js"
import { crossFieldRulesOf, js, unsupported } from "./schema-reading.js"

/** An expression true when the string in `v` is not among `known` (a comparison for one value, a set for more). */
const notKnownTest = (v: string, known: ReadonlyArray<unknown>, constants: Constants): string =>
  known.length === 1 ? `${v} !== ${js(known[0])}` : `!${constants.add("KNOWN", `new Set(${js(known)})`)}.has(${v})`

/**
 * Writes the body of an endpoint's accept-only check: statements that return `false` unless the input
 * in `v0` is valid and would get no warning. `compile-check.ts` writes a schema with it
 * (`writer.node(ast, "v0", 1)`, then `lines`) and compiles them.
 */
export class CheckWriter {
  readonly lines: Array<string> = []
  clock = false
  /**
   * `warnings`: `false` writes the check of validity alone (a value that warns passes), for inputs the
   * full check refused, whose warnings the reporter's walk then lists without decoding them again.
   */
  constructor(private readonly constants: Constants, private readonly names: EndpointNames, private readonly warnings = true) {}

  private emit(indent: number, line: string): void {
    this.lines.push(`${"  ".repeat(indent)}${line}`)
  }

  /** Statements that return `false` unless the value in `v` is valid and without warnings. */
  node(ast: SchemaAST.AST, v: string, indent: number): void {
    refuseEncoding(ast)
    const leaf = leafTest(ast, v, this.constants)
    if (leaf !== undefined) {
      this.emit(indent, `if (!(${leaf})) return false`)
      const known = SchemaAST.resolve(ast)?.[KNOWN_VALUES]
      if (this.warnings && ast._tag === "String" && Array.isArray(known)) {
        // A value outside an open enumeration warns (`unknown_choice`), as collectWarnings finds it.
        this.emit(indent, `if (${notKnownTest(v, known, this.constants)} && NON_BLANK_RE.test(${v})) return false`)
      }
      return
    }
    switch (ast._tag) {
      case "Objects":
        return this.object(ast, v, indent)
      case "Arrays":
        return this.array(ast, v, indent)
      case "Union":
        this.emit(indent, `if (${v} !== null) {`)
        this.node(nullableStructure(ast), v, indent + 1)
        this.emit(indent, "}")
        return
      default:
        return unsupported(`the schema node ${ast._tag}`)
    }
  }

  private rules(ast: SchemaAST.AST, v: string, indent: number): void {
    for (const rule of crossFieldRulesOf(ast)) {
      if (rule.clock === true) this.clock = true
      const r = this.names.ref(`rule ${rule.name}(${rule.fields.join(", ")})`, rule)
      this.emit(indent, `if (${r}.check(${v}, context).length !== 0) return false`)
    }
  }

  private object(ast: SchemaAST.Objects, v: string, indent: number): void {
    this.emit(indent, `if (typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})) return false`)
    if (ast.indexSignatures.length > 0) return refuseOtherIndexSignatures(ast)
    const keys = this.names.fresh("k")
    const count = this.names.fresh("n")
    this.emit(indent, `let ${keys} = 0`)
    this.emit(indent, `for (const _ in ${v}) ${keys}++`)
    const required = ast.propertySignatures.filter((p) => !SchemaAST.isOptional(p.type)).length
    this.emit(indent, `let ${count} = ${required}`)
    const names = fieldNames(ast)
    ast.propertySignatures.forEach((property, i) => {
      const key = names[i]!
      const field = this.names.fresh("v")
      this.emit(indent, `const ${field} = ${v}[${js(key)}]`)
      if (SchemaAST.isOptional(property.type)) {
        this.emit(indent, `if (${field} !== undefined) {`)
        this.emit(indent + 1, `${count}++`)
        this.node(property.type, field, indent + 1)
        // An optional list sent empty warns (`empty_optional`).
        if (this.warnings && property.type._tag === "Arrays") this.emit(indent + 1, `if (${field}.length === 0) return false`)
        this.emit(indent, "}")
      } else {
        this.emit(indent, `if (${field} === undefined) return false`)
        this.node(property.type, field, indent)
      }
    })
    // Every own key is a field of the schema (an unknown key, or a field given as undefined, makes more keys than fields found).
    this.emit(indent, `if (${keys} !== ${count}) return false`)
    if (valueChecks(ast, v, this.constants).length > 0) unsupported("checks of an object other than cross-field rules")
    this.rules(ast, v, indent)
    // The object's warning rules: a finding is a warning.
    const warningRules = SchemaAST.resolve(ast)?.[WARNING_RULES]
    if (this.warnings && Array.isArray(warningRules)) {
      for (const rule of warningRules as ReadonlyArray<WarningRule>) {
        this.emit(indent, `if (${this.names.ref(`warning ${rule.code}`, rule)}.check(${v}).length !== 0) return false`)
      }
    }
  }

  private array(ast: SchemaAST.Arrays, v: string, indent: number): void {
    if (ast.elements.length > 0 || ast.rest.length !== 1) unsupported("a tuple")
    this.emit(indent, `if (!Array.isArray(${v})) return false`)
    for (const check of valueChecks(ast, v, this.constants)) this.emit(indent, `if (!(${check})) return false`)
    // Every item of a list of undocumented shape warns (`undocumented_shape`).
    if (this.warnings && SchemaAST.resolve(ast)?.[UNDOCUMENTED_SHAPE] === true) this.emit(indent, `if (${v}.length !== 0) return false`)
    const index = this.names.fresh("i")
    const item = this.names.fresh("v")
    this.emit(indent, `for (let ${index} = 0; ${index} < ${v}.length; ${index}++) {`)
    this.emit(indent + 1, `const ${item} = ${v}[${index}]`)
    this.node(ast.rest[0]!, item, indent + 1)
    this.emit(indent, "}")
    this.rules(ast, v, indent)
  }
}
