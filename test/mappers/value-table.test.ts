/**
 * Value tables of a field source: codes of the export translated into the payload's values, for one
 * column or a combination, before or after a converter; unknown codes rejected (or defaulted); tables
 * read from CSV and JSON files beside the mapping.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, mappingJsonSchema, mapRecords } from "../../src/index.js"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { readField } from "../../src/mappers/field-source.js"
import { parseCsvTable, resolveValueTables } from "../../src/readers/lookup/value-table-files.js"

const TYPES = { ZAHL: "PAYMENT", FORD: "CHARGE" }

const transactions = (fields: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  defineMapping({
    endpoint: "transactions",
    fields: { import_supplier: { value: "SW" }, external_account_number: "Konto", ...top },
    collections: [{ path: "transactions", fields: { transaction_id: "Beleg", amount: { value: 10 }, transaction_date: { value: "2024-02-01" }, type: { value: "CHARGE" }, ...fields } }]
  } as never)

const row = (cells: Record<string, string>) => ({ Konto: "K1", Beleg: "B1", ...cells })

describe("a value table on one column", () => {
  it("translates a known code and rejects an unknown one as unknown_value, naming the value and the known ones", () => {
    const source = { column: "Buchungsart", values: TYPES }
    expect(readField(source, { Buchungsart: " ZAHL " })).toEqual({ ok: true, value: "PAYMENT", stated: true })
    expect(readField(source, { Buchungsart: "GUT" })).toEqual({
      ok: false,
      column: "Buchungsart",
      code: "unknown_value",
      detail: 'Buchungsart "GUT" is not in the value table (known: "FORD", "ZAHL")'
    })
  })

  it("leaves the field out for a blank cell, default or not, unless the table has the empty key", () => {
    expect(readField({ column: "A", values: TYPES, default: "CHARGE" }, { A: "  " })).toEqual({ ok: true, value: undefined, stated: false })
    expect(readField({ column: "A", values: { "": "CHARGE" } }, { A: "" })).toEqual({ ok: true, value: "CHARGE", stated: false })
  })

  it("gives the default for an unknown code, and leaves the field out for a default of null", () => {
    expect(readField({ column: "A", values: TYPES, default: "CHARGE" }, { A: "GUT" })).toEqual({ ok: true, value: "CHARGE", stated: true })
    expect(readField({ column: "A", values: TYPES, default: null }, { A: "GUT" })).toEqual({ ok: true, value: undefined, stated: true })
    expect(readField({ column: "A", values: { X: null } }, { A: "X" })).toEqual({ ok: true, value: undefined, stated: true })
  })

  it("treats keys such as __proto__ and constructor as any other key", () => {
    const source = { column: "A", values: JSON.parse('{"__proto__": "P"}') as Record<string, unknown> }
    expect(readField(source, { A: "__proto__" })).toEqual({ ok: true, value: "P", stated: true })
    expect(readField(source, { A: "constructor" })).toMatchObject({ ok: false, code: "unknown_value" })
  })

  it("passes the table's value through the converter, or looks up the converted value", () => {
    expect(readField({ column: "A", convert: "decimal", options: { locale: "de" }, values: { H: "1,5", S: "-1,5" } }, { A: "S" })).toEqual({ ok: true, value: "-1.5", stated: true })
    const byNumber = { column: "Mandant", convert: "integer", lookup: "converted", values: { "1000": "SW_NORD" } } as const
    expect(readField(byNumber, { Mandant: "01000" })).toEqual({ ok: true, value: "SW_NORD", stated: true })
    expect(readField(byNumber, { Mandant: "2000" })).toMatchObject({ ok: false, code: "unknown_value", detail: 'Mandant "2000" is not in the value table (known: "1000")' })
    expect(readField({ column: "D", convert: "date", lookup: "converted", values: { "2024-02-01": "Q1" } }, { D: "01.02.2024" })).toEqual({ ok: true, value: "Q1", stated: true })
  })

  it("says when a table names more than twenty known values, how many more", () => {
    const values = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`K${String(i).padStart(2, "0")}`, "V"]))
    const out = readField({ column: "A", values }, { A: "X" })
    expect(out).toMatchObject({ ok: false, code: "unknown_value" })
    expect(out.ok ? "" : out.detail).toMatch(/"K19" and 5 more\)$/u)
  })
})

describe("a value table on a combination of columns", () => {
  const source = { columns: ["Buchungsart", "Zahlweg"], values: { "ZAHL|LS": "DD_REGULAR_COLLECTION", "ZAHL|": "BANK_TRANSFER" } }

  it("looks up the trimmed cells joined by |, a blank cell as empty", () => {
    expect(readField(source, { Buchungsart: "ZAHL", Zahlweg: " LS" })).toEqual({ ok: true, value: "DD_REGULAR_COLLECTION", stated: true })
    expect(readField(source, { Buchungsart: "ZAHL", Zahlweg: "" })).toEqual({ ok: true, value: "BANK_TRANSFER", stated: true })
    expect(readField(source, { Buchungsart: "FORD", Zahlweg: "LS" })).toMatchObject({ ok: false, column: "Buchungsart+Zahlweg", code: "unknown_value", detail: expect.stringContaining('"FORD|LS"') })
    expect(readField(source, { Buchungsart: "", Zahlweg: "" })).toEqual({ ok: true, value: undefined, stated: false })
  })

  it("maps a payment's type from two columns in a whole mapping", () => {
    const mapping = transactions({ type: { column: "Art", values: TYPES }, payment_type: { ...source, default: null } })
    const { payloads, rejected } = mapRecords(mapping, [row({ Art: "ZAHL", Buchungsart: "ZAHL", Zahlweg: "LS" }), row({ Art: "FORD", Buchungsart: "FORD", Zahlweg: "" })])
    expect(rejected).toEqual([])
    expect(payloads.map((p) => (p.payload as unknown as { transactions: Array<Record<string, unknown>> }).transactions[0])).toEqual([
      expect.objectContaining({ type: "PAYMENT", payment_type: "DD_REGULAR_COLLECTION" }),
      expect.not.objectContaining({ payment_type: expect.anything() })
    ])
  })
})

describe("a value table on a top-level field", () => {
  it("gives import_supplier from a Mandant column, and rejects the row of an unknown Mandant", () => {
    const mapping = transactions({}, { import_supplier: { column: "Mandant", values: { "1000": "SW_NORD", "2000": "SW_SUED" } } })
    const { payloads, rejected } = mapRecords(mapping, [row({ Mandant: "1000" }), row({ Mandant: "2000", Beleg: "B2" }), row({ Mandant: "3000", Beleg: "B3" })])
    expect(payloads.map((p) => (p.payload as { import_supplier: string }).import_supplier)).toEqual(["SW_NORD", "SW_SUED"])
    expect(rejected).toEqual([{ sourceRows: [2], errors: [expect.objectContaining({ attr: "import_supplier", code: "unknown_value", column: "Mandant" })] }])
  })
})

describe("the mapping format of value tables", () => {
  it("refuses default or lookup without values, a date-only format without time, and tables a converter cannot read", () => {
    const problems = mappingProblems({
      endpoint: "notes",
      fields: {
        a: { column: "x", default: 1 },
        b: { column: "y", convert: "datetime", options: { format: "dd.MM.yyyy" } },
        c: { column: "z", convert: "integer", values: { a: [1] } },
        d: { column: "w", lookup: "sideways", values: {} }
      }
    })
    expect(problems.map((p) => [p.at, p.code])).toEqual([
      ["fields.a", "invalid_mapping"],
      ["fields.b", "invalid_mapping"],
      ["fields.c", "invalid_mapping"],
      ["fields.d.lookup", "invalid_choice"]
    ])
    expect(problems[1]!.detail).toContain("set options.time")
  })

  it("accepts a { file } table in a mapping file, but defineMapping wants it read", () => {
    const spec = { endpoint: "notes", fields: { "notes.0.body": { column: "x", values: { file: "codes.csv" } } } }
    expect(mappingProblems(spec)).toEqual([])
    expect(() => defineMapping(spec as never)).toThrow(/unread_value_table|not read yet/u)
  })

  it("describes values, default and lookup to editors", () => {
    const text = JSON.stringify(mappingJsonSchema())
    for (const key of ["values", "default", "lookup", "file"]) expect(text, key).toContain(`"${key}":{`)
    expect(text).toContain("next-start")
  })
})

describe("value tables in files", () => {
  const files: Record<string, string> = {
    "codes/art.csv": "\uFEFFBuchungsart;type\r\nZAHL;PAYMENT\r\n\r\n\"FORD\";\"CHARGE\"\r\n",
    "codes/pay.json": '{ "ZAHL|LS": "DD_REGULAR_COLLECTION", "ZAHL|": null }',
    "codes/comma.csv": "from,to\n\"a,b\",\"say \"\"hi\"\"\"\n"
  }
  const read = (file: string): string => {
    const text = files[file]
    if (text === undefined) throw new Error(`ENOENT: no such file ${file}`)
    return text
  }

  it("reads CSV (; or , with a header, quotes, BOM, CRLF) and JSON tables into the mapping, at every level", async () => {
    const spec = {
      endpoint: "transactions",
      fields: { import_supplier: { column: "M", values: { file: "codes/comma.csv" } } },
      collections: [{ path: "transactions", fields: { type: { column: "A", values: { file: "codes/art.csv" } }, payment_type: { columns: ["A", "W"], values: { file: "codes/pay.json" } } } }]
    }
    const { spec: resolved, problems } = await resolveValueTables(spec, read)
    expect(problems).toEqual([])
    expect(resolved).toEqual({
      endpoint: "transactions",
      fields: { import_supplier: { column: "M", values: { "a,b": 'say "hi"' } } },
      collections: [{ path: "transactions", fields: { type: { column: "A", values: { ZAHL: "PAYMENT", FORD: "CHARGE" } }, payment_type: { columns: ["A", "W"], values: { "ZAHL|LS": "DD_REGULAR_COLLECTION", "ZAHL|": null } } } }]
    })
    expect(spec.collections[0]!.fields.type.values).toEqual({ file: "codes/art.csv" })
  })

  it.each([
    ["a duplicate code, with both lines", "from;to\nA;1\nB;2\nA;3\n", "codes/t.csv:4: \"A\" is already in the table (line 2)"],
    ["a line of three cells", "from;to\nA;1;x\n", "codes/t.csv:2: 3 cells; a value table has two columns (value;result)"],
    ["an empty value", "from;to\n\nA;\n", "codes/t.csv:3: \"A\" has an empty value (to leave a field out, use a JSON table with null)"],
    ["a quote not closed", "from;to\n\"A;1\n", "codes/t.csv:2: a quote is not closed, or text follows its closing quote"],
    ["a header of one column", "codes\nA\n", "codes/t.csv:1: the header needs two columns separated by ; , or a tab (such as from;to)"]
  ])("refuses a CSV table with %s, naming the file and line", (_, text, detail) => {
    expect(parseCsvTable("codes/t.csv", text)).toEqual({ ok: false, code: "invalid_value_table", detail })
  })

  it("names the field, the file and the line of a table that cannot be read or parsed", async () => {
    const spec = {
      endpoint: "notes",
      fields: { a: { column: "x", values: { file: "missing.csv" } }, b: { column: "y", values: { file: "bad.json" } }, c: { column: "z", values: { file: "codes.txt" } } },
      collections: [{ path: "notes", fields: { body: { column: "y", values: { file: "list.json" } } } }]
    }
    const texts: Record<string, string> = { "bad.json": '{\n  "A": 1,\n}', "list.json": "[1]" }
    const { problems } = await resolveValueTables(spec, (f) => {
      if (texts[f] === undefined) throw new Error(`ENOENT: ${f}`)
      return texts[f]
    })
    expect(problems).toEqual([
      { at: "fields.a.values", code: "unreadable_value_table", detail: "cannot read missing.csv: ENOENT: missing.csv" },
      { at: "fields.b.values", code: "invalid_value_table", detail: expect.stringMatching(/^bad\.json:3: not valid JSON/u) },
      { at: "fields.c.values", code: "invalid_value_table", detail: "codes.txt: a value table file is .csv or .json" },
      { at: "collections.0.fields.body.values", code: "invalid_value_table", detail: "list.json:1: a JSON value table is one object (what the export says → the value)" }
    ])
  })
})

describe("a JSON value table with a code written twice", () => {
  const resolve = async (text: string) => {
    const spec = { endpoint: "transactions", fields: { type: { column: "A", values: { file: "codes/t.json" } } } }
    return resolveValueTables(spec, () => text)
  }

  it("is refused, naming the file and the code, instead of keeping the last value", async () => {
    const { problems } = await resolve('{\n  "ZAHL": "PAYMENT",\n  "FORD": "CHARGE",\n  "ZAHL": "CHARGE"\n}')
    expect(problems).toEqual([{ at: "fields.type.values", code: "invalid_value_table", detail: 'codes/t.json: "ZAHL" is written twice in one object (JSON would keep the last value without a word)' }])
    // Written with an escape, it is the same code; inside a value, the same loss.
    expect((await resolve('{"ZAHL": 1, "\\u005AAHL": 2}')).problems.map((p) => p.detail)).toEqual(['codes/t.json: "ZAHL" is written twice in one object (JSON would keep the last value without a word)'])
    expect((await resolve('{"A": {"x": 1, "x": 2}}')).problems.map((p) => p.detail)).toEqual(['codes/t.json: "x" is written twice in one object (JSON would keep the last value without a word)'])
  })

  it("a table whose codes are all different is read as written (property)", async () => {
    const code = fc.constantFrom("ZAHL", "FORD", "GUT", "LS", "", "__proto__")
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(code, fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 }), async (entries) => {
      const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}`
      const { spec, problems } = await resolve(text)
      const codes = entries.map(([k]) => k)
      if (new Set(codes).size === codes.length) {
        expect(problems).toEqual([])
        expect(Object.entries((spec as { fields: { type: { values: Record<string, unknown> } } }).fields.type.values)).toEqual(entries)
      } else expect(problems.map((p) => p.code)).toEqual(["invalid_value_table"])
    }))
  })
})

describe("property: a value table never lets a value outside it reach a payload", () => {
  const code = fc.oneof(fc.constantFrom("A", "B", "ZAHL", "FORD", " A ", "a", "", "__proto__", "toString"), fc.string({ maxLength: 4 }))

  it("maps each row to the table's value of its trimmed cell, the default, or rejects it as unknown_value", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }).filter((k) => k === k.trim()), fc.string({ minLength: 1, maxLength: 6 }).filter((v) => v.trim() === v && v !== ""), { maxKeys: 6 }),
        fc.array(code, { minLength: 1, maxLength: 12 }),
        fc.option(fc.constantFrom("DEFAULT", null), { nil: undefined }),
        (table, cells, fallback) => {
          const source = { column: "Code", values: table, ...(fallback !== undefined ? { default: fallback } : {}) }
          const mapping = transactions({ reason: source })
          const rows = cells.map((c, i) => row({ Code: c, Beleg: `B${i}` }))
          const { payloads, rejected } = mapRecords(mapping, rows)
          const allowed = new Set<unknown>([...Object.values(table), ...(typeof fallback === "string" ? [fallback] : [])])
          for (const p of payloads) {
            const reason = (p.payload as unknown as { transactions: Array<{ reason?: unknown }> }).transactions[0]!.reason
            const cell = cells[p.sourceRows[0]!]!.trim()
            if (reason !== undefined) expect(allowed.has(reason)).toBe(true)
            if (Object.hasOwn(table, cell)) expect(reason).toBe(table[cell])
            else if (cell !== "") expect(reason).toBe(fallback ?? undefined)
          }
          for (const r of rejected) {
            const cell = cells[r.sourceRows[0]!]!.trim()
            expect(Object.hasOwn(table, cell) || fallback !== undefined || cell === "").toBe(false)
            expect(r.errors).toEqual([expect.objectContaining({ code: "unknown_value", detail: expect.stringContaining(JSON.stringify(cell)) })])
          }
          expect(payloads.length + rejected.length).toBe(cells.length)
        }
      ),
      { numRuns: 300 }
    )
  })
})
