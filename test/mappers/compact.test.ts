import { readFileSync } from "node:fs"
import { Schema, SchemaAST } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { endpoints, POST_ENDPOINT_IDS, type PostEndpointId, validatePayload } from "../../src/index.js"
import { EnergyAmountRequest } from "../../src/schemas/energy-amount/energy-amount.js"
import { compact, isCompact } from "../../src/mappers/compact.js"
import { arbitraryPayload } from "../../src/testing/index.js"

const example = (id: PostEndpointId): unknown =>
  JSON.parse(readFileSync(new URL(`../../examples/payloads/${id}.json`, import.meta.url), "utf8"))

/** Every place in a payload where an optional key is absent: the object and the key's schema. */
const absentOptionalKeys = (ast: SchemaAST.AST, value: unknown): Array<{ target: Record<string, unknown>; key: string; nullable: boolean }> => {
  const out: Array<{ target: Record<string, unknown>; key: string; nullable: boolean }> = []
  const walk = (node: SchemaAST.AST, v: unknown): void => {
    if (node._tag === "Objects" && typeof v === "object" && v !== null && !Array.isArray(v)) {
      const record = v as Record<string, unknown>
      for (const p of node.propertySignatures) {
        const key = String(p.name)
        if (!Object.hasOwn(record, key)) {
          if (SchemaAST.isOptional(p.type)) {
            out.push({ target: record, key, nullable: p.type._tag === "Union" && p.type.types.some((t) => t._tag === "Null") })
          }
        } else walk(p.type, record[key])
      }
    } else if (node._tag === "Arrays" && Array.isArray(v)) {
      const item = node.rest[0]
      if (item !== undefined) for (const element of v) walk(item, element)
    } else if (node._tag === "Union") {
      for (const t of node.types) walk(t, v)
    }
  }
  walk(ast, value)
  return out
}

/**
 * The endpoint's bundled example where it leaves an optional key out; otherwise (its example sends every
 * key) the first generated valid, compact payload that does.
 */
const withAbsentOptionalKey = (id: PostEndpointId): unknown => {
  const schema = endpoints[id].request
  const bundled = example(id)
  if (absentOptionalKeys(schema.ast, bundled).length > 0) return bundled
  return fc.sample(arbitraryPayload(id), { numRuns: 500, seed: 99 })
    .find((payload) => isCompact(payload) && absentOptionalKeys(schema.ast, payload).length > 0)
}

const noData = (nullable: boolean) =>
  fc.constantFrom<Array<unknown>>(undefined, "", "   ", [], {}, ...(nullable ? [] : [null]))

describe("compact", () => {
  it("keeps the nulls of nullable fields and removes the empties of optional ones", () => {
    const input = {
      import_supplier: "S",
      external_account_number: "1",
      energy_amount: {
        malo_number: "51238696781",
        period_start_at: "2024-10-01T00:00:00+02:00",
        period_end_at: "2024-10-31T23:59:59+01:00",
        product_identifier: "1-1:1.8.0",
        product_identifier_type: "SRW",
        quantity: "1.5",
        quantity_unit: "KWH",
        qualifier: "",
        line_item_identifier: undefined,
        cancelled: null,
        plausibility_indications: [],
        cancelled_at: null
      }
    }
    const out = compact(EnergyAmountRequest, input) as { energy_amount: Record<string, unknown> }
    expect(Object.keys(out.energy_amount)).not.toContain("qualifier")
    expect(Object.keys(out.energy_amount)).not.toContain("line_item_identifier")
    expect(Object.keys(out.energy_amount)).not.toContain("cancelled")
    expect(Object.keys(out.energy_amount)).not.toContain("plausibility_indications")
    expect(out.energy_amount["cancelled_at"]).toBeNull()
    expect(validatePayload("energy-amount", out).ok).toBe(true)
    expect(input.energy_amount.qualifier).toBe("")
  })

  it("keeps required keys even when they are empty, so validation reports them", () => {
    const out = compact(EnergyAmountRequest, { import_supplier: "", external_account_number: "1", energy_amount: {} })
    expect(out).toEqual({ import_supplier: "", external_account_number: "1", energy_amount: {} })
  })

  it("keeps undocumented keys, a __proto__ key as data", () => {
    const input = JSON.parse('{"import_supplier":"S","__proto__":{"x":1},"extra":""}') as unknown
    const out = compact(EnergyAmountRequest, input) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(["import_supplier", "__proto__", "extra"])
  })

  // An endpoint whose fields are all required has no place to add an empty at, so the property below
  // would assert nothing for it: it covers the endpoints with an optional key a valid payload can leave out.
  const withOptionalKey = POST_ENDPOINT_IDS.filter((id) => withAbsentOptionalKey(id) !== undefined)

  it("finds an optional key to leave out where the schema has one: none of payment-instruction's, all required", () => {
    expect(withAbsentOptionalKey("payment-instruction")).toBeUndefined()
    expect(withOptionalKey).toContain("energy-amount")
    expect(withOptionalKey).toContain("notes")
  })

  for (const id of withOptionalKey) {
    it(`${id}: empties added at optional keys are removed again and the payload validates`, () => {
      const schema = endpoints[id].request
      const base = withAbsentOptionalKey(id)
      const slots = absentOptionalKeys(schema.ast, base).length
      expect(slots).toBeGreaterThan(0)
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 12 }),
          fc.infiniteStream(fc.oneof(noData(true), noData(false))),
          (picks, empties) => {
            const payload = structuredClone(base)
            const places = absentOptionalKeys(schema.ast, payload)
            const stream = empties[Symbol.iterator]()
            for (const [n] of picks) {
              const place = places[n % places.length]!
              let filler = stream.next().value as unknown
              if (filler === null && place.nullable) filler = ""
              place.target[place.key] = filler
            }
            const once = compact(schema, payload)
            expect(once).toEqual(base)
            expect(compact(schema, once)).toEqual(once)
            expect(validatePayload(id, once).ok).toBe(true)
          }
        ),
        { numRuns: 300, seed: 4242 }
      )
    })

    it(`${id}: compact leaves a value isCompact accepts as it is (key order too), and changes every other payload it is given`, () => {
      const schema = endpoints[id].request
      let accepted = 0
      let refused = 0
      fc.assert(
        fc.property(fc.oneof(arbitraryPayload(id), fc.jsonValue()), (value) => {
          const compacted = compact(schema, value)
          if (isCompact(value)) {
            accepted++
            expect(JSON.stringify(compacted)).toBe(JSON.stringify(value))
            expect(compacted).toEqual(value)
          } else if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
            refused++
          }
        }),
        { numRuns: 400, seed: 11 }
      )
      expect(accepted).toBeGreaterThan(20)
      expect(refused).toBeGreaterThan(0)
    })

    it(`${id}: compact is idempotent on any JSON value`, () => {
      const schema = endpoints[id].request
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const once = compact(schema, value)
          expect(compact(schema, once)).toEqual(once)
        }),
        { numRuns: 500, seed: 7 }
      )
    })
  }
})

describe("isCompact", () => {
  it.each([
    [{ a: "x", b: [1, true], c: { d: 0 } }, true],
    ["x", true],
    [{ a: "x", b: { c: "" } }, false],
    [{ a: "x", b: "  " }, false],
    [{ a: null }, false],
    [{ a: undefined }, false],
    [{ a: [] }, false],
    [{ a: {} }, false],
    [{ a: ["x", {}] }, false],
    // A hole reads as undefined.
    [{ a: [, "x"] }, false],
    // Not plain data: compact copies it as a plain object, so it is not left as it is.
    [{ a: new Date(0) }, false],
    [{ a: new (class Reading { readonly value = "1" })() }, false],
    [Object.assign(Object.create(null) as object, { a: "x" }), true],
    [{}, false]
  ])("isCompact(%j) is %s", (value, expected) => {
    expect(isCompact(value)).toBe(expected)
  })
})

describe("compact: schema shapes beyond the endpoints'", () => {
  const Inner = Schema.Struct({ b: Schema.optional(Schema.String), c: Schema.optional(Schema.String) })

  it("compacts inside the object or list member of a union, whichever member comes first and however deep the union", () => {
    // Schema.optional wraps the union in another (with undefined); Schema.optionalKey does not.
    for (const optional of [Schema.optional, Schema.optionalKey]) {
      for (const field of [Schema.NullOr(Inner), Schema.Union([Schema.Null, Inner]), Schema.Union([Schema.String, Inner])]) {
        const S = Schema.Struct({ a: optional(field) })
        expect(compact(S, { a: { b: "", c: "x" } })).toEqual({ a: { c: "x" } })
        expect(compact(S, { a: { b: " " } })).toEqual({})
        expect(compact(S, { a: "text" })).toEqual({ a: "text" })
      }
      for (const field of [Schema.NullOr(Schema.Array(Inner)), Schema.Union([Schema.Null, Schema.Array(Inner)]), Schema.Union([Inner, Schema.Array(Inner)])]) {
        const S = Schema.Struct({ a: optional(field) })
        expect(compact(S, { a: [{ b: "", c: "x" }, { b: "y" }] })).toEqual({ a: [{ c: "x" }, { b: "y" }] })
      }
    }
  })

  it("copies a tuple's items as they are, and follows a suspended schema", () => {
    const T = Schema.Struct({ t: Schema.Tuple([Schema.String, Schema.String]) })
    const value = { t: ["", "x"] }
    const out = compact(T, value) as { t: Array<string> }
    expect(out).toEqual({ t: ["", "x"] })
    expect(out.t).not.toBe(value.t)
    interface Node { readonly name?: string | undefined; readonly children?: ReadonlyArray<Node> | undefined }
    const NodeSchema: Schema.Codec<Node> = Schema.Struct({
      name: Schema.optional(Schema.String),
      children: Schema.optional(Schema.Array(Schema.suspend((): Schema.Codec<Node> => NodeSchema)))
    })
    expect(compact(NodeSchema, { name: "root", children: [{ name: "", children: [] }, { name: "leaf" }] })).toEqual({ name: "root", children: [{}, { name: "leaf" }] })
  })
})

describe("isCompact: inherited keys", () => {
  it("looks at own keys only, even when Object.prototype has an enumerable one", () => {
    const proto = Object.prototype as Record<string, unknown>
    Object.defineProperty(proto, "polluted", { value: "", enumerable: true, configurable: true, writable: true })
    try {
      expect(isCompact({ a: "x" })).toBe(true)
      expect(isCompact({})).toBe(false)
    } finally {
      delete proto["polluted"]
    }
  })
})
