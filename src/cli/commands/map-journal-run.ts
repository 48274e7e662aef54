/**
 * `map --journal FILE`: the map run recorded in the campaign's ledger (the file `send --journal` uses):
 * rows read, every rejected row (physical lines, codes, detail, raw text, and its supplier and account
 * when the mapping tells them) and each payload's lineage (payload file and line → source lines).
 *
 * @module
 */
import { resolve } from "node:path"
import { LedgerMismatchError, type MapJournal, type Mapping, openMapJournal } from "../../index.js"
import { describeError, ioError, usageError } from "../exit-codes.js"
import type { SourceRow } from "../source-rows.js"
import type { Reject } from "./map-outcomes.js"

/** What the journal needs of a run's counts. */
export interface MapCounts {
  readonly rowsRead: number
  readonly payloads: number
  readonly rowsRejected: number
}

/** The journal of one map run, as the map command drives it. */
export interface MapJournalRun {
  rejected(reject: Reject): void
  lineage(payloadLine: number, lines: ReadonlyArray<number>, rows: ReadonlyArray<SourceRow>): void
  /** Ends the run once (later calls do nothing): its totals are `counts` (none read when unknown). */
  end(ended: "completed" | "interrupted" | "failed", counts: MapCounts | undefined): void
}

/** A cell's text, or `null` for nothing. */
const textOf = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : typeof value === "number" ? String(value) : null)

/**
 * The value of the payload field `path` as far as it can be told without mapping: a constant, or the
 * cell of the column it reads (the row as read: an unreadable line has no cells).
 */
const fieldOf = (mapping: Mapping, record: unknown, path: string): string | null => {
  const source: unknown = mapping.fields[path]
  const cell = (column: unknown): string | null =>
    typeof column === "string" && typeof record === "object" && record !== null ? textOf((record as Record<string, unknown>)[column]) : null
  if (typeof source === "string") return cell(source)
  if (typeof source !== "object" || source === null) return null
  if ("value" in source) return textOf(source.value)
  return "column" in source ? cell(source.column) : null
}

/** The reasons of a reject in one line: each with its column or attribute. */
const detailOf = (r: Reject): string =>
  r.errors.map((e) => {
    const place = [e.column !== undefined ? `column ${e.column}` : "", e.attr ?? ""].filter((p) => p !== "").join(", ")
    return place === "" ? e.detail : `${place}: ${e.detail}`
  }).join("; ")

/**
 * Opens the ledger at `path` for a map run of `input` (`-` for stdin) into `out` (stdout when undefined).
 * As for `send --journal`: a ledger of another format, or one in use, is a usage error; a file SQLite
 * cannot read (no database, a full disk) an I/O error.
 */
export const openMapJournalRun = (
  path: string,
  run: { readonly input: string; readonly out: string | undefined; readonly mappingPath: string; readonly mapping: Mapping; readonly options: unknown }
): MapJournalRun => {
  const { mapping } = run
  let journal: MapJournal
  try {
    journal = openMapJournal(path, {
      input: run.input === "-" ? "-" : resolve(run.input),
      output: run.out === undefined ? null : resolve(run.out),
      mapping: resolve(run.mappingPath),
      endpoint: mapping.endpoint,
      options: run.options
    })
  } catch (error) {
    if (error instanceof LedgerMismatchError) throw usageError(error.message)
    const code = (error as { code?: unknown } | undefined)?.code
    if (code === "ERR_SQLITE_ERROR" || /sqlite|database|disk/iu.test(String((error as Error | undefined)?.message))) {
      throw ioError(`the ledger ${path}: ${describeError(error)}`)
    }
    throw error
  }
  let ended = false
  return {
    rejected: (r) => {
      const first = r.rows[0]
      journal.rejected({
        lines: r.lines,
        codes: [...new Set(r.errors.map((e) => e.code))],
        detail: detailOf(r),
        raw: r.raw.join("\n"),
        supplier: fieldOf(mapping, first, "import_supplier"),
        account: fieldOf(mapping, first, "external_account_number")
      })
    },
    lineage: (payloadLine, lines, rows) => journal.lineage({ payloadLine, lines, raw: rows.map((row) => row.raw).join("\n") }),
    end: (how, counts) => {
      if (ended) return
      ended = true
      if (counts === undefined) journal.close()
      else journal.end(how, counts)
    }
  }
}
