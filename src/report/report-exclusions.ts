/**
 * The records the latest map run of each export left out on purpose (`map_exclusions`: skipped outside
 * the reader file's selection, superseded, cancelled), as the ledger's queries answer them: counted by
 * outcome and reason, and listed. They are not problems: no account is incomplete for them, and the CSV
 * lists them after the to-do list's problems, each saying there is nothing to fix.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { cutCell } from "./report-cells.js"
import { csvField } from "./render-csv.js"
import { exclusionCountRows, exclusionList, exclusionRowsOf, type ExclusionRow, exclusionTallies } from "../ledger/problem-queries.js"
import type { LedgerTables } from "../ledger/ledger-types.js"
import { linesText } from "./report-problems.js"
import type { ExcludedRow, ReportExclusions } from "./report-types.js"

/** What to do about a record left out on purpose: nothing, and why. */
export const EXCLUSION_ADVICE = "Nothing to fix: left out on purpose by the mapping's reader file (its reason says why); change the reader file's selection to take it."

const noExclusions = (limit: number): ReportExclusions => ({ total: 0, counts: [], limit, listed: [] })

const rowOf = (r: ExclusionRow): ExcludedRow => ({
  outcome: r.outcome,
  reason: r.reason,
  endpoint: r.endpoint,
  supplier: r.supplier,
  account: r.account,
  source_file: r.file,
  source_lines: linesText(r.lines),
  detail: r.detail,
  raw: r.raw
})

/** The exclusions of the latest map runs, counted and listed (detail and raw cut, as every listed cell). */
export const exclusionsOf = (db: DatabaseSync, tables: LedgerTables, limit: number): ReportExclusions => {
  if (tables.mapExclusions !== true) return noExclusions(limit)
  const counts = exclusionCountRows(db)
  const total = counts.reduce((sum, c) => sum + c.count, 0)
  if (total === 0) return noExclusions(limit)
  const listed = exclusionList(db, limit).map((r) => {
    const row = rowOf(r)
    return { ...row, detail: cutCell(row.detail), raw: row.raw === null ? null : cutCell(row.raw) }
  })
  return { total, counts: counts.map((c) => ({ outcome: c.outcome, reason: c.reason, count: c.count })), limit, listed }
}

/**
 * The report's own check of the exclusions: each completed map run still current has recorded as many as
 * it counted (`map_runs.rows_excluded`); a list of what does not add up.
 */
export const exclusionsMismatches = (db: DatabaseSync, tables: LedgerTables): Array<string> => {
  if (tables.mapExclusions !== true) return []
  return exclusionTallies(db).filter((r) => r.counted !== r.recorded).map((r) => `map run #${r.run}: ${r.counted} rows excluded, ${r.recorded} recorded`)
}

/** Every exclusion of the latest map runs, one at a time, whole (the CSV keeps every cell). */
export function* exclusionRows(db: DatabaseSync, tables: LedgerTables): Generator<ExcludedRow> {
  if (tables.mapExclusions !== true) return
  for (const r of exclusionRowsOf(db)) yield rowOf(r)
}

/**
 * An exclusion as a row of the CSV to-do list: `problem` is its outcome, `code` its reason, and its advice
 * says there is nothing to fix.
 *
 * @example
 * exclusionCsvRow({ outcome: "skipped", reason: "PID 13007", endpoint: "energy-amount", supplier: "S", account: "K-1", source_file: "a.edi", source_lines: "74", detail: "PID 13007 (Gasbeschaffenheit) is not taken", raw: "QTY+220:11,2'" }).startsWith("skipped,energy-amount,PID 13007,S,K-1,a.edi,74,,,") // => true
 */
export const exclusionCsvRow = (e: ExcludedRow): string =>
  `${[e.outcome, e.endpoint, e.reason, e.supplier, e.account, e.source_file, e.source_lines, null, null, e.detail, e.raw, EXCLUSION_ADVICE].map(csvField).join(",")}\r\n`

/**
 * The exclusions as one line of text: `skipped: PID 13007 2, qualifier 187 1; superseded: …`.
 *
 * @example
 * exclusionCounts({ total: 3, limit: 500, listed: [], counts: [{ outcome: "skipped", reason: "PID 13007", count: 2 }, { outcome: "skipped", reason: "qualifier 187", count: 1 }] })
 * // => "skipped: PID 13007 2, qualifier 187 1"
 */
export const exclusionCounts = (exclusions: ReportExclusions): string => {
  const byOutcome = new Map<string, Array<string>>()
  for (const c of exclusions.counts) byOutcome.set(c.outcome, [...(byOutcome.get(c.outcome) ?? []), `${c.reason} ${c.count}`])
  return [...byOutcome].map(([outcome, reasons]) => `${outcome}: ${reasons.join(", ")}`).join("; ")
}
