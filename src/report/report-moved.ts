/**
 * What the service changed: the transactions it moved into the open statement period of their account
 * (sent with `force_add_to_current_statement`), each with its old and new date and the text the service
 * wrote into it, and the accounts it pinned a note on (one note per moved transaction, as the spec says).
 * Read through the ledger's queries; at most `limit` listed, all counted.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { movedCounts, movedRows } from "../ledger/problem-queries.js"
import type { LedgerTables } from "../ledger/ledger-types.js"
import { ADVICE_BY_CODE } from "./problem-advice.js"
import { linesText } from "./report-problems.js"
import type { CampaignReport, MovedTransaction } from "./report-types.js"

/** The cause `send` writes for a moved transaction: the code the advice is declared under. */
const MOVED = "moved_into_open_statement_period"

const text = (value: unknown): string | null => (typeof value === "string" ? value : null)

/** The detail of a moved record (`{ from, to, transaction_id?, service_note? }`), or nothing for one that cannot be read. */
const detailOf = (json: string | null): Record<string, unknown> => {
  try {
    const value = json === null ? null : (JSON.parse(json) as unknown)
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** The transaction id from the natural key (`[supplier, account, transaction_id]`), for a ledger whose detail does not hold it. */
const idFromKey = (key: string): string | null => {
  try {
    const values = JSON.parse(key) as unknown
    return Array.isArray(values) ? text(values[values.length - 1]) : null
  } catch {
    return null
  }
}

/**
 * The moved transactions of the ledger: how many, on how many accounts, and the first `limit` of them by
 * supplier, account and the order they were first written, each located in its legacy export when the
 * lineage is known (else its payload file and line).
 */
export const movedTransactions = (db: DatabaseSync, tables: LedgerTables, limit: number): CampaignReport["moved"] => {
  const counts = movedCounts(db)
  const listed = movedRows(db, tables, limit).map((row): MovedTransaction => {
    const detail = detailOf(row.detail)
    const known = row.source_file !== null
    return {
      supplier: row.supplier,
      account: row.account,
      transaction_id: text(detail["transaction_id"]) ?? idFromKey(row.key),
      from: text(detail["from"]),
      to: text(detail["to"]),
      service_note: text(detail["service_note"]),
      source_file: known ? row.source_file : row.file,
      source_lines: known ? linesText(row.lines) : row.line === null ? null : String(row.line),
      payload_file: row.file,
      payload_line: row.line
    }
  })
  return { total: counts.total, accounts: counts.accounts, advice: ADVICE_BY_CODE[MOVED]!, listed }
}
