/**
 * The longest text a report shows in one cell. A rejected row may hold a cell of megabytes (a scanned
 * document pasted into a note, a file without line breaks): shown whole, twenty of them made a report of
 * hundreds of megabytes that took gigabytes to write. Every format but the CSV to-do list shows the
 * first {@link REPORT_CELL_LENGTH} characters and says how many more there are; the ledger and the CSV
 * keep the row whole, to fix and map again.
 *
 * @module
 */
import type { Problem } from "./report-types.js"

/** The most characters of a raw row (or a detail) a report shows, CSV aside: 4,096. */
export const REPORT_CELL_LENGTH = 4096

/**
 * `text` cut to {@link REPORT_CELL_LENGTH} characters, the cut marked with how many more there are (never
 * inside a surrogate pair).
 *
 * @example
 * cutCell("short") // => "short"
 * cutCell("x".repeat(5000)) // => "x".repeat(4096) + "… 904 more characters"
 */
export const cutCell = (text: string): string => {
  if (text.length <= REPORT_CELL_LENGTH) return text
  const high = text.charCodeAt(REPORT_CELL_LENGTH - 1)
  const at = high >= 0xd800 && high <= 0xdbff ? REPORT_CELL_LENGTH - 1 : REPORT_CELL_LENGTH
  return `${text.slice(0, at)}… ${text.length - at} more characters`
}

/**
 * A listed problem with its raw row and detail cut (see {@link cutCell}).
 *
 * @example
 * cutProblem({ detail: "invalid", raw: "x".repeat(4100) } as Problem).raw?.endsWith("x… 4 more characters") // => true
 */
export const cutProblem = (problem: Problem): Problem => ({
  ...problem,
  detail: cutCell(problem.detail),
  raw: problem.raw === null ? null : cutCell(problem.raw)
})
