/**
 * The ledger of a migration campaign: every record by its identity (its natural key, see
 * `recordsOf`) and the digest of its content, whatever file or line it came from, with what became of
 * it; the runs that sent them; the services (base URLs) it was sent to; and the conflicts (a settled
 * record met again with other content). SQLite through `node:sqlite`, prepared statements only.
 *
 * A record is written `pending` before its request is handed to a sender, `in_flight` in a commit that
 * lands before the request leaves, and `done` with its outcome once the answer is in. So a run that is
 * killed leaves every record it touched in one of three readable states: not sent (`pending`), maybe
 * sent (`in_flight`), or known (`done`).
 *
 * WAL mode with `synchronous = NORMAL`: every commit survives the process being killed. A run holds an
 * exclusive lock on a file beside the ledger (`LEDGER-lock`) for as long as it is open: a second run on the
 * same ledger waits a moment for it, then is refused rather than sending the same records twice at once,
 * while readers (the report, `status --journal`, a dry run) read the ledger as it is written. The lock ends
 * with the process, however it ends. Every name of one ledger file (symbolic links, hard links, relative
 * paths) opens it, and locks it, by one path (`resolveLedgerFile`). The ledger holds no token or key.
 *
 * @module
 */
import { realpathSync } from "node:fs"
import type { DatabaseSync } from "node:sqlite"
import { columnsOf, loadSqlite } from "./sqlite.js"
import { resolveLedgerFile, targetOf } from "./ledger-file.js"
import { detailText, type RecordRow, statementCache, toRecord } from "./ledger-rows.js"
import {
  type Ledger,
  LedgerDamagedError,
  LedgerMismatchError,
  type OpenLedgerOptions,
  type RecordOutcome,
  type RecordState,
  type UnidentifiedLine
} from "./ledger-types.js"

/**
 * The lines that named no record by their place: a record read at one forgets it (`identified`), which
 * without this index scans every such line, once per line of a fixed file. Created on every writable open,
 * so a ledger written before it gains it (an index changes nothing of the format).
 */
const UNIDENTIFIED_PLACES = "CREATE INDEX IF NOT EXISTS unidentified_place ON unidentified (file, line);"

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS services (url TEXT PRIMARY KEY, first_run INTEGER NOT NULL, last_run INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, command TEXT NOT NULL, service TEXT, options TEXT,
  started_at INTEGER NOT NULL, ended_at INTEGER, ended TEXT, counts TEXT);
CREATE TABLE IF NOT EXISTS records (
  id INTEGER PRIMARY KEY,
  identity TEXT NOT NULL UNIQUE,
  endpoint TEXT NOT NULL,
  key TEXT NOT NULL,
  supplier TEXT,
  account TEXT,
  content TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'done')),
  outcome TEXT,
  cause TEXT,
  http_status INTEGER,
  detail TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  file TEXT,
  line INTEGER,
  run INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS conflicts (
  identity TEXT NOT NULL,
  content TEXT NOT NULL,
  file TEXT NOT NULL,
  line INTEGER NOT NULL,
  run INTEGER NOT NULL,
  PRIMARY KEY (identity, content)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS unidentified (run INTEGER NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL, detail TEXT NOT NULL, PRIMARY KEY (run, file, line)) WITHOUT ROWID;
${UNIDENTIFIED_PLACES}`

/** The format of the file; a ledger of another format is refused, never read wrongly. */
const FORMAT = "ledger-2"

/**
 * The first version of data-import-payloads that reads {@link FORMAT}: recorded in every ledger created
 * (`meta.version_needed`), so that a version older than that can name the version to run.
 */
const FORMAT_READ_SINCE = "0.1.0"

/** Tables only a ledger has: a database holding one of them, without a format, is a damaged ledger. */
const LEDGER_ONLY_TABLES: ReadonlyArray<string> = ["services", "runs", "conflicts", "unidentified"]

/**
 * What to do with a damaged ledger: recover it (docs/send.md, "A damaged ledger"). Never a new ledger:
 * it would send again every record the campaign has stored.
 *
 * @example
 * damagedLedgerAdvice("campaign.ledger").startsWith("recover it") // => true
 */
export const damagedLedgerAdvice = (path: string): string =>
  `recover it as docs/send.md says under "A damaged ledger" (with no run going: sqlite3 ${path} "REINDEX" for a damaged index; ` +
  `otherwise sqlite3 ${path} ".recover" into a new file that then replaces it), and run again; a new ledger would send again every record it has stored`

/** Why a ledger of `format` (not this version's) is refused; `versionNeeded` as the ledger records it. */
const formatRefusal = (path: string, format: string | undefined, versionNeeded: string | undefined): LedgerMismatchError => {
  if (format === undefined) {
    return new LedgerMismatchError(
      `the ledger ${path} was written by an older version of data-import (a journal of file lines), which this version cannot continue: ` +
        "finish its campaign with the version that wrote it (a new ledger would send again every record it has stored)"
    )
  }
  const number = (f: string): number | undefined => {
    const n = /^ledger-(\d+)$/u.exec(f)?.[1]
    return n === undefined ? undefined : Number(n)
  }
  const theirs = number(format)
  if (theirs !== undefined && theirs > number(FORMAT)!) {
    const needed = versionNeeded === undefined ? `a version of data-import that reads ${format}` : `data-import ${versionNeeded} or later`
    return new LedgerMismatchError(
      `the ledger ${path} was written by a newer version of data-import (format ${format}; this version reads ${FORMAT}): run it with ${needed}; the ledger is unchanged`
    )
  }
  return new LedgerMismatchError(
    `the ledger ${path} was written by an older version of data-import (format ${format}; this version reads ${FORMAT}): continue it with the version that wrote it; the ledger is unchanged`
  )
}

/**
 * Why the database `db`, opened from the ledger named `path`, cannot be read as a ledger of this version,
 * or `undefined` when it can, or holds no table yet (a new ledger): a newer or older format, a damaged
 * ledger ({@link LedgerDamagedError}), or a database of another tool.
 *
 * @example
 * import { DatabaseSync } from "node:sqlite"
 * const db = new DatabaseSync(":memory:")
 * db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', 'ledger-9'), ('version_needed', '4.0.0')")
 * ledgerProblem(db, "campaign.ledger")?.message // => "the ledger campaign.ledger was written by a newer version of data-import (format ledger-9; this version reads ledger-2): run it with data-import 4.0.0 or later; the ledger is unchanged"
 */
export const ledgerProblem = (db: DatabaseSync, path: string): Error | undefined => {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name)
  if (tables.length === 0) return undefined
  const hasMeta = tables.includes("meta")
  const metaValue = (key: string): string | undefined =>
    hasMeta ? (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value : undefined
  const format = metaValue("format")
  // The lookup goes through meta's index; a scan of the table that finds what the index misses is a damaged index.
  if (hasMeta && format === undefined && db.prepare("SELECT value FROM meta NOT INDEXED WHERE key = 'format'").get() !== undefined) {
    return new LedgerDamagedError(`the ledger ${path} is damaged: the index of its meta table misses rows the table holds; ${damagedLedgerAdvice(path)}`)
  }
  if (format === undefined) {
    // One without a format is an old journal of file lines (meta, files, records), or another tool's (serve's state).
    if (hasMeta && tables.includes("files")) return formatRefusal(path, undefined, undefined)
    const ledgerTables = tables.filter((t) => LEDGER_ONLY_TABLES.includes(t))
    if (ledgerTables.length > 0) {
      return new LedgerDamagedError(`the ledger ${path} is damaged: it has a ledger's tables (${ledgerTables.join(", ")}) but no format; ${damagedLedgerAdvice(path)}`)
    }
    return new LedgerMismatchError(`${path} is not a ledger of data-import (a database with the tables ${tables.join(", ")}): give the path of the campaign's ledger`)
  }
  return format === FORMAT ? undefined : formatRefusal(path, format, metaValue("version_needed"))
}

/** How long a run waits for the lock before it refuses the ledger as in use. */
const LOCK_WAIT_MS = 1000

/** How long a reader (a dry run, the report) waits for a moment's exclusive lock: a send's final checkpoint. */
export const READ_WAIT_MS = 10_000

const openDatabase = (path: string, readOnly: boolean): DatabaseSync | undefined => {
  const { DatabaseSync } = loadSqlite()
  if (readOnly) {
    try {
      return new DatabaseSync(path, { readOnly: true, timeout: READ_WAIT_MS })
    } catch (cause) {
      // A dry run before the first real run: no ledger yet, nothing settled.
      if (/unable to open/iu.test(String(cause))) return undefined
      throw cause
    }
  }
  return new DatabaseSync(path, { timeout: LOCK_WAIT_MS })
}

/** The path of the file `path` leads to (through symbolic links or linked folders), or `path` when nothing is there. */
export const realPathOf = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/**
 * The files of the ledger at `path`: itself and what SQLite and a run keep beside it (`-wal`, `-shm`, the
 * run's `-lock`), by the name given, by the file it leads to and by the name it is opened by.
 */
export const ledgerFilesOf = (path: string): Array<string> => {
  const names = [path, realPathOf(path), targetOf(path)]
  try {
    names.push(resolveLedgerFile(path).file)
  } catch {
    // A ledger with names none of which it records is refused when opened; its names given are listed.
  }
  return [...new Set(names)].flatMap((p) => [p, `${p}-wal`, `${p}-shm`, `${p}-lock`])
}

/** Whether SQLite refused an operation because another connection holds a lock (SQLITE_LOCKED, SQLITE_BUSY). */
export const isLockedError = (error: unknown): boolean => /locked|busy/iu.test(String(error))


/**
 * Takes the run's lock on the ledger named `path`, opened by `file`: an exclusive lock on `FILE-lock`, held
 * by a transaction left open until it is closed (or the process ends). The ledger itself stays readable by
 * other processes, which an exclusive lock on it would not allow. A lock file SQLite cannot use is named
 * as what it is: a file of no data, which may go when no run is going.
 */
const lockLedger = (path: string, file: string): DatabaseSync | undefined => {
  if (file === "" || file === ":memory:") return undefined
  const { DatabaseSync } = loadSqlite()
  const lockPath = `${file}-lock`
  let lock: DatabaseSync | undefined
  try {
    // A reader of the lock (isLedgerHeld: the report, status --journal) holds it shared for one read, and a
    // run started at the same moment competes for it: wait for them rather than refuse the ledger. A run in
    // progress holds it for good: refused after the wait. Not SQLite's exclusive locking mode: there, a
    // contender keeps the shared lock it took while waiting, so two runs started at once wait for each
    // other until both are refused.
    lock = new DatabaseSync(lockPath, { timeout: LOCK_WAIT_MS })
    lock.exec("BEGIN EXCLUSIVE")
    return lock
  } catch (cause) {
    lock?.close()
    if (isLockedError(cause)) throw new LedgerMismatchError(`the ledger ${path} is in use by another run${file === path ? "" : ` (it is the file ${file})`}`)
    throw new LedgerDamagedError(
      `the lock file ${lockPath} of the ledger ${path} cannot be used (${cause instanceof Error ? cause.message : String(cause)}): ` +
        "it holds no data of the campaign, only a run's lock; when no run of this ledger is going, remove it and run again. The ledger itself was not opened"
    )
  }
}

/**
 * Whether a run holds the ledger at `path` now (its lock is taken), read without taking anything: a reader
 * of the lock file needs a shared lock, which the run's exclusive one refuses at once. A missing lock file
 * (no run ever, or a ledger copied elsewhere) is a ledger no run holds. The reader's shared lock lasts one
 * read of an empty file.
 *
 * @example
 * const path = `${process.env["TMPDIR"] ?? "/tmp"}/held-${process.pid}-${Date.now()}.ledger`
 * const ledger = openLedger(path)
 * isLedgerHeld(path) // => true
 * ledger.close()
 * isLedgerHeld(path) // => false
 */
export const isLedgerHeld = (path: string): boolean => {
  if (path === "" || path === ":memory:" || path.startsWith("file:")) return false
  const { DatabaseSync } = loadSqlite()
  let probe: DatabaseSync
  try {
    probe = new DatabaseSync(`${resolveLedgerFile(path).file}-lock`, { readOnly: true })
  } catch {
    return false
  }
  try {
    probe.prepare("SELECT COUNT(*) FROM sqlite_master").get()
    return false
  } catch (cause) {
    return isLockedError(cause)
  } finally {
    probe.close()
  }
}

/** A record written (or written again) in a state before its answer: its identity, content and place. */
const upsertRecord = (state: "pending" | "in_flight"): string =>
  `INSERT INTO records (identity, endpoint, key, supplier, account, content, state, file, line, run, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, '${state}', ?, ?, ?, ?)
   ON CONFLICT (identity) DO UPDATE SET content = excluded.content, state = '${state}', file = excluded.file,
     line = excluded.line, run = excluded.run, updated_at = excluded.updated_at`

const UPSERT_RECORD = { pending: upsertRecord("pending") } as const

/** A record marked in flight: as {@link upsertRecord}, with the send options it leaves with and the time it leaves. */
const UPSERT_SENT = `INSERT INTO records (identity, endpoint, key, supplier, account, content, state, file, line, run, updated_at, options, sent_at)
   VALUES (?, ?, ?, ?, ?, ?, 'in_flight', ?, ?, ?, ?, ?, ?)
   ON CONFLICT (identity) DO UPDATE SET content = excluded.content, state = 'in_flight', file = excluded.file,
     line = excluded.line, run = excluded.run, updated_at = excluded.updated_at, options = excluded.options, sent_at = excluded.sent_at`

/**
 * The columns a record gained after the ledger's first format: the send options it was last sent with
 * (JSON) and when it was last sent. Added on every writable open of a ledger that lacks them, in one
 * commit; a refused transaction of such a ledger takes the options of the run that sent it (the run's
 * own record of its options), so that a later decision applies to it too. A transaction the service
 * answered as already there keeps none: whether this campaign stored it itself cannot be told any more.
 */
const addRecordOptions = (db: DatabaseSync): void => {
  const columns = columnsOf(db, "records")
  if (columns.has("options") && columns.has("sent_at")) return
  db.exec("BEGIN IMMEDIATE")
  try {
    if (!columns.has("options")) db.exec("ALTER TABLE records ADD COLUMN options TEXT")
    if (!columns.has("sent_at")) db.exec("ALTER TABLE records ADD COLUMN sent_at INTEGER")
    db.prepare(
      `UPDATE records SET options = (
         SELECT json_object(
           'force_add_to_current_statement', json(CASE WHEN json_extract(r.options, '$.force_add_to_current_statement') THEN 'true' ELSE 'false' END),
           'check_previously_added', json(CASE WHEN json_extract(r.options, '$.check_previously_added') = 0 THEN 'false' ELSE 'true' END))
         FROM runs r WHERE r.id = records.run AND json_extract(r.options, '$.force_add_to_current_statement') IS NOT NULL)
       WHERE options IS NULL AND endpoint = 'transactions' AND state = 'done' AND outcome = 'rejected'`
    ).run()
    db.exec("COMMIT")
  } catch (cause) {
    if (db.isTransaction) db.exec("ROLLBACK")
    throw cause
  }
}

/**
 * Opens (or creates) the ledger at `path`, by the path every name of that file resolves to
 * (`resolveLedgerFile`). Throws {@link LedgerMismatchError} for a ledger in use by another run, of another
 * format, or bound to other services; {@link LedgerDamagedError} for a damaged ledger or lock file; SQLite's
 * own error for a file that is not a database.
 *
 * @example
 * const ledger = openLedger(":memory:", { service: "https://api.example.energy/" })
 * const run = ledger.startRun("send", "https://api.example.energy/", {})
 * ledger.pending({ identity: "id-1", endpoint: "transactions", key: '["transactions","S","A","T-1"]', supplier: "S", account: "A", content: "c1", file: "/data/t.ndjson", line: 1 }, run)
 * ledger.settle("id-1", { outcome: "created", httpStatus: 201 })
 * ledger.record("id-1")?.outcome // => "created"
 * ledger.close()
 *
 * @since 0.1.0
 */
export const openLedger = (path: string, options: OpenLedgerOptions = {}): Ledger => {
  const readOnly = options.readOnly === true
  const { file, recorded } = resolveLedgerFile(path)
  const lock = readOnly ? undefined : lockLedger(path, file)
  let opened: DatabaseSync | undefined
  try {
    opened = openDatabase(file, readOnly)
  } catch (error) {
    lock?.close()
    throw error
  }
  const { DatabaseSync } = loadSqlite()
  const db: DatabaseSync = opened ?? new DatabaseSync(":memory:")
  try {
    try {
      // Another tool's database (a mistyped --journal), another version's ledger or a damaged one is refused
      // before anything of it is changed. A ledger's meta table always has its format (written with the
      // tables, in one commit).
      const problem = ledgerProblem(db, path)
      if (problem !== undefined) throw problem
      if (!readOnly) {
        // SQLite's default pages (a commit's new rows share the table's last pages; 1 KiB pages cost more
        // in bench/send.mjs); rare checkpoints (about 40 MB of WAL) are where synchronous=NORMAL waits.
        db.exec("PRAGMA wal_autocheckpoint = 10000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        db.exec("BEGIN IMMEDIATE; COMMIT;")
      }
    } catch (cause) {
      if (isLockedError(cause)) throw new LedgerMismatchError(`the ledger ${path} is in use by another run`)
      throw cause
    }
    const hasMeta = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined
    if (opened === undefined || !hasMeta) {
      if (readOnly && opened !== undefined) throw new LedgerMismatchError(`${path} is not a ledger of data-import`)
      // The tables and the format in one commit: a ledger is never seen without its format.
      db.exec("BEGIN IMMEDIATE")
      try {
        db.exec(SCHEMA)
        db.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), ('version_needed', ?)").run(FORMAT, FORMAT_READ_SINCE)
        db.exec("COMMIT")
      } catch (cause) {
        db.exec("ROLLBACK")
        throw cause
      }
    }
    if (!readOnly) {
      db.exec(UNIDENTIFIED_PLACES)
      addRecordOptions(db)
      // The path the ledger is opened by, for a run through another name of the file (a hard link): under the
      // lock, and checkpointed into the file, where resolveLedgerFile reads it without the log.
      if (recorded !== file && file !== "" && file !== ":memory:" && !file.startsWith("file:")) {
        db.prepare("INSERT INTO meta (key, value) VALUES ('name', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(file)
        db.exec("PRAGMA wal_checkpoint(PASSIVE)")
      }
    }
    if (options.service !== undefined) {
      const known = (db.prepare("SELECT url FROM services ORDER BY first_run").all() as Array<{ url: string }>).map((r) => r.url)
      if (known.length > 0 && !known.includes(options.service) && options.allowNewService !== true) {
        throw new LedgerMismatchError(
          `the ledger ${path} has sent to ${known.join(", ")}, not ${options.service}; if this is the same service at a new address, ` +
            "run again with --new-base-url (the report lists every address the ledger has seen); for another service, use another ledger"
        )
      }
    }
  } catch (error) {
    db.close()
    lock?.close()
    throw error
  }

  const prepared = statementCache(db)
  let depth = 0
  const service = options.service
  return {
    path,
    startRun: (command, runService, runOptions) => {
      const result = prepared("INSERT INTO runs (command, service, options, started_at) VALUES (?, ?, ?, ?)").run(
        command,
        runService,
        JSON.stringify(runOptions ?? {}),
        Date.now()
      )
      const run = Number(result.lastInsertRowid)
      if (runService !== null && service !== undefined) {
        prepared(
          "INSERT INTO services (url, first_run, last_run) VALUES (?, ?, ?) ON CONFLICT (url) DO UPDATE SET last_run = excluded.last_run"
        ).run(runService, run, run)
      }
      return run
    },
    endRun: (run, ended, counts) => {
      prepared("UPDATE runs SET ended_at = ?, ended = ?, counts = ? WHERE id = ?").run(Date.now(), ended, JSON.stringify(counts), run)
    },
    services: () => (prepared("SELECT url FROM services ORDER BY first_run, url").all() as Array<{ url: string }>).map((r) => r.url),
    record: (identity) => {
      const row = prepared("SELECT * FROM records WHERE identity = ?").get(identity) as RecordRow | undefined
      return row === undefined ? undefined : toRecord(row)
    },
    pending: (s, run) => {
      prepared(UPSERT_RECORD.pending).run(s.identity, s.endpoint, s.key, s.supplier, s.account, s.content, s.file, s.line, run, Date.now())
    },
    inFlight: (s, run, sentWith) => {
      const now = Date.now()
      const options = sentWith === undefined ? null : JSON.stringify(sentWith)
      prepared(UPSERT_SENT).run(s.identity, s.endpoint, s.key, s.supplier, s.account, s.content, s.file, s.line, run, now, options, now)
    },
    rekey: (from, to, key) => {
      if (prepared("SELECT 1 FROM records WHERE identity = ?").get(to) !== undefined) return
      // A savepoint: the record and its conflicts move together, inside a batch or alone.
      db.exec("SAVEPOINT rekey")
      try {
        prepared("UPDATE records SET identity = ?, key = ? WHERE identity = ?").run(to, key, from)
        prepared("UPDATE OR IGNORE conflicts SET identity = ? WHERE identity = ?").run(to, from)
        db.exec("RELEASE rekey")
      } catch (error) {
        db.exec("ROLLBACK TO rekey")
        db.exec("RELEASE rekey")
        throw error
      }
    },
    readAt: (identity, file, line) => {
      prepared("UPDATE records SET file = ?, line = ? WHERE identity = ? AND (file IS NOT ? OR line IS NOT ?)").run(file, line, identity, file, line)
    },
    unsent: (identity, state) => {
      prepared("UPDATE records SET state = ? WHERE identity = ?").run(state ?? "pending", identity)
    },
    settle: (identity, o) => {
      prepared(
        `UPDATE records SET state = 'done', outcome = ?, cause = ?, http_status = ?, detail = ?, attempts = attempts + ?, updated_at = ?
         WHERE identity = ?`
      ).run(o.outcome, o.cause ?? null, o.httpStatus ?? null, detailText(o.detail), o.attempts ?? 0, Date.now(), identity)
    },
    conflict: (identity, content, file, line, run) => {
      prepared("INSERT INTO conflicts (identity, content, file, line, run) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING").run(
        identity,
        content,
        file,
        line,
        run
      )
    },
    unidentified: (run, file, line, detail) => {
      prepared("INSERT INTO unidentified (run, file, line, detail) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET detail = excluded.detail").run(
        run,
        file,
        line,
        detail
      )
    },
    batch: (work) => {
      if (depth > 0 || readOnly) return work()
      depth++
      db.exec("BEGIN")
      try {
        const value = work()
        db.exec("COMMIT")
        return value
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK")
        throw error
      } finally {
        depth--
      }
    },
    records: ({ outcome, run, limit }) => {
      // One statement per shape of filter, each prepared once.
      const where = [
        outcome === undefined ? "" : outcome === null ? "state <> 'done'" : "state = 'done' AND outcome = ?",
        run === undefined ? "" : "run = ?"
      ].filter((w) => w !== "")
      const args = [...(outcome === undefined || outcome === null ? [] : [outcome]), ...(run === undefined ? [] : [run]), limit]
      const sql = `SELECT * FROM records${where.length === 0 ? "" : ` WHERE ${where.join(" AND ")}`} ORDER BY id LIMIT ?`
      return (prepared(sql).all(...args) as unknown as Array<RecordRow>).map(toRecord)
    },
    inDoubt: () =>
      (prepared("SELECT * FROM records WHERE state = 'in_flight' OR (state = 'done' AND outcome = 'in_doubt') ORDER BY id").all() as unknown as Array<RecordRow>)
        .map(toRecord),
    runRecords: function*(run) {
      for (const row of prepared("SELECT * FROM records WHERE run = ? ORDER BY id").iterate(run)) yield toRecord(row as unknown as RecordRow)
    },
    counts: () =>
      prepared("SELECT endpoint, state, outcome, COUNT(*) AS count FROM records GROUP BY endpoint, state, outcome ORDER BY endpoint, state, outcome")
        .all() as unknown as ReadonlyArray<{ endpoint: string; state: RecordState; outcome: RecordOutcome | null; count: number }>,
    conflicts: (limit) =>
      (prepared(
        `SELECT c.identity, r.endpoint, r.key, r.content AS known_content, r.file AS known_file, r.line AS known_line, r.outcome AS known_outcome,
                c.content AS other_content, c.file AS other_file, c.line AS other_line
         FROM conflicts c JOIN records r ON r.identity = c.identity WHERE c.content <> r.content ORDER BY c.run, c.file, c.line LIMIT ?`
      ).all(limit) as Array<Record<string, unknown>>).map((row) => ({
        identity: row["identity"] as string,
        endpoint: row["endpoint"] as string,
        key: row["key"] as string,
        known: {
          content: row["known_content"] as string,
          file: row["known_file"] as string | null,
          line: row["known_line"] as number | null,
          outcome: row["known_outcome"] as RecordOutcome | null
        },
        other: { content: row["other_content"] as string, file: row["other_file"] as string, line: row["other_line"] as number }
      })),
    unidentifiedPlaces: () => prepared("SELECT DISTINCT file, line FROM unidentified").all() as unknown as ReadonlyArray<{ file: string; line: number }>,
    identified: (file, line) => {
      prepared("DELETE FROM unidentified WHERE file = ? AND line = ?").run(file, line)
    },
    unidentifiedLines: (run, limit) =>
      prepared("SELECT run, file, line, detail FROM unidentified WHERE run = ? ORDER BY file, line LIMIT ?").all(run, limit) as unknown as ReadonlyArray<UnidentifiedLine>,
    close: () => {
      try {
        db.close()
      } finally {
        lock?.close()
      }
    }
  }
}
