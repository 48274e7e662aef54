/**
 * One CSV record: the cells of a row that may span physical lines (a quoted field over several lines), and
 * the row as the reader yields it, with its record made only when it is read.
 *
 * @module
 */
import type { PhysicalLine } from "./physical-lines.js"
import type { CsvHeader, SourceRow } from "./source-rows.js"

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
  lines: ReadonlyArray<PhysicalLine>,
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
          if ("undecodable" in next || next.text.includes("\u0000") || index + 1 - start >= maxLines || (!next.text.includes("\"") && isWholeRow(next.text, delimiter, columns))) {
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

/** The number of cells of a line without quotes. */
export const cellCount = (text: string, delimiter: string): number => {
  let count = 1
  for (let at = text.indexOf(delimiter); at !== -1; at = text.indexOf(delimiter, at + 1)) count++
  return count
}

/** Whether every cell of a line without quotes is blank (the line holds only delimiters and white space). */
export const allCellsBlank = (text: string, delimiter: string): boolean => {
  for (const c of text) if (c !== delimiter && c.trim() !== "") return false
  return true
}

/**
 * A CSV row whose record is made when it is first read: a row of a mapping without `groupBy` goes to be
 * mapped as its text (cut where it is mapped), and its record here is read only for a rejection or a
 * batch mapped again.
 */
export class CsvRow implements SourceRow {
  readonly kind = "row"
  private made: Record<string, unknown> | undefined

  constructor(
    readonly lines: ReadonlyArray<number>,
    readonly raw: string,
    private readonly header: CsvHeader,
    /** The cells; `undefined` for a one-line row without quotes, cut from `raw` when read. */
    private readonly fields: ReadonlyArray<string> | undefined
  ) {}

  get record(): Record<string, unknown> {
    this.made ??= cellsByColumn(this.header.names, this.cells)
    return this.made
  }

  /** The row's cells, in column order. */
  get cells(): ReadonlyArray<string> {
    return this.fields ?? this.raw.split(this.header.delimiter)
  }

  /** The input's delimiter. */
  get delimiter(): string {
    return this.header.delimiter
  }
}

/**
 * A row's cells by column name. A trailing delimiter (SAP) makes one empty extra cell, which names no
 * column; a column named `__proto__` is a cell like any other (assigning it would set the prototype).
 */
export const cellsByColumn = (names: ReadonlyArray<string>, fields: ReadonlyArray<string>): Record<string, unknown> => {
  const record: Record<string, unknown> = {}
  for (let k = 0; k < names.length && k < fields.length; k++) {
    const name = names[k]!
    if (name === "__proto__") Object.defineProperty(record, name, { value: fields[k], enumerable: true, writable: true, configurable: true })
    else record[name] = fields[k]
  }
  return record
}

