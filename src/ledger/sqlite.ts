/**
 * Loads `node:sqlite` when a store is opened, not when the module is imported, and without its
 * "experimental feature" warning: the warning says nothing a user of the service can act on.
 *
 * @module
 */
import type * as Sqlite from "node:sqlite"

const EXPERIMENTAL_SQLITE = /SQLite is an experimental feature/u

/** The `node:sqlite` module (built into Node 22). */
export const loadSqlite = (): typeof Sqlite => {
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: Array<unknown>) => {
    if (EXPERIMENTAL_SQLITE.test(typeof warning === "string" ? warning : warning.message)) return
    ;(emitWarning as (...args: Array<unknown>) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return process.getBuiltinModule("node:sqlite") as typeof Sqlite
  } finally {
    process.emitWarning = emitWarning
  }
}

/**
 * The column names of `table` in `db`: what a ledger written by an older version has, so that a column
 * added since is added on open, or left unread by a reader that must not write.
 *
 * @example
 * const { DatabaseSync } = loadSqlite()
 * const db = new DatabaseSync(":memory:")
 * db.exec("CREATE TABLE runs (id INTEGER, started_at TEXT)")
 * Array.from(columnsOf(db, "runs")) // => ["id", "started_at"]
 */
export const columnsOf = (db: Sqlite.DatabaseSync, table: string): Set<string> =>
  new Set((db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as Array<{ name: string }>).map((c) => c.name))
