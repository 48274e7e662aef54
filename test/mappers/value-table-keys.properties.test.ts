/**
 * Property: a value table is accepted exactly when every key of it can be met as written. A key with
 * space around a cell is never met (cells are trimmed before the look-up), and two keys that are one text
 * in two Unicode spellings (composed, decomposed) each meet only the cell spelled as they are: both are
 * refused, inline and in files, and a table that is accepted translates the cell of each key to its value.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { readField } from "../../src/mappers/field-source.js"
import { resolveValueTables } from "../../src/readers/lookup/value-table-files.js"

/** Keys as exports spell them: plain, with space around, composed and decomposed umlauts, two cells. */
const keyArb = fc.oneof(
  fc.constantFrom("ZAHL", "ZAHL ", " ZAHL", "\tFORD", "FORD", "Geb\u00fchr", "Gebu\u0308hr", "\u00c4nderung", "A\u0308nderung", "", " ", "A|B", "A |B"),
  fc.string({ maxLength: 3 }),
  fc.string({ maxLength: 3, unit: fc.constantFrom("a", "u", "\u00fc", "\u0308", " ", "|") })
)

const tableArb = fc.uniqueArray(keyArb, { minLength: 1, maxLength: 5 }).map((keys) => Object.fromEntries(keys.map((k, i) => [k, `V${i}`])))

/** Whether the cell spelled as `key` is translated to the key's value. */
const met = (table: Record<string, string>, key: string): boolean => {
  const outcome = readField({ column: "Code", values: table }, { Code: key })
  return outcome.ok && outcome.value === table[key]
}

const spec = (values: unknown) => ({
  endpoint: "transactions",
  fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
  collections: [{ path: "transactions", fields: { transaction_id: "Beleg", amount: { value: 10 }, transaction_date: { value: "2024-02-01" }, type: { value: "CHARGE" }, reason: { column: "Code", values } } }]
})

describe("value table keys", () => {
  it("an inline table is refused exactly when a key is never met or two keys are one text in two spellings", () => {
    fc.assert(
      fc.property(tableArb, (table) => {
        const keys = Object.keys(table)
        const everyKeyMet = keys.every((k) => met(table, k))
        const twoSpellings = new Set(keys.map((k) => k.normalize("NFC"))).size < keys.length
        const problems = mappingProblems(spec(table))
        expect(problems.length === 0, JSON.stringify(problems)).toBe(everyKeyMet && !twoSpellings)
        for (const p of problems) expect(p).toMatchObject({ at: "collections.0.fields.reason", code: "invalid_mapping" })
      }),
      { numRuns: 400 }
    )
  })

  it("a JSON table file is refused alike, naming the file", async () => {
    await fc.assert(
      fc.asyncProperty(tableArb, async (table) => {
        const keys = Object.keys(table)
        const acceptable = keys.every((k) => met(table, k)) && new Set(keys.map((k) => k.normalize("NFC"))).size === keys.length
        const { problems } = await resolveValueTables(spec({ file: "codes/t.json" }), () => JSON.stringify(table))
        expect(problems.length === 0).toBe(acceptable)
        for (const p of problems) expect(p.detail.startsWith("codes/t.json: the key")).toBe(true)
      }),
      { numRuns: 200 }
    )
  })
})
