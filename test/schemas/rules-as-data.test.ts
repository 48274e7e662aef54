/**
 * Cross-field rules are declared once, as data next to their resource: the schemas carry them as filters,
 * validation runs them, the testing kit breaks each of them, and the catalogue holds no code of its own.
 */
import { Schema, type SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, endpoints, ERROR_CODES } from "../../src/index.js"
import type { CrossFieldRule } from "../../src/schemas/conventions.js"
import { BREAKABLE_RULES } from "../../src/testing/arbitrary-invalid-payload.js"
import { crossFieldRulesOf as rulesOf } from "../../src/schemas/rules.js"

/** Every rule declared anywhere in the request schemas of the catalogue. */
const declaredRules = (): Array<CrossFieldRule> => {
  const found = new Set<CrossFieldRule>()
  const seen = new Set<SchemaAST.AST>()
  const walk = (ast: SchemaAST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    for (const rule of rulesOf(ast)) found.add(rule)
    if (ast._tag === "Objects") for (const p of ast.propertySignatures) walk(p.type)
    if (ast._tag === "Arrays") for (const item of [...ast.elements, ...ast.rest]) walk(item)
    if (ast._tag === "Union") for (const member of ast.types) walk(member)
  }
  for (const id of ENDPOINT_IDS) walk(endpoints[id].request.ast)
  return [...found]
}

describe("rules as data", () => {
  const rules = declaredRules()

  it("finds the rules of the contract in the schemas, the clock's among them", () => {
    expect(new Set(rules.map((r) => r.name))).toEqual(new Set([
      "start_date_later_than_end_date",
      "line_item_units_must_be_two_values",
      "supply_charge_fields",
      "transaction_in_future",
      "duplicate_transaction_ids",
      "duplicate_statement_ids",
      "note_body_or_document_path_not_found",
      "note_unpin_at_earlier_than_creation_date",
      "lower_bound_greater_than_upper_bound",
      "definitions_required"
    ]))
  })

  it("every rule has a breaker in the testing kit, so it yields broken payloads", () => {
    expect(rules.map((r) => r.name).filter((name) => !BREAKABLE_RULES.has(name))).toEqual([])
  })

  it("every rule's name is an error code, or names the codes it reports (supply_charge_fields: required, empty)", () => {
    expect(rules.map((r) => r.name).filter((name) => !(name in ERROR_CODES) && name !== "supply_charge_fields")).toEqual([])
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
