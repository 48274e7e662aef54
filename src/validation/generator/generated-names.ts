/**
 * The names the generated module declares: constants shared by every endpoint (patterns, sets), the
 * values one endpoint's functions receive at run time (its refs), and fresh local variables.
 *
 * @module
 */
import type { SchemaAST } from "effect"
import type { CrossFieldRule, WarningRule } from "../../schemas/conventions.js"

/** A value the generated code of an endpoint receives at run time: a rule, a warning rule or a schema node. */
export interface GeneratedRef {
  readonly label: string
  readonly value: CrossFieldRule | WarningRule | SchemaAST.AST
}

/**
 * Constants of the generated module, by their source, so that every endpoint shares one declaration.
 *
 * @example
 * const constants = new Constants()
 * constants.add("RE", 'new RegExp("^a$", "u")') // => "RE0"
 */
export class Constants {
  readonly declarations = new Map<string, string>()
  add(prefix: string, source: string): string {
    const found = this.declarations.get(source)
    if (found !== undefined) return found
    const name = `${prefix}${this.declarations.size}`
    this.declarations.set(source, name)
    return name
  }
}

/**
 * The refs of one endpoint (the parameter `r0, r1, …` of its generated functions, one per value) and its
 * local variable names.
 *
 * @example
 * const names = new EndpointNames()
 * names.ref("rule definitions_required(definitions)", { name: "definitions_required", fields: ["definitions"], check: () => [] }) // => "r0"
 */
export class EndpointNames {
  readonly refs: Array<GeneratedRef> = []
  private counter = 0

  /** The parameter that holds `value`, added under `label` the first time. */
  ref(label: string, value: GeneratedRef["value"]): string {
    let index = this.refs.findIndex((r) => r.value === value)
    if (index < 0) {
      index = this.refs.length
      this.refs.push({ label, value })
    }
    return `r${index}`
  }

  /** A local variable name not used before in this endpoint. */
  fresh(prefix: string): string {
    return `${prefix}${++this.counter}`
  }
}
