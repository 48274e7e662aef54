/**
 * The three reports of `validate`: `text` for people, `json` (one document) and `ndjson` (one line per
 * invalid or unparseable record, per valid record with warnings, and per file without records,
 * streamed) for programs. `--quiet` keeps only the text summary line.
 *
 * @module
 */
import type { ApiError } from "../index.js"
import type { Counts } from "../validation/run/index.js"
import { type LocatedProblem, type LocatedWarned, type Location, noRecordsMessage, type Tally } from "./tally.js"
import { formatCount, type Styles } from "./terminal.js"

/** The report formats. */
export const REPORT_FORMATS = ["text", "json", "ndjson"] as const
/** A report format. */
export type ReportFormat = (typeof REPORT_FORMATS)[number]

/** Where a record is: `file:line` or `file:line:column`. */
export const where = (p: Location): string => `${p.file}:${p.line}${p.column !== undefined ? `:${p.column}` : ""}`

const located = (p: Location) => ({ file: p.file, line: p.line, ...(p.column !== undefined ? { column: p.column } : {}) })

/** A listed problem record as data: `kind` is `invalid` or `unparseable`. */
const problemData = (p: LocatedProblem) => ({ kind: p.kind, ...located(p), endpoint: p.endpoint, error: p.error, warnings: p.warnings })

/** A listed valid record with warnings as data: `kind` is `warned`, and `error` is null. */
const warnedData = (w: LocatedWarned) => ({ kind: "warned" as const, ...located(w), endpoint: w.endpoint, error: null, warnings: w.warnings })

/** One `ndjson` report line for a problem record (without the line break). */
export const ndjsonLine = (p: LocatedProblem): string => JSON.stringify(problemData(p))

/** One `ndjson` report line for a valid record with warnings. */
export const ndjsonWarnedLine = (w: LocatedWarned): string => JSON.stringify(warnedData(w))

/** One `ndjson` report line for a file without records. */
export const ndjsonEmptyLine = (file: string): string => JSON.stringify({ kind: "empty", file, detail: noRecordsMessage(file) })

const sorted = (counts: Counts): Array<[string, number]> =>
  Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))

const ordered = (counts: Counts): Counts => Object.fromEntries(sorted(counts))

/** The `json` report: one document. */
export const jsonReport = (tally: Tally): string =>
  JSON.stringify({
    ok: tally.ok,
    totals: tally.totals,
    truncated: tally.truncated,
    warningsTruncated: tally.warningsTruncated,
    byCode: ordered(tally.byCode),
    byAttr: ordered(tally.byAttr),
    warningsByCode: ordered(tally.warningsByCode),
    byEndpoint: ordered(tally.byEndpoint),
    results: tally.listed.map(problemData),
    warned: tally.warned.map(warnedData),
    empty: tally.empty,
    unreadable: tally.unreadable
  }, null, 2)

const table = (title: string, counts: Counts, s: Styles, limit = 25): Array<string> => {
  const rows = sorted(counts)
  if (rows.length === 0) return []
  const shown = rows.slice(0, limit)
  const width = Math.max(...shown.map(([key]) => key.length))
  const out = ["", s.bold(title)]
  for (const [key, n] of shown) out.push(`  ${key.padEnd(width)}  ${formatCount(n).padStart(9)}`)
  if (rows.length > limit) out.push(s.dim(`  … ${rows.length - limit} more`))
  return out
}

/** The first line of the `text` report: the totals (all `--quiet` prints). */
export const summaryLine = (tally: Tally, s: Styles): string => {
  const t = tally.totals
  const count = (label: string, n: number, colour: (text: string) => string): string =>
    `${label} ${n > 0 ? colour(formatCount(n)) : formatCount(n)}`
  return [
    `${s.bold("records")} ${formatCount(t.records)}`,
    count("valid", t.valid, s.green),
    count("invalid", t.invalid, s.red),
    count("unparseable", t.unparseable, s.red),
    count("warnings", t.warnings, s.yellow)
  ].join("  ")
}

/** The last line of the `text` report: ok, or not ok and why (beyond the invalid records counted above). */
const verdict = (tally: Tally, s: Styles): string => {
  if (tally.ok) return s.green(tally.totals.warnings > 0 ? "ok: every record is valid (with warnings)" : "ok: every record is valid")
  const n = tally.unreadable.length
  const reasons = [
    ...(n > 0 ? [`${n} ${n === 1 ? "file" : "files"} could not be read: ${tally.unreadable.map((u) => u.file).join(", ")}`] : []),
    ...tally.failingEmpty.map(noRecordsMessage),
    ...(tally.failingWarnings ? [`${formatCount(tally.totals.warnings)} ${tally.totals.warnings === 1 ? "warning" : "warnings"} and --fail-on-warnings`] : [])
  ]
  return s.red(`not ok${reasons.length > 0 ? ` (${reasons.join("; ")})` : ""}`)
}

/** The `text` report: totals, counts by endpoint, code and attr pattern, then the first problems and warnings. */
export const textReport = (tally: Tally, s: Styles, options: { readonly showEndpoint: boolean }): string => {
  const out: Array<string> = [summaryLine(tally, s)]
  if (options.showEndpoint) out.push(...table("records by endpoint", tally.byEndpoint, s))
  out.push(...table("errors by code", tally.byCode, s))
  out.push(...table("errors by attr", tally.byAttr, s))
  out.push(...table("warnings by code", tally.warningsByCode, s))
  const endpointOf = (endpoint: string | null): string => (options.showEndpoint ? ` ${s.cyan(`[${endpoint ?? "?"}]`)}` : "")
  const warningLines = (at: Location, endpoint: string | null, warnings: ReadonlyArray<ApiError>): Array<string> =>
    warnings.map((w) => `${where(at)}${endpointOf(endpoint)} ${w.attr} ${s.yellow(w.code)} ${w.detail} ${s.dim("(warning)")}`)
  if (tally.listed.length > 0) {
    out.push("", s.bold(tally.truncated ? `first ${tally.listed.length} problem records` : "problem records"))
    for (const p of tally.listed) {
      for (const e of p.error.errors) out.push(`${where(p)}${endpointOf(p.endpoint)} ${e.attr} ${s.red(e.code)} ${e.detail}`)
      out.push(...warningLines(p, p.endpoint, p.warnings))
    }
  }
  if (tally.truncated) {
    const left = tally.totals.invalid + tally.totals.unparseable - tally.listed.length
    out.push(s.dim(`… ${formatCount(left)} more problem records not listed (truncated: raise --max-errors to see them)`))
  }
  if (tally.warned.length > 0) {
    out.push("", s.bold(tally.warningsTruncated ? `first ${tally.warned.length} valid records with warnings` : "valid records with warnings"))
    for (const w of tally.warned) out.push(...warningLines(w, w.endpoint, w.warnings))
  }
  if (tally.warningsTruncated) {
    const left = tally.warnedRecords - tally.warned.length
    out.push(s.dim(`… ${formatCount(left)} more valid records with warnings not listed (truncated: raise --max-warnings to see them)`))
  }
  // Files without records that fail the run are named in the verdict.
  if (tally.policy.allowEmpty && tally.empty.length > 0) out.push("", ...tally.empty.map((file) => `${noRecordsMessage(file)} (allowed: --allow-empty)`))
  out.push("", verdict(tally, s))
  return out.join("\n")
}
