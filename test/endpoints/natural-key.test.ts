/**
 * Natural keys: every POST endpoint declares one; a record's identity follows its key fields only, its
 * content digest follows everything else too, and neither depends on key order, spacing or the offset
 * style of a datetime.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { endpoints } from "../../src/endpoints/catalogue.js"
import { POST_ENDPOINT_IDS } from "../../src/endpoints/endpoint-id.js"
import { bodyWith, canonicalJson, naturalKeyOf, recordsOf } from "../../src/endpoints/natural-key.js"
import { arbitraryPayload } from "../../src/testing/index.js"

/** The same JSON value with the keys of every object in another order. */
const shuffled = (value: unknown, seed: number): unknown => {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i))
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
    const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]!)
    return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffled(v, seed + 1)]))
  }
  return value
}

describe("natural keys", () => {
  it("every POST endpoint of the catalogue declares one; `items` names an array field of the request", () => {
    expect(POST_ENDPOINT_IDS.length).toBe(10)
    for (const id of POST_ENDPOINT_IDS) {
      const key = naturalKeyOf(id)
      expect(key.fields.length, id).toBeGreaterThan(0)
      if (key.items !== undefined) expect(JSON.stringify(endpoints[id].request.ast), id).toContain(`"${key.items}"`)
    }
  })

  it("every valid payload names its records: one per element of `items`, else one; identity and content do not depend on key order", () => {
    for (const id of POST_ENDPOINT_IDS) {
      fc.assert(
        fc.property(arbitraryPayload(id), fc.nat(7), (payload, seed) => {
          const records = recordsOf(id, payload)
          expect(records).toBeDefined()
          const items = naturalKeyOf(id).items
          const expected = items === undefined ? 1 : (payload as unknown as Record<string, Array<unknown>>)[items]!.length
          expect(records!.length).toBe(expected)
          expect(recordsOf(id, JSON.parse(JSON.stringify(shuffled(payload, seed))))).toEqual(records)
        }),
        { numRuns: 30 }
      )
    }
  })

  it("a field outside the key changes the content, not the identity; a key field changes the identity", () => {
    const body = (amount: number, id: string) => ({
      import_supplier: "S",
      external_account_number: "A",
      transactions: [{ transaction_id: id, transaction_date: "2024-01-02", amount, type: "CHARGE" }]
    })
    const [a] = recordsOf("transactions", body(1, "T-1"))!
    const [b] = recordsOf("transactions", body(2, "T-1"))!
    const [c] = recordsOf("transactions", body(1, "T-2"))!
    expect(a!.identity).toBe(b!.identity)
    expect(a!.content).not.toBe(b!.content)
    expect(a!.identity).not.toBe(c!.identity)
    // The account is part of the key: the same id on another account is another record.
    const [d] = recordsOf("transactions", { ...body(1, "T-1"), external_account_number: "B" })!
    expect(d!.identity).not.toBe(a!.identity)
    expect([a!.supplier, a!.account]).toEqual(["S", "A"])
  })

  it("a datetime key names an instant: offsets of other styles give the same identity", () => {
    const amount = (start: string) => ({
      import_supplier: "S",
      external_account_number: "A",
      energy_amount: { malo_number: "1", period_start_at: start, period_end_at: "2024-03-02T00:00:00Z", product_identifier: "x", product_identifier_type: "SRW", quantity: "1", quantity_unit: "KWH" }
    })
    const ids = ["2024-03-01T00:00:00+01:00", "2024-02-29T23:00:00Z", "2024-02-29T23:00:00.000Z"].map((t) => recordsOf("energy-amount", amount(t))![0]!.identity)
    expect(new Set(ids).size).toBe(1)
    expect(recordsOf("energy-amount", amount("2024-03-01T00:00:00Z"))![0]!.identity).not.toBe(ids[0])
  })

  it("names no record in a body that is not an object or whose items are not a non-empty list", () => {
    expect(recordsOf("notes", [])).toBeUndefined()
    expect(recordsOf("notes", { import_supplier: "S", external_account_number: "A", notes: [] })).toBeUndefined()
    expect(recordsOf("transactions", { import_supplier: "S", external_account_number: "A", transactions: "T-1" })).toBeUndefined()
    // A whole-body record is named even when its fields are missing: its key holds nulls.
    expect(JSON.parse(recordsOf("market-participant", {})![0]!.key)).toEqual(["market-participant", null])
  })

  it("canonicalJson sorts keys at every depth and leaves undefined out", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: undefined } })).toBe('{"a":{"d":[1,{"e":3,"f":2}]},"b":1}')
  })

  it("bodyWith keeps the envelope and the chosen items in the given order", () => {
    const body = { import_supplier: "S", external_account_number: "A", statements: [{ statement_id: "1" }, { statement_id: "2" }, { statement_id: "3" }] }
    expect(bodyWith("historical-statements", body, [2, 0])).toEqual({ ...body, statements: [{ statement_id: "3" }, { statement_id: "1" }] })
    expect(bodyWith("historical-statements", body, [0, 1, 2])).toBe(body)
    expect(bodyWith("energy-amount", body, [0])).toBe(body)
  })
})
