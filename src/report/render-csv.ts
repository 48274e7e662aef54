/**
 * The to-do list for the legacy team as CSV (RFC 4180: CRLF line ends, every field quoted when it holds a
 * quote, comma, CR or LF): one row per problem, with its source file and physical lines, supplier,
 * account, kind, code, detail and the raw legacy row when known. Streamed: one row at a time.
 *
 * @module
 */
import type { Problem } from "./report-types.js"

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
  "raw"
] as const satisfies ReadonlyArray<keyof Problem | "kind">

/** One field, quoted when it must be (RFC 4180); the text itself is never changed (the raw row must map again as it is). */
export const csvField = (value: string | number | null): string => {
  if (value === null) return ""
  const text = String(value)
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text
}

/** The header row. */
export const csvHeader = (): string => `${CSV_COLUMNS.join(",")}\r\n`

/** One problem as a row. */
export const csvRow = (p: Problem): string =>
  `${[p.problem, p.endpoint, p.code, p.supplier, p.account, p.source_file, p.source_lines, p.payload_file, p.payload_line, p.detail, p.raw].map(csvField).join(",")}\r\n`
