/**
 * The reference of the mapping format (docs/mapping.md, linked from the README) is checked against the
 * mapping schema, so it cannot go stale: every key and every converter with its options is listed, and
 * nothing the schema does not have.
 */
import { readFileSync } from "node:fs"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { defineMapping, mappingJsonSchema, mapRecords } from "../../src/index.js"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { CONVERTER_NAMES, CONVERTERS } from "../../src/mappers/converters.js"
import { didYouMean, MappingJsonSchema, nearestName } from "../../src/mappers/mapping-schema.js"

const reference = readFileSync(new URL("../../docs/mapping.md", import.meta.url), "utf8")

/** The rows of the table between `<!-- name:start -->` and `<!-- name:end -->`, as cells. */
const table = (name: string): Array<Array<string>> => {
  const start = reference.indexOf(`<!-- ${name}:start -->`)
  const end = reference.indexOf(`<!-- ${name}:end -->`)
  expect(start, `docs/mapping.md has the ${name} table`).toBeGreaterThan(-1)
  expect(end, `docs/mapping.md ends the ${name} table`).toBeGreaterThan(start)
  return reference.slice(start, end).split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| /u, "").trim()))
}

/** The option names a cell lists: the backticked words that are not values in parentheses. */
const optionNames = (cell: string): Array<string> => cell.replace(/\([^)]*\)/gu, "").match(/`[^`]+`/gu)?.map((n) => n.slice(1, -1)) ?? []

const structKeys = (schema: unknown): Array<string> => Object.keys((schema as { fields: Record<string, unknown> }).fields)

describe("docs/mapping.md: the mapping format", () => {
  it("lists every converter with exactly its options", () => {
    const rows = table("mapping-converters")
    expect(rows.map((r) => optionNames(r[0]!)[0])).toEqual([...CONVERTER_NAMES])
    for (const row of rows) {
      const converter = CONVERTERS[optionNames(row[0]!)[0] as keyof typeof CONVERTERS]
      expect(optionNames(row[1]!).sort(), `options of ${row[0]}`).toEqual(Object.keys(converter.options.fields).sort())
    }
  })

  it("lists every key of a mapping and of a collection, where it may appear", () => {
    const rows = table("mapping-keys").map((r) => ({ key: optionNames(r[0]!)[0]!, where: r[1]! }))
    const collection = (MappingJsonSchema.fields.collections as unknown as { readonly schema: { readonly value: unknown } }).schema.value
    expect(rows.filter((r) => r.where.includes("top")).map((r) => r.key).sort()).toEqual(structKeys(MappingJsonSchema).sort())
    expect(rows.filter((r) => r.where.includes("collection")).map((r) => r.key).sort()).toEqual(structKeys(collection).sort())
  })
})

describe("the mapping's descriptions, for editors", () => {
  /** Every `description` in a JSON Schema document, by where it is. */
  const descriptions = (node: unknown, at = ""): Array<[string, unknown]> => {
    if (typeof node !== "object" || node === null) return []
    return Object.entries(node).flatMap(([key, value]) =>
      key === "description" && typeof value !== "object" ? [[at, value] as [string, unknown]] : descriptions(value, `${at}/${key}`))
  }

  it("describes every converter and each of its options with a sentence", () => {
    for (const name of CONVERTER_NAMES) {
      const converter: { readonly description: string; readonly options: Schema.Top } = CONVERTERS[name]
      expect(converter.description, name).toMatch(/^\S.{9,}$/u)
      const options = Schema.toJsonSchemaDocument(converter.options).schema as { properties?: Record<string, unknown> }
      for (const [option, property] of Object.entries(options.properties ?? {})) {
        const found = descriptions(property).map(([, text]) => text)
        expect(found.length, `${name}.${option}`).toBeGreaterThan(0)
        for (const text of found) expect(text, `${name}.${option}`).toMatch(/^\S.{9,}$/u)
      }
    }
  })

  it("has only sentences for descriptions in the JSON Schema of a mapping file, none empty", () => {
    const texts = descriptions(mappingJsonSchema())
    expect(texts.length).toBeGreaterThan(20)
    for (const [at, text] of texts) expect(text, at).toMatch(/^\S.{9,}$/u)
  })

  it("gives every converter's description to the JSON Schema of a mapping file", () => {
    const texts = new Set(descriptions(mappingJsonSchema()).map(([, text]) => text))
    for (const name of CONVERTER_NAMES) expect(texts.has(CONVERTERS[name].description), name).toBe(true)
  })
})

describe("the JSON Schema of a mapping file, as an editor reads it", () => {
  type Node = { readonly [key: string]: unknown }
  const document = mappingJsonSchema() as unknown as Node & { readonly $defs: Record<string, Node> }

  /** Every object schema of the document with its path, found through properties, items, anyOf and $defs. */
  const objectSchemas = (node: unknown, at = ""): Array<[string, Node]> => {
    if (typeof node !== "object" || node === null) return []
    const here: Array<[string, Node]> = (node as Node)["properties"] !== undefined ? [[at, node as Node]] : []
    return [...here, ...Object.entries(node).flatMap(([key, value]) => objectSchemas(value, `${at}/${key}`))]
  }

  /** The `anyOf` of the field sources (the values of `fields`), in the definition of the mapping. */
  const fieldSources = (): ReadonlyArray<Node> => {
    const fields = (document.$defs["Mapping"]!["properties"] as Record<string, Node>)["fields"]!
    const byPath = Object.values(fields["patternProperties"] as Record<string, Node>)
    expect(byPath).toHaveLength(1)
    return byPath[0]!["anyOf"] as ReadonlyArray<Node>
  }

  it("defines the mapping and its collections by name, for references", () => {
    expect(document["$ref"]).toBe("#/$defs/Mapping")
    expect(Object.keys(document.$defs).sort()).toEqual(["Collection", "Mapping"])
    expect(String(document.$defs["Mapping"]!["title"])).toMatch(/mapping/u)
  })

  it("describes every key of every object, so an editor explains each on hover", () => {
    const objects = objectSchemas(document)
    expect(objects.length).toBeGreaterThan(CONVERTER_NAMES.length)
    const undescribed = objects.flatMap(([at, object]) =>
      Object.entries(object["properties"] as Record<string, Node>)
        .filter(([, property]) => typeof property["description"] !== "string" && property["$ref"] === undefined)
        .map(([key]) => `${at}/${key}`))
    expect(undescribed).toEqual([])
  })

  it("names each kind of field source: a constant, and a column through each converter", () => {
    const objects = fieldSources().filter((member) => member["type"] === "object")
    const titles = objects.map((member) => member["title"])
    expect(titles).toHaveLength(CONVERTER_NAMES.length + 1)
    expect(titles.filter((title) => typeof title !== "string" || title.trim() === "")).toEqual([])
    expect(new Set(titles).size).toBe(titles.length)
    expect(titles.filter((title) => !CONVERTER_NAMES.some((name) => String(title).includes(name)))).toHaveLength(1)
  })

  it("requires convert of every converter but string, the default", () => {
    const columnSources = fieldSources().filter((member) => (member["properties"] as Node | undefined)?.["convert"] !== undefined)
    expect(columnSources).toHaveLength(CONVERTER_NAMES.length)
    for (const member of columnSources) {
      const [name] = ((member["properties"] as Record<string, Node>)["convert"]!["enum"]) as [string]
      expect((member["required"] as ReadonlyArray<string> | undefined ?? []).includes("convert"), name).toBe(name !== "string")
    }
  })
})

describe("nearestName and didYouMean", () => {
  it("allows up to a third of the name's length in edits, and at least two", () => {
    expect(nearestName("abcdefghi", ["abcdefghijkl"])).toBe("abcdefghijkl")
    expect(nearestName("abcdef", ["abcdefghi"])).toBeUndefined()
    expect(nearestName("ab", ["abcd"])).toBe("abcd")
    expect(nearestName("ab", ["abcde"])).toBeUndefined()
  })

  it("compares without case, and answers the first of equally near names", () => {
    expect(nearestName("GROUPBY", ["groupBy"])).toBe("groupBy")
    expect(nearestName("ab", ["ac", "ad"])).toBe("ac")
    expect(nearestName("ab", ["ad", "ac"])).toBe("ad")
  })

  it("suggests the nearest name, or says nothing", () => {
    expect(didYouMean("Qualifer", ["Kundennummer", "Qualifier"])).toBe(" (did you mean Qualifier?)")
    expect(didYouMean("zzzzzz", ["Qualifier"])).toBe("")
  })
})

describe("the formats a mapping may name", () => {
  it.each([
    ["dd.MM.yyyy HH:mm", "01.10.2024 12:00"],
    ["dd.MM.yyyy HH:mm:ss", "01.10.2024 12:00:00"],
    ["yyyy-MM-dd HH:mm:ss", "2024-10-01 12:00:00"],
    ["yyyy-MM-ddTHH:mm:ss", "2024-10-01T12:00:00"],
    ["yyyyMMddHHmmss", "20241001120000"]
  ])("datetime %s is accepted and read", (format, cell) => {
    const spec = {
      endpoint: "notes",
      fields: { import_supplier: { value: "SW" }, external_account_number: { value: "KD-1" } },
      collections: [{ path: "notes", fields: { body: { value: "x" }, created_at: { column: "Am", convert: "datetime", options: { format, timeZone: "Europe/Berlin" } } } }]
    }
    expect(mappingProblems(spec)).toEqual([])
    const { payloads } = mapRecords(defineMapping(spec as never), [{ Am: cell }])
    expect(payloads.map((p) => (p.payload as unknown as { notes: Array<{ created_at: string }> }).notes[0]?.created_at)).toEqual(["2024-10-01T12:00:00+02:00"])
  })

  it.each([["dd.MM.yyyy", "01.10.2024"], ["yyyyMMdd", "20241001"], ["yyyy-MM-dd", "2024-10-01"]])("date %s is accepted and read", (format, cell) => {
    const spec = {
      endpoint: "transactions",
      fields: { import_supplier: { value: "SW" }, external_account_number: { value: "KD-1" } },
      collections: [{ path: "transactions", fields: { transaction_id: { value: "T" }, amount: { value: 1 }, type: { value: "CHARGE" }, transaction_date: { column: "Am", convert: "date", options: { format } } } }]
    }
    expect(mappingProblems(spec)).toEqual([])
    const { payloads } = mapRecords(defineMapping(spec as never), [{ Am: cell }])
    expect(payloads.map((p) => (p.payload as unknown as { transactions: Array<{ transaction_date: string }> }).transactions[0]?.transaction_date)).toEqual(["2024-10-01"])
  })
})
