/** A mapping's problems: where each is, its code, and its text; and what defineMapping makes of a spec. */
import { describe, expect, it } from "vitest"
import { CONVERTER_NAMES, CONVERTERS } from "../../src/mappers/converters.js"
import { defineMapping, formatMappingProblem, mappingProblems } from "../../src/mappers/define-mapping.js"

/** The problems of a notes mapping whose one field, `body`, comes from `source`. */
const problemsOfSource = (source: unknown) => mappingProblems({ endpoint: "notes", fields: { body: source } })

describe("mappingProblems", () => {
  it("finds nothing in a usable mapping", () => {
    expect(mappingProblems({ endpoint: "notes", fields: { "notes.0.body": "Notiz" } })).toEqual([])
  })

  it("places a problem of the whole mapping nowhere", () => {
    expect(mappingProblems(42)).toEqual([{ at: "", code: "invalid", detail: "The payload must be a JSON object, not a number." }])
    expect(mappingProblems(null)).toMatchObject([{ at: "", code: "invalid" }])
  })

  it("keeps each code but unknown_field, and writes the place as a path", () => {
    expect(mappingProblems({})).toEqual([
      { at: "endpoint", code: "required", detail: "This field is required." },
      { at: "fields", code: "required", detail: "This field is required." }
    ])
    expect(mappingProblems({ endpoint: "notes", fields: { body: { column: "A", convert: "nope" } } })).toMatchObject([
      { at: "fields.body.convert", code: "unknown_converter" }
    ])
  })

  it("quotes a place segment that is not a plain name, with its escaped dots as dots", () => {
    expect(mappingProblems({ endpoint: "notes", fields: { "a..b": "x", "x y": "A", "ok.x-y": "B" } })).toEqual([
      { at: 'fields["a..b"]', code: "invalid_field_path", detail: '"a..b" is not a dot path of payload field names (such as energy_amount.quantity)' },
      { at: 'fields["x y"]', code: "invalid_field_path", detail: '"x y" is not a dot path of payload field names (such as energy_amount.quantity)' },
      { at: 'fields["ok.x-y"]', code: "invalid_field_path", detail: '"ok.x-y" is not a dot path of payload field names (such as energy_amount.quantity)' }
    ])
  })

  it("names an unknown key with the nearest known one, and a known key in the wrong place as such", () => {
    expect(mappingProblems({ endpoint: "notes", fields: {}, collections: [{ path: "notes", fields: {}, group_by: [] }] })).toEqual([
      { at: "collections.0.group_by", code: "unknown_key", detail: 'unknown key "group_by" (did you mean groupBy?)' }
    ])
    expect(mappingProblems({ endpoint: "notes", fields: { body: { value: 1, column: "A" } } })).toEqual([
      { at: "fields.body.column", code: "unknown_key", detail: '"column" is a key of the mapping format, but not one this object takes' }
    ])
  })

  it("refuses a function source, which a JSON mapping cannot hold", () => {
    expect(mappingProblems({ endpoint: "notes", fields: { body: { from: () => 1 } } })).toEqual([
      { at: "fields.body", code: "invalid_mapping", detail: "{ from } needs a function, which a JSON mapping cannot hold" }
    ])
  })
})

describe("mappingProblems: what each mistake in a field source draws", () => {
  it("a source that is neither a column name nor an object", () => {
    for (const source of [5, null, true, ["A"]]) {
      expect(problemsOfSource(source), JSON.stringify(source)).toEqual([
        { at: "fields.body", code: "invalid", detail: "a column name, { column, convert, options } or { value }" }
      ])
    }
  })

  it("an object with no column, columns or value", () => {
    expect(problemsOfSource({})).toEqual([{ at: "fields.body", code: "invalid_mapping", detail: "a field needs column, columns, either or value" }])
    expect(problemsOfSource({ convert: "date" })).toEqual([{ at: "fields.body", code: "invalid_mapping", detail: "a field needs column, columns, either or value" }])
  })

  it("both column and columns", () => {
    expect(problemsOfSource({ column: "A", columns: ["B", "C"] })).toEqual([
      { at: "fields.body", code: "invalid_mapping", detail: "give either column or columns (not both, not neither)" }
    ])
  })

  it("skipBlank without columns, or beside a value table", () => {
    const detail = "skipBlank leaves blank cells out of the join of columns (without values): give columns, or leave out skipBlank"
    expect(problemsOfSource({ column: "A", skipBlank: true })).toEqual([{ at: "fields.body", code: "invalid_mapping", detail }])
    expect(problemsOfSource({ columns: ["A", "B"], skipBlank: true, values: { "x|y": "Z" } })).toEqual([{ at: "fields.body", code: "invalid_mapping", detail }])
    expect(problemsOfSource({ columns: ["A", "B"], skipBlank: true })).toEqual([])
    expect(problemsOfSource({ columns: ["A", "B"], skipBlank: "yes" })).toMatchObject([{ at: "fields.body.skipBlank" }])
  })

  it("columns with fewer than two names, and an empty column name", () => {
    expect(problemsOfSource({ columns: ["A"], convert: "datetime" })).toEqual([
      { at: "fields.body.columns", code: "invalid_mapping", detail: "columns needs at least two column names; use column for one" }
    ])
    expect(problemsOfSource({ column: "" }).map((p) => p.at)).toEqual(["fields.body.column"])
    expect(problemsOfSource("").map((p) => p.at)).toEqual(["fields.body"])
  })

  it("an unknown converter, with the nearest name and the list of all", () => {
    expect(problemsOfSource({ column: "A", convert: "dat" })).toEqual([
      { at: "fields.body.convert", code: "unknown_converter", detail: `unknown converter "dat" (did you mean date?); use one of ${CONVERTER_NAMES.join(", ")}` }
    ])
    expect(problemsOfSource({ column: "A", convert: 7 })).toEqual([
      { at: "fields.body.convert", code: "unknown_converter", detail: `unknown converter 7; use one of ${CONVERTER_NAMES.join(", ")}` }
    ])
    // A list whose text is a converter's name is no name.
    expect(problemsOfSource({ column: "A", convert: ["date"] })).toEqual([
      { at: "fields.body.convert", code: "unknown_converter", detail: `unknown converter ["date"] (did you mean date?); use one of ${CONVERTER_NAMES.join(", ")}` }
    ])
  })

  it("options on the string converter, which has none", () => {
    expect(problemsOfSource({ column: "A", options: {} })).toEqual([
      { at: "fields.body.options", code: "unknown_key", detail: '"options" is a key of the mapping format, but not one this object takes' }
    ])
  })

  it("a function source in TypeScript that is not a function", () => {
    expect(() => defineMapping({ endpoint: "notes", fields: { body: { from: "A" } } } as never)).toThrow(
      new TypeError("Invalid mapping: fields.body.from: Expected a valid value but got string.")
    )
  })

  it("knows every key of the format, and every converter option, as a key of the format", () => {
    const formatKeys = ["$schema", "endpoint", "groupBy", "batchSize", "fields", "collections", "path", "when", "equals", "column", "columns", "convert", "options"]
    const optionKeys = CONVERTER_NAMES.flatMap((name) => Object.keys(CONVERTERS[name].options.fields))
    expect(optionKeys).toEqual(expect.arrayContaining(["format", "timeZone"]))
    // `value` in a field source selects the constant, so it is tried where no field source is: the mapping itself.
    expect(mappingProblems({ endpoint: "notes", fields: {}, value: 1 })).toEqual([
      { at: "value", code: "unknown_key", detail: '"value" is a key of the mapping format, but not one this object takes' }
    ])
    for (const key of [...formatKeys, ...optionKeys]) {
      expect(problemsOfSource({ value: 1, [key]: 1 }), key).toEqual([
        { at: `fields.body.${key}`, code: "unknown_key", detail: `${JSON.stringify(key)} is a key of the mapping format, but not one this object takes` }
      ])
    }
  })
})

describe("mappingProblems: the mapping's own keys", () => {
  it("a batch size that is not a whole number above 0, and an empty list of values to match", () => {
    for (const batchSize of [0, -1, 1.5]) {
      expect(mappingProblems({ endpoint: "notes", batchSize, fields: {} }).map((p) => p.at), String(batchSize)).toEqual(["batchSize"])
    }
    expect(mappingProblems({ endpoint: "notes", batchSize: 1, fields: {} })).toEqual([])
    const when = (equals: unknown) => mappingProblems({ endpoint: "notes", fields: {}, collections: [{ path: "notes", when: { column: "Art", equals }, fields: {} }] })
    expect(when([]).map((p) => p.at)).toEqual(["collections.0.when.equals"])
    expect(when(["N", "M"])).toEqual([])
    expect(when("N")).toEqual([])
  })

  it("a collection's path that is no dot path says what one is", () => {
    expect(mappingProblems({ endpoint: "notes", fields: {}, collections: [{ path: "Notes!", fields: {} }] })).toMatchObject([
      { at: "collections.0.path", detail: "a dot path of payload field names such as energy_amount.quantity" }
    ])
  })

  it("a field path with a list index, and one that starts with a digit", () => {
    expect(mappingProblems({ endpoint: "notes", fields: { "notes.0.body": "A", "notes.12.body": "B" } })).toEqual([])
    expect(mappingProblems({ endpoint: "notes", fields: { "0notes.body": "A" } }).map((p) => p.code)).toEqual(["invalid_field_path"])
  })
})

describe("formatMappingProblem", () => {
  it("prefixes the place, when there is one", () => {
    expect(formatMappingProblem({ at: "fields.body", code: "x", detail: "what" })).toBe("fields.body: what")
    expect(formatMappingProblem({ at: "", code: "x", detail: "what" })).toBe("what")
  })
})

describe("defineMapping", () => {
  it("tags a usable spec, and takes a tagged one again as it is", () => {
    const spec = { endpoint: "notes", fields: { "notes.0.body": { from: () => "x" } } } as const
    const mapping = defineMapping(spec)
    expect(mapping._tag).toBe("Mapping")
    expect(mapping.fields).toBe(spec.fields)
    expect(defineMapping(mapping)).toEqual(mapping)
  })

  it("throws a TypeError listing every problem, separated by semicolons", () => {
    expect(() => defineMapping({ fields: { "a b": "x" } } as never)).toThrow(
      new TypeError('Invalid mapping: fields["a b"]: "a b" is not a dot path of payload field names (such as energy_amount.quantity); endpoint: This field is required.')
    )
  })
})
