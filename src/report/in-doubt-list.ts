/**
 * The list of the records in doubt as a file the service's operators can act on: CSV (RFC 4180), one row
 * per record, with its endpoint, supplier and account, its natural key in wall time (Europe/Berlin, with
 * the offset) and in UTC, its legacy source (through the lineage, when known) and payload line, when it
 * was sent, and why it is in doubt. The `key` column (or `key_utc`) is what `data-import resolve` takes
 * back. Read from the ledger in SQL, one row at a time.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { instantTexts, keyTexts } from "../schemas/endpoints/natural-key-text.js"
import { STOPPED_IN_FLIGHT } from "../ledger/ledger-types.js"
import { csvField } from "./render-csv.js"
import { linesText, type LedgerTables } from "./report-problems.js"

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
  // A ledger read before it gained the column (read-only: not migrated) has only its runs' start.
  const hasSentAt = (db.prepare("SELECT name FROM pragma_table_info('records') WHERE name = 'sent_at'").all()).length > 0
  const lineage = tables.map
    ? { columns: "l.source_file, l.lines, l.raw", join: "LEFT JOIN lineage l ON l.payload_file = r.file AND l.payload_line = r.line" }
    : { columns: "NULL AS source_file, NULL AS lines, NULL AS raw", join: "" }
  const rows = db.prepare(
    `SELECT r.endpoint, r.supplier, r.account, r.key, r.file, r.line, ${hasSentAt ? "COALESCE(r.sent_at, u.started_at)" : "u.started_at"} AS sent_at,
       CASE WHEN r.state = 'in_flight' THEN '${STOPPED_IN_FLIGHT}' ELSE r.cause END AS cause, ${lineage.columns}
     FROM records r LEFT JOIN runs u ON u.id = r.run ${lineage.join}
     WHERE (r.state = 'done' AND r.outcome = 'in_doubt') OR (r.state = 'in_flight' AND r.run IS NOT ?)
     ORDER BY r.id`
  )
  for (const row of rows.iterate(running ?? null) as Iterable<Record<string, string | number | null>>) {
    const key = keyTexts(String(row["key"]))
    const sentAt = typeof row["sent_at"] === "number" ? row["sent_at"] : null
    const sent = sentAt === null ? undefined : instantTexts(Math.floor(sentAt / 1000), "")
    const known = row["source_file"] !== null && row["source_file"] !== undefined
    yield {
      endpoint: row["endpoint"] ?? null,
      supplier: row["supplier"] ?? null,
      account: row["account"] ?? null,
      key: key.wall,
      key_utc: key.utc,
      source_file: known ? row["source_file"]! : row["file"] ?? null,
      source_lines: known ? linesText(row["lines"] as string | null) : row["line"] === null ? null : String(row["line"]),
      payload_file: row["file"] ?? null,
      payload_line: row["line"] ?? null,
      sent_at: sent?.wall ?? null,
      sent_at_utc: sent?.utc ?? null,
      cause: row["cause"] ?? null
    }
  }
}

/** The header row of the in-doubt list. */
export const inDoubtCsvHeader = (): string => `${IN_DOUBT_COLUMNS.join(",")}\r\n`

/** One record in doubt as a row. */
export const inDoubtCsvRow = (row: InDoubtRow): string => `${IN_DOUBT_COLUMNS.map((c) => csvField(row[c])).join(",")}\r\n`
