/**
 * The to-do list of a campaign, read through the ledger's queries (`ledger/problem-queries.ts`), one
 * problem at a time (never the whole list in memory): rows rejected by the latest map run of each export,
 * lines that named no record, records invalid, rejected, blocked, failed or in doubt, conflicts, and the
 * rows the latest map runs warned about; each with its legacy source (through the lineage `map --journal` records: a record's own rows where the
 * ledger has them) when known, else its payload file and line.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { conflictRows, mapRejectRows, mapWarningRows, problemRecordRows, RECORD_PROBLEMS, type SourceColumns, unidentifiedRows } from "../ledger/problem-queries.js"
import type { LedgerTables } from "../ledger/ledger-types.js"
import type { Problem, ProblemKind } from "./report-types.js"

/** Physical lines as a short text: [3,4,5] → "3-5"; [3,7] → "3,7". */
export const linesText = (json: string | null): string | null => {
  if (json === null) return null
  const lines = JSON.parse(json) as Array<number>
  if (lines.length === 0) return null
  const first = lines[0]!
  const last = lines[lines.length - 1]!
  const contiguous = lines.every((n, i) => n === first + i)
  return contiguous ? (first === last ? String(first) : `${first}-${last}`) : lines.join(",")
}

/** An outcome's detail (JSON text) as a line a person reads: the details of its errors, with their attributes. */
export const detailOf = (text: string | null): string => {
  if (text === null) return ""
  try {
    const value = JSON.parse(text) as unknown
    if (Array.isArray(value)) {
      return value
        .map((e) => {
          const item = e as { attr?: unknown; detail?: unknown; code?: unknown }
          const detail = typeof item.detail === "string" ? item.detail : JSON.stringify(e)
          return typeof item.attr === "string" && item.attr !== "" && item.attr !== "non_field_errors" ? `${item.attr}: ${detail}` : detail
        })
        .join("; ")
    }
    if (typeof value === "string") return value
    const said = value as { detail?: unknown; error?: unknown } | null
    if (typeof said?.detail === "string") return said.detail
    if (typeof said?.error === "string") return said.error
    return JSON.stringify(value)
  } catch {
    return text
  }
}

const located = (file: string | null, line: number | null, s: SourceColumns | undefined) =>
  s !== undefined && s.source_file !== null
    ? { source_file: s.source_file, source_lines: linesText(s.lines), payload_file: file, payload_line: line, raw: s.raw }
    : { source_file: file, source_lines: line === null ? null : String(line), payload_file: file, payload_line: line, raw: null }

/**
 * Every problem, kind by kind (records' problems in the order they were first written). With
 * `perKind`, at most that many of each kind; `counts` (the totals by kind) lets the scan of records end
 * as soon as every kind has what it needs.
 */
export function* problemRows(
  db: DatabaseSync,
  tables: LedgerTables,
  options: {
    readonly perKind?: number | undefined
    readonly counts?: Readonly<Record<ProblemKind, number>> | undefined
    /** The run in progress (`ReportSource.running`): the records in flight of every other run are in doubt. */
    readonly running?: number | undefined
  } = {}
): Generator<Problem> {
  const cap = options.perKind ?? Number.POSITIVE_INFINITY
  const limit = cap === Number.POSITIVE_INFINITY ? -1 : cap

  if (tables.map) {
    for (const row of mapRejectRows(db, limit)) {
      yield {
        problem: "map_rejected",
        endpoint: row.endpoint ?? "(unknown)",
        code: row.codes ?? "",
        supplier: row.supplier ?? null,
        account: row.account ?? null,
        source_file: row.file ?? null,
        source_lines: linesText(row.lines ?? null),
        payload_file: null,
        payload_line: null,
        detail: row.detail ?? "",
        raw: row.raw ?? null
      }
    }
  }

  let invalidListed = 0
  for (const row of unidentifiedRows(db, tables, limit)) {
    invalidListed++
    yield { problem: "invalid", endpoint: "(unidentified)", code: "unidentified", supplier: null, account: null, ...located(row.file, row.line, row), detail: String(row.detail ?? "") }
  }

  const listed: Record<string, number> = { invalid: invalidListed }
  const wanted = (kind: string): number => Math.min(cap, options.counts?.[kind as ProblemKind] ?? Number.POSITIVE_INFINITY)
  const done = (): boolean => RECORD_PROBLEMS.every((k) => (listed[k] ?? 0) >= wanted(k))
  if (!done()) {
    for (const row of problemRecordRows(db, tables, options.running)) {
      const kind = row.outcome
      if ((listed[kind] ?? 0) >= cap) continue
      listed[kind] = (listed[kind] ?? 0) + 1
      yield {
        problem: kind,
        endpoint: row.endpoint,
        code: row.cause ?? kind,
        supplier: row.supplier,
        account: row.account,
        ...located(row.file, row.line, row),
        detail: detailOf(row.detail)
      }
      if (done()) break
    }
  }

  for (const row of conflictRows(db, tables, options.running, limit)) {
    yield {
      problem: "conflict",
      endpoint: row.endpoint,
      code: "conflict",
      supplier: row.supplier,
      account: row.account,
      ...located(row.file, row.line, row),
      detail: `other content than the version the ledger holds (${String(row.outcome ?? "in flight")}, from ${String(row.known_file ?? "?")}:${String(row.known_line ?? "?")}); not sent`
    }
  }

  if (tables.map && tables.mapWarnings === true) {
    for (const row of mapWarningRows(db, limit)) {
      const attr = row.attr ?? null
      yield {
        problem: "map_warning",
        endpoint: row.endpoint ?? "(unknown)",
        code: row.code ?? "",
        supplier: row.supplier ?? null,
        account: row.account ?? null,
        source_file: row.file ?? null,
        source_lines: linesText(row.lines ?? null),
        payload_file: null,
        payload_line: null,
        detail: attr === null ? row.detail ?? "" : `${attr}: ${row.detail ?? ""}`,
        raw: row.raw ?? null
      }
    }
  }
}
