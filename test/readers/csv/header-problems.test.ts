/**
 * A mapping checked against an export's header: each column it reads there exactly once, names compared
 * without a leading byte order mark and surrounding spaces.
 */
import { describe, expect, it } from "vitest"
import { defineMapping } from "../../../src/index.js"
import { headerProblems } from "../../../src/readers/csv/header-problems.js"

const notes = defineMapping({
  endpoint: "notes",
  groupBy: ["Kundennummer"],
  fields: { import_supplier: { value: "SW" }, external_account_number: "Kundennummer" },
  collections: [{ path: "notes", fields: { body: "Notiz" } }]
})

describe("headerProblems", () => {
  it("finds nothing in a header with each column once, whatever its order and extra columns", () => {
    expect(headerProblems(notes, ["Datum", "Notiz", "Kundennummer"])).toEqual([])
  })

  it("drops a byte order mark at the start of a name and the spaces around it, in the header and the mapping", () => {
    expect(headerProblems(notes, ["\uFEFFKundennummer", "  Notiz\t"])).toEqual([])
    const spaced = defineMapping({ ...notes, groupBy: [" Kundennummer "], fields: { ...notes.fields, external_account_number: " Kundennummer " } })
    expect(headerProblems(spaced, ["Kundennummer", "Notiz"])).toEqual([])
  })

  it("keeps a byte order mark inside a name: that is another name", () => {
    expect(headerProblems(notes, ["Kunden\uFEFFnummer", "Notiz"]).map((p) => p.code)).toEqual(["missing_column"])
  })

  it("names a missing column, the nearest name when there is one, and the whole header", () => {
    expect(headerProblems(notes, ["Kundennummer", "Notitz"])).toEqual([{
      at: "",
      code: "missing_column",
      detail: 'column "Notiz" is not in the header (did you mean "Notitz"?); the header has "Kundennummer", "Notitz"'
    }])
    expect(headerProblems(notes, ["Kundennummer", "Betrag"])).toEqual([{
      at: "",
      code: "missing_column",
      detail: 'column "Notiz" is not in the header; the header has "Kundennummer", "Betrag"'
    }])
  })

  it("refuses a column the header names twice, with its positions counted from 1", () => {
    expect(headerProblems(notes, ["Kundennummer", "Notiz", "Datum", " Kundennummer"])).toEqual([{
      at: "",
      code: "duplicate_column",
      detail: 'column "Kundennummer" appears 2 times in the header (columns 1, 4): which one is meant cannot be told'
    }])
  })
})
