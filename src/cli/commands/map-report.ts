/**
 * `map`'s report: the check that every line of the input ended in one payload, one rejection or one
 * record left out on purpose (counted by outcome and reason, no failure: a file of records all outside
 * the selection maps to no payload and exits 0, since each is listed with its reason), the
 * summary (text on stderr, or JSON on stdout), and the exit code.
 *
 * @module
 */
import { EXIT, type ExitCode } from "../../readers/index.js"
import { formatCount, plural, type Styles } from "../terminal.js"
import { type MapOutcomes, type MapWarnings, reasonText, type Reject } from "../../mappers/run/index.js"

/** What `map`'s report covers and how it is given. */
export interface MapReportSettings {
  readonly input: string
  readonly endpoint: string
  readonly headerLine: number | undefined
  readonly format: "text" | "json"
  readonly allowEmpty: boolean
  /** Whether the records left out on purpose are listed somewhere (`--excluded`, the ledger). */
  readonly excludedListed?: boolean | undefined
  readonly styles: Styles
}

/**
 * The records left out on purpose, counted by outcome and reason (nothing when none): not rejects, and no
 * failure; where to list them when nothing does.
 */
const excludedText = (outcomes: MapOutcomes, listed: boolean, s: Styles): string => {
  if (outcomes.rowsExcluded === 0) return ""
  const out = [s.bold(`excluded by outcome and reason (${formatCount(outcomes.rowsExcluded)}):`)]
  for (const [outcome, byReason] of Object.entries(outcomes.excluded)) {
    const reasons = Object.entries(byReason).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    if (reasons.length > 0) out.push(`  ${outcome}: ${reasons.map(([reason, n]) => `${reason} ${formatCount(n)}`).join(", ")}`)
  }
  if (!listed) out.push("  (each with its lines, reason and raw text: --excluded FILE)")
  return `${out.join("\n")}\n`
}

/** The warnings of payloads that went out, counted by code, and where the first ones are (nothing when none). */
const warningsText = (warnings: MapWarnings, s: Styles): string => {
  if (warnings.total === 0) return ""
  const byCode = Object.entries(warnings.byCode).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const out = [s.bold(`warnings by code (${formatCount(warnings.total)}):`), ...byCode.map(([code, n]) => `  ${code} ${formatCount(n)}`)]
  out.push(s.bold(warnings.total > warnings.first.length ? `first ${warnings.first.length} warnings:` : "warnings:"))
  for (const w of warnings.first) out.push(`  ${w.file}:${w.lines.join(",")} ${w.attr !== undefined ? `${w.attr} ` : ""}${s.yellow(w.code)} ${w.detail}`)
  return `${out.join("\n")}\n`
}

/**
 * Reports the outcomes of a finished `map` run and returns its exit code.
 */
export const reportMap = (outcomes: MapOutcomes, settings: MapReportSettings): ExitCode => {
  const { input, endpoint, headerLine, format, styles: s } = settings
  const { ledger, rowsRead, rowsInPayloads, rowsRejected, rowsExcluded, payloads, blankLines, rejectedByCode, warnings } = outcomes
  const violations = ledger.check()
  const balanced = rowsRead === rowsInPayloads + rowsRejected + rowsExcluded
  if (violations.length > 0 || !balanced) {
    process.stderr.write(
      `data-import: internal error: the run does not account for every line of ${input}: ${[...violations.slice(0, 10), ...(balanced ? [] : [`rows read ${rowsRead} ≠ ${rowsInPayloads} in payloads + ${rowsRejected} rejected + ${rowsExcluded} excluded`])].join("; ")}\n`
    )
    return EXIT.internal
  }
  const empty = rowsRead === 0 && !settings.allowEmpty
  if (format === "json") {
    process.stdout.write(`${JSON.stringify({
      ok: rowsRejected === 0 && !empty,
      file: input,
      endpoint,
      headerLine: headerLine ?? null,
      rowsRead,
      rowsInPayloads,
      rowsRejected,
      rowsExcluded,
      payloads,
      linesRead: ledger.linesRead,
      linesInPayloads: ledger.linesInPayloads,
      linesRejected: ledger.linesRejected,
      linesExcluded: ledger.linesExcluded,
      blankLines,
      rejectedByCode,
      excluded: outcomes.excluded,
      warnings: warnings.total,
      warningsByCode: warnings.byCode,
      firstWarnings: warnings.first
    })}\n`)
  }
  if (empty) {
    process.stderr.write(`${s.red(`no rows in ${input}`)}${headerLine !== undefined ? ` (only the header, line ${headerLine})` : ""}: an empty export is almost always a broken one; use --allow-empty if it is meant\n`)
    return EXIT.invalid
  }
  const summary = `${input}: ${plural(rowsRead, "row")} read = ${formatCount(rowsInPayloads)} in ${plural(payloads, "payload")} (${endpoint}) + ${formatCount(rowsRejected)} rejected` +
    `${rowsExcluded > 0 ? ` + ${formatCount(rowsExcluded)} excluded` : ""}` +
    `${headerLine !== undefined && headerLine !== 1 ? `; header on line ${headerLine}` : ""}${blankLines > 0 ? `; ${plural(blankLines, "blank line")} skipped` : ""}` +
    `${warnings.total > 0 ? `; ${plural(warnings.total, "warning")}` : ""}`
  if (format === "text") {
    process.stderr.write(warningsText(warnings, s))
    process.stderr.write(excludedText(outcomes, settings.excludedListed === true, s))
    process.stderr.write(`${rowsRejected > 0 ? s.red(summary) : summary}\n`)
  }
  return rowsRejected > 0 ? EXIT.invalid : EXIT.ok
}

/** A reject on stderr: one line per error, `file:lines [column, attr] code detail`, the code in red. */
export const printReject = (input: string, r: Reject, s: Styles): void => {
  for (const e of r.errors) process.stderr.write(`${input}:${r.lines.join(",")} ${reasonText(e, s.red)}\n`)
}
