/**
 * One CSV record, the one CSV parser of the project: the export rows `map` reads (with a quoted field over
 * several physical lines), and the small tables beside a mapping (value tables, the account of a
 * location), which are read whole with {@link csvTable}.
 *
 * @module
 */
import { withoutBom } from "../byte-order-mark.js"

/** A physical line as the parser reads it; a line whose bytes were not valid in the encoding says so. */
export type CsvLine = { readonly line: number; readonly text: string } & { readonly undecodable?: true }

/** A record parsed: its cells and the lines it spans, an error, or the need of more lines. */
export type Parsed =
  | { readonly fields: Array<string>; readonly span: number }
  | { readonly error: string }
  | { readonly needMore: true }

const QUOTE = 34

/**
 * Parses one CSV record starting at `lines[start]`. A quote opens a quoted field only at the start of a
 * field (elsewhere it is a character like any other, as spreadsheet exports write `Zähler "defekt"`);
 * a closing quote must be followed by the delimiter or the end of the line.
 */
export const parseRecord = (
  lines: ReadonlyArray<CsvLine>,
  start: number,
  delimiter: string,
  maxLines: number,
  atEnd: boolean,
  columns: number
): Parsed => {
  const first = lines[start]!.text
  if (!first.includes("\"")) return { fields: first.split(delimiter), span: 1 }
  const fields: Array<string> = []
  const d = delimiter.charCodeAt(0)
  let index = start
  let text = first
  let i = 0
  let field = ""
  for (;;) {
    // At the start of a field.
    if (text.charCodeAt(i) === QUOTE) {
      i++
      for (;;) {
        const close = text.indexOf("\"", i)
        if (close === -1) {
          field += text.slice(i)
          const next = lines[index + 1]
          if (next === undefined) return atEnd ? { error: "a quote opened on this line is never closed" } : { needMore: true }
          // A line without a quote that is a whole row by itself is not the middle of a quoted field:
          // the quote opened here is unclosed, and going on would swallow good rows.
          if ("undecodable" in next || "overlong" in next || next.text.includes("\u0000") || index + 1 - start >= maxLines || (!next.text.includes("\"") && isWholeRow(next.text, delimiter, columns))) {
            return { error: "a quote opened on this line is never closed" }
          }
          index++
          text = next.text
          field += "\n"
          i = 0
          continue
        }
        field += text.slice(i, close)
        if (text.charCodeAt(close + 1) === QUOTE) {
          field += "\""
          i = close + 2
          continue
        }
        i = close + 1
        break
      }
      if (i < text.length && text.charCodeAt(i) !== d) {
        return { error: `unexpected ${JSON.stringify(text[i])} after a closing quote (a quote inside a quoted field is written twice)` }
      }
    } else {
      const end = text.indexOf(delimiter, i)
      field = text.slice(i, end === -1 ? text.length : end)
      i = end === -1 ? text.length : end
    }
    fields.push(field)
    field = ""
    if (i >= text.length) return { fields, span: index - start + 1 }
    i++ // the delimiter
    if (i >= text.length) {
      fields.push("")
      return { fields, span: index - start + 1 }
    }
  }
}

/** Whether a line read on its own is a complete row of `columns` cells (or one more, empty). */
const isWholeRow = (text: string, delimiter: string, columns: number): boolean => {
  if (columns <= 1) return false
  const parsed = parseRecord([{ line: 0, text }], 0, delimiter, 1, true, 0)
  if (!("fields" in parsed)) return false
  const n = parsed.fields.length
  return n === columns || (n === columns + 1 && parsed.fields[n - 1] === "")
}

/** A row of a small CSV table: its physical line and cells, or the reason it is not one. */
export type CsvTableRow = { readonly line: number; readonly cells: Array<string> } | { readonly line: number; readonly error: string }

/**
 * A small CSV table read whole (a byte-order mark dropped, blank lines skipped): its delimiter (the first of
 * `delimiters` the header holds, `undefined` when none does) and its rows, the header first, each with its
 * physical line. A quoted field stays on its line.
 *
 * @example
 * csvTable("from;to\nZAHL;\"PAY;MENT\"\n\nFORD;CHARGE\n").rows // => [{ line: 1, cells: ["from", "to"] }, { line: 2, cells: ["ZAHL", "PAY;MENT"] }, { line: 4, cells: ["FORD", "CHARGE"] }]
 */
export const csvTable = (text: string, delimiters: ReadonlyArray<string> = [";", "\t", ","]): { readonly delimiter: string | undefined; readonly rows: Array<CsvTableRow> } => {
  const lines = withoutBom(text).split(/\r?\n/u)
  const delimiter = delimiters.find((d) => (lines[0] ?? "").includes(d))
  if (delimiter === undefined) return { delimiter, rows: [] }
  const rows: Array<CsvTableRow> = []
  lines.forEach((text, i) => {
    if (text.trim() === "") return
    const parsed = parseRecord([{ line: i + 1, text }], 0, delimiter, 1, true, 0)
    rows.push("fields" in parsed ? { line: i + 1, cells: parsed.fields } : { line: i + 1, error: "error" in parsed ? parsed.error : "unreadable" })
  })
  return { delimiter, rows }
}
