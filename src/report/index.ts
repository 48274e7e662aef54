/**
 * The report engine, as `data-import report`, `status --journal` and `send`'s closing lists use it: the
 * ledger's queries rendered as text, markdown, CSV and HTML, and keys as people read them. Not part of
 * the package's exports: the CLI's entry to it.
 *
 * @module
 */
export { campaignReport } from "./campaign-report.js"
export { inDoubtCsvHeader, inDoubtCsvRow, inDoubtRows } from "./in-doubt-list.js"
export { csvHeader, csvRow } from "./render-csv.js"
export { renderHtml } from "./render-html.js"
export { renderMarkdown, renderText } from "./render-text.js"
export { exclusionCsvRow, exclusionRows } from "./report-exclusions.js"
export { problemRows } from "./report-problems.js"
export { adviceOfOpen, readSupplierStanding, type SupplierStanding } from "./supplier-standing.js"
export { keyTexts } from "../schemas/endpoints/natural-key-text.js"
