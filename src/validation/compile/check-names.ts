/**
 * The names a compiled check declares: its constants (patterns, sets), the values it receives (its
 * refs: the rules and warning rules it calls), and fresh local variables.
 *
 * @module
 */
import type { CrossFieldRule, WarningRule } from "../../schemas/conventions.js"

/** A value the compiled check of a schema receives: a cross-field rule or a warning rule. */
export interface CheckRef {
  readonly label: string
  readonly value: CrossFieldRule | WarningRule
}

/**
 * Constants of a compiled check, by their source, so that a pattern or set used twice is declared once.
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
 * The refs of one check (its parameters `r0, r1, …`, one per value) and its local variable names.
 *
 * @example
 * const names = new EndpointNames()
 * names.ref("rule definitions_required(definitions)", { name: "definitions_required", description: "Neither list given.", fields: ["definitions"], check: () => [] }) // => "r0"
 */
export class EndpointNames {
  readonly refs: Array<CheckRef> = []
  private counter = 0

  /** The parameter that holds `value`, added under `label` the first time. */
  ref(label: string, value: CheckRef["value"]): string {
    let index = this.refs.findIndex((r) => r.value === value)
    if (index < 0) {
      index = this.refs.length
      this.refs.push({ label, value })
    }
    return `r${index}`
  }

  /** A local variable name not used before in this check. */
  fresh(prefix: string): string {
    return `${prefix}${++this.counter}`
  }
}
