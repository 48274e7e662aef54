/**
 * One payload from a batch of rows, on its own: conflicts between rows, rows that match no list, nested
 * items built all or nothing, and rows rejected in one item failing the items that share them.
 */
import { describe, expect, it } from "vitest"
import { buildPayload } from "../../src/mappers/build-payload.js"
import { compileMapping, readRow } from "../../src/mappers/compile-mapping.js"
import { defineMapping, type MappingSpec } from "../../src/mappers/define-mapping.js"

const build = (spec: MappingSpec, records: ReadonlyArray<Record<string, string | null>>) => {
  const root = compileMapping(defineMapping(spec))
  return buildPayload(root, records.map((record, index) => {
    const row = readRow(root, index, record)
    return { row, read: row.read }
  }))
}

describe("buildPayload: conflicts", () => {
  it("rejects the whole batch when rows state different payload fields, naming the columns and rows", () => {
    const spec = { endpoint: "notes", fields: { when: { columns: ["D", "U"] }, who: "W" } } as const satisfies MappingSpec
    expect(build(spec, [{ D: "a", U: "b", W: "x" }, { D: "a", U: "c", W: "x" }, { D: "", U: "", W: "x" }])).toEqual({
      used: [],
      rejected: [{
        sourceRows: [0, 1, 2],
        errors: [{ column: "D, U", attr: "when", code: "inconsistent_group", detail: '"a c" in row 2 differs from "a b" in row 1 of the same payload' }]
      }]
    })
  })

  it("names no column for a conflict of a computed field", () => {
    let n = 0
    const spec = { endpoint: "notes", fields: { count: { from: () => ++n } } } as const satisfies MappingSpec
    expect(build(spec, [{}, {}]).rejected[0]!.errors).toEqual([
      { attr: "count", code: "inconsistent_group", detail: "2 in row 2 differs from 1 in row 1 of the same payload" }
    ])
  })

  it("rejects an item whose rows disagree as an item, and keeps the payload", () => {
    const spec = {
      endpoint: "notes",
      fields: { account: "K" },
      collections: [{ path: "items", groupBy: ["Pos"], fields: { x: "X" } }]
    } as const satisfies MappingSpec
    expect(build(spec, [{ K: "1", Pos: "1", X: "a" }, { K: "1", Pos: "1", X: "b" }, { K: "1", Pos: "2", X: "c" }])).toEqual({
      value: { account: "1", items: [{ x: "c" }] },
      used: [2],
      rejected: [{
        sourceRows: [0, 1],
        errors: [{ column: "X", attr: "items.0.x", code: "inconsistent_item", detail: '"b" in row 2 differs from "a" in row 1 of the same item' }]
      }]
    })
  })

  it("rejects nothing when every row is used", () => {
    const spec = { endpoint: "notes", fields: { account: "K" }, collections: [{ path: "items", fields: { x: "X" } }] } as const satisfies MappingSpec
    expect(build(spec, [{ K: "1", X: "a" }, { K: "1", X: "b" }])).toEqual({ value: { account: "1", items: [{ x: "a" }, { x: "b" }] }, used: [0, 1], rejected: [] })
  })
})

describe("buildPayload: rows that match no list", () => {
  const spec = {
    endpoint: "notes",
    fields: { account: "K" },
    collections: [
      { path: "a", when: { column: "Art", equals: "A" }, fields: { note: "Notiz" } },
      { path: "b", when: { column: "Art", equals: ["B", "B2"] }, fields: { note: "Notiz" } }
    ]
  } as const satisfies MappingSpec

  it("rejects a row with data for a list that matches none, and uses a row without such data", () => {
    expect(build(spec, [{ K: "1", Art: "A", Notiz: "n" }, { K: "1", Art: "C", Notiz: "lost" }, { K: "1", Art: "C", Notiz: "  " }, { K: "1", Art: "C", Notiz: null }, { K: "1", Art: "C" }])).toEqual({
      value: { account: "1", a: [{ note: "n" }] },
      used: [0, 2, 3, 4],
      rejected: [{
        sourceRows: [1],
        errors: [{ code: "unmatched_row", detail: 'This row carries data for a list but matches none of them (Art = "A", Art = ["B","B2"]): its data would be lost.' }]
      }]
    })
  })

  it("fails an item whose row matches none of the item's own lists", () => {
    const nested = {
      endpoint: "notes",
      fields: { account: "K" },
      collections: [{ path: "items", groupBy: ["Pos"], fields: { pos: "Pos" }, collections: [{ path: "subs", when: { column: "Typ", equals: "T" }, fields: { v: "Tief" } }] }]
    } as const satisfies MappingSpec
    expect(build(nested, [{ K: "1", Pos: "1", Typ: "T", Tief: "a" }, { K: "1", Pos: "1", Typ: "U", Tief: "b" }, { K: "1", Pos: "2", Typ: "U", Tief: "" }])).toEqual({
      value: { account: "1", items: [{ pos: "2", subs: [] }] },
      used: [2],
      rejected: [{
        sourceRows: [0, 1],
        errors: [{ attr: "items.0", code: "unmatched_row", detail: 'This row carries data for a list but matches none of them (Typ = "T"): its data would be lost.' }]
      }]
    })
  })
})

describe("buildPayload: nested items", () => {
  const spec = {
    endpoint: "notes",
    fields: { account: "K" },
    collections: [{
      path: "items",
      groupBy: ["Pos"],
      fields: { pos: "Pos" },
      collections: [{ path: "subs", when: { column: "Typ", equals: "T" }, fields: { v: { column: "Wert", convert: "decimal", options: { locale: "de" } } } }]
    }]
  } as const satisfies MappingSpec

  it("puts only the rows that match a nested list into it", () => {
    expect(build(spec, [{ K: "1", Pos: "1", Typ: "T", Wert: "1,5" }, { K: "1", Pos: "1", Typ: "X" }, { K: "1", Pos: "1", Typ: "T", Wert: "2" }])).toEqual({
      value: { account: "1", items: [{ pos: "1", subs: [{ v: "1.5" }, { v: "2" }] }] },
      used: [0, 1, 2],
      rejected: []
    })
  })

  it("fails the whole item when a nested item fails, with the nested item's place", () => {
    const result = build(spec, [{ K: "1", Pos: "1", Typ: "T", Wert: "1,5" }, { K: "1", Pos: "1", Typ: "T", Wert: "zwei" }, { K: "1", Pos: "2", Typ: "T", Wert: "3" }])
    expect(result.value).toEqual({ account: "1", items: [{ pos: "2", subs: [{ v: "3" }] }] })
    expect(result.used).toEqual([2])
    expect(result.rejected).toHaveLength(1)
    expect(result.rejected[0]!.sourceRows).toEqual([0, 1])
    expect(result.rejected[0]!.errors).toMatchObject([{ column: "Wert", attr: "items.0.subs.1.v", code: "invalid" }])
  })
})

describe("buildPayload: a row rejected in one item", () => {
  it("fails every item that shares it, until no item changes, and rejects their other rows once", () => {
    // Row 0 fails in a; b's item (rows 0, 1) then fails, rejecting row 1; c's item (rows 1, 2) comes
    // before b and was built, so only a second pass fails it, rejecting row 2.
    const spec = {
      endpoint: "notes",
      fields: { account: "K" },
      collections: [
        { path: "a", fields: { v: { column: "V", convert: "decimal", options: { locale: "de" } } } },
        { path: "c", groupBy: ["C"], fields: { c: "C" } },
        { path: "b", groupBy: ["B"], fields: { b: "B" } }
      ]
    } as const satisfies MappingSpec
    const result = build(spec, [
      { K: "1", V: "x", B: "b1", C: "c0" },
      { K: "1", V: "1", B: "b1", C: "c1" },
      { K: "1", V: "2", B: "b2", C: "c1" },
      { K: "1", V: "3", B: "b3", C: "c3" }
    ])
    expect(result.used).toEqual([3])
    expect(result.value).toEqual({ account: "1", a: [{ v: "3" }], c: [{ c: "c3" }], b: [{ b: "b3" }] })
    expect(result.rejected.map((r) => [r.sourceRows, r.errors.map((e) => e.code)])).toEqual([
      [[0], ["invalid"]],
      [[1], ["rejected_with_row"]],
      [[2], ["rejected_with_row"]]
    ])
    // Row 2 (index 1) shares item b1 with row 1 (index 0), which failed: its detail names that row.
    expect(result.rejected[1]!.errors[0]!.detail).toBe("A row of this item (row 1) was rejected in another item.")
  })
})
