/**
 * The BO4E reader: layouts (one object, an array, NDJSON), both flavours, cells by path, one record per
 * element of the named list, numbers as written, and every document ending in records or located rejects.
 */
import { BigDecimal, Option } from "effect"
import fc from "fast-check"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { readBo4eRecords } from "../../src/readers/bo4e/records.js"

const FIXTURES = join(new URL("../../", import.meta.url).pathname, "test", "fixtures", "bo4e")
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), "utf8")

describe("readBo4eRecords", () => {
  it("reads a legacy Marktteilnehmer in a wrapper as one record with cells by path", () => {
    const items = readBo4eRecords(fixture("marktteilnehmer-testcase.json"), { objects: ["input"], types: ["MARKTTEILNEHMER"] })
    expect(items.length).toBe(1)
    const item = items[0]!
    expect(item.kind).toBe("record")
    if (item.kind !== "record") return
    expect(item.record["rollencodenummer"]).toBe("9900130000006")
    expect(item.record["partneradresse.ort"]).toBe("Coesfeld")
    expect(item.record["geschaeftspartnerrolle[0]"]).toBe("MARKTPARTNER")
    expect(item.record["gewerbekennzeichnung"]).toBe(true)
    expect(Object.hasOwn(item.record, "name2")).toBe(false)
    expect(item.record["@flavour"]).toBe("legacy")
    expect(item.record["@version"]).toBe("1")
    expect(item.at).toEqual({ document: 1, line: 1, path: "input" })
  })

  it("reads the official flavour (_typ, _version) and keeps the digits of its numbers, an exponent written out", () => {
    const text = `{"_typ":"ENERGIEMENGE","_version":"v202401.4.0","lokationsId":"51238696781","energieverbrauch":[{"wert":0.1,"einheit":"KWH"},{"wert":1E+3}]}`
    const items = readBo4eRecords(text, { records: "energieverbrauch[]" })
    expect(items.map((i) => i.kind === "record" ? [i.record["energieverbrauch[].wert"], i.record["lokationsId"], i.record["@flavour"], i.record["@version"], i.at.path] : i.kind))
      .toEqual([["0.1", "51238696781", "official", "v202401.4.0", "energieverbrauch[0]"], ["1000", "51238696781", "official", "v202401.4.0", "energieverbrauch[1]"]])
  })

  it("one record per element of a list inside BOs of a BOneyComb; other types are located warnings", () => {
    const text = fixture("boneycomb-invoic-31002-netznutzungsrechnung-gas.json")
    const raw = JSON.parse(text) as { stammdaten: Array<{ boTyp: string; rechnungspositionen?: Array<unknown> }> }
    const positions = raw.stammdaten.filter((b) => b.boTyp.toUpperCase() === "RECHNUNG").reduce((n, b) => n + (b.rechnungspositionen?.length ?? 0), 0)
    const others = raw.stammdaten.filter((b) => b.boTyp.toUpperCase() !== "RECHNUNG").length
    const items = readBo4eRecords(text, { objects: ["stammdaten[]"], types: ["RECHNUNG"], records: "rechnungspositionen[]" })
    expect(items.filter((i) => i.kind === "record").length).toBe(positions)
    expect(items.filter((i) => i.kind === "warning" && i.code === "other_type").length).toBe(others)
    const first = items.find((i) => i.kind === "record")
    expect(first?.kind === "record" && first.record["rechnungsnummer"]).toBeTruthy()
    expect(first?.at.path).toMatch(/^stammdaten\[\d+\]\.rechnungspositionen\[0\]$/u)
  })

  it("a file that is not JSON, an array element that is no BO and a BO without its list are located rejects", () => {
    expect(readBo4eRecords("<xml/>").map((i) => [i.kind, i.kind !== "record" && i.code, i.at])).toEqual([["reject", "not_json", { document: 1, line: 1, path: "$" }]])
    expect(readBo4eRecords("").map((i) => i.kind !== "record" && i.code)).toEqual(["not_json"])
    const items = readBo4eRecords(`[{"boTyp":"ENERGIEMENGE","energieverbrauch":[]}, 7, {"boTyp":"ENERGIEMENGE","energieverbrauch":[3]}]`, { records: "energieverbrauch[]" })
    expect(items.map((i) => [i.kind !== "record" && i.code, i.at.document])).toEqual([["no_records", 1], ["not_bo4e", 2], ["not_an_object", 3]])
  })
})

describe("readBo4eRecords: NDJSON whose first line is damaged", () => {
  const bo = (wert: number) => `{"boTyp":"ENERGIEMENGE","lokationsId":"1","energieverbrauch":[{"wert":${wert}}]}`
  const outcomes = (text: string) => readBo4eRecords(text, { records: "energieverbrauch[]" }).map((i) => [i.kind === "record" ? i.record["energieverbrauch[].wert"] : i.code, i.at.document, i.at.line])

  it("costs that line's document alone, as a damaged line further down does", () => {
    expect(outcomes(`${bo(1).slice(0, 20)}
${bo(2)}
${bo(3)}
`)).toEqual([["not_json", 1, 1], ["2", 2, 2], ["3", 3, 3]])
    expect(outcomes(`\u0000junk

${bo(2)}
`)).toEqual([["not_json", 1, 1], ["2", 2, 3]])
  })

  it("a byte order mark at the start of a line (NDJSON files joined with cat) is dropped, as at the start of the file", () => {
    expect(outcomes(`\uFEFF${bo(1)}\n\uFEFF${bo(2)}\r\n${bo(3)}\n`)).toEqual([["1", 1, 1], ["2", 2, 2], ["3", 3, 3]])
    // Inside a line it is no mark but text: that line alone does not parse.
    expect(outcomes(`${bo(1)}\n${bo(2).replace(":", ":\uFEFF")}\n${bo(3)}\n`).map((o) => o[0])).toEqual(["1", "not_json", "3"])
  })

  it("a pretty-printed document that does not parse is still one not_json, not one reject per line", () => {
    const pretty = `{
  "boTyp": "ENERGIEMENGE",
  "energieverbrauch": [
    {"wert": 1},
    {"wert": 2}
  ]
`
    expect(outcomes(pretty)).toEqual([["not_json", 1, 1]])
    const array = `[
  ${bo(1)},
  ${bo(2)},
  ${bo(3)}
`
    expect(outcomes(array)).toEqual([["not_json", 1, 1]])
  })
})

describe("readBo4eRecords: a path named twice in the options", () => {
  const values = (text: string, options: Parameters<typeof readBo4eRecords>[1]) =>
    readBo4eRecords(text, options).map((i) => (i.kind === "record" ? [i.record["@path"], i.record["energieverbrauch[].wert"] ?? i.record["wert"]] : [i.code, i.at.path]))

  it("reads each BO and each element once: no record twice", () => {
    const bo = `{"boTyp":"ENERGIEMENGE","energieverbrauch":[{"wert":1},{"wert":2}]}`
    expect(values(bo, { objects: ["", ""], records: "energieverbrauch[]" })).toEqual([["energieverbrauch[0]", "1"], ["energieverbrauch[1]", "2"]])
    expect(values(bo, { records: ["energieverbrauch[]", "energieverbrauch[]"] })).toEqual([["energieverbrauch[0]", "1"], ["energieverbrauch[1]", "2"]])
    const comb = `{"stammdaten":[{"boTyp":"ZAEHLER","wert":7},{"boTyp":"ZAEHLER","wert":8}]}`
    expect(values(comb, { objects: ["stammdaten[]", "stammdaten[]"] })).toEqual([["stammdaten[0]", "7"], ["stammdaten[1]", "8"]])
  })

  it("whatever paths are repeated, every BO gives its elements once (property)", () => {
    fc.assert(fc.property(fc.array(fc.constantFrom("", "input"), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 }), (objects, times, n) => {
      const bo = `{"boTyp":"ENERGIEMENGE","energieverbrauch":[${Array.from({ length: n }, (_, i) => `{"wert":${i}}`).join(",")}]}`
      const text = `{"boTyp":"ENERGIEMENGE","energieverbrauch":[${Array.from({ length: n }, (_, i) => `{"wert":${i}}`).join(",")}],"input":${bo}}`
      const items = readBo4eRecords(text, { objects, records: Array<string>(times).fill("energieverbrauch[]") })
      expect(items.length).toBe(new Set(objects).size * n)
      expect(new Set(items.map((i) => i.at.path)).size).toBe(items.length)
    }))
  })
})

describe("readBo4eRecords: two values under one cell name", () => {
  const outcomes = (text: string, options: Parameters<typeof readBo4eRecords>[1] = {}) =>
    readBo4eRecords(text, options).map((i) => (i.kind === "record" ? ["record", i.at.path] : [i.code, i.at.path, i.detail]))

  it("a key with a dot beside the object it names is a located reject, not the last value read", () => {
    expect(outcomes(`{"boTyp":"ZAEHLER","a.b":"1","a":{"b":"2"}}`)).toEqual([["repeated_cell", "$", 'two values are named "a.b" in this BO (a key with a dot or brackets in its name): which one is meant is not known']])
    expect(outcomes(`{"boTyp":"ZAEHLER","x":[{"y":1}],"x[0]":{"y":2}}`).map((o) => o[0])).toEqual(["repeated_cell"])
  })

  it("in one element it costs that element alone; a key naming the list's cells costs each element", () => {
    const text = `{"boTyp":"ENERGIEMENGE","energieverbrauch":[{"wert.x":1,"wert":{"x":2}},{"wert":{"x":3}}]}`
    expect(outcomes(text, { records: "energieverbrauch[]" }).map((o) => o.slice(0, 2))).toEqual([["repeated_cell", "energieverbrauch[0]"], ["record", "energieverbrauch[1]"]])
    const shadow = `{"boTyp":"ENERGIEMENGE","energieverbrauch[]":{"wert":5},"energieverbrauch":[{"wert":1}]}`
    expect(outcomes(shadow, { records: "energieverbrauch[]" }).map((o) => o.slice(0, 2))).toEqual([["repeated_cell", "energieverbrauch[0]"]])
  })

  it("in the document's context it costs the document", () => {
    const text = `{"transaktionsdaten":{"a.b":1,"a":{"b":2}},"stammdaten":[{"boTyp":"ZAEHLER"}]}`
    expect(outcomes(text, { objects: ["stammdaten[]"], context: ["transaktionsdaten"] }).map((o) => o.slice(0, 2))).toEqual([["repeated_cell", "$"]])
  })

  it("the same value under one name is one cell: overlapping context paths, a dotted key that agrees", () => {
    expect(outcomes(`{"boTyp":"ZAEHLER","a.b":"1","a":{"b":"1"}}`)).toEqual([["record", "$"]])
    const text = `{"transaktionsdaten":{"absender":"A"},"stammdaten":[{"boTyp":"ZAEHLER"}]}`
    const [item] = readBo4eRecords(text, { objects: ["stammdaten[]"], context: ["transaktionsdaten", "transaktionsdaten", "transaktionsdaten.absender"] })
    expect(item?.kind === "record" && item.record["$.transaktionsdaten.absender"]).toBe("A")
  })

  it("a key __proto__ is a cell like any other", () => {
    const [item] = readBo4eRecords(`{"boTyp":"ZAEHLER","__proto__":"x","n":{"__proto__":"y"}}`)
    expect(item?.kind === "record" && [Object.hasOwn(item.record, "__proto__"), item.record["__proto__"], item.record["n.__proto__"]]).toEqual([true, "x", "y"])
  })

  it("every value of a BO is a cell of its record, or the BO is rejected as repeated_cell (property)", () => {
    const key = fc.constantFrom("a", "b", "a.b", "b[0]", "a[0].b", "__proto__", "toString")
    // A leaf is null or a value of its own (a string or a number), so that no two values agree by chance.
    const leaf = fc.constantFrom(null, "string", "number")
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("tree"), { maxLength: 3 }), fc.dictionary(key, tie("tree"), { maxKeys: 4 }))
    }))
    let counter = 0
    const text = (value: unknown): string =>
      value === null ? "null" : value === "string" ? JSON.stringify(`v${counter++}`) : value === "number" ? String(counter++)
        : Array.isArray(value) ? `[${value.map(text).join(",")}]`
        : `{${Object.entries(value as object).map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(",")}}`
    const leaves = (value: unknown): number =>
      value === null ? 0 : typeof value === "string" ? 1 : Object.values(value as object).reduce((n: number, v) => n + leaves(v), 0)
    fc.assert(fc.property(fc.dictionary(key, tree, { maxKeys: 5 }), (members) => {
      const items = readBo4eRecords(`{"boTyp":"ZAEHLER"${Object.entries(members).map(([k, v]) => `,${JSON.stringify(k)}:${text(v)}`).join("")}}`)
      expect(items.length).toBe(1)
      const item = items[0]!
      if (item.kind === "record") expect(Object.keys(item.record).filter((k) => !k.startsWith("@")).length).toBe(1 + leaves(members))
      else expect(item.kind === "reject" && item.code).toBe("repeated_cell")
    }), { numRuns: 300 })
  })
})

describe("readBo4eRecords: a document nested deeper than any BO", () => {
  const nested = (depth: number, inner = "1") => `{"boTyp":"ENERGIEMENGE","lokationsId":"1","x":${'{"b":'.repeat(depth)}${inner}${"}".repeat(depth)},"energieverbrauch":[{"wert":1}]}`

  it("is a located reject too_deep, not a crash, whatever the depth; the next document still reads", () => {
    for (const depth of [300, 2000, 2500, 2750, 5000, 50_000]) {
      const items = readBo4eRecords(`${nested(depth)}\n${nested(1)}\n`, { records: "energieverbrauch[]" })
      expect(items.map((i) => (i.kind === "record" ? "record" : i.code)), String(depth)).toEqual(["too_deep", "record"])
      expect(items[0]!.at).toEqual({ document: 1, line: 1, path: "$" })
    }
  })

  it("a depth of 100 is read as usual", () => {
    const [item] = readBo4eRecords(nested(100), { records: "energieverbrauch[]" })
    expect(item?.kind === "record" && item.record[`x${".b".repeat(100)}`]).toBe("1")
  })

  it("any depth gives each document exactly one outcome per element, never an exception (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4000 }), fc.constantFrom("object", "array"), (depth, kind) => {
      const open = kind === "object" ? '{"b":' : "["
      const close = kind === "object" ? "}" : "]"
      const text = `{"boTyp":"ENERGIEMENGE","energieverbrauch":[{"wert":1,"x":${open.repeat(depth)}1${close.repeat(depth)}}]}`
      const items = readBo4eRecords(text, { records: "energieverbrauch[]" })
      expect(items.length).toBe(1)
      if (depth <= 100) expect(items[0]!.kind).toBe("record")
    }), { numRuns: 60 })
  })
})

describe("readBo4eRecords: a key written twice in one object", () => {
  const bo = (wert: string) => `{"boTyp":"ENERGIEMENGE","lokationsId":"51238696781","energieverbrauch":[{"wert":${wert}}]}`
  const codes = (text: string) => readBo4eRecords(text, { records: "energieverbrauch[]" }).map((i) => [i.kind === "record" ? i.record["energieverbrauch[].wert"] : i.code, i.at.document])

  it("rejects that document alone, in an array, in NDJSON and alone, naming the key", () => {
    const twice = `{"boTyp":"ENERGIEMENGE","lokationsId":"51238696781","energieverbrauch":[{"wert":1,"wert":2}]}`
    expect(codes(`[${bo("1")}, ${twice}, ${bo("3")}]`)).toEqual([["1", 1], ["repeated_key", 2], ["3", 3]])
    expect(codes(`${bo("1")}\n${twice}\n${bo("3")}\n`)).toEqual([["1", 1], ["repeated_key", 2], ["3", 3]])
    const single = readBo4eRecords(twice, { records: "energieverbrauch[]" })
    expect(single).toEqual([expect.objectContaining({ kind: "reject", code: "repeated_key", detail: expect.stringContaining("\"wert\" appears twice"), at: { document: 1, line: 1, path: "$" } })])
  })

  it("reads a key repeated across objects (each element its own wert) as usual", () => {
    expect(codes(`{"boTyp":"ENERGIEMENGE","lokationsId":"1","energieverbrauch":[{"wert":1},{"wert":2}]}`)).toEqual([["1", 1], ["2", 1]])
  })
})

describe("readBo4eRecords: nested and several record lists, document context", () => {
  it("one record per Preisstaffel with the cells of its Preisposition; a Preisposition without Preisstaffeln is a located reject", () => {
    const text = `{"_typ":"PREISBLATT","_version":"v202401.0.0","bezeichnung":"PB","preispositionen":[` +
      `{"artikelId":"A","preisstaffeln":[{"einheitspreis":1.10},{"einheitspreis":2}]},{"artikelId":"B","preisstaffeln":[]},{"artikelId":"C","preisstaffeln":[{"einheitspreis":0.0003}]}]}`
    const items = readBo4eRecords(text, { records: "preispositionen[].preisstaffeln[]" })
    expect(items.map((i) => i.kind === "record"
      ? [i.record["preispositionen[].artikelId"], i.record["preispositionen[].preisstaffeln[].einheitspreis"], i.record["bezeichnung"], i.at.path]
      : [i.code, i.at.path]))
      .toEqual([
        ["A", "1.10", "PB", "preispositionen[0].preisstaffeln[0]"],
        ["A", "2", "PB", "preispositionen[0].preisstaffeln[1]"],
        ["no_records", "preispositionen[1]"],
        ["C", "0.0003", "PB", "preispositionen[2].preisstaffeln[0]"]
      ])
    const first = items[0]!
    // No record carries another element's cells: neither the outer list's nor a sibling's.
    expect(first.kind === "record" && Object.keys(first.record).filter((k) => k.includes("["))).toEqual(["preispositionen[].artikelId", "preispositionen[].preisstaffeln[].einheitspreis"])
    expect(first.kind === "record" && [first.record["@list"], first.record["@object"], first.record["@flavour"]]).toEqual(["preispositionen[].preisstaffeln[]", "$", "official"])
  })

  it("several record lists: the elements of each in turn, told apart by @list, none carrying the other list", () => {
    const text = fixture("boneycomb-invoic-31002-netznutzungsrechnung-gas.json")
    const items = readBo4eRecords(text, { objects: ["stammdaten[]"], types: ["RECHNUNG"], records: ["rechnungspositionen[]", "steuerbetraege[]"] })
    const records = items.flatMap((i) => (i.kind === "record" ? [i.record] : []))
    // The sample's Rechnung (stammdaten[1]) has positions 1 to 10 and one Steuerbetrag.
    expect(records.map((r) => r["@list"])).toEqual([...Array<string>(10).fill("rechnungspositionen[]"), "steuerbetraege[]"])
    expect(records.map((r) => r["rechnungspositionen[].positionsnummer"] ?? r["steuerbetraege[].basiswert"])).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "2281.12"])
    expect(records.every((r) => r["@object"] === "stammdaten[1]" && r["rechnungsnummer"] === "Netznuzungsrechnung1234")).toBe(true)
    expect(records.some((r) => Object.keys(r).some((k) => /^(steuerbetraege|rechnungspositionen)\[\d/u.test(k)))).toBe(false)
    const none = readBo4eRecords(`{"boTyp":"RECHNUNG","rechnungspositionen":[],"steuerbetraege":7}`, { records: ["rechnungspositionen[]", "steuerbetraege[]"] })
    expect(none.map((i) => i.kind !== "record" && [i.code, i.detail])).toEqual([["no_records", "no elements in rechnungspositionen[] or steuerbetraege[] (absent, empty or not a list)"]])
    // One list with elements is enough: an invoice without tax amounts still gives its positions.
    expect(readBo4eRecords(`{"boTyp":"RECHNUNG","rechnungspositionen":[{"positionsnummer":1}]}`, { records: ["rechnungspositionen[]", "steuerbetraege[]"] }).map((i) => i.kind)).toEqual(["record"])
  })

  it("context: the cells at those paths of the document, named from its root with $.", () => {
    const text = fixture("boneycomb-invoic-31002-netznutzungsrechnung-gas.json")
    const items = readBo4eRecords(text, { objects: ["stammdaten[]"], types: ["RECHNUNG"], context: ["transaktionsdaten", "stammdaten[]"] })
    expect(items.filter((i) => i.kind === "record").length).toBe(1)
    const item = items.find((i) => i.kind === "record")!
    if (item.kind !== "record") return
    expect(item.record["$.transaktionsdaten.absender"]).toBe("bo4e://Marktteilnehmer/1234567890123")
    expect(item.record["$.transaktionsdaten.pruefidentifikator"]).toBe("31002")
    expect(item.record["$.stammdaten[0].marktlokationsId"]).toBe("21131278279")
    expect(item.record["$.stammdaten[2].rollencodenummer"]).toBe("1234567890123")
    expect(item.record["$.stammdaten[3].rollencodenummer"]).toBe("9876543210987")
  })
})

/**
 * A cell that is the number `written` (JSON text, perhaps with an exponent) as a plain decimal: the same
 * value (compared by effect's BigDecimal), as many decimals as written (`1.50e-1` has three), and the very
 * text when it has no exponent.
 */
const writtenAs = (written: string) => ({
  asymmetricMatch: (cell: unknown): boolean => {
    if (typeof cell !== "string" || !/^-?\d+(\.\d+)?$/u.test(cell)) return false
    if (!/[eE]/u.test(written)) return cell === written
    const value = Option.getOrThrow(BigDecimal.fromString(written))
    return BigDecimal.equals(Option.getOrThrow(BigDecimal.fromString(cell)), value) && (cell.split(".")[1] ?? "").length === Math.max(0, value.scale)
  },
  toString: () => `the number ${written} written out`,
  toAsymmetricMatcher: () => `the number ${written} written out`
})

/** A decimal as JSON writes it: sign, digits, fraction, exponent. */
const decimalText = fc.tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9]\d{0,25})$/u), fc.option(fc.stringMatching(/^\d{1,12}$/u)), fc.option(fc.integer({ min: -30, max: 30 })))
  .map(([minus, whole, fraction, exponent]) => `${minus ? "-" : ""}${whole}${fraction !== null ? `.${fraction}` : ""}${exponent !== null ? `e${exponent}` : ""}`)

const energiemenge = fc.record({
  legacy: fc.boolean(),
  id: fc.stringMatching(/^\d{11}$/u),
  values: fc.array(decimalText, { maxLength: 5 })
})

const boText = (bo: { legacy: boolean; id: string; values: Array<string> }): string =>
  `{${bo.legacy ? `"boTyp":"Energiemenge","versionStruktur":"1"` : `"_typ":"ENERGIEMENGE","_version":"v202401.0.0"`},"lokationsId":${JSON.stringify(bo.id)},"energieverbrauch":[${bo.values.map((v) => `{"wert":${v}}`).join(",")}]}`

describe("readBo4eRecords: numbers with an exponent", () => {
  const wert = (number: string) => {
    const [item] = readBo4eRecords(`{"boTyp":"ENERGIEMENGE","energieverbrauch":[{"wert":${number}}]}`, { records: "energieverbrauch[]" })
    return item?.kind === "record" ? item.record["energieverbrauch[].wert"] : item
  }

  it("are written out exactly, so that the decimal converter reads what JSON means by them", () => {
    expect(wert("1E+3")).toBe("1000")
    expect(wert("1.50e-1")).toBe("0.150")
    expect(wert("-2.5E2")).toBe("-250")
    expect(wert("12e-5")).toBe("0.00012")
    expect(wert("123.456e1")).toBe("1234.56")
    expect(wert("0E+2")).toBe("0")
    expect(wert("0.5e1")).toBe("5")
    expect(wert("98765432109876543210.5e-3")).toBe("98765432109876543.2105")
    expect(wert("1e400")).toBe(`1${"0".repeat(400)}`)
    // Without an exponent a number stays as written, trailing zeros and -0 included.
    expect(wert("10000.0")).toBe("10000.0")
    expect(wert("-0")).toBe("-0")
  })

  it("one that would take more than 1,000 characters stays as written (and a decimal field refuses it)", () => {
    expect(wert("1e1000000000")).toBe("1e1000000000")
    expect(wert("1E-5000")).toBe("1E-5000")
  })
})

describe("readBo4eRecords (properties)", () => {
  it("every value is one record with its number as written, in order, in each layout; an empty list is one reject", () => {
    fc.assert(fc.property(fc.array(energiemenge, { minLength: 1, maxLength: 6 }), fc.constantFrom("array", "ndjson"), (bos, layout) => {
      const text = layout === "array" ? `[${bos.map(boText).join(",\n")}]` : bos.map(boText).join("\n")
      const items = readBo4eRecords(text, { records: "energieverbrauch[]" })
      const expected = bos.flatMap((bo, d): Array<Array<unknown>> => bo.values.length === 0 ? [["reject", d + 1]] : bo.values.map((v) => [writtenAs(v), d + 1]))
      // A single NDJSON line is one document whatever the layout: read it the same way.
      expect(items.map((i) => [i.kind === "record" ? i.record["energieverbrauch[].wert"] : i.kind, i.at.document])).toEqual(expected)
      for (const item of items) if (item.kind === "record") expect(item.record["lokationsId"]).toBe(bos[item.at.document - 1]!.id)
    }))
  })

  it("a[].b[]: one record per inner element, in document order, with its outer element's cells; an outer element without inner ones is one reject", () => {
    const outer = fc.array(fc.record({ id: fc.stringMatching(/^[A-Z0-9]{1,6}$/u), values: fc.array(decimalText, { maxLength: 4 }) }), { minLength: 1, maxLength: 5 })
    fc.assert(fc.property(fc.boolean(), outer, fc.stringMatching(/^[a-z]{1,8}$/u), (legacy, positions, name) => {
      const marker = legacy ? `"boTyp":"Preisblatt","versionStruktur":"1"` : `"_typ":"PREISBLATT","_version":"v202607.1.0"`
      const text = `{${marker},"bezeichnung":${JSON.stringify(name)},"preispositionen":[${positions.map((p) => `{"artikelId":${JSON.stringify(p.id)},"preisstaffeln":[${p.values.map((v) => `{"preis":${v}}`).join(",")}]}`).join(",")}]}`
      const items = readBo4eRecords(text, { types: ["PREISBLATT"], records: "preispositionen[].preisstaffeln[]" })
      const expected = positions.flatMap((p, i) =>
        p.values.length === 0 ? [["no_records", `preispositionen[${i}]`]] : p.values.map((v, j) => [p.id, writtenAs(v), name, `preispositionen[${i}].preisstaffeln[${j}]`]))
      expect(items.map((i) => i.kind === "record"
        ? [i.record["preispositionen[].artikelId"], i.record["preispositionen[].preisstaffeln[].preis"], i.record["bezeichnung"], i.at.path]
        : [i.code, i.at.path])).toEqual(expected)
      for (const item of items) if (item.kind === "record") expect(item.record["@flavour"]).toBe(legacy ? "legacy" : "official")
    }))
  })

  it("a damaged NDJSON line, the first one too, costs its own document only", () => {
    fc.assert(fc.property(fc.array(energiemenge, { minLength: 2, maxLength: 6 }), fc.nat(), fc.string({ minLength: 1, maxLength: 20 }), (bos, at, junk) => {
      const broken = at % bos.length
      const text = bos.map((bo, i) => (i === broken ? `${boText(bo).slice(0, -1)}\u0000${junk.replaceAll("\n", " ")}` : boText(bo))).join("\n")
      const items = readBo4eRecords(text, { records: "energieverbrauch[]" })
      const kept = bos.reduce((n, bo, i) => n + (i === broken ? 0 : bo.values.length), 0)
      expect(items.filter((i) => i.kind === "record").length).toBe(kept)
      expect(items.filter((i) => i.at.document === broken + 1).map((i) => i.kind)).toEqual(["reject"])
    }))
  })
})
