/**
 * The to-do list of a campaign, read from the ledger in SQL, one problem at a time (never the whole list
 * in memory): rows rejected by the latest map run of each export, lines that named no record, records
 * invalid, rejected, blocked, failed or in doubt, conflicts, and the rows the latest map runs warned about;
 * each with its legacy source (through the lineage `map --journal` records: a record's own rows where the
 * ledger has them) when known, else its payload file and line.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { POST_ENDPOINT_IDS } from "../schemas/endpoints/endpoint-id.js"
import { naturalKeyOf } from "../schemas/endpoints/natural-key.js"
import { STOPPED_IN_FLIGHT } from "../ledger/ledger-types.js"
import type { Problem, ProblemKind } from "./report-types.js"

/**
 * Which tables the ledger has: a ledger from before `map --journal` has no map tables (`map`), one whose map
 * runs came from a version before map's warnings and each record's lineage has no `map_warnings` and
 * `lineage_items` (`mapWarnings`).
 */
export interface LedgerTables {
  readonly map: boolean
  readonly mapWarnings?: boolean | undefined
  /** The ledger records the rows map left out on purpose (`map_exclusions`, `map_runs.rows_excluded`). */
  readonly mapExclusions?: boolean | undefined
}

/** The kinds whose records belong to an account: a row of theirs without a supplier or account is filed under none. */
export const ACCOUNT_KINDS: ReadonlyArray<string> = POST_ENDPOINT_IDS.filter((id) => naturalKeyOf(id).account)

/** The SQL list of {@link ACCOUNT_KINDS}. */
const accountKindsSql = (): string => ACCOUNT_KINDS.map((k) => `'${k}'`).join(", ")

/**
 * The rows of the latest map runs, rejected or warned about, of a kind keyed by account whose supplier or
 * account is unknown: `SELECT columns` over them (`problem`, `endpoint`, `code`, `supplier`, `account`, `file`, `lines`, `first_line`).
 */
export const unknownAccountRows = (tables: LedgerTables, columns: string): string =>
  `SELECT ${columns} FROM (
     SELECT 'map_rejected' AS problem, endpoint, codes AS code, supplier, account, file, lines, first_line FROM map_rejects WHERE run IN (${CURRENT_MAP_RUNS})
     ${tables.mapWarnings === true ? `UNION ALL SELECT 'map_warning', endpoint, code, supplier, account, file, lines, first_line FROM map_warnings WHERE run IN (${CURRENT_MAP_RUNS})` : ""})
   WHERE (supplier IS NULL OR account IS NULL) AND endpoint IN (${accountKindsSql()})`

/** Outcomes of records that are problems, with the problem they are. */
const RECORD_PROBLEMS = ["invalid", "rejected", "blocked", "failed", "in_doubt"] as const

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

/** The map runs whose rejects still stand: the latest of each export. */
export const CURRENT_MAP_RUNS = "SELECT MAX(run) FROM map_runs GROUP BY input"

/** Whether any line named no record: without one, the grouping of the records at such places is skipped. */
export const anyUnidentified = (db: DatabaseSync): boolean =>
  (db.prepare("SELECT EXISTS (SELECT 1 FROM unidentified) AS found").get() as { found: number }).found === 1

/**
 * Lines that named no record, from the latest run that met them, unless a later run read a record there:
 * `SELECT columns` over them (`u` is the line; `joins` adds tables). Neither table has an index on the
 * place (file, line), so the latest run of each place and the latest record read at each are grouped
 * once (the records only at those places, through an automatic index on them); a subquery per line
 * would scan both tables for every line, minutes for 100,000 lines.
 */
export const currentUnidentified = (columns: string, joins = ""): string =>
  `WITH last AS MATERIALIZED (SELECT file, line, MAX(run) AS run FROM unidentified GROUP BY file, line),
     seen AS MATERIALIZED (SELECT r.file, r.line, MAX(r.run) AS run FROM records r JOIN last l ON l.file = r.file AND l.line = r.line GROUP BY r.file, r.line)
   SELECT ${columns} FROM unidentified u JOIN last ON last.file = u.file AND last.line = u.line AND last.run = u.run
     LEFT JOIN seen ON seen.file = u.file AND seen.line = u.line ${joins}
   WHERE seen.run IS NULL OR seen.run <= u.run`

interface SourceColumns {
  source_file: string | null
  lines: string | null
  raw: string | null
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
  // A record of a payload of many records (a transaction) points at its own rows where the ledger knows them
  // (`lineage_items`, by its key), else at every row of its payload.
  const items = tables.mapWarnings === true
  const lineageJoin = (file: string, line: string, key?: string): string =>
    tables.map
      ? `LEFT JOIN lineage l ON l.payload_file = ${file} AND l.payload_line = ${line}${items && key !== undefined ? ` LEFT JOIN lineage_items li ON li.payload_file = ${file} AND li.payload_line = ${line} AND li.key = ${key}` : ""}`
      : ""
  const lineageColumns = (key?: string): string =>
    !tables.map
      ? "NULL AS source_file, NULL AS lines, NULL AS raw"
      : items && key !== undefined
      ? "l.source_file, COALESCE(li.lines, l.lines) AS lines, CASE WHEN li.lines IS NULL THEN l.raw ELSE li.raw END AS raw"
      : "l.source_file, l.lines, l.raw"

  if (tables.map) {
    const rejects = db.prepare(
      `SELECT file, lines, codes, detail, raw, endpoint, supplier, account FROM map_rejects
       WHERE run IN (${CURRENT_MAP_RUNS}) ORDER BY file, first_line LIMIT ?`
    )
    for (const row of rejects.iterate(limit) as Iterable<Record<string, string | null>>) {
      yield {
        problem: "map_rejected",
        endpoint: row["endpoint"] ?? "(unknown)",
        code: row["codes"] ?? "",
        supplier: row["supplier"] ?? null,
        account: row["account"] ?? null,
        source_file: row["file"] ?? null,
        source_lines: linesText(row["lines"] ?? null),
        payload_file: null,
        payload_line: null,
        detail: row["detail"] ?? "",
        raw: row["raw"] ?? null
      }
    }
  }

  const unidentified = db.prepare(`${currentUnidentified(`u.file, u.line, u.detail, ${lineageColumns()}`, lineageJoin("u.file", "u.line"))} ORDER BY u.file, u.line LIMIT ?`)
  let invalidListed = 0
  for (const row of (anyUnidentified(db) ? unidentified.iterate(limit) : []) as Iterable<Record<string, string | number | null> & SourceColumns>) {
    invalidListed++
    yield { problem: "invalid", endpoint: "(unidentified)", code: "unidentified", supplier: null, account: null, ...located(row["file"] as string, row["line"] as number, row), detail: String(row["detail"] ?? "") }
  }

  const listed: Record<string, number> = { invalid: invalidListed }
  const wanted = (kind: string): number => Math.min(cap, options.counts?.[kind as ProblemKind] ?? Number.POSITIVE_INFINITY)
  // A record in flight in a run that is over was in flight when that run was killed: in doubt.
  const records = db.prepare(
    `SELECT CASE WHEN r.state = 'in_flight' THEN 'in_doubt' ELSE r.outcome END AS outcome, r.endpoint,
       CASE WHEN r.state = 'in_flight' THEN '${STOPPED_IN_FLIGHT}' ELSE r.cause END AS cause, r.supplier, r.account, r.file, r.line,
       CASE WHEN r.state = 'in_flight' THEN json_quote('In flight when run ' || r.run || ' was killed: whether the service stored it is unknown. '
         || 'The next run that reads it sends it again where a repeat is harmless; else ask the operators.') ELSE r.detail END AS detail,
       ${lineageColumns("r.key")}
     FROM records r ${lineageJoin("r.file", "r.line", "r.key")}
     WHERE (r.state = 'done' AND r.outcome IN (${RECORD_PROBLEMS.map((p) => `'${p}'`).join(", ")})) OR (r.state = 'in_flight' AND r.run IS NOT ?)
     ORDER BY r.id`
  )
  const done = (): boolean => RECORD_PROBLEMS.every((k) => (listed[k] ?? 0) >= wanted(k))
  if (!done()) {
    for (const row of records.iterate(options.running ?? null) as Iterable<Record<string, string | number | null> & SourceColumns>) {
      const kind = row["outcome"] as ProblemKind
      if ((listed[kind] ?? 0) >= cap) continue
      listed[kind] = (listed[kind] ?? 0) + 1
      yield {
        problem: kind,
        endpoint: row["endpoint"] as string,
        code: (row["cause"] as string | null) ?? kind,
        supplier: row["supplier"] as string | null,
        account: row["account"] as string | null,
        ...located(row["file"] as string | null, row["line"] as number | null, row),
        detail: detailOf(row["detail"] as string | null)
      }
      if (done()) break
    }
  }

  const conflicts = db.prepare(
    `SELECT r.endpoint, r.supplier, r.account, CASE WHEN r.state = 'in_flight' AND r.run IS NOT ? THEN 'in_doubt' ELSE r.outcome END AS outcome,
       r.file AS known_file, r.line AS known_line, c.file, c.line, ${lineageColumns("r.key")}
     FROM conflicts c JOIN records r ON r.identity = c.identity ${lineageJoin("c.file", "c.line", "r.key")}
     WHERE c.content <> r.content ORDER BY c.run, c.file, c.line LIMIT ?`
  )
  for (const row of conflicts.iterate(options.running ?? null, limit) as Iterable<Record<string, string | number | null> & SourceColumns>) {
    yield {
      problem: "conflict",
      endpoint: row["endpoint"] as string,
      code: "conflict",
      supplier: row["supplier"] as string | null,
      account: row["account"] as string | null,
      ...located(row["file"] as string, row["line"] as number, row),
      detail: `other content than the version the ledger holds (${String(row["outcome"] ?? "in flight")}, from ${String(row["known_file"] ?? "?")}:${String(row["known_line"] ?? "?")}); not sent`
    }
  }

  if (tables.map && tables.mapWarnings === true) {
    const warnings = db.prepare(
      `SELECT file, lines, code, attr, detail, raw, endpoint, supplier, account FROM map_warnings
       WHERE run IN (${CURRENT_MAP_RUNS}) ORDER BY file, first_line, id LIMIT ?`
    )
    for (const row of warnings.iterate(limit) as Iterable<Record<string, string | null>>) {
      const attr = row["attr"] ?? null
      yield {
        problem: "map_warning",
        endpoint: row["endpoint"] ?? "(unknown)",
        code: row["code"] ?? "",
        supplier: row["supplier"] ?? null,
        account: row["account"] ?? null,
        source_file: row["file"] ?? null,
        source_lines: linesText(row["lines"] ?? null),
        payload_file: null,
        payload_line: null,
        detail: attr === null ? row["detail"] ?? "" : `${attr}: ${row["detail"] ?? ""}`,
        raw: row["raw"] ?? null
      }
    }
  }
}
