/**
 * The to-do list for the legacy team as CSV (RFC 4180: CRLF line ends, every field quoted when it holds a
 * quote, comma, CR or LF): one row per problem, with its source file and physical lines, supplier,
 * account, kind, code, detail, the raw legacy row when known, and what to do about it. Streamed: one row
 * at a time.
 *
 * It is made to be opened in a spreadsheet, so no cell may start like a formula: a value that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's list for CSV injection), or with the full-width
 * `＝＋－＠` some spreadsheets read alike, is written with one `'` before it, which makes it text. A value
 * that starts with `'` itself gains one too, so that one rule gives every value back exactly, the raw row
 * included: a cell that starts with `'` stands for the rest of the cell.
 *
 * @module
 */
import { adviceFor } from "./problem-advice.js"
import type { AdvisedProblem, Problem } from "./report-types.js"

export const CSV_COLUMNS = [
  "problem",
  "kind",
  "code",
  "supplier",
  "account",
  "source_file",
  "source_lines",
  "payload_file",
  "payload_line",
  "detail",
  "raw",
  "advice"
] as const satisfies ReadonlyArray<keyof AdvisedProblem | "kind">

/** What a spreadsheet may read as the start of a formula, and the quote mark that says "text" (see the module). */
const NEEDS_QUOTE_MARK = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20']/u

/**
 * One field: with a leading `'` when it starts like a formula or with `'` (so removing one leading `'`
 * gives the value back exactly: the raw row must map again as it is), then quoted when it must be
 * (RFC 4180), and always when it gained the quote mark.
 *
 * @example
 * csvField("=SUM(A1:A9)") // => `"'=SUM(A1:A9)"`
 * csvField("'quoted") // => `"''quoted"`
 * csvField("KD-1") // => "KD-1"
 */
export const csvField = (value: string | number | null): string => {
  if (value === null) return ""
  const text = String(value)
  if (NEEDS_QUOTE_MARK.test(text)) return `"'${text.replace(/"/gu, '""')}"`
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text
}

/** The header row. */
export const csvHeader = (): string => `${CSV_COLUMNS.join(",")}\r\n`

/** One problem as a row, with what to do about it. */
export const csvRow = (p: Problem): string =>
  `${[p.problem, p.endpoint, p.code, p.supplier, p.account, p.source_file, p.source_lines, p.payload_file, p.payload_line, p.detail, p.raw, adviceFor(p.problem, p.code)].map(csvField).join(",")}\r\n`
