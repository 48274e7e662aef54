/**
 * A field read from whichever of several spellings an export uses (`either`), and values a value table
 * refuses with a reason (`refuse`): the field's reader, and the mapping format's checks of both keys.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { columnsOf, fieldReader } from "../../src/mappers/field-source.js"

const NOTHING = { ok: true, value: undefined, stated: false }

describe("either: one field, several spellings", () => {
  const obis = fieldReader({ either: ["obiskennzahl", "obisKennzahl"] })

  it("reads the one cell that is not blank, whichever spelling holds it", () => {
    expect(obis({ obiskennzahl: "1-1:1.29.0" })).toEqual({ ok: true, value: "1-1:1.29.0", stated: true })
    expect(obis({ obisKennzahl: " 1-1:2.29.0 " })).toEqual({ ok: true, value: "1-1:2.29.0", stated: true })
    expect(obis({ obiskennzahl: "  ", obisKennzahl: "1-1:2.29.0" })).toEqual({ ok: true, value: "1-1:2.29.0", stated: true })
  })

  it("reads nothing when every spelling is blank or absent", () => {
    expect(obis({})).toEqual(NOTHING)
    expect(obis({ obiskennzahl: "", obisKennzahl: null })).toEqual(NOTHING)
  })

  it("takes one value written alike in two spellings, and refuses two that differ, naming both", () => {
    expect(obis({ obiskennzahl: "1-1:1.29.0", obisKennzahl: "1-1:1.29.0 " })).toEqual({ ok: true, value: "1-1:1.29.0", stated: true })
    expect(obis({ obiskennzahl: "1-1:1.29.0", obisKennzahl: "1-1:2.29.0" })).toEqual({
      ok: false,
      column: "obiskennzahl or obisKennzahl",
      code: "conflicting_columns",
      detail: "obiskennzahl \"1-1:1.29.0\" and obisKennzahl \"1-1:2.29.0\" differ: which one is meant is not known"
    })
  })

  it("converts the cell it reads, and looks it up in a value table", () => {
    const amount = fieldReader({ either: ["zuzahlen.wert", "zuZahlen.wert"], convert: "cents", options: { locale: "plain" } })
    expect(amount({ "zuZahlen.wert": "2664.53" })).toEqual({ ok: true, value: 266453, stated: true })
    const status = fieldReader({ either: ["a", "b"], values: { ERSATZWERT: "67" } })
    expect(status({ b: "ERSATZWERT" })).toEqual({ ok: true, value: "67", stated: true })
    expect(status({ a: "ERSATZWERT", b: "FEHLT" })).toMatchObject({ ok: false, code: "conflicting_columns" })
    expect(status({})).toEqual(NOTHING)
  })

  it("names every spelling among the columns it reads", () => {
    expect(columnsOf({ either: ["a", "b", "c"] })).toEqual(["a", "b", "c"])
  })

  it("property: with one spelling filled, reads what a single column reads; with two different, refuses", () => {
    const text = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== "")
    fc.assert(fc.property(text, text, fc.integer({ min: 0, max: 2 }), (a, b, at) => {
      const names = ["x", "y", "z"]
      const one = { [names[at]!]: a }
      expect(fieldReader({ either: names })(one)).toEqual(fieldReader({ column: names[at]! })(one))
      const two = { [names[at]!]: a, [names[(at + 1) % 3]!]: b }
      const read = fieldReader({ either: names })(two)
      if (a.trim() === b.trim()) expect(read).toEqual({ ok: true, value: a.trim(), stated: true })
      else expect(read).toMatchObject({ ok: false, code: "conflicting_columns" })
    }))
  })
})

describe("refuse: values a table refuses, with why", () => {
  const role = fieldReader({
    column: "marktrolle",
    values: { NB: "NETWORK_OPERATOR" },
    refuse: { LF: "Lieferant: the API's role has no value for a supplier" }
  })

  it("refuses a listed value, naming it and the reason; translates the others as before", () => {
    expect(role({ marktrolle: "LF" })).toEqual({
      ok: false,
      column: "marktrolle",
      code: "refused_value",
      detail: "marktrolle \"LF\" is refused: Lieferant: the API's role has no value for a supplier"
    })
    expect(role({ marktrolle: " NB " })).toEqual({ ok: true, value: "NETWORK_OPERATOR", stated: true })
    expect(role({ marktrolle: "XY" })).toMatchObject({ ok: false, code: "unknown_value" })
    expect(role({})).toEqual(NOTHING)
  })

  it("wins over the table and its default", () => {
    const both = fieldReader({ column: "r", values: { LF: "SUPPLIER" }, default: "OTHER", refuse: { LF: "no supplier role" } })
    expect(both({ r: "LF" })).toMatchObject({ ok: false, code: "refused_value" })
    expect(both({ r: "MSB" })).toEqual({ ok: true, value: "OTHER", stated: true })
  })
})

describe("the mapping format: either and refuse", () => {
  const mapping = (source: unknown) => ({ endpoint: "notes", fields: { body: source } })

  it("accepts either and refuse where they belong", () => {
    expect(mappingProblems(mapping({ either: ["a", "b"] }))).toEqual([])
    expect(mappingProblems(mapping({ either: ["a", "b"], convert: "decimal", options: { locale: "plain" } }))).toEqual([])
    expect(mappingProblems(mapping({ column: "a", values: { X: "Y" }, refuse: { Z: "why" } }))).toEqual([])
  })

  it("refuses either beside column, either of one name, and refuse without values", () => {
    expect(mappingProblems(mapping({ column: "a", either: ["a", "b"] }))).toEqual([
      { at: "fields.body", code: "invalid_mapping", detail: "give one of column, columns or either" }
    ])
    expect(mappingProblems(mapping({ either: ["a"] }))).toEqual([
      { at: "fields.body.either", code: "invalid_mapping", detail: "either needs at least two column names; use column for one" }
    ])
    expect(mappingProblems(mapping({ column: "a", refuse: { Z: "why" } }))).toEqual([
      { at: "fields.body", code: "invalid_mapping", detail: "default, lookup and refuse belong to a value table: add values" }
    ])
  })
})
