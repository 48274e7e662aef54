/**
 * The journal of `send`: per record (file, line, content hash, endpoint) its state, written to SQLite
 * (`node:sqlite`, prepared statements only) before a request leaves and after its answer arrives, so a
 * run that stops for any reason can be resumed without losing or repeating a record. It holds no token.
 *
 * WAL mode with `synchronous = NORMAL`: every commit survives the process being killed (the operating
 * system has it); only a crash of the machine itself may lose the last commits. The journal is locked
 * for the whole run (exclusive locking mode): a second run on the same journal is refused instead of
 * sending the same records at the same time, and no commit pays for shared-memory locks.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite"
import { loadSqlite } from "../service/sqlite.js"

/** What became of a record, as the report counts it. */
export const RECORD_STATUSES = [
  "invalid",
  "created",
  "already_existed",
  "rejected",
  "not_found",
  "import_error",
  "failed",
  "in_doubt"
] as const

/** What became of a record. */
export type RecordStatus = (typeof RECORD_STATUSES)[number]

/**
 * Statuses that are known for good: such a record is never sent again. `failed` (nothing known to be
 * stored) is sent again by the next run; `in_doubt` only where a repeat is harmless, or when asked.
 */
export const SETTLED_STATUSES: ReadonlySet<RecordStatus> = new Set(["invalid", "created", "already_existed", "rejected", "not_found", "import_error"])

/** The state of a record in the journal. */
export type RecordState = "pending" | "in_flight" | "done"

/** One record of the journal. */
export interface JournalEntry {
  readonly file: string
  readonly line: number
  readonly hash: string
  readonly endpoint: string | null
  readonly state: RecordState
  readonly status: RecordStatus | null
  readonly httpStatus: number | null
  readonly outcome: string | null
  /** JSON text of the errors (or the reason) reported for the record. */
  readonly errors: string | null
  readonly attempts: number
}

/** How a record ended. */
export interface RecordResult {
  readonly status: RecordStatus
  readonly httpStatus?: number | undefined
  /** The outcome kind (`created`, `retryable`, `in_doubt`, …) or `invalid`. */
  readonly outcome: string
  readonly errors?: ReadonlyArray<unknown> | undefined
  readonly attempts?: number | undefined
}

/** A journal that does not belong to this run: another service, or input files that changed. */
export class JournalMismatchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "JournalMismatchError"
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  file TEXT NOT NULL,
  line INTEGER NOT NULL,
  hash TEXT NOT NULL,
  endpoint TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'done')),
  status TEXT,
  http_status INTEGER,
  outcome TEXT,
  errors TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (file, line)
) WITHOUT ROWID;`

const VERSION = "1"

const errorsText = (result: RecordResult): string | null =>
  result.errors === undefined || result.errors.length === 0 ? null : JSON.stringify(result.errors)

/** The journal of one migration (one `--journal FILE`). */
export interface Journal {
  /** Records a file's digest on first sight; later, throws {@link JournalMismatchError} if it changed. */
  checkFile(path: string, sha256: string, size: number): "new" | "unchanged"
  entry(file: string, line: number): JournalEntry | undefined
  /** A record about to be sent (new, or sent again). */
  pending(file: string, line: number, hash: string, endpoint: string): void
  /** Written before the request leaves. */
  inFlight(file: string, line: number): void
  /** Written when the record's outcome is known (or, for an invalid record, instead of sending it). */
  done(file: string, line: number, hash: string, endpoint: string | null, result: RecordResult): void
  /** Written when the answer of a record journaled as pending has arrived (as `done`, for a row that exists). */
  answered(file: string, line: number, result: RecordResult): void
  /** Runs `work` in one transaction (many small writes at the cost of one). */
  batch<T>(work: () => T): T
  /** The records of these files, in file and line order. */
  entries(files: ReadonlyArray<string>): IterableIterator<JournalEntry>
  close(): void
}

interface Row {
  file: string
  line: number
  hash: string
  endpoint: string | null
  state: RecordState
  status: RecordStatus | null
  http_status: number | null
  outcome: string | null
  errors: string | null
  attempts: number
}

const toEntry = (row: Row): JournalEntry => ({
  file: row.file,
  line: row.line,
  hash: row.hash,
  endpoint: row.endpoint,
  state: row.state,
  status: row.status,
  httpStatus: row.http_status,
  outcome: row.outcome,
  errors: row.errors,
  attempts: row.attempts
})

/**
 * Opens (or creates) a journal for sending to `service` (the base URL: a journal is bound to one
 * service; another one is a {@link JournalMismatchError}).
 *
 * @example
 * const journal = openJournal(":memory:", { service: "https://api.example.energy/" }) // a file path, in use
 * journal.checkFile("/data/payloads.ndjson", "9f86d081884c7d65", 1024) // "new"
 * journal.checkFile("/data/payloads.ndjson", "9f86d081884c7d65", 1024) // "unchanged"
 * journal.close()
 */
export const openJournal = (path: string, options: { readonly service: string }): Journal => {
  const { DatabaseSync } = loadSqlite()
  const db: DatabaseSync = new DatabaseSync(path)
  try {
    try {
      // Small pages: a commit writes only the few pages its rows are on. A checkpoint (every 10,000
      // pages, about 10 MB of WAL, instead of SQLite's 1,000) is where synchronous=NORMAL waits for the
      // disk: ten times fewer of them.
      db.exec("PRAGMA page_size = 1024; PRAGMA wal_autocheckpoint = 10000; PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
      db.exec("BEGIN IMMEDIATE; COMMIT;")
    } catch (cause) {
      if (/locked|busy/iu.test(String(cause))) throw new JournalMismatchError(`the journal ${path} is in use by another run`)
      throw cause
    }
    db.exec(SCHEMA)
    const meta = (key: string): string | undefined =>
      (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value
    const version = meta("version")
    if (version === undefined) {
      db.prepare("INSERT INTO meta (key, value) VALUES ('version', ?), ('service', ?)").run(VERSION, options.service)
    } else if (version !== VERSION) {
      throw new JournalMismatchError(`the journal ${path} has version ${version}, not ${VERSION}`)
    } else if (meta("service") !== options.service) {
      throw new JournalMismatchError(`the journal ${path} belongs to sending to ${meta("service") ?? "?"}, not ${options.service}: use another journal`)
    }
  } catch (error) {
    db.close()
    throw error
  }

  const statements = new Map<string, StatementSync>()
  const prepared = (sql: string): StatementSync => {
    let statement = statements.get(sql)
    if (statement === undefined) {
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
  let depth = 0

  return {
    checkFile: (file, sha256, size) => {
      const known = prepared("SELECT sha256, size FROM files WHERE path = ?").get(file) as { sha256: string; size: number } | undefined
      if (known === undefined) {
        prepared("INSERT INTO files (path, sha256, size) VALUES (?, ?, ?)").run(file, sha256, size)
        return "new"
      }
      if (known.sha256 !== sha256 || known.size !== size) {
        throw new JournalMismatchError(
          `${file} changed since the journal started it (sha256 ${known.sha256.slice(0, 12)}…, now ${sha256.slice(0, 12)}…): ` +
            "resuming would mix two inputs; restore the file, or send the new one with another journal"
        )
      }
      return "unchanged"
    },
    entry: (file, line) => {
      const row = prepared("SELECT * FROM records WHERE file = ? AND line = ?").get(file, line) as Row | undefined
      return row === undefined ? undefined : toEntry(row)
    },
    pending: (file, line, hash, endpoint) => {
      prepared(
        `INSERT INTO records (file, line, hash, endpoint, state) VALUES (?, ?, ?, ?, 'pending')
         ON CONFLICT (file, line) DO UPDATE SET state = 'pending', endpoint = excluded.endpoint`
      ).run(file, line, hash, endpoint)
    },
    inFlight: (file, line) => {
      prepared("UPDATE records SET state = 'in_flight' WHERE file = ? AND line = ?").run(file, line)
    },
    done: (file, line, hash, endpoint, result) => {
      prepared(
        `INSERT INTO records (file, line, hash, endpoint, state, status, http_status, outcome, errors, attempts)
         VALUES (?, ?, ?, ?, 'done', ?, ?, ?, ?, ?)
         ON CONFLICT (file, line) DO UPDATE SET state = 'done', status = excluded.status, http_status = excluded.http_status,
           outcome = excluded.outcome, errors = excluded.errors, attempts = records.attempts + excluded.attempts`
      ).run(
        file,
        line,
        hash,
        endpoint,
        result.status,
        result.httpStatus ?? null,
        result.outcome,
        errorsText(result),
        result.attempts ?? 0
      )
    },
    answered: (file, line, result) => {
      prepared(
        `UPDATE records SET state = 'done', status = ?, http_status = ?, outcome = ?, errors = ?, attempts = attempts + ?
         WHERE file = ? AND line = ?`
      ).run(result.status, result.httpStatus ?? null, result.outcome, errorsText(result), result.attempts ?? 0, file, line)
    },
    batch: (work) => {
      if (depth > 0) return work()
      depth++
      db.exec("BEGIN")
      try {
        const value = work()
        db.exec("COMMIT")
        return value
      } catch (error) {
        db.exec("ROLLBACK")
        throw error
      } finally {
        depth--
      }
    },
    entries: function*(files) {
      for (const file of files) {
        for (const row of prepared("SELECT * FROM records WHERE file = ? ORDER BY line").iterate(file) as IterableIterator<Row>) {
          yield toEntry(row)
        }
      }
    },
    close: () => db.close()
  }
}
