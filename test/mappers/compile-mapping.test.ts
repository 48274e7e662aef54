/** A compiled mapping: the columns each level and the whole mapping read, row filters, group keys and safe reading. */
import { describe, expect, it } from "vitest"
import { compileMapping, groupKey, hasFunctionSources, mappingColumns, mapsInInputOrder, normaliseCell, readRow } from "../../src/mappers/compile-mapping.js"
import { defineMapping, type MappingSpec } from "../../src/mappers/define-mapping.js"

const spec = {
  endpoint: "notes",
  groupBy: ["Kunde"],
  fields: { import_supplier: { value: "S" }, external_account_number: "Konto" },
  collections: [
    { path: "notes", when: { column: "Art", equals: [" N ", "M"] }, fields: { body: "Notiz", created_at: { column: "Zeit", convert: "datetime", options: { offsetColumn: "Off" } } } },
    { path: "extra", groupBy: ["Pos"], fields: { a: "Art", b: "Konto" }, collections: [{ path: "deeper", when: { column: "Typ", equals: " T " }, fields: { c: "Tief" } }] }
  ]
} as const satisfies MappingSpec

describe("compileMapping", () => {
  it("knows at each level which columns only its collections read", () => {
    const root = compileMapping(defineMapping(spec))
    // Konto is read by the payload, Kunde groups it, Art filters a collection: none is the collections' alone.
    expect(root.collectionOnlyColumns).toEqual(["Notiz", "Zeit", "Off", "Pos", "Tief"])
    expect(root.collections.map((c) => c.collectionOnlyColumns)).toEqual([[], ["Tief"]])
    expect(root.collections.map((c) => [c.path, c.groupBy, c.when])).toEqual([
      ["notes", undefined, spec.collections[0].when],
      ["extra", ["Pos"], undefined]
    ])
  })

  it("collects the resolvers of stateful date-times at every level", () => {
    expect(compileMapping(defineMapping(spec)).resolvers).toHaveLength(1)
    expect(compileMapping(defineMapping({ endpoint: "notes", fields: { a: "A" } })).resolvers).toHaveLength(0)
  })
})

describe("readRow", () => {
  const root = compileMapping(defineMapping(spec))
  const matched = (record: Record<string, string>) => readRow(root, 0, record).read.children.map((c) => c !== undefined)

  it("takes a row into a filtered collection when its cell equals one of the values, both trimmed", () => {
    expect(matched({ Art: "N" })).toEqual([true, true])
    expect(matched({ Art: " M" })).toEqual([true, true])
    expect(matched({ Art: "X" })).toEqual([false, true])
    expect(matched({})).toEqual([false, true])
  })

  it("compares a single value trimmed too", () => {
    const extra = root.collections[1]!
    expect(readRow(extra, 0, { Typ: "T" }).read.children[0]).toBeDefined()
    expect(readRow(extra, 0, { Typ: "U" }).read.children[0]).toBeUndefined()
  })

  it("matches an empty or missing cell to an empty value", () => {
    const blank = compileMapping(defineMapping({ endpoint: "notes", fields: {}, collections: [{ path: "notes", when: { column: "Art", equals: "" }, fields: { body: "B" } }] }))
    expect(readRow(blank, 0, {}).read.children[0]).toBeDefined()
    expect(readRow(blank, 0, { Art: "  " }).read.children[0]).toBeDefined()
    expect(readRow(blank, 0, { Art: "x" }).read.children[0]).toBeUndefined()
  })

  it("reads a field whose function throws as an invalid outcome, and the other fields on", () => {
    const throwing = compileMapping(defineMapping({ endpoint: "notes", fields: { a: { from: () => { throw new Error("boom") } }, b: "B" } }))
    const row = readRow(throwing, 3, { B: "x" })
    expect(row.index).toBe(3)
    expect(row.read.values).toEqual([{ ok: false, code: "invalid", detail: "boom" }, { ok: true, value: "x", stated: true }])
  })
})

describe("normaliseCell and groupKey", () => {
  it("reads a missing or null cell as null, anything else as trimmed text", () => {
    expect(normaliseCell(undefined)).toBeNull()
    expect(normaliseCell(null)).toBeNull()
    expect(normaliseCell(" a ")).toBe("a")
    expect(normaliseCell(0)).toBe("0")
    expect(groupKey({ K: null }, ["K"])).toBe(groupKey({}, ["K"]))
    expect(groupKey({ K: "null" }, ["K"])).not.toBe(groupKey({ K: null }, ["K"]))
    expect(groupKey({ K: "" }, ["K"])).not.toBe(groupKey({}, ["K"]))
  })
})

describe("what a mapping reads", () => {
  it("lists every column once: fields, offset columns, groupBy and when at every level", () => {
    expect(mappingColumns(defineMapping(spec))).toEqual(["Konto", "Kunde", "Notiz", "Zeit", "Off", "Art", "Pos", "Tief", "Typ"])
    expect(mappingColumns({ fields: { a: "A", b: { value: 1 } } })).toEqual(["A"])
  })

  it("tells a mapping with functions and one read in input order, at any level", () => {
    const plain = defineMapping({ endpoint: "notes", fields: { a: "A", b: { value: 1 }, c: { column: "C", convert: "datetime", options: { ambiguous: "later" } } } })
    expect(hasFunctionSources(plain)).toBe(false)
    expect(mapsInInputOrder(plain)).toBe(false)
    const nested = defineMapping({
      endpoint: "notes",
      fields: { a: "A" },
      collections: [{ path: "notes", fields: { b: { from: () => 1 }, c: { column: "C", convert: "datetime", options: { ambiguous: "by-order" } } } }]
    })
    expect(hasFunctionSources(nested)).toBe(true)
    expect(mapsInInputOrder(nested)).toBe(true)
    expect(hasFunctionSources(defineMapping({ endpoint: "notes", fields: { a: "A", b: { from: () => 1 } } }))).toBe(true)
  })
})
