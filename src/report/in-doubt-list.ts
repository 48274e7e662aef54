/**
 * The list of the records in doubt as a file the service's operators can act on: CSV (RFC 4180), one row
 * per record, with its endpoint, supplier and account, its natural key in wall time (Europe/Berlin, with
 * the offset) and in UTC, its legacy source (through the lineage, when known) and payload line, when it
 * was sent, and why it is in doubt. The `key` column (or `key_utc`) is what `data-import resolve` takes
 * back. Read through the ledger's queries, one row at a time.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { instantTexts, keyTexts } from "../schemas/endpoints/natural-key-text.js"
import { inDoubtRecordRows } from "../ledger/problem-queries.js"
import type { LedgerTables } from "../ledger/ledger-types.js"
import { csvField } from "./render-csv.js"
import { linesText } from "./report-problems.js"

/** The columns of the in-doubt list. */
export const IN_DOUBT_COLUMNS = [
  "endpoint",
  "supplier",
  "account",
  "key",
  "key_utc",
  "source_file",
  "source_lines",
  "payload_file",
  "payload_line",
  "sent_at",
  "sent_at_utc",
  "cause"
] as const

/** One record in doubt. */
export type InDoubtRow = Readonly<Record<(typeof IN_DOUBT_COLUMNS)[number], string | number | null>>

/**
 * The records in doubt, in the order they were first written: answered in doubt, or in flight in a run
 * that is over (`running`, the run holding the ledger now, has its own in flight).
 */
export function* inDoubtRows(db: DatabaseSync, tables: LedgerTables, running: number | undefined): Generator<InDoubtRow> {
  for (const row of inDoubtRecordRows(db, tables, running)) {
    const key = keyTexts(String(row.key))
    const sentAt = typeof row.sent_at === "number" ? row.sent_at : null
    const sent = sentAt === null ? undefined : instantTexts(Math.floor(sentAt / 1000), "")
    const known = row.source_file !== null && row.source_file !== undefined
    yield {
      endpoint: row.endpoint ?? null,
      supplier: row.supplier ?? null,
      account: row.account ?? null,
      key: key.wall,
      key_utc: key.utc,
      source_file: known ? row.source_file : row.file ?? null,
      source_lines: known ? linesText(row.lines) : row.line === null ? null : String(row.line),
      payload_file: row.file ?? null,
      payload_line: row.line ?? null,
      sent_at: sent?.wall ?? null,
      sent_at_utc: sent?.utc ?? null,
      cause: row.cause ?? null
    }
  }
}

/** The header row of the in-doubt list. */
export const inDoubtCsvHeader = (): string => `${IN_DOUBT_COLUMNS.join(",")}\r\n`

/** One record in doubt as a row. */
export const inDoubtCsvRow = (row: InDoubtRow): string => `${IN_DOUBT_COLUMNS.map((c) => csvField(row[c])).join(",")}\r\n`
