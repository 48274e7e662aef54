/**
 * The ledger's figures as `report` and `status --journal` read them: aggregating scans of the records (by
 * kind, supplier and outcome; by run and time), of the lines that named no record, of the conflicts and of
 * the latest map runs' rejects and warnings, and the runs, services and map runs themselves. Each a
 * function over an opened ledger returning plain rows; the report adds them up and renders them.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { POST_ENDPOINT_IDS } from "../schemas/endpoints/endpoint-id.js"
import { naturalKeyOf } from "../schemas/endpoints/natural-key.js"
import type { LedgerTables } from "./ledger-types.js"

/** The map runs whose rejects still stand: the latest of each export. */
export const CURRENT_MAP_RUNS = "SELECT MAX(run) FROM map_runs GROUP BY input"

/** The kinds whose records belong to an account: a row of theirs without a supplier or account is filed under none. */
export const ACCOUNT_KINDS: ReadonlyArray<string> = POST_ENDPOINT_IDS.filter((id) => naturalKeyOf(id).account)

/** The SQL list of {@link ACCOUNT_KINDS}. */
const accountKindsSql = (): string => ACCOUNT_KINDS.map((k) => `'${k}'`).join(", ")

/**
 * The rows of the latest map runs, rejected or warned about, of a kind keyed by account whose supplier or
 * account is unknown: `SELECT columns` over them (`problem`, `endpoint`, `code`, `supplier`, `account`, `file`, `lines`, `first_line`).
 */
const unknownAccountRows = (tables: LedgerTables, columns: string): string =>
  `SELECT ${columns} FROM (
     SELECT 'map_rejected' AS problem, endpoint, codes AS code, supplier, account, file, lines, first_line FROM map_rejects WHERE run IN (${CURRENT_MAP_RUNS})
     ${tables.mapWarnings === true ? `UNION ALL SELECT 'map_warning', endpoint, code, supplier, account, file, lines, first_line FROM map_warnings WHERE run IN (${CURRENT_MAP_RUNS})` : ""})
   WHERE (supplier IS NULL OR account IS NULL) AND endpoint IN (${accountKindsSql()})`

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

/** The first start and the last end of the ledger's runs (a run not ended counts as ending `now`); `null` without runs. */
export const runsSpan = (db: DatabaseSync, now: number): { readonly first: number | null; readonly last: number | null } =>
  db.prepare("SELECT MIN(started_at) AS first, MAX(COALESCE(ended_at, ?)) AS last FROM runs").get(now) as { first: number | null; last: number | null }

/** Records counted by interval of their last change (`bucket`: `updated_at` divided by the interval), run, kind, supplier, state, outcome and cause. */
export interface GroupedRecords {
  readonly endpoint: string
  readonly supplier: string | null
  readonly state: string
  readonly outcome: string | null
  readonly cause: string | null
  readonly run: number
  readonly bucket: number
  readonly n: number
}

/**
 * One scan of every record, grouped as {@link GroupedRecords} says, intervals of `bucketMs`, one group at a
 * time. The integers lead the key: the sorter compares them faster than strings.
 */
export const groupedRecords = (db: DatabaseSync, bucketMs: number): IterableIterator<GroupedRecords> =>
  db.prepare(
    `SELECT endpoint, supplier, state, outcome, cause, run, CAST(updated_at / ? AS INTEGER) AS bucket, COUNT(*) AS n
     FROM records GROUP BY bucket, run, endpoint, outcome, state, supplier, cause`
  ).iterate(bucketMs) as IterableIterator<GroupedRecords>

/** How many lines named no record and are still current (see {@link currentUnidentified}). */
export const currentUnidentifiedCount = (db: DatabaseSync): number =>
  anyUnidentified(db) ? (db.prepare(currentUnidentified("COUNT(*) AS n")).get() as { n: number }).n : 0

/** Lines whose content differs from the version the ledger holds of their record, counted by kind and supplier. */
export const conflictCounts = (db: DatabaseSync): IterableIterator<{ readonly endpoint: string; readonly supplier: string | null; readonly n: number }> =>
  db.prepare(
    "SELECT r.endpoint, r.supplier, COUNT(*) AS n FROM conflicts c JOIN records r ON r.identity = c.identity WHERE c.content <> r.content GROUP BY r.endpoint, r.supplier"
  ).iterate() as IterableIterator<{ endpoint: string; supplier: string | null; n: number }>

/** The rows the latest map run of each export rejected, counted by kind, supplier and codes (a ledger with the map tables). */
export const mapRejectCounts = (db: DatabaseSync): IterableIterator<{ readonly endpoint: string | null; readonly supplier: string | null; readonly codes: string; readonly n: number }> =>
  db.prepare(`SELECT endpoint, supplier, codes, COUNT(*) AS n FROM map_rejects WHERE run IN (${CURRENT_MAP_RUNS}) GROUP BY endpoint, supplier, codes`).iterate() as IterableIterator<
    { endpoint: string | null; supplier: string | null; codes: string; n: number }
  >

/** The warnings of the latest map run of each export, counted by kind, supplier and code (a ledger with `map_warnings`). */
export const mapWarningCounts = (db: DatabaseSync): IterableIterator<{ readonly endpoint: string | null; readonly supplier: string | null; readonly code: string; readonly n: number }> =>
  db.prepare(`SELECT endpoint, supplier, code, COUNT(*) AS n FROM map_warnings WHERE run IN (${CURRENT_MAP_RUNS}) GROUP BY endpoint, supplier, code`).iterate() as IterableIterator<
    { endpoint: string | null; supplier: string | null; code: string; n: number }
  >

/** A row of the latest map runs, rejected or warned about, whose supplier or account is unknown. */
export interface UnknownAccountRow {
  readonly problem: "map_rejected" | "map_warning"
  readonly endpoint: string
  readonly code: string
  readonly supplier: string | null
  readonly account: string | null
  readonly file: string
  /** Its physical lines (JSON array). */
  readonly lines: string
}

/** How many rows of the latest map runs, of a kind keyed by account, have no supplier or account (a ledger with the map tables). */
export const unknownAccountCount = (db: DatabaseSync, tables: LedgerTables): number =>
  (db.prepare(unknownAccountRows(tables, "COUNT(*) AS rows")).get() as { rows: number }).rows

/** The first `limit` of the rows {@link unknownAccountCount} counts, by file and line. */
export const unknownAccountList = (db: DatabaseSync, tables: LedgerTables, limit: number): Array<UnknownAccountRow> =>
  db.prepare(`${unknownAccountRows(tables, "problem, endpoint, code, supplier, account, file, lines")} ORDER BY file, first_line LIMIT ?`).all(limit) as unknown as Array<UnknownAccountRow>

/** A run as the ledger holds it (`ended`: `null` while it runs, or when it was killed). */
export interface RunRow {
  readonly id: number
  readonly command: string
  readonly service: string | null
  readonly started_at: number
  readonly ended_at: number | null
  readonly ended: string | null
}

/** Every run, in the order they started. */
export const runRows = (db: DatabaseSync): Array<RunRow> =>
  db.prepare("SELECT id, command, service, started_at, ended_at, ended FROM runs ORDER BY id").all() as unknown as Array<RunRow>

/** A map run's totals. */
export interface MapRunRow {
  readonly run: number
  readonly input: string
  readonly output: string | null
  readonly endpoint: string | null
  readonly rows_read: number
  readonly payloads: number
  readonly rows_rejected: number
  readonly rows_excluded: number
}

/** Every map run with its totals, in order (`rows_excluded` 0 on a ledger that does not record exclusions). */
export const mapRunRows = (db: DatabaseSync, tables: LedgerTables): Array<MapRunRow> =>
  db.prepare(`SELECT run, input, output, endpoint, rows_read, payloads, rows_rejected, ${tables.mapExclusions === true ? "rows_excluded" : "0 AS rows_excluded"} FROM map_runs ORDER BY run`).all() as unknown as Array<MapRunRow>

/** The services the ledger's runs sent to, with the first and last run of each. */
export const serviceRows = (db: DatabaseSync): Array<{ readonly url: string; readonly first_run: number; readonly last_run: number }> =>
  db.prepare("SELECT url, first_run, last_run FROM services ORDER BY first_run, url").all() as unknown as Array<{ url: string; first_run: number; last_run: number }>

/** For each payload file a map run wrote with payloads, the latest run that wrote it, in the order of the runs. */
export const latestMapOutputs = (db: DatabaseSync): Array<{ readonly run: number; readonly input: string; readonly output: string; readonly payloads: number }> =>
  db.prepare(
    `SELECT m.run, m.input, m.output, m.payloads FROM map_runs m
     WHERE m.output IS NOT NULL AND m.payloads > 0 AND m.run = (SELECT MAX(run) FROM map_runs o WHERE o.output = m.output) ORDER BY m.run`
  ).all() as unknown as Array<{ run: number; input: string; output: string; payloads: number }>

/** The runs other than map runs that completed, with their counts (JSON text: `files` names the payload files read). */
export const completedSendRuns = (db: DatabaseSync): Array<{ readonly id: number; readonly counts: string | null }> =>
  db.prepare("SELECT id, counts FROM runs WHERE command <> 'map' AND ended = 'completed'").all() as unknown as Array<{ id: number; counts: string | null }>

/** A supplier's records counted by state, outcome and cause, with the time the latest of each group was written. */
export interface SupplierRecordCount {
  readonly state: string
  readonly outcome: string | null
  readonly cause: string | null
  readonly n: number
  readonly latest: number
}

/**
 * `supplier`'s records counted as {@link SupplierRecordCount} says; a record in flight in a run other than
 * `running` (a run that is over: killed) is counted done and in doubt, as the report counts it.
 */
export const supplierRecordCounts = (db: DatabaseSync, supplier: string, running: number | undefined): Array<SupplierRecordCount> =>
  db
    .prepare(
      `SELECT CASE WHEN state = 'in_flight' AND run IS NOT ? THEN 'done' ELSE state END AS state,
         CASE WHEN state = 'in_flight' AND run IS NOT ? THEN 'in_doubt' ELSE outcome END AS outcome, cause, COUNT(*) AS n, MAX(updated_at) AS latest
       FROM records WHERE supplier = ? GROUP BY 1, 2, cause`
    )
    .all(running ?? null, running ?? null, supplier) as unknown as Array<SupplierRecordCount>
