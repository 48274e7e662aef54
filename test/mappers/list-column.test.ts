/**
 * List columns (`sts[*].status`) with `where`: the elements of a list whose cells a reader names by index,
 * chosen by a field of the element (`art`), read into one field as a list or as the one value; the
 * mapping format's checks of them; the header check of a CSV export with such columns.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, mapRecords } from "../../src/index.js"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { headerProblems } from "../../src/readers/csv/header-problems.js"
import { columnsOf, fieldReader } from "../../src/mappers/field-source.js"
import { columnMatcher, listItems } from "../../src/mappers/list-column.js"

const NOTHING = { ok: true, value: undefined, stated: false }

/** A record with the cells a reader gives a list of `{ art, status }` elements, keys in the order given. */
const cellsOf = (elements: ReadonlyArray<{ readonly art: string; readonly status: string }>, order: ReadonlyArray<number> = elements.map((_, i) => i)) =>
  Object.fromEntries(order.flatMap((i) => [[`sts[${i}].art`, elements[i]!.art], [`sts[${i}].status`, elements[i]!.status]]))

describe("listItems: the elements a list column reads", () => {
  it("reads every element's cell in index order (10 after 9), whatever the order of the keys, blanks left out", () => {
    const record = { "a[10].b": "ten", "a[2].b": "two", "a[9].b": " nine ", "a[3].b": "  ", "a[1].c": "other field", "x[0].b": "other list", "a[01].b": "not an index" }
    expect(listItems(record, "a[*].b")).toEqual([
      { column: "a[2].b", text: "two" },
      { column: "a[9].b", text: "nine" },
      { column: "a[10].b", text: "ten" }
    ])
  })

  it("with where, only the elements whose field has the value, or one of the values, compared trimmed", () => {
    const record = cellsOf([
      { art: "PLAUSIBILISIERUNGSHINWEIS", status: "LEERSTAND" },
      { art: "KORREKTURGRUND", status: "FEHLERHAFTE_ABLESUNG" },
      { art: " PLAUSIBILISIERUNGSHINWEIS ", status: "RECHENWERT" },
      { art: "ERSATZWERTBILDUNGSVERFAHREN", status: "INTERPOLATION" }
    ])
    expect(listItems(record, "sts[*].status", { art: "PLAUSIBILISIERUNGSHINWEIS" }).map((i) => i.column)).toEqual(["sts[0].status", "sts[2].status"])
    expect(listItems(record, "sts[*].status", { art: ["KORREKTURGRUND", "ERSATZWERTBILDUNGSVERFAHREN"] }).map((i) => i.text)).toEqual(["FEHLERHAFTE_ABLESUNG", "INTERPOLATION"])
    expect(listItems(record, "sts[*].status", { art: "GASQUALITAET" })).toEqual([])
    // An element without the field is not chosen.
    expect(listItems({ "sts[0].status": "LEERSTAND" }, "sts[*].status", { art: "PLAUSIBILISIERUNGSHINWEIS" })).toEqual([])
  })

  it("tells readers which cells a mapping reads: a list column stands for each of its elements", () => {
    const wanted = columnMatcher(["lokationsId", "e[].sts[*].status", "e[].sts[*].art"])
    expect(["lokationsId", "e[].sts[0].status", "e[].sts[12].art", "e[].sts[0].statusx", "e[].sts[x].art", "sts[0].art"].map(wanted)).toEqual([true, true, true, false, false, false])
  })
})

describe("a field from a list column", () => {
  const record = cellsOf([
    { art: "GRUND_ERSATZWERTBILDUNGSVERFAHREN", status: "KOMMUNIKATIONSSTOERUNG" },
    { art: "PLAUSIBILISIERUNGSHINWEIS", status: "KUNDENSELBSTABLESUNG" },
    { art: "ERSATZWERTBILDUNGSVERFAHREN", status: "INTERPOLATION" },
    { art: "PLAUSIBILISIERUNGSHINWEIS", status: "LEERSTAND" }
  ])
  const codes = { KUNDENSELBSTABLESUNG: "Z83", LEERSTAND: "Z84", INTERPOLATION: "Z92", HALTEWERT: "Z93", KOMMUNIKATIONSSTOERUNG: "Z75" }

  it("with convert list: the chosen elements as a list, in order, each through the value table", () => {
    const read = fieldReader({ column: "sts[*].status", where: { art: "PLAUSIBILISIERUNGSHINWEIS" }, convert: "list", values: codes })
    expect(read(record)).toEqual({ ok: true, value: ["Z83", "Z84"], stated: true })
    expect(fieldReader({ column: "sts[*].status", where: { art: "PLAUSIBILISIERUNGSHINWEIS" }, convert: "list" })(record))
      .toEqual({ ok: true, value: ["KUNDENSELBSTABLESUNG", "LEERSTAND"], stated: true })
    // An element is one item, never split at the list converter's separator.
    expect(fieldReader({ column: "x[*]", convert: "list" })({ "x[0]": "a;b", "x[1]": "c" })).toEqual({ ok: true, value: ["a;b", "c"], stated: true })
    expect(read({})).toEqual(NOTHING)
  })

  it("an element the table does not know rejects the row, naming the element's own cell and its value", () => {
    const read = fieldReader({ column: "sts[*].status", where: { art: "PLAUSIBILISIERUNGSHINWEIS" }, convert: "list", values: { LEERSTAND: "Z84" } })
    expect(read(record)).toEqual({
      ok: false,
      column: "sts[1].status",
      code: "unknown_value",
      detail: "sts[1].status \"KUNDENSELBSTABLESUNG\" is not in the value table (known: \"LEERSTAND\")"
    })
  })

  it("with another converter: the one chosen element; none leaves the field out; two that differ are conflicting_columns", () => {
    const method = fieldReader({ column: "sts[*].status", where: { art: "ERSATZWERTBILDUNGSVERFAHREN" }, values: codes })
    expect(method(record)).toEqual({ ok: true, value: "Z92", stated: true })
    expect(fieldReader({ column: "sts[*].status", where: { art: "KORREKTURGRUND" }, values: codes })(record)).toEqual(NOTHING)
    const twice = cellsOf([{ art: "ERSATZWERTBILDUNGSVERFAHREN", status: "INTERPOLATION" }, { art: "ERSATZWERTBILDUNGSVERFAHREN", status: " INTERPOLATION" }])
    expect(method(twice)).toEqual({ ok: true, value: "Z92", stated: true })
    const differ = cellsOf([{ art: "ERSATZWERTBILDUNGSVERFAHREN", status: "INTERPOLATION" }, { art: "X", status: "" }, { art: "ERSATZWERTBILDUNGSVERFAHREN", status: "HALTEWERT" }])
    expect(method(differ)).toEqual({
      ok: false,
      column: "sts[*].status",
      code: "conflicting_columns",
      detail: "sts[0].status \"INTERPOLATION\" and sts[2].status \"HALTEWERT\" differ: which one is meant is not known"
    })
    expect(fieldReader({ column: "n[*]", convert: "decimal", options: { locale: "plain" } })({ "n[3]": "1.50" })).toEqual({ ok: true, value: "1.50", stated: true })
  })

  it("names the list column and the fields where reads among the columns of the field", () => {
    expect(columnsOf({ column: "e[].sts[*].status", where: { art: "Z33", "kind.code": "x" } })).toEqual(["e[].sts[*].status", "e[].sts[*].art", "e[].sts[*].kind.code"])
  })

  it("property: the list is the statuses of the chosen elements in their order, whatever the order of the cells", () => {
    const arts = ["A", "B", "C"]
    const element = fc.record({ art: fc.constantFrom(...arts), status: fc.constantFrom("S1", "S2", "S3", " ", "") })
    fc.assert(fc.property(fc.array(element, { maxLength: 14 }), fc.subarray(arts, { minLength: 1 }), fc.integer(), (elements, chosen, seed) => {
      // The keys of the record in a shuffled order: readers need not give them in index order.
      const order = elements.map((_, i) => i).sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13) || a - b)
      const record = cellsOf(elements, order)
      const expected = elements.filter((e) => chosen.includes(e.art) && e.status.trim() !== "").map((e) => e.status.trim())
      const read = fieldReader({ column: "sts[*].status", where: { art: chosen }, convert: "list" })(record)
      expect(read).toEqual(expected.length === 0 ? NOTHING : { ok: true, value: expected, stated: true })
      const one = fieldReader({ column: "sts[*].status", where: { art: chosen } })(record)
      if (new Set(expected).size > 1) expect(one).toMatchObject({ ok: false, code: "conflicting_columns" })
      else expect(one).toEqual(expected.length === 0 ? NOTHING : { ok: true, value: expected[0], stated: true })
    }))
  })
})

describe("list columns in mappings", () => {
  const mapping = (source: unknown) => ({ endpoint: "notes", fields: { body: source } })

  it("accepts a list column with and without where", () => {
    expect(mappingProblems(mapping({ column: "sts[*].status", where: { art: "A" }, convert: "list" }))).toEqual([])
    expect(mappingProblems(mapping({ column: "sts[*].status", where: { art: ["A", "B"] }, values: { X: "Y" } }))).toEqual([])
    expect(mappingProblems(mapping({ column: "sts[*]" }))).toEqual([])
  })

  it("refuses where without a list column, [*] in columns or either or twice, a separator and by-order", () => {
    const refused = (source: unknown): Array<string> => mappingProblems(mapping(source)).map((p) => p.detail)
    expect(refused({ column: "sts", where: { art: "A" } })).toEqual(["where chooses elements of a list: give a column with [*] where the index is (statuszusatzinformationen[*].status)"])
    expect(refused({ either: ["a[*].b", "c"] })).toEqual(["[*] (every element of a list) belongs in column, not in columns or either"])
    expect(refused({ column: "a[*].b[*].c" })).toEqual(["[*] may stand once in a column: \"a[*].b[*].c\""])
    expect(refused({ column: "a[*]", convert: "list", options: { separator: "," } })).toEqual(["the elements of a list column are the list's items, never split: leave out separator"])
    expect(refused({ column: "a[*]", convert: "datetime", options: { ambiguous: "by-order" } })).toEqual(["by-order reads rows in order, not the elements of a list column: use earlier, later or offsetColumn"])
    expect(refused({ column: "a[*].b", where: { "c[*]": "x" } }).length).toBe(1)
    expect(refused({ column: "a[*].b", where: { c: [] } }).length).toBe(1)
  })

  it("maps rows of any source whose cells are so named: an NDJSON or CSV export with indexed columns", () => {
    const energy = defineMapping({
      endpoint: "energy-amount",
      fields: {
        import_supplier: { value: "SW" },
        external_account_number: "konto",
        "energy_amount.malo_number": "malo",
        "energy_amount.period_start_at": { value: "2024-03-01T00:00:00Z" },
        "energy_amount.period_end_at": { value: "2024-03-01T00:15:00Z" },
        "energy_amount.product_identifier": { value: "1-1:1.29.0" },
        "energy_amount.product_identifier_type": { value: "SRW" },
        "energy_amount.quantity": { value: "1.5" },
        "energy_amount.quantity_unit": { value: "KWH" },
        "energy_amount.plausibility_indications": { column: "sts[*].code", where: { kat: "Z33" }, convert: "list" },
        "energy_amount.estimate_method": { column: "sts[*].code", where: { kat: "Z32" } }
      }
    })
    const header = ["konto", "malo", "sts[0].kat", "sts[0].code", "sts[1].kat", "sts[1].code", "sts[2].kat", "sts[2].code"]
    expect(headerProblems(energy, header)).toEqual([])
    const row = Object.fromEntries(header.map((h, i) => [h, ["KD-1", "51238696781", "Z33", "Z84", "Z32", "Z92", "Z33", "Z87"][i]]))
    const { payloads, rejected } = mapRecords(energy, [row])
    expect(rejected).toEqual([])
    expect(payloads.map((p) => p.payload)).toEqual([{
      import_supplier: "SW",
      external_account_number: "KD-1",
      energy_amount: {
        malo_number: "51238696781",
        period_start_at: "2024-03-01T00:00:00Z",
        period_end_at: "2024-03-01T00:15:00Z",
        product_identifier: "1-1:1.29.0",
        product_identifier_type: "SRW",
        quantity: "1.5",
        quantity_unit: "KWH",
        plausibility_indications: ["Z84", "Z87"],
        estimate_method: "Z92"
      }
    }])
  })

  it("checks a CSV header: a list column needs at least one element there, each named once", () => {
    const energy = defineMapping({ endpoint: "notes", fields: { body: { column: "sts[*].code", where: { kat: "Z33" }, convert: "list" } } })
    expect(headerProblems(energy, ["sts[0].kat", "sts[0].code"])).toEqual([])
    expect(headerProblems(energy, ["sts[0].kat"]).map((p) => p.code)).toEqual(["missing_column"])
    expect(headerProblems(energy, ["sts[0].kat", "sts[0].code", "sts[0].code"])).toEqual([
      { at: "", code: "duplicate_column", detail: "column \"sts[0].code\" appears 2 times in the header (columns 2, 3): which one is meant cannot be told" }
    ])
  })
})
