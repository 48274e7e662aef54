/**
 * The rows of the ledger's records table as SQLite returns them, and as the ledger's interface gives them.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite"
import type { LedgerRecord, RecordOutcome, RecordState } from "./ledger-types.js"

/**
 * Prepared statements of `db`, each prepared once and kept: the ledger and the map journal run the same
 * few statements for every record.
 */
export const statementCache = (db: DatabaseSync): ((sql: string) => StatementSync) => {
  const statements = new Map<string, StatementSync>()
  return (sql) => {
    let statement = statements.get(sql)
    if (statement === undefined) {
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
}

/** A row of the records table. */
export interface RecordRow {
  identity: string
  endpoint: string
  key: string
  supplier: string | null
  account: string | null
  content: string
  state: RecordState
  outcome: RecordOutcome | null
  cause: string | null
  http_status: number | null
  detail: string | null
  attempts: number
  file: string | null
  line: number | null
  run: number
  updated_at: number
  /** Absent from a ledger opened read-only before it gained the column. */
  options?: string | null
  sent_at?: number | null
}

/** A row as a {@link LedgerRecord}. */
export const toRecord = (row: RecordRow): LedgerRecord => ({
  identity: row.identity,
  endpoint: row.endpoint,
  key: row.key,
  supplier: row.supplier,
  account: row.account,
  content: row.content,
  state: row.state,
  outcome: row.outcome,
  cause: row.cause,
  httpStatus: row.http_status,
  detail: row.detail,
  attempts: row.attempts,
  file: row.file,
  line: row.line,
  run: row.run,
  updatedAt: row.updated_at,
  options: row.options ?? null,
  sentAt: row.sent_at ?? null
})

/** The JSON text of an outcome's detail; `null` for none. */
export const detailText = (detail: unknown): string | null =>
  detail === undefined || detail === null || (Array.isArray(detail) && detail.length === 0) ? null : JSON.stringify(detail)
