/**
 * Cross-field rules are declared once, as data next to their resource: the schemas carry them as filters,
 * validation runs them, the testing kit breaks each of them, and the catalogue holds no code of its own.
 */
import { Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, endpoints, ERROR_CODES } from "../../src/index.js"
import type { CrossFieldRule } from "../../src/schemas/conventions.js"
import { crossFieldRulesOf as rulesOf } from "../../src/schemas/rules.js"
import { WARNING_RULES, type WarningRule } from "../../src/schemas/conventions.js"
import resources from "../../src/schemas/registry.js"

/** Every rule declared anywhere in the request schemas of the catalogue, and every warning rule. */
const declared = (): { readonly rules: Array<CrossFieldRule>; readonly warningRules: Array<WarningRule> } => {
  const found = new Set<CrossFieldRule>()
  const warnings = new Set<WarningRule>()
  const seen = new Set<SchemaAST.AST>()
  const walk = (ast: SchemaAST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    for (const rule of rulesOf(ast)) found.add(rule)
    const annotated = SchemaAST.resolve(ast)?.[WARNING_RULES]
    for (const rule of Array.isArray(annotated) ? (annotated as ReadonlyArray<WarningRule>) : []) warnings.add(rule)
    if (ast._tag === "Objects") for (const p of ast.propertySignatures) walk(p.type)
    if (ast._tag === "Arrays") for (const item of [...ast.elements, ...ast.rest]) walk(item)
    if (ast._tag === "Union") for (const member of ast.types) walk(member)
  }
  for (const id of ENDPOINT_IDS) walk(endpoints[id].request.ast)
  return { rules: [...found], warningRules: [...warnings] }
}

describe("rules as data", () => {
  const { rules, warningRules } = declared()

  it("finds every registered rule of the contract in the schemas, the clock's among them", () => {
    expect(new Set(rules.map((r) => r.name))).toEqual(new Set(resources.rules.crossField.map((r) => r.name)))
    expect(rules.some((r) => r.clock === true)).toBe(true)
  })

  it("every rule declares its breaker, so the testing kit yields broken payloads of it", () => {
    expect(rules.filter((r) => r.breaker === undefined).map((r) => r.name)).toEqual([])
  })

  it("every rule's name is an error code, or names the codes it reports (supply_charge_fields: required, empty)", () => {
    expect(rules.map((r) => r.name).filter((name) => !(name in ERROR_CODES) && name !== "supply_charge_fields")).toEqual([])
  })

  it("the registry lists exactly the rules the schemas carry, so the list of error codes misses none", () => {
    const registered = new Set<CrossFieldRule>(resources.rules.crossField)
    expect(rules.filter((r) => !registered.has(r)).map((r) => r.name)).toEqual([])
    expect([...registered].filter((r) => !rules.includes(r)).map((r) => r.name)).toEqual([])
  })

  it("the registry lists every warning rule the schemas carry, so the list of warning codes misses none", () => {
    expect(warningRules.map((r) => r.code).sort()).toEqual(["field_not_used_by_type", "invoice_totals_mismatch", "unpin_at_without_pin"])
    const registered = new Set<WarningRule<never>>(resources.rules.warning)
    expect(warningRules.filter((r) => !registered.has(r)).map((r) => r.code)).toEqual([])
  })

  it("the catalogue holds data only: no endpoint carries a function besides its schemas", () => {
    const functionsIn = (value: unknown, at: string): Array<string> => {
      if (Schema.isSchema(value)) return []
      if (typeof value === "function") return [at]
      if (typeof value !== "object" || value === null) return []
      return Object.entries(value).flatMap(([key, child]) => functionsIn(child, `${at}.${key}`))
    }
    const functions = ENDPOINT_IDS.flatMap((id) => functionsIn(endpoints[id], id))
    expect(functions).toEqual([])
  })
})
