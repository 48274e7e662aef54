/**
 * The three reports of `validate`: `text` for people, `json` (one document) and `ndjson` (one line per
 * invalid or unparseable record, streamed) for programs.
 *
 * @module
 */
import type { Counts } from "./batch.js"
import type { LocatedProblem, Tally } from "./tally.js"
import { formatCount, type Styles } from "./terminal.js"

/** The report formats. */
export const REPORT_FORMATS = ["text", "json", "ndjson"] as const
/** A report format. */
export type ReportFormat = (typeof REPORT_FORMATS)[number]

/** Where a problem is: `file:line` or `file:line:column`. */
export const where = (p: LocatedProblem): string => `${p.file}:${p.line}${p.column !== undefined ? `:${p.column}` : ""}`

/** One `ndjson` report line (without the line break). */
export const ndjsonLine = (p: LocatedProblem): string =>
  JSON.stringify({
    file: p.file,
    line: p.line,
    ...(p.column !== undefined ? { column: p.column } : {}),
    endpoint: p.endpoint,
    error: p.error,
    warnings: p.warnings
  })

const sorted = (counts: Counts): Array<[string, number]> =>
  Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))

const ordered = (counts: Counts): Counts => Object.fromEntries(sorted(counts))

/** The `json` report: one document. */
export const jsonReport = (tally: Tally): string =>
  JSON.stringify({
    ok: tally.ok,
    totals: tally.totals,
    truncated: tally.truncated,
    byCode: ordered(tally.byCode),
    byAttr: ordered(tally.byAttr),
    warningsByCode: ordered(tally.warningsByCode),
    byEndpoint: ordered(tally.byEndpoint),
    results: tally.listed.map((p) => ({
      file: p.file,
      line: p.line,
      ...(p.column !== undefined ? { column: p.column } : {}),
      endpoint: p.endpoint,
      error: p.error,
      warnings: p.warnings
    })),
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

/** The `text` report: totals, counts by code and attr pattern, then the first problems. */
export const textReport = (tally: Tally, s: Styles, options: { readonly showEndpoint: boolean }): string => {
  const t = tally.totals
  const out: Array<string> = []
  const count = (label: string, n: number, colour: (text: string) => string): string =>
    `${label} ${n > 0 ? colour(formatCount(n)) : formatCount(n)}`
  out.push(
    [
      `${s.bold("records")} ${formatCount(t.records)}`,
      count("valid", t.valid, s.green),
      count("invalid", t.invalid, s.red),
      count("unparseable", t.unparseable, s.red),
      count("warnings", t.warnings, s.yellow)
    ].join("  ")
  )
  if (options.showEndpoint) out.push(...table("records by endpoint", tally.byEndpoint, s))
  out.push(...table("errors by code", tally.byCode, s))
  out.push(...table("errors by attr", tally.byAttr, s))
  out.push(...table("warnings by code", tally.warningsByCode, s))
  if (tally.listed.length > 0) {
    out.push("", s.bold(tally.truncated ? `first ${tally.listed.length} problem records` : "problem records"))
    for (const p of tally.listed) {
      const endpoint = options.showEndpoint ? ` ${s.cyan(`[${p.endpoint ?? "?"}]`)}` : ""
      for (const e of p.error.errors) out.push(`${where(p)}${endpoint} ${e.attr} ${s.red(e.code)} ${e.detail}`)
    }
  }
  if (tally.truncated) {
    const left = tally.totals.invalid + tally.totals.unparseable - tally.listed.length
    out.push(s.dim(`… ${formatCount(left)} more problem records not listed (truncated: raise --max-errors to see them)`))
  }
  const unreadable = tally.unreadable.length > 0
    ? ` (${tally.unreadable.length} ${tally.unreadable.length === 1 ? "file" : "files"} could not be read: ${tally.unreadable.map((u) => u.file).join(", ")})`
    : ""
  out.push("", tally.ok ? s.green("ok: every record is valid") : s.red(`not ok${unreadable}`))
  return out.join("\n")
}
