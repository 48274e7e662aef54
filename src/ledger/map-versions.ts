/**
 * The versions of values that `map --journal` mapped, kept in the campaign's ledger (`map_versions`):
 * for each key (an EDIFACT reader file's `versions.key`, e.g. MaLo, OBIS code and interval) the version
 * that went into a payload: its run, file and line, its sender, document (`BGM` 1004) and date
 * (`DTM+137`), and its raw text. A later run compares its own latest versions with these: an older one is
 * superseded, a newer one with another value is a conflict (the API has no update), the same one maps
 * again as any re-mapped input does.
 *
 * The table is created with CREATE TABLE IF NOT EXISTS when the journal opens: an older ledger gains it.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite"

/** The table of mapped versions; `key` is unique per endpoint. */
export const MAP_VERSIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_versions (endpoint TEXT NOT NULL, key TEXT NOT NULL, run INTEGER NOT NULL, file TEXT NOT NULL,
  line INTEGER NOT NULL, message TEXT, sender TEXT NOT NULL, document TEXT NOT NULL, dated INTEGER, dated_text TEXT, raw TEXT NOT NULL,
  PRIMARY KEY (endpoint, key)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS map_versions_document ON map_versions (sender, document);`

/**
 * A version of a value as the ledger keeps it.
 *
 * @since 0.1.0
 */
export interface MappedVersion {
  readonly key: string
  readonly run: number
  /** The input it was read from (a resolved path) and its line there (an EDIFACT segment number). */
  readonly file: string
  readonly line: number
  /** The message (UNH 0062), its sender (UNB 0004), document (BGM 1004) and date (DTM+137: ISO text, and its instant in ms). */
  readonly message: string | null
  readonly sender: string
  readonly document: string
  readonly datedText: string | null
  readonly dated: number | null
  readonly raw: string
}

/**
 * The mapped versions of a ledger, as one map run reads and writes them.
 *
 * @since 0.1.0
 */
export interface MapVersions {
  /** The version an earlier run mapped for `key`. */
  find(key: string): MappedVersion | undefined
  /** A run that mapped values of the document (sender, BGM 1004). */
  findDocument(sender: string, document: string): { readonly run: number; readonly file: string } | undefined
  /** A version this run maps if its line (of the run's input) goes into a payload: recorded then. */
  expect(version: Omit<MappedVersion, "run" | "file">): void
  /** Lines of the run's input went into a payload: the versions expected there are recorded. */
  settled(lines: ReadonlyArray<number>): void
}

/**
 * The mapped versions of the ledger `db` for run `run` of `input` (endpoint `endpoint`); writes go through
 * `write`, the journal's batched transaction.
 */
export const mapVersionsOf = (db: DatabaseSync, run: number, input: string, endpoint: string, write: (work: () => void) => void): MapVersions => {
  const statements = new Map<string, StatementSync>()
  const prepared = (sql: string): StatementSync => {
    let s = statements.get(sql)
    if (s === undefined) statements.set(sql, (s = db.prepare(sql)))
    return s
  }
  const expected = new Map<number, Omit<MappedVersion, "run" | "file">>()
  return {
    find: (key) => {
      const row = prepared("SELECT * FROM map_versions WHERE endpoint = ? AND key = ?").get(endpoint, key) as Record<string, string | number | null> | undefined
      if (row === undefined) return undefined
      return {
        key,
        run: Number(row["run"]),
        file: String(row["file"]),
        line: Number(row["line"]),
        message: row["message"] === null ? null : String(row["message"]),
        sender: String(row["sender"]),
        document: String(row["document"]),
        datedText: row["dated_text"] === null ? null : String(row["dated_text"]),
        dated: row["dated"] === null ? null : Number(row["dated"]),
        raw: String(row["raw"])
      }
    },
    findDocument: (sender, document) => {
      const row = prepared("SELECT run, file FROM map_versions WHERE sender = ? AND document = ? ORDER BY run LIMIT 1").get(sender, document) as
        | { run: number; file: string }
        | undefined
      return row === undefined ? undefined : { run: Number(row.run), file: String(row.file) }
    },
    expect: (version) => {
      expected.set(version.line, version)
    },
    settled: (lines) => {
      for (const line of lines) {
        const v = expected.get(line)
        if (v === undefined) continue
        expected.delete(line)
        write(() => {
          prepared(
            `INSERT INTO map_versions (endpoint, key, run, file, line, message, sender, document, dated, dated_text, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (endpoint, key) DO UPDATE SET run = excluded.run, file = excluded.file, line = excluded.line, message = excluded.message,
               sender = excluded.sender, document = excluded.document, dated = excluded.dated, dated_text = excluded.dated_text, raw = excluded.raw`
          ).run(endpoint, v.key, run, input, v.line, v.message, v.sender, v.document, v.dated, v.datedText, v.raw)
        })
      }
    }
  }
}
