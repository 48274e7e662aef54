/**
 * Natural keys: every POST endpoint declares one; a record's identity follows its key fields only, its
 * content digest follows everything else too, and neither depends on key order, spacing or the offset
 * style of a datetime the key declares an instant; any other key text is compared as written.
 */
import { hash } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { endpoints } from "../../../src/schemas/endpoints/catalogue.js"
import { POST_ENDPOINT_IDS } from "../../../src/schemas/endpoints/endpoint-id.js"
import { bodyWith, canonicalJson, naturalKeyOf, recordsOf } from "../../../src/schemas/endpoints/natural-key.js"
import { toJsonSchema } from "../../../src/schemas/json-schema/to-json-schema.js"
import { arbitraryPayload } from "../../../src/testing/index.js"

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
    const posts = Object.values(endpoints).filter((e) => e.method === "POST")
    expect(posts.map((e) => e.id)).toEqual(POST_ENDPOINT_IDS)
    for (const id of POST_ENDPOINT_IDS) {
      const key = naturalKeyOf(id)
      expect(key, id).toBeDefined()
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

  it("the instants of a key are key fields, and exactly those key fields the request declares date-times", () => {
    /** The JSON Schema node at a dot path of the request (`a[].b`: `b` of an element of `a`). */
    const nodeAt = (id: (typeof POST_ENDPOINT_IDS)[number], path: string): Record<string, unknown> => {
      const document = toJsonSchema(id) as Record<string, unknown>
      const defs = (document["$defs"] ?? {}) as Record<string, Record<string, unknown>>
      const resolve = (node: Record<string, unknown>): Record<string, unknown> =>
        typeof node["$ref"] === "string" ? resolve(defs[(node["$ref"] as string).slice("#/$defs/".length)]!) : node
      let node = resolve(document)
      const items = naturalKeyOf(id).items
      if (items !== undefined) node = resolve((resolve((node["properties"] as Record<string, Record<string, unknown>>)[items]!))["items"] as Record<string, unknown>)
      for (const step of path.split(".")) {
        node = resolve((node["properties"] as Record<string, Record<string, unknown>>)[step.replace("[]", "")]!)
        if (step.endsWith("[]")) node = resolve(node["items"] as Record<string, unknown>)
      }
      return node
    }
    let instants = 0
    for (const id of POST_ENDPOINT_IDS) {
      const key = naturalKeyOf(id)
      for (const field of key.instants ?? []) expect(key.fields, id).toContain(field)
      for (const field of key.fields) {
        const dateTime = nodeAt(id, field)["format"] === "date-time"
        expect(key.instants?.includes(field) ?? false, `${id} ${field}`).toBe(dateTime)
        if (dateTime) instants++
      }
    }
    // notes' created_at, the periods of energy amounts and of delivery notes' amounts, rolled-out validity, …
    expect(instants).toBeGreaterThan(0)
  })

  it("a key text outside the instants is compared as written, however much it looks like a datetime", () => {
    const tx = (id: string) => recordsOf("transactions", { import_supplier: "S", external_account_number: "A", transactions: [{ transaction_id: id }] })![0]!
    const note = (body: string) => recordsOf("notes", { import_supplier: "S", external_account_number: "A", notes: [{ body, created_at: "2024-05-01T10:00:00Z" }] })![0]!
    const ids = ["2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00", "2023-12-31T23:00:00-01:00", "2024-01-01T00:00:00.000Z"]
    expect(new Set(ids.map((id) => tx(id).identity)).size).toBe(4)
    expect(tx(ids[1]!).key).toBe('["transactions","S","A","2024-01-01T01:00:00+01:00"]')
    expect(new Set(ids.map((body) => note(body).identity)).size).toBe(4)
    // The key of the same note's created_at in another offset style is the same key: an instant.
    const later = recordsOf("notes", { import_supplier: "S", external_account_number: "A", notes: [{ body: "x", created_at: "2024-05-01T12:00:00+02:00" }] })![0]!
    expect(later.key).toBe(note("x").key)
    expect(note("x").key).toBe('["notes","S","A","x","@1714557600",null]')
  })

  it("a record whose key holds a datetime-shaped text outside its instants names its former identity: every such text as an instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_799 }), fc.integer({ min: -12, max: 14 }), fc.string({ maxLength: 8 }), (seconds, hours, text) => {
        const at = new Date((seconds + hours * 3600) * 1000).toISOString().slice(0, 19)
        const offset = `${hours < 0 ? "-" : "+"}${String(Math.abs(hours)).padStart(2, "0")}:00`
        const id = `${at}${offset}`
        const [record] = recordsOf("transactions", { import_supplier: "S", external_account_number: "A", transactions: [{ transaction_id: id }] })!
        expect(record!.key).toBe(JSON.stringify(["transactions", "S", "A", id]))
        // The former key: the id as `@` and its seconds since 1970.
        expect(record!.formerIdentity).toBe(hash("sha256", JSON.stringify(["transactions", "S", "A", `@${seconds}`]), "hex").slice(0, 32))
        // A text that is no datetime has one identity only.
        const [plain] = recordsOf("transactions", { import_supplier: "S", external_account_number: "A", transactions: [{ transaction_id: `T${text}` }] })!
        expect(plain!.formerIdentity).toBeUndefined()
      })
    )
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
