/** A mapping's problems: where each is, its code, and its text; and what defineMapping makes of a spec. */
import { describe, expect, it } from "vitest"
import { defineMapping, formatMappingProblem, mappingProblems } from "../../src/mappers/define-mapping.js"

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
