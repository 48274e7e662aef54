/**
 * The ledger's listed rows as `report` reads them, one at a time or up to a limit: the rows the latest map
 * runs rejected or warned about, the lines that named no record, the records that are problems, the
 * conflicts, the records in doubt, the transactions the service moved and the rows map left out on
 * purpose. Each a function over an opened ledger returning plain rows, with the legacy source of a record
 * (through the lineage `map --journal` records: a record's own rows where the ledger has them) where known.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { columnsOf } from "./sqlite.js"
import { STOPPED_IN_FLIGHT } from "./ledger-types.js"
import { anyUnidentified, CURRENT_MAP_RUNS, currentUnidentified } from "./report-queries.js"
import type { LedgerTables } from "./ledger-types.js"

/** Outcomes of records that are problems. */
export const RECORD_PROBLEMS = ["invalid", "rejected", "blocked", "failed", "in_doubt"] as const

/** The legacy source of a payload line, through the lineage: `null` each where the ledger does not know it. */
export interface SourceColumns {
  readonly source_file: string | null
  /** Its physical lines (JSON array). */
  readonly lines: string | null
  readonly raw: string | null
}

/**
 * The join to the lineage of the payload line at `file`, `line` and, for a record of a payload of many
 * (`key`: its natural key), to its own rows where the ledger knows them (`lineage_items`); nothing on a
 * ledger without the map tables.
 */
const lineageJoin = (tables: LedgerTables, file: string, line: string, key?: string): string =>
  tables.map
    ? `LEFT JOIN lineage l ON l.payload_file = ${file} AND l.payload_line = ${line}${tables.mapWarnings === true && key !== undefined ? ` LEFT JOIN lineage_items li ON li.payload_file = ${file} AND li.payload_line = ${line} AND li.key = ${key}` : ""}`
    : ""

/** The {@link SourceColumns} of {@link lineageJoin}: a record's own rows where known, else every row of its payload. */
const lineageColumns = (tables: LedgerTables, key?: string): string =>
  !tables.map
    ? "NULL AS source_file, NULL AS lines, NULL AS raw"
    : tables.mapWarnings === true && key !== undefined
    ? "l.source_file, COALESCE(li.lines, l.lines) AS lines, CASE WHEN li.lines IS NULL THEN l.raw ELSE li.raw END AS raw"
    : "l.source_file, l.lines, l.raw"

/** The payload line's lineage without the items, as the lists of moved and in-doubt records read it. */
const payloadLineage = (tables: LedgerTables) =>
  tables.map
    ? { columns: "l.source_file, l.lines, l.raw", join: "LEFT JOIN lineage l ON l.payload_file = r.file AND l.payload_line = r.line" }
    : { columns: "NULL AS source_file, NULL AS lines, NULL AS raw", join: "" }

/** A row the latest map run of its export rejected. */
export interface MapRejectRow {
  readonly file: string
  /** Its physical lines (JSON array). */
  readonly lines: string
  readonly codes: string
  readonly detail: string
  readonly raw: string | null
  readonly endpoint: string | null
  readonly supplier: string | null
  readonly account: string | null
}

/** The rows the latest map run of each export rejected, by file and line, at most `limit` (-1: all) (a ledger with the map tables). */
export const mapRejectRows = (db: DatabaseSync, limit: number): IterableIterator<MapRejectRow> =>
  db.prepare(
    `SELECT file, lines, codes, detail, raw, endpoint, supplier, account FROM map_rejects
       WHERE run IN (${CURRENT_MAP_RUNS}) ORDER BY file, first_line LIMIT ?`
  ).iterate(limit) as IterableIterator<MapRejectRow>

/** A line that named no record, with its legacy source. */
export interface UnidentifiedRow extends SourceColumns {
  readonly file: string
  readonly line: number
  readonly detail: string
}

/** The lines that named no record and are still current, by file and line, at most `limit` (-1: all). */
export const unidentifiedRows = (db: DatabaseSync, tables: LedgerTables, limit: number): Iterable<UnidentifiedRow> => {
  const unidentified = db.prepare(
    `${currentUnidentified(`u.file, u.line, u.detail, ${lineageColumns(tables)}`, lineageJoin(tables, "u.file", "u.line"))} ORDER BY u.file, u.line LIMIT ?`
  )
  return anyUnidentified(db) ? (unidentified.iterate(limit) as IterableIterator<UnidentifiedRow>) : []
}

/** A record that is a problem, with its legacy source. */
export interface ProblemRecordRow extends SourceColumns {
  readonly outcome: (typeof RECORD_PROBLEMS)[number]
  readonly endpoint: string
  readonly cause: string | null
  readonly supplier: string | null
  readonly account: string | null
  readonly file: string | null
  readonly line: number | null
  /** The service's answer or the check's errors (JSON text). */
  readonly detail: string | null
}

/**
 * The records that are problems ({@link RECORD_PROBLEMS}), in the order they were first written. A record
 * in flight in a run other than `running` was in flight when that run was killed: in doubt.
 */
export const problemRecordRows = (db: DatabaseSync, tables: LedgerTables, running: number | undefined): IterableIterator<ProblemRecordRow> =>
  db.prepare(
    `SELECT CASE WHEN r.state = 'in_flight' THEN 'in_doubt' ELSE r.outcome END AS outcome, r.endpoint,
       CASE WHEN r.state = 'in_flight' THEN '${STOPPED_IN_FLIGHT}' ELSE r.cause END AS cause, r.supplier, r.account, r.file, r.line,
       CASE WHEN r.state = 'in_flight' THEN json_quote('In flight when run ' || r.run || ' was killed: whether the service stored it is unknown. '
         || 'The next run that reads it sends it again where a repeat is harmless; else ask the operators.') ELSE r.detail END AS detail,
       ${lineageColumns(tables, "r.key")}
     FROM records r ${lineageJoin(tables, "r.file", "r.line", "r.key")}
     WHERE (r.state = 'done' AND r.outcome IN (${RECORD_PROBLEMS.map((p) => `'${p}'`).join(", ")})) OR (r.state = 'in_flight' AND r.run IS NOT ?)
     ORDER BY r.id`
  ).iterate(running ?? null) as IterableIterator<ProblemRecordRow>

/** A line with other content than the version the ledger holds of its record, with its legacy source. */
export interface ConflictRow extends SourceColumns {
  readonly endpoint: string
  readonly supplier: string | null
  readonly account: string | null
  /** The held version's outcome (`in_doubt` for one in flight in a run that is over; `null` while in flight). */
  readonly outcome: string | null
  readonly known_file: string | null
  readonly known_line: number | null
  readonly file: string
  readonly line: number
}

/** The conflicts, by run and place, at most `limit` (-1: all); `running` as for {@link problemRecordRows}. */
export const conflictRows = (db: DatabaseSync, tables: LedgerTables, running: number | undefined, limit: number): IterableIterator<ConflictRow> =>
  db.prepare(
    `SELECT r.endpoint, r.supplier, r.account, CASE WHEN r.state = 'in_flight' AND r.run IS NOT ? THEN 'in_doubt' ELSE r.outcome END AS outcome,
       r.file AS known_file, r.line AS known_line, c.file, c.line, ${lineageColumns(tables, "r.key")}
     FROM conflicts c JOIN records r ON r.identity = c.identity ${lineageJoin(tables, "c.file", "c.line", "r.key")}
     WHERE c.content <> r.content ORDER BY c.run, c.file, c.line LIMIT ?`
  ).iterate(running ?? null, limit) as IterableIterator<ConflictRow>

/** A warning of the latest map run of its export about a row it let through. */
export interface MapWarningRow {
  readonly file: string
  /** Its physical lines (JSON array). */
  readonly lines: string
  readonly code: string
  readonly attr: string | null
  readonly detail: string
  readonly raw: string | null
  readonly endpoint: string | null
  readonly supplier: string | null
  readonly account: string | null
}

/** The warnings of the latest map run of each export, by file and line, at most `limit` (-1: all) (a ledger with `map_warnings`). */
export const mapWarningRows = (db: DatabaseSync, limit: number): IterableIterator<MapWarningRow> =>
  db.prepare(
    `SELECT file, lines, code, attr, detail, raw, endpoint, supplier, account FROM map_warnings
       WHERE run IN (${CURRENT_MAP_RUNS}) ORDER BY file, first_line, id LIMIT ?`
  ).iterate(limit) as IterableIterator<MapWarningRow>

/** A record in doubt, with its legacy source. */
export interface InDoubtRecordRow extends SourceColumns {
  readonly endpoint: string
  readonly supplier: string | null
  readonly account: string | null
  /** Its natural key (JSON array). */
  readonly key: string
  readonly file: string | null
  readonly line: number | null
  /** When it was sent (ms since the epoch), or its run's start on a ledger that did not record it. */
  readonly sent_at: number | null
  readonly cause: string | null
}

/**
 * The records in doubt, in the order they were first written: answered in doubt, or in flight in a run
 * other than `running` (a run that is over).
 */
export const inDoubtRecordRows = (db: DatabaseSync, tables: LedgerTables, running: number | undefined): IterableIterator<InDoubtRecordRow> => {
  // A ledger read before it gained the column (read-only: not migrated) has only its runs' start.
  const hasSentAt = columnsOf(db, "records").has("sent_at")
  const lineage = payloadLineage(tables)
  return db.prepare(
    `SELECT r.endpoint, r.supplier, r.account, r.key, r.file, r.line, ${hasSentAt ? "COALESCE(r.sent_at, u.started_at)" : "u.started_at"} AS sent_at,
       CASE WHEN r.state = 'in_flight' THEN '${STOPPED_IN_FLIGHT}' ELSE r.cause END AS cause, ${lineage.columns}
     FROM records r LEFT JOIN runs u ON u.id = r.run ${lineage.join}
     WHERE (r.state = 'done' AND r.outcome = 'in_doubt') OR (r.state = 'in_flight' AND r.run IS NOT ?)
     ORDER BY r.id`
  ).iterate(running ?? null) as IterableIterator<InDoubtRecordRow>
}

/** How many transactions the service moved into the open statement period, and on how many accounts. */
export const movedCounts = (db: DatabaseSync): { readonly total: number; readonly accounts: number } =>
  db.prepare(
    "SELECT COUNT(*) AS total, COUNT(DISTINCT json_array(supplier, account)) AS accounts FROM records WHERE state = 'done' AND outcome = 'moved'"
  ).get() as { total: number; accounts: number }

/** A transaction the service moved, with its legacy source. */
export interface MovedRow extends SourceColumns {
  readonly supplier: string | null
  readonly account: string | null
  /** Its natural key (JSON array). */
  readonly key: string
  /** What `send` recorded of the move (JSON text: `{ from, to, transaction_id?, service_note? }`). */
  readonly detail: string | null
  readonly file: string | null
  readonly line: number | null
}

/** The first `limit` moved transactions by supplier, account and the order they were first written. */
export const movedRows = (db: DatabaseSync, tables: LedgerTables, limit: number): Array<MovedRow> => {
  const lineage = payloadLineage(tables)
  return db.prepare(
    `SELECT r.supplier, r.account, r.key, r.detail, r.file, r.line, ${lineage.columns}
     FROM records r ${lineage.join} WHERE r.state = 'done' AND r.outcome = 'moved' ORDER BY r.supplier, r.account, r.id LIMIT ?`
  ).all(limit) as unknown as Array<MovedRow>
}

/** The rows of the latest map run of each export left out on purpose, in the order of their files and lines. */
const EXCLUSIONS = `SELECT outcome, reason, endpoint, supplier, account, file, lines, detail, raw FROM map_exclusions WHERE run IN (${CURRENT_MAP_RUNS}) ORDER BY file, first_line, id`

/** A row a map run left out on purpose (a ledger with `map_exclusions`). */
export interface ExclusionRow {
  readonly outcome: string
  readonly reason: string
  readonly endpoint: string | null
  readonly supplier: string | null
  readonly account: string | null
  readonly file: string
  /** Its physical lines (JSON array). */
  readonly lines: string
  readonly detail: string
  readonly raw: string | null
}

/** The exclusions of the latest map runs counted by outcome and reason, in that order. */
export const exclusionCountRows = (db: DatabaseSync): Array<{ readonly outcome: string; readonly reason: string; readonly count: number }> =>
  db.prepare(
    `SELECT outcome, reason, COUNT(*) AS count FROM map_exclusions WHERE run IN (${CURRENT_MAP_RUNS}) GROUP BY outcome, reason ORDER BY outcome, reason`
  ).all() as unknown as Array<{ outcome: string; reason: string; count: number }>

/** The first `limit` exclusions of the latest map runs. */
export const exclusionList = (db: DatabaseSync, limit: number): Array<ExclusionRow> => db.prepare(`${EXCLUSIONS} LIMIT ?`).all(limit) as unknown as Array<ExclusionRow>

/** Every exclusion of the latest map runs, one at a time. */
export const exclusionRowsOf = (db: DatabaseSync): IterableIterator<ExclusionRow> => db.prepare(EXCLUSIONS).iterate() as IterableIterator<ExclusionRow>

/** For each completed map run still current: the rows it counted as excluded (`map_runs.rows_excluded`) and those it recorded. */
export const exclusionTallies = (db: DatabaseSync): Array<{ readonly run: number; readonly counted: number; readonly recorded: number }> =>
  db.prepare(
    `SELECT m.run, m.rows_excluded AS counted, (SELECT COUNT(*) FROM map_exclusions e WHERE e.run = m.run) AS recorded
     FROM map_runs m JOIN runs r ON r.id = m.run WHERE r.ended = 'completed' AND m.run IN (${CURRENT_MAP_RUNS})`
  ).all() as unknown as Array<{ run: number; counted: number; recorded: number }>
