/**
 * What `map` records in the campaign's ledger: each map run (a row of `runs`, command "map", and its
 * totals in `map_runs`), every row it rejected (file, physical lines, codes, detail, raw text), every
 * warning about rows it let through (`map_warnings`), each filed under the supplier and account of its
 * payload, and each payload's lineage (payload file and line → source file and physical lines), with each
 * record's own lines for a payload of many records (`lineage_items`). The report joins these
 * to the records `send` wrote: a problem found at send time points back to the legacy row.
 *
 * The tables are created with CREATE TABLE IF NOT EXISTS when the journal opens: a ledger written before
 * they existed stays a "ledger-2" ledger and simply gains them. Prepared statements only; rows are
 * committed in batches (one transaction per {@link MAP_JOURNAL_BATCH} writes) and at the end of the run.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { statementCache } from "./ledger-rows.js"
import { columnsOf, loadSqlite } from "./sqlite.js"
import { openLedger } from "./ledger.js"
import { ledgerFileOf } from "./ledger-file.js"
import { MAP_VERSIONS_SCHEMA, type MapVersions, mapVersionsOf } from "./map-versions.js"

/**
 * The tables a map run writes since it records its warnings and the lineage of each record of a payload
 * of many records (a transaction, a note: `key` is the record's natural key, as `records.key`). A ledger
 * written before has the other map tables without these: a report checks for them apart.
 */
export const MAP_WARNINGS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_warnings (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, file TEXT NOT NULL, first_line INTEGER NOT NULL,
  lines TEXT NOT NULL, code TEXT NOT NULL, attr TEXT, detail TEXT NOT NULL, raw TEXT, endpoint TEXT, supplier TEXT, account TEXT);
CREATE INDEX IF NOT EXISTS map_warnings_run ON map_warnings (run, file, first_line);
CREATE TABLE IF NOT EXISTS lineage_items (payload_file TEXT NOT NULL, payload_line INTEGER NOT NULL, key TEXT NOT NULL, run INTEGER NOT NULL,
  lines TEXT NOT NULL, raw TEXT, PRIMARY KEY (payload_file, payload_line, key)) WITHOUT ROWID;`

/**
 * The records a map run left out on purpose (`outcome`: skipped, superseded, cancelled; `reason` groups
 * them in counts: `PID 13007`), filed under the supplier and account their payload would have had
 * (`null` where unknown); and `map_runs.rows_excluded`, their count, which {@link addExclusions} adds to a
 * ledger written before.
 */
export const MAP_EXCLUSIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_exclusions (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, file TEXT NOT NULL, first_line INTEGER NOT NULL,
  lines TEXT NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL, raw TEXT, endpoint TEXT, supplier TEXT, account TEXT);
CREATE INDEX IF NOT EXISTS map_exclusions_run ON map_exclusions (run, file, first_line);`

/** Adds the exclusions' table and `map_runs.rows_excluded` to a ledger that has the map tables without them. */
const addExclusions = (db: DatabaseSync): void => {
  db.exec(MAP_EXCLUSIONS_SCHEMA)
  if (!columnsOf(db, "map_runs").has("rows_excluded")) db.exec("ALTER TABLE map_runs ADD COLUMN rows_excluded INTEGER NOT NULL DEFAULT 0")
}

/** The map tables. A later map run of the same input supersedes the rejects of earlier ones. */
export const MAP_JOURNAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_runs (run INTEGER PRIMARY KEY, input TEXT NOT NULL, output TEXT, mapping TEXT, endpoint TEXT,
  rows_read INTEGER NOT NULL DEFAULT 0, payloads INTEGER NOT NULL DEFAULT 0, rows_rejected INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS map_runs_input ON map_runs (input, run);
CREATE TABLE IF NOT EXISTS map_rejects (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, file TEXT NOT NULL, first_line INTEGER NOT NULL,
  lines TEXT NOT NULL, codes TEXT NOT NULL, detail TEXT NOT NULL, raw TEXT, endpoint TEXT, supplier TEXT, account TEXT);
CREATE INDEX IF NOT EXISTS map_rejects_run ON map_rejects (run, file, first_line);
CREATE TABLE IF NOT EXISTS lineage (payload_file TEXT NOT NULL, payload_line INTEGER NOT NULL, run INTEGER NOT NULL,
  source_file TEXT NOT NULL, lines TEXT NOT NULL, raw TEXT, PRIMARY KEY (payload_file, payload_line)) WITHOUT ROWID;
${MAP_WARNINGS_SCHEMA}
${MAP_VERSIONS_SCHEMA}`

/** Writes per transaction. */
export const MAP_JOURNAL_BATCH = 1000

/**
 * A map run, as it starts.
 *
 * @since 0.1.0
 */
export interface MapRunStart {
  /** The legacy export (a resolved path). */
  readonly input: string
  /** The payload file (a resolved path), or `null` for stdout. */
  readonly output: string | null
  readonly mapping?: string | null | undefined
  /** The endpoint the mapping writes payloads for. */
  readonly endpoint?: string | null | undefined
  /** The run's options, as recorded in `runs.options`. */
  readonly options?: unknown
}

/**
 * A rejected row (or group of rows).
 *
 * @since 0.1.0
 */
export interface MapReject {
  /** Physical lines of the source, first to last. */
  readonly lines: ReadonlyArray<number>
  readonly codes: ReadonlyArray<string>
  readonly detail: string
  /** The raw legacy text of the lines, when known. */
  readonly raw?: string | null | undefined
  readonly supplier?: string | null | undefined
  readonly account?: string | null | undefined
}

/**
 * A record left out on purpose: outside the mapping's selection (`skipped`), an earlier version of a value
 * sent again (`superseded`), or cancelled by its sender (`cancelled`).
 *
 * @since 0.1.0
 */
export interface MapExclusion {
  /** Physical lines of the source (for EDIFACT, segment numbers), first to last. */
  readonly lines: ReadonlyArray<number>
  readonly outcome: "skipped" | "superseded" | "cancelled"
  /** What groups it in counts: `PID 13007`, `qualifier 187`. */
  readonly reason: string
  readonly detail: string
  readonly raw?: string | null | undefined
  readonly supplier?: string | null | undefined
  readonly account?: string | null | undefined
}

/**
 * A warning of map about rows that went into a payload (`duplicate_row`, a payload's own warnings): data
 * that was kept, and that someone should look at.
 *
 * @since 0.1.0
 */
export interface MapWarning {
  /** Physical lines of the source it concerns, first to last (for `duplicate_row`, the first row's and the repeat's). */
  readonly lines: ReadonlyArray<number>
  readonly code: string
  /** The payload attribute it is about, when it has one. */
  readonly attr?: string | null | undefined
  readonly detail: string
  /** The raw legacy text of the lines, when known. */
  readonly raw?: string | null | undefined
  /** The supplier and account of the payload the rows went into. */
  readonly supplier?: string | null | undefined
  readonly account?: string | null | undefined
}

/**
 * Where a payload came from.
 *
 * @since 0.1.0
 */
export interface MapLineage {
  /** Physical line of the payload in the output (1 for the first payload). */
  readonly payloadLine: number
  /** Physical lines of the source. */
  readonly lines: ReadonlyArray<number>
  /** The raw legacy text of those lines, when the caller keeps it. */
  readonly raw?: string | null | undefined
  /**
   * For a payload of many records (transactions, notes): each record's own lines, by its natural key
   * (`KeyedRecord.key`, as the ledger's records hold it). A problem of one record then points at its rows.
   */
  readonly records?: ReadonlyArray<{ readonly key: string; readonly lines: ReadonlyArray<number>; readonly raw?: string | null | undefined }> | undefined
}

/**
 * The totals of a map run.
 *
 * @since 0.1.0
 */
export interface MapRunTotals {
  readonly rowsRead: number
  readonly payloads: number
  readonly rowsRejected: number
  /** Records left out on purpose (none when absent). */
  readonly rowsExcluded?: number | undefined
}

/**
 * The journal of one map run.
 *
 * @since 0.1.0
 */
export interface MapJournal {
  readonly run: number
  rejected(reject: MapReject): void
  /** A record left out on purpose. */
  excluded(exclusion: MapExclusion): void
  warned(warning: MapWarning): void
  lineage(entry: MapLineage): void
  /** The versions of values mapped by this and earlier runs (EDIFACT reader files with `versions`). */
  readonly versions: MapVersions
  /** Ends the run (commits what is left) and closes the file. */
  end(ended: "completed" | "interrupted" | "failed", totals: MapRunTotals): void
  /** Closes without ending (an error): what was committed stays. */
  close(): void
}

/** The records of a payload by key: records repeated in it (the same key twice) are one record of the ledger, with the lines of both. */
const recordsByKey = (records: NonNullable<MapLineage["records"]>): Array<{ key: string; lines: Array<number>; raw: string | null }> => {
  const byKey = new Map<string, { key: string; lines: Array<number>; raw: string | null }>()
  for (const r of records) {
    const found = byKey.get(r.key)
    if (found === undefined) byKey.set(r.key, { key: r.key, lines: [...r.lines], raw: r.raw ?? null })
    else {
      found.lines = [...new Set([...found.lines, ...r.lines])].sort((a, b) => a - b)
      found.raw = found.raw === null || r.raw === undefined || r.raw === null ? found.raw ?? r.raw ?? null : `${found.raw}\n${r.raw}`
    }
  }
  return [...byKey.values()]
}

/**
 * Opens the ledger at `path` for one map run: checks it is a ledger (creates it when missing), adds the
 * map tables, and records the run. Throws `LedgerMismatchError` as `openLedger` does.
 *
 * @example
 * // A map run of a new ledger: row 2 became payload 1, row 7 was rejected; the report reads them back.
 * import { campaignReport, openReportSource } from "data-import-payloads"
 * const path = `${process.env["TMPDIR"] ?? "/tmp"}/map-${process.pid}-${Date.now()}.ledger`
 * const journal = openMapJournal(path, { input: "/data/accounts.csv", output: "/data/accounts.ndjson", endpoint: "energy-amount" })
 * journal.run // => 1
 * journal.rejected({ lines: [7], codes: ["invalid_date"], detail: "31.02.2024 is not a date", raw: "S;K-1;31.02.2024", supplier: "S", account: "K-1" })
 * journal.lineage({ payloadLine: 1, lines: [2] })
 * journal.end("completed", { rowsRead: 2, payloads: 1, rowsRejected: 1 })
 *
 * const source = openReportSource(path)
 * const report = campaignReport(source)
 * source.close()
 * report.map_runs // => [{ run: 1, input: "/data/accounts.csv", output: "/data/accounts.ndjson", endpoint: "energy-amount", rows_read: 2, payloads: 1, rows_rejected: 1, rows_excluded: 0 }]
 * report.totals.map_rejected // => 1
 * report.problems.listed // => [{ problem: "map_rejected", endpoint: "energy-amount", code: "invalid_date", supplier: "S", account: "K-1", source_file: "/data/accounts.csv", source_lines: "7", payload_file: null, payload_line: null, detail: "31.02.2024 is not a date", raw: "S;K-1;31.02.2024", advice: "Fix the row in the legacy export (or the mapping), map the export again and send the new payload file with the same ledger." }]
 *
 * @since 0.1.0
 */
export const openMapJournal = (path: string, start: MapRunStart): MapJournal => {
  // openLedger checks the format, creates a new ledger and refuses one in use; the file is opened by the
  // path every name of it resolves to, as a send opens it.
  openLedger(path).close()
  const { DatabaseSync } = loadSqlite()
  const db: DatabaseSync = new DatabaseSync(ledgerFileOf(path))
  let run: number
  try {
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
    db.exec(MAP_JOURNAL_SCHEMA)
    addExclusions(db)
    run = Number(
      db.prepare("INSERT INTO runs (command, service, options, started_at) VALUES ('map', NULL, ?, ?)").run(JSON.stringify(start.options ?? {}), Date.now())
        .lastInsertRowid
    )
    db.prepare("INSERT INTO map_runs (run, input, output, mapping, endpoint) VALUES (?, ?, ?, ?, ?)").run(
      run,
      start.input,
      start.output,
      start.mapping ?? null,
      start.endpoint ?? null
    )
    // The payload file is written anew: the lineage of its earlier version is gone with it.
    if (start.output !== null) {
      db.prepare("DELETE FROM lineage WHERE payload_file = ?").run(start.output)
      db.prepare("DELETE FROM lineage_items WHERE payload_file = ?").run(start.output)
    }
  } catch (error) {
    db.close()
    throw error
  }
  const prepared = statementCache(db)
  let pending = 0
  const write = (work: () => void): void => {
    if (!db.isTransaction) db.exec("BEGIN")
    work()
    if (++pending >= MAP_JOURNAL_BATCH) {
      db.exec("COMMIT")
      pending = 0
    }
  }
  const commit = (): void => {
    if (db.isTransaction) db.exec("COMMIT")
    pending = 0
  }
  let closed = false
  const close = (): void => {
    if (closed) return
    closed = true
    try {
      commit()
    } finally {
      db.close()
    }
  }
  const versions = mapVersionsOf(db, run, start.input, start.endpoint ?? "", write)
  return {
    run,
    versions,
    rejected: (r) =>
      write(() => {
        prepared(
          `INSERT INTO map_rejects (run, file, first_line, lines, codes, detail, raw, endpoint, supplier, account)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        ).run(run, start.input, r.lines[0] ?? 0, JSON.stringify(r.lines), r.codes.join(","), r.detail, r.raw ?? null, start.endpoint ?? null, r.supplier ?? null, r.account ?? null)
      }),
    excluded: (e) =>
      write(() => {
        prepared(
          `INSERT INTO map_exclusions (run, file, first_line, lines, outcome, reason, detail, raw, endpoint, supplier, account)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        ).run(run, start.input, e.lines[0] ?? 0, JSON.stringify(e.lines), e.outcome, e.reason, e.detail, e.raw ?? null, start.endpoint ?? null, e.supplier ?? null, e.account ?? null)
      }),
    warned: (w) =>
      write(() => {
        prepared(
          `INSERT INTO map_warnings (run, file, first_line, lines, code, attr, detail, raw, endpoint, supplier, account)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        ).run(run, start.input, w.lines[0] ?? 0, JSON.stringify(w.lines), w.code, w.attr ?? null, w.detail, w.raw ?? null, start.endpoint ?? null, w.supplier ?? null, w.account ?? null)
      }),
    lineage: (l) => {
      versions.settled(l.lines)
      write(() => {
        if (start.output === null) return
        prepared(
          `INSERT INTO lineage (payload_file, payload_line, run, source_file, lines, raw) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (payload_file, payload_line) DO UPDATE SET run = excluded.run, source_file = excluded.source_file,
             lines = excluded.lines, raw = excluded.raw`
        ).run(start.output, l.payloadLine, run, start.input, JSON.stringify(l.lines), l.raw ?? null)
        for (const r of recordsByKey(l.records ?? [])) {
          prepared(
            `INSERT INTO lineage_items (payload_file, payload_line, key, run, lines, raw) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (payload_file, payload_line, key) DO UPDATE SET run = excluded.run, lines = excluded.lines, raw = excluded.raw`
          ).run(start.output, l.payloadLine, r.key, run, JSON.stringify(r.lines), r.raw)
        }
      })
    },
    end: (ended, totals) => {
      write(() => {
        const excluded = totals.rowsExcluded ?? 0
        prepared("UPDATE map_runs SET rows_read = ?, payloads = ?, rows_rejected = ?, rows_excluded = ? WHERE run = ?").run(totals.rowsRead, totals.payloads, totals.rowsRejected, excluded, run)
        prepared("UPDATE runs SET ended_at = ?, ended = ?, counts = ? WHERE id = ?").run(
          Date.now(),
          ended,
          JSON.stringify({ rows_read: totals.rowsRead, payloads: totals.payloads, rows_rejected: totals.rowsRejected, ...(excluded > 0 ? { rows_excluded: excluded } : {}) }),
          run
        )
      })
      close()
    },
    close
  }
}
