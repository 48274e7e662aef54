/** One field's reader on its own: empty cells, joined columns, constants, functions and the columns a source reads. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fail, succeed } from "../../src/mappers/conversion-result.js"
import { columnsOf, fieldReader, readField, type WallTimeResolver } from "../../src/mappers/field-source.js"

const NOTHING = { ok: true, value: undefined, stated: false }

describe("columnsOf", () => {
  it("names the value columns and a string offset column, and nothing for a constant or a function", () => {
    expect(columnsOf("Konto")).toEqual(["Konto"])
    expect(columnsOf({ column: "Konto" })).toEqual(["Konto"])
    expect(columnsOf({ columns: ["Datum", "Uhr"] })).toEqual(["Datum", "Uhr"])
    expect(columnsOf({ column: "Zeit", convert: "datetime", options: { offsetColumn: "Off" } })).toEqual(["Zeit", "Off"])
    expect(columnsOf({ column: "Zeit", convert: "datetime", options: { offsetColumn: 5 } })).toEqual(["Zeit"])
    expect(columnsOf({ value: "S" })).toEqual([])
    expect(columnsOf({ value: { column: "Konto" } })).toEqual([])
    expect(columnsOf({ from: () => 1 })).toEqual([])
  })
})

describe("fieldReader: cells", () => {
  it("reads an empty, null, missing or blank cell as nothing, for a converter too", () => {
    for (const row of [{}, { A: null }, { A: undefined }, { A: "" }, { A: "  \t" }]) {
      expect(fieldReader({ column: "A" })(row)).toEqual(NOTHING)
      expect(fieldReader({ column: "A", convert: "decimal", options: { locale: "de" } })(row)).toEqual(NOTHING)
    }
  })

  it("reads a filled cell through its converter, stated, a cell that is not text too", () => {
    expect(fieldReader({ column: "A" })({ A: 42 })).toEqual({ ok: true, value: "42", stated: true })
    expect(fieldReader({ column: "A", convert: "integer" })({ A: 0 })).toEqual({ ok: true, value: 0, stated: true })
    expect(fieldReader({ column: "A", convert: "decimal" })({ A: " 1.5 " })).toEqual({ ok: true, value: "1.5", stated: true })
  })

  it("reads a blank boolean cell as false, not stated, and a filled one as stated", () => {
    expect(fieldReader({ column: "A", convert: "boolean" })({ A: "" })).toEqual({ ok: true, value: false, stated: false })
    expect(fieldReader({ column: "A", convert: "boolean" })({})).toEqual({ ok: true, value: false, stated: false })
    expect(fieldReader({ column: "A", convert: "boolean" })({ A: "X" })).toEqual({ ok: true, value: true, stated: true })
  })

  it("names the column of a refused cell", () => {
    expect(fieldReader({ column: "Menge", convert: "decimal", options: { locale: "de" } })({ Menge: "1,2,3" })).toMatchObject({ ok: false, column: "Menge", code: "invalid" })
  })

  it("does not read a column that only the row's prototype has", () => {
    const row = Object.create({ A: "inherited" }) as Record<string, string>
    expect(fieldReader({ column: "A" })(row)).toEqual(NOTHING)
  })
})

describe("fieldReader: several columns", () => {
  const both = fieldReader({ columns: ["Datum", "Uhr"] })

  it("joins the trimmed cells with one space", () => {
    expect(both({ Datum: " 01.02.2024 ", Uhr: "10:00  " })).toEqual({ ok: true, value: "01.02.2024 10:00", stated: true })
  })

  it("reads nothing when every cell is empty", () => {
    expect(both({ Datum: "", Uhr: " " })).toEqual(NOTHING)
    expect(both({})).toEqual(NOTHING)
  })

  it("refuses a field some of whose cells are empty, naming them", () => {
    expect(both({ Datum: "01.02.2024", Uhr: "" })).toEqual({
      ok: false,
      column: "Datum+Uhr",
      code: "incomplete_columns",
      detail: "Uhr is empty while the other columns of this field are not"
    })
    expect(fieldReader({ columns: ["A", "B", "C"] })({ B: "x" })).toEqual({
      ok: false,
      column: "A+B+C",
      code: "incomplete_columns",
      detail: "A, C is empty while the other columns of this field are not"
    })
  })

  it("with skipBlank, joins the cells that are not blank, in the columns' order, and reads nothing when all are", () => {
    const blank = fc.constantFrom(undefined, null, "", " ", "\t")
    const filled = fc.string({ minLength: 1, maxLength: 6 }).filter((t) => t.trim() !== "")
    fc.assert(
      fc.property(fc.array(fc.oneof(blank, filled), { minLength: 2, maxLength: 4 }), (cells) => {
        const columns = cells.map((_, i) => `C${i}`)
        const row = Object.fromEntries(cells.map((c, i) => [`C${i}`, c]))
        const kept = cells.filter((c): c is string => typeof c === "string" && c.trim() !== "").map((c) => c.trim())
        expect(fieldReader({ columns, skipBlank: true })(row)).toEqual(kept.length === 0 ? NOTHING : { ok: true, value: kept.join(" "), stated: true })
      })
    )
    // A street without its house number, and with it (BDEW INVOIC: NAD C059 3042, first and third).
    const street = fieldReader({ columns: ["NAD+MS.5.1", "NAD+MS.5.3"], skipBlank: true })
    expect(street({ "NAD+MS.5.1": "Hauptstr." })).toEqual({ ok: true, value: "Hauptstr.", stated: true })
    expect(street({ "NAD+MS.5.1": "Teststraße", "NAD+MS.5.3": "123" })).toEqual({ ok: true, value: "Teststraße 123", stated: true })
  })

  it("names the joined columns of a refused conversion", () => {
    const date = fieldReader({ columns: ["Datum", "Uhr"], convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } })
    expect(date({ Datum: "31.02.2024", Uhr: "10:00" })).toMatchObject({ ok: false, column: "Datum+Uhr" })
    expect(date({ Datum: "01.02.2024", Uhr: "10:00" })).toEqual({ ok: true, value: "2024-02-01T10:00:00+01:00", stated: true })
  })
})

describe("fieldReader: constants and functions", () => {
  it("gives a constant in every row, not stated; an object constant as a fresh copy per row", () => {
    for (const value of ["S", 0, false, null]) expect(fieldReader({ value })({})).toEqual({ ok: true, value, stated: false })
    const value = [{ category: "DEFAULT" }]
    const read = fieldReader({ value })
    const first = read({})
    const second = read({})
    expect(first).toEqual({ ok: true, value, stated: false })
    expect((first as { value: unknown }).value).not.toBe(value)
    expect((first as { value: Array<object> }).value[0]).not.toBe((second as { value: Array<object> }).value[0])
  })

  it("takes a function's conversion result, or its plain value, stated", () => {
    expect(fieldReader({ from: () => succeed("x") })({})).toEqual({ ok: true, value: "x", stated: true })
    expect(fieldReader({ from: () => fail("too_large", "Too large.") })({})).toEqual({ ok: false, code: "too_large", detail: "Too large." })
    for (const value of [5, "text", null, undefined, { ok: "yes" }, { a: 1 }, [1]]) {
      expect(fieldReader({ from: () => value })({})).toEqual({ ok: true, value, stated: true })
    }
  })

  it("passes the row to the function", () => {
    expect(fieldReader({ from: (row) => `${String(row["A"])}!` })({ A: "a" })).toEqual({ ok: true, value: "a!", stated: true })
  })
})

describe("fieldReader: stateful date-times", () => {
  const stateful = (source: Parameters<typeof fieldReader>[0]): number => {
    const resolvers: Array<WallTimeResolver> = []
    fieldReader(source, resolvers)
    return resolvers.length
  }

  it("adds a resolver for a by-order or offset-column date-time only", () => {
    expect(stateful({ column: "Z", convert: "datetime", options: { ambiguous: "by-order" } })).toBe(1)
    expect(stateful({ column: "Z", convert: "datetime", options: { offsetColumn: "Off" } })).toBe(1)
    expect(stateful({ column: "Z", convert: "datetime", options: { ambiguous: "later" } })).toBe(0)
    expect(stateful({ column: "Z", convert: "datetime" })).toBe(0)
    expect(stateful({ column: "Z", convert: "string", options: { ambiguous: "by-order" } })).toBe(0)
    expect(stateful({ column: "Z" })).toBe(0)
  })

  it("works without a list of resolvers", () => {
    const read = fieldReader({ column: "Z", convert: "datetime", options: { ambiguous: "by-order", format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } })
    expect(read({ Z: "01.02.2024 10:00" })).toEqual({ ok: true, value: "2024-02-01T10:00:00+01:00", stated: true })
    expect(read({ Z: "" })).toEqual(NOTHING)
  })
})

describe("readField", () => {
  it("turns a throwing function into an invalid outcome with its message", () => {
    expect(readField({ from: () => { throw new Error("no rate") } }, {})).toEqual({ ok: false, code: "invalid", detail: "no rate" })
    expect(readField({ from: () => { throw "plain" } }, {})).toEqual({ ok: false, code: "invalid", detail: "plain" })
  })

  it("reads a field as its reader does", () => {
    expect(readField("A", { A: " x " })).toEqual({ ok: true, value: "x", stated: true })
  })
})
