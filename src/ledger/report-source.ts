/**
 * The ledger opened for reading, as `report` and `status --journal` read it: read-only, by the file every
 * name of it resolves to, with the tables it has and the run that holds it now. A running `send` does not
 * keep readers out; a running `map --journal` does.
 *
 * @module
 */
import { statSync } from "node:fs"
import type { DatabaseSync } from "node:sqlite"
import { pathToFileURL } from "node:url"
import { loadSqlite } from "./sqlite.js"
import { isLedgerHeld, isLockedError, ledgerProblem, READ_WAIT_MS } from "./ledger.js"
import { resolveLedgerFile } from "./ledger-file.js"
import { type LedgerTables, LedgerMismatchError } from "./ledger-types.js"
import { sorterThreads } from "./account-scan.js"

/**
 * A ledger opened for reading (by `campaignReport`, `status --journal`).
 *
 * @since 0.1.0
 */
export interface ReportSource {
  readonly path: string
  /** What SQLite opened: the file every name of the ledger resolves to, or an immutable URI of it (a read-only location). */
  readonly file?: string | undefined
  readonly db: DatabaseSync
  readonly tables: LedgerTables
  /**
   * The run in progress when the ledger was opened (a `send` that holds its lock), or `undefined`. Its
   * records in flight are in flight; those of any other run were in flight when that run was killed, so
   * they are in doubt until a later run reads them again.
   */
  readonly running: number | undefined
  close(): void
}

/** The run holding the ledger at `path` now: the latest run that records, if it has not ended and the lock is taken. */
const runningRun = (db: DatabaseSync, path: string): number | undefined => {
  const latest = db.prepare("SELECT id, ended_at FROM runs WHERE command <> 'map' ORDER BY id DESC LIMIT 1").get() as { id: number; ended_at: number | null } | undefined
  return latest !== undefined && latest.ended_at === null && isLedgerHeld(path) ? latest.id : undefined
}

/**
 * Opens the ledger at `path` read-only. Throws for a missing file, and `LedgerMismatchError` for a file
 * that is not a ledger of this version or one a running `map --journal` holds (a running `send` does not
 * keep readers out).
 *
 * @example
 * const path = `${process.env["TMPDIR"] ?? "/tmp"}/report-source-${process.pid}-${Date.now()}.ledger`
 * openLedger(path, { service: "https://api.example.energy" }).close()
 * const source = openReportSource(path)
 * // No `map --journal` has written to it yet: it has no map tables.
 * source.tables // => { map: false, mapWarnings: false, mapExclusions: false }
 * source.close()
 *
 * @since 0.1.0
 */
export const openReportSource = (path: string): ReportSource => {
  let opened: { readonly file: string; readonly db: DatabaseSync }
  try {
    opened = openReadOnly(path)
  } catch (error) {
    throw heldWhole(path, error)
  }
  const { file, db } = opened
  try {
    const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name))
    if (names.size === 0) throw new LedgerMismatchError(`${path} is not a ledger of data-import (a database without tables)`)
    const problem = ledgerProblem(db, path)
    if (problem !== undefined) throw problem
    // The report's two scans are GROUP BYs over every record, which SQLite sorts, side by side when there
    // is a core for each: its sorter gets helper threads only from the cores beyond those.
    db.exec(`PRAGMA threads = ${sorterThreads(2)}`)
    const map = names.has("map_runs") && names.has("map_rejects") && names.has("lineage")
    const tables = { map, mapWarnings: map && names.has("map_warnings") && names.has("lineage_items"), mapExclusions: map && names.has("map_exclusions") }
    return { path, file, db, tables, running: runningRun(db, path), close: () => db.close() }
  } catch (error) {
    db.close()
    throw heldWhole(path, error)
  }
}

/**
 * A send shares the ledger with readers (its lock is a file of its own) but for a moment as it ends (its
 * last checkpoint), which the wait covers; a map run holds it whole until it ends.
 */
const heldWhole = (path: string, error: unknown): unknown =>
  error instanceof Error && !(error instanceof LedgerMismatchError) && isLockedError(error)
    ? new LedgerMismatchError(
      `the ledger ${path} is in use by a running map --journal, which holds it until it ends (waited ${READ_WAIT_MS / 1000} s for it): run this again once it has ended`
    )
    : error

/**
 * Opens the ledger named `path` read-only, by the path every name of it resolves to, waiting for a
 * moment's exclusive lock (a send's last checkpoint). On a read-only location SQLite cannot create the
 * shared index of the log (`-shm`) a reader of a WAL ledger needs: there the file is read as it is
 * (immutable), which is the whole ledger when no log is beside it; a log with changes not yet in the file
 * cannot be read there, and is named.
 */
const openReadOnly = (path: string): { readonly file: string; readonly db: DatabaseSync } => {
  const { DatabaseSync } = loadSqlite()
  const { file } = resolveLedgerFile(path)
  const db = new DatabaseSync(file, { readOnly: true, timeout: READ_WAIT_MS })
  try {
    // SQLite opens the log at the first read.
    db.prepare("SELECT 1 FROM sqlite_master LIMIT 1").get()
    return { file, db }
  } catch (error) {
    db.close()
    const size = (name: string): number | undefined => {
      try {
        return statSync(name).size
      } catch {
        return undefined
      }
    }
    if (!/unable to open/iu.test(String(error)) || size(file) === undefined || file.startsWith("file:")) throw error
    if ((size(`${file}-wal`) ?? 0) > 0) {
      throw new LedgerMismatchError(
        `the ledger ${path} cannot be read where it is (SQLite cannot create ${file}-shm there: a read-only location?), and its log ${file}-wal holds changes not yet in the file: ` +
          "copy the ledger with its -wal file to a folder that can be written, and report the copy"
      )
    }
    const immutable = `${pathToFileURL(file).href}?immutable=1`
    return { file: immutable, db: new DatabaseSync(immutable, { readOnly: true }) }
  }
}
