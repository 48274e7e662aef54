/**
 * The one CSV parser: a table written the way spreadsheets write it (cells quoted when they hold the
 * delimiter or a quote, quotes doubled) reads back cell for cell, line for line.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { csvTable } from "../../src/readers/csv/csv-record.js"

const cell = fc.string({ unit: fc.constantFrom("a", "Z", "ä", " ", ";", "\"", ",", "1", "\t"), maxLength: 6 })
const quoted = (text: string): string => (/[;"]/u.test(text) || text.trim() !== text ? `"${text.replaceAll("\"", "\"\"")}"` : text)

describe("csvTable", () => {
  it("reads back every cell of a table written with quotes where needed, blank lines skipped", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 8 }), fc.boolean(), (rows, crlf) => {
        const lines = ["from;to", ...rows.map((cells) => cells.map(quoted).join(";"))]
        const text = `\uFEFF${lines.join(crlf ? "\r\n" : "\n")}\n`
        const table = csvTable(text)
        expect(table.delimiter).toBe(";")
        const read = table.rows.filter((r) => r.line > 1)
        const expected = rows.flatMap((cells, i) => (lines[i + 1]!.trim() === "" ? [] : [{ line: i + 2, cells }]))
        expect(read).toEqual(expected)
      })
    )
  })

  it("locates a quote left open or followed by text, and answers no delimiter for a header without one", () => {
    const table = csvTable("a;b\n\"open;x\nok;\"q\"x\n")
    expect(table.rows).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, error: "a quote opened on this line is never closed" },
      { line: 3, error: "unexpected \"x\" after a closing quote (a quote inside a quoted field is written twice)" }
    ])
    expect(csvTable("single column\nx\n")).toEqual({ delimiter: undefined, rows: [] })
  })
})
