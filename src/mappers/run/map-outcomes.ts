/**
 * `map`'s outcomes: every row the reader yields ends here in one payload or one rejection, counted,
 * written in input order, settled in the line ledger and, with `map --journal FILE`, recorded in the
 * campaign's ledger (the file `send --journal` uses): rows read, every rejected row (physical lines, codes,
 * detail, raw text), every warning about rows that went out, each under the supplier and account of its
 * payload (converted as the mapping converts them; `null` where they cannot be told), and each payload's
 * lineage, with each record's own rows for a payload of many records.
 *
 * @module
 */
import { resolve } from "node:path"
import { isPostEndpointId } from "../../schemas/endpoints/endpoint-id.js"
import { LedgerDamagedError, LedgerMismatchError } from "../../ledger/ledger-types.js"
import { type MapJournal, openMapJournal } from "../../ledger/map-journal.js"
import { type Mapping } from "../define-mapping.js"
import { naturalKeyOf } from "../../schemas/endpoints/natural-key.js"
import type { MapVersions } from "../../ledger/map-versions.js"
import { itemKeysOf } from "../../schemas/endpoints/natural-key.js"
import { columnsAt, readFieldSafely } from "../compile-mapping.js"
import { type FieldReader, fieldReader, type LegacyRecord } from "../field-source.js"
import type { PayloadWarningItem } from "../../validation/run/batch.js"
import { describeError, ioError, usageError } from "../../readers/exit-codes.js"
import type { Output } from "../../readers/io.js"
import { LineLedger } from "./line-ledger.js"
import { inputKeysOf, uniqueInInputOf } from "../../validation/run/unique-in-input.js"
import { keyDigest, SeenKeys } from "../../readers/lookup/seen-keys.js"
import type { ExcludedRecord, ExclusionOutcome, ReaderWarning, SourceItem, SourceRow } from "../../readers/rows/source-rows.js"
import { type LocatedWarning, MapWarnings } from "./map-warnings.js"

/**
 * One reason a row was rejected: the mapping's column and the cell as written there when known, the
 * payload's attribute, the code and the detail.
 */
export type ErrorItem = { readonly column?: string; readonly cell?: string; readonly attr?: string; readonly code: string; readonly detail: string }

/**
 * A detail as one sentence: no leading punctuation, no trailing full stop (the caller ends it), so that
 * joined details never read "…: : …" or "…..".
 *
 * @example
 * clause(" This field is required. ") // => "This field is required"
 */
export const clause = (detail: string): string => detail.trim().replace(/^[\s:;,.]+/u, "").replace(/[\s.]+$/u, "")

/**
 * Where a reason is, in the export's terms first: the column, the cell as written (when not blank), the
 * payload's attribute in brackets; the attribute alone when no column maps it.
 *
 * @example
 * reasonPlace({ column: "Betrag", cell: "2,345", attr: "transactions.0.amount", code: "invalid", detail: "" }) // => 'column "Betrag" = "2,345" (transactions.0.amount)'
 * reasonPlace({ attr: "transactions.0.transaction_date", code: "required", detail: "" }) // => "transactions.0.transaction_date"
 */
export const reasonPlace = (e: ErrorItem): string => {
  const cell = e.cell !== undefined && e.cell.trim() !== "" ? ` = ${JSON.stringify(e.cell)}` : ""
  if (e.column === undefined) return e.attr ?? ""
  return `column ${JSON.stringify(e.column)}${cell}${e.attr !== undefined ? ` (${e.attr})` : ""}`
}

/**
 * A reason as one line: its place, its code (through `code`, a terminal's colour) and its detail, ended
 * by one full stop.
 *
 * @example
 * reasonText({ column: "Datum", attr: "transactions.0.transaction_date", code: "required", detail: "This field is required." })
 * // => 'column "Datum" (transactions.0.transaction_date): required: This field is required.'
 */
export const reasonText = (e: ErrorItem, code: (text: string) => string = (text) => text): string => {
  const place = reasonPlace(e)
  const detail = clause(e.detail)
  return `${place === "" ? "" : `${place}: `}${code(e.code)}${detail === "" ? "" : `: ${detail}`}.`
}

/** The cell of `record` in `column`, as written (`undefined` when the row has none: a line not read). */
const cellOf = (record: unknown, column: string): string | undefined => {
  if (typeof record !== "object" || record === null || !Object.hasOwn(record, column)) return undefined
  const cell: unknown = (record as Record<string, unknown>)[column]
  return typeof cell === "string" ? cell : cell === undefined || cell === null ? undefined : JSON.stringify(cell)
}

/**
 * A reject's reasons in the export's terms: an error at a payload attribute that one column of the
 * mapping fills names that column, and an error at a column shows its cell as written in the first of
 * the reject's rows that has one (the usual reject is one row, or one item's rows).
 */
export const locatedReject = (mapping: Mapping, r: Reject): Reject => {
  let changed = false
  const errors = r.errors.map((e) => {
    if (e.cell !== undefined) return e
    const column = e.column ?? (e.attr !== undefined ? onlyColumn(columnsAt(mapping, e.attr)) : undefined)
    if (column === undefined || column.includes(", ")) return e
    const cells = r.rows.map((row) => cellOf(row, column)).filter((c) => c !== undefined)
    const cell = cells.find((c) => c.trim() !== "") ?? cells[0]
    changed = true
    return { ...e, column, ...(cell !== undefined ? { cell } : {}) }
  })
  return changed ? { ...r, errors } : r
}

const onlyColumn = (columns: ReadonlyArray<string>): string | undefined => (columns.length === 1 ? columns[0] : undefined)

/**
 * A rejected row (or group of rows), as written to `--rejects`: its lines, its rows (cells by column;
 * the raw text for a line that could not be read), their raw text as read, and the reasons.
 */
export interface Reject {
  readonly lines: ReadonlyArray<number>
  readonly rows: ReadonlyArray<unknown>
  readonly raw: ReadonlyArray<string>
  readonly errors: ReadonlyArray<ErrorItem>
}

/**
 * The rejection of `rows` for `errors`.
 */
export const rejectOf = (rows: ReadonlyArray<SourceRow>, errors: ReadonlyArray<ErrorItem>): Reject => ({
  lines: rows.flatMap((r) => r.lines),
  rows: rows.map((r) => r.record),
  raw: rows.map((r) => r.raw),
  errors
})

/** Where `map`'s outcomes go, and what decides them. */
export interface MapOutcomesSettings {
  readonly input: string
  readonly mapping: Mapping
  readonly allowDuplicates: boolean
  /** A payload with warnings is rejected (its rows), not written. */
  readonly failOnWarnings: boolean
  readonly out: Output
  readonly rejectsOut: Output | undefined
  readonly lineageOut: Output | undefined
  /** Where the records left out on purpose are listed (`--excluded`), one NDJSON line each. */
  readonly excludedOut?: Output | undefined
  /** The campaign's ledger (`--journal`): every reject and each payload's lineage. */
  readonly journal?: MapJournalRun | undefined
  /** Shows a reject where no rejects file takes it (the command writes it on its terminal). */
  readonly printReject: (reject: Reject) => void
  /** With several inputs mapped into one output, what their outcomes share. */
  readonly shared?: SharedOutcomes | undefined
}

/**
 * What the outcomes of several inputs mapped into one output (`map FILE1 FILE2 …`) share: a payload (or a
 * transaction id) repeated in a later file is found, naming the file and line of the first; lineage counts
 * payloads on and names each payload's file. Lines of different files are told apart by a base added to
 * each file's lines where they are remembered.
 */
export class SharedOutcomes {
  readonly payloadsSeen = new SeenKeys()
  readonly keysSeen = new SeenKeys()
  /** Payloads written from the inputs before the current one. */
  payloads = 0
  /** Added to the current input's lines where they are remembered. */
  lineBase = 0
  private readonly inputs: Array<{ readonly base: number; readonly input: string }> = []

  /** The next input begins. */
  begin(input: string): void {
    this.inputs.push({ base: this.lineBase, input })
  }

  /** The current input has ended with these outcomes. */
  end(outcomes: MapOutcomes): void {
    this.payloads += outcomes.payloads
    this.lineBase += outcomes.lastLine + 1
  }

  /** A remembered line (base added) as the file and line it is. */
  name(line: number): string {
    let found = this.inputs[0]!
    for (const i of this.inputs) if (i.base <= line) found = i
    return `line ${line - found.base} of ${found.input}`
  }
}

/**
 * The outcomes of one `map` run and their counts.
 */
export class MapOutcomes {
  readonly ledger = new LineLedger()
  rowsRead = 0
  rowsInPayloads = 0
  rowsRejected = 0
  payloads = 0
  blankLines = 0
  readonly rejectedByCode: Record<string, number> = {}
  /** Rejects are written in input order: a reject waits here until every row above it is settled. */
  held: Array<Reject> = []
  private readonly payloadsSeen: SeenKeys
  private readonly keysSeen: SeenKeys
  readonly warnings: MapWarnings
  /** The highest line read. */
  lastLine = 0
  /** Added to lines where they are remembered (several inputs): see {@link SharedOutcomes}. */
  private readonly lineBase: number

  /**
   * Whether an exact repeat of a row needs its own check (`duplicate_row`): not where each row is its own
   * payload and identical payloads are refused (`duplicate_payload`, naming the first line), which a
   * repeated row always is; that spares a hash of every row on the thread that reads them.
   */
  private readonly rowsCanRepeatUnseen: boolean

  constructor(private readonly settings: MapOutcomesSettings) {
    const { mapping } = settings
    this.rowsCanRepeatUnseen = settings.allowDuplicates || mapping.groupBy !== undefined || (mapping.collections ?? []).length > 0
    this.warnings = new MapWarnings(settings.input)
    this.payloadsSeen = settings.shared?.payloadsSeen ?? new SeenKeys()
    this.keysSeen = settings.shared?.keysSeen ?? new SeenKeys()
    this.lineBase = settings.shared?.lineBase ?? 0
  }

  /** A remembered line as the detail of a repeat names it. */
  private lineName(line: number): string {
    return this.settings.shared?.name(line) ?? `line ${line}`
  }

  private writeReject(r: Reject): void {
    const { input, rejectsOut, printReject } = this.settings
    this.ledger.settle(r.lines, "rejected")
    this.warnings.forget(r.lines)
    for (const e of r.errors) this.rejectedByCode[e.code] = (this.rejectedByCode[e.code] ?? 0) + 1
    this.settings.journal?.rejected(r)
    if (rejectsOut !== undefined) {
      rejectsOut.write(`${JSON.stringify({ file: input, ...r })}\n`)
      return
    }
    printReject(r)
  }

  /** Writes the held rejects whose first line is above `watermark`. */
  releaseRejects(watermark: number): void {
    if (this.held.length === 0) return
    this.held.sort((a, b) => a.lines[0]! - b.lines[0]!)
    const ready = this.held.filter((r) => r.lines[0]! < watermark)
    this.held = this.held.filter((r) => r.lines[0]! >= watermark)
    for (const r of ready) this.writeReject(r)
  }

  /** Rows left out on purpose (skipped, superseded, cancelled), by outcome and reason. */
  readonly excluded: Record<ExclusionOutcome, Record<string, number>> = { skipped: {}, superseded: {}, cancelled: {} }
  rowsExcluded = 0

  /** Leaves `item` out on purpose: settled, counted by outcome and reason, listed and recorded in the ledger. */
  private exclude(item: ExcludedRecord): void {
    this.rowsExcluded++
    this.ledger.settle(item.lines, "excluded")
    const byReason = this.excluded[item.outcome]
    byReason[item.reason] = (byReason[item.reason] ?? 0) + 1
    const { input, excludedOut, journal } = this.settings
    excludedOut?.write(`${JSON.stringify({ file: input, lines: item.lines, outcome: item.outcome, reason: item.reason, detail: item.detail, raw: item.raw })}\n`)
    journal?.excluded(item)
  }

  /**
   * Counts a reader's warning among the run's warnings (it was shown on stderr as it came); one about a
   * record goes into the ledger under that record's account, as the warnings of payloads do.
   */
  private readerWarning(item: ReaderWarning): void {
    const warning: LocatedWarning = { file: this.settings.input, line: item.line, lines: [item.line], code: item.code, detail: item.detail }
    this.warnings.count([warning])
    if (item.record !== undefined) this.settings.journal?.warned(warning, undefined, [{ kind: "row", lines: [item.line], record: item.record, raw: item.raw }])
  }

  /** Rejects `r`, made of `rows` rows. */
  reject(r: Reject, rows: number): void {
    this.rowsRejected += rows
    this.held.push(locatedReject(this.settings.mapping, r))
  }

  /**
   * A mapped payload (with its `warnings`) goes out unless it repeats an earlier one or one of its
   * transaction ids (or has warnings, with --fail-on-warnings).
   */
  payload(text: string, payload: unknown, rows: ReadonlyArray<SourceRow>, warnings?: ReadonlyArray<PayloadWarningItem>, items?: ReadonlyArray<ItemSourceRows>): void {
    const digest = this.settings.allowDuplicates ? undefined : keyDigest(text)
    if (this.accept(payload, rows, digest, 0, warnings, items)) this.settings.out.write(`${text}\n`)
  }

  /**
   * The checks and book-keeping of a payload whose digest is `digest` at character `digestAt`
   * (`undefined` with `--allow-duplicates`): whether it goes out. The caller writes what is accepted, in
   * the order accepted ({@link writePayloads} for lines as bytes).
   */
  accept(payload: unknown, rows: ReadonlyArray<SourceRow>, digest: string | undefined, digestAt: number, warnings?: ReadonlyArray<PayloadWarningItem>, items?: ReadonlyArray<ItemSourceRows>): boolean {
    const { mapping, lineageOut } = this.settings
    // Made only when needed: this runs for every payload, and the usual one is one row, new and accepted.
    const linesOf = rows.length === 1 ? rows[0]!.lines : rows.flatMap((r) => r.lines)
    let errors: Array<ErrorItem> | undefined
    const first = digest === undefined ? undefined : this.payloadsSeen.lookupDigest(digest, digestAt)
    if (first !== undefined) {
      ;(errors ??= []).push({ code: "duplicate_payload", detail: `This payload is identical to the one from ${this.lineName(first)}; use --allow-duplicates to keep both.` })
    }
    const keys: Array<string> = []
    const rule = uniqueInInputOf(mapping.endpoint)
    if (rule !== undefined) {
      const items = (payload as Readonly<Record<string, ReadonlyArray<Readonly<Record<string, unknown>>> | undefined>>)[rule.items] ?? []
      const keysOf = inputKeysOf(mapping.endpoint, payload)
      items.forEach((item, i) => {
        const key = keysOf[i]
        if (key === undefined) return
        keys.push(key)
        const seen = this.keysSeen.lookup(key)
        if (seen !== undefined && first === undefined) {
          ;(errors ??= []).push({
            attr: `${rule.items}.${i}.${rule.field}`,
            code: rule.code,
            detail: `${rule.field} ${JSON.stringify(item[rule.field])} was already used${rule.perAccount ? " for this account" : ""} by the payload from ${this.lineName(seen)}: ${rule.consequence}.`
          })
        }
      })
    }
    if (errors !== undefined) {
      this.reject(rejectOf(rows, errors), rows.length)
      return false
    }
    // The journal records every warning, located: no counting without them.
    const counted = warnings !== undefined && !this.settings.failOnWarnings && this.settings.journal === undefined && this.warnings.countOnly(warnings)
    const warned = counted ? undefined : this.warnings.of(rows, linesOf, warnings)
    if (warned !== undefined) {
      if (this.settings.failOnWarnings) {
        const reasons = warned.map((w) => ({ ...(w.attr !== undefined ? { attr: w.attr } : {}), code: w.code, detail: `${w.detail} (a warning, rejected with --fail-on-warnings)` }))
        this.reject(rejectOf(rows, reasons), rows.length)
        return false
      }
      this.warnings.count(warned)
      for (const w of warned) this.settings.journal?.warned(w, payload, rows)
    }
    if (digest !== undefined) this.payloadsSeen.recordDigest(digest, this.lineBase + linesOf[0]!, digestAt)
    for (const key of keys) this.keysSeen.record(key, this.lineBase + linesOf[0]!)
    const shared = this.settings.shared
    lineageOut?.write(`${JSON.stringify(shared === undefined ? { payload: this.payloads, lines: linesOf } : { payload: shared.payloads + this.payloads, file: this.settings.input, lines: linesOf })}\n`)
    // The payload's line in the output: payloads are its only lines.
    this.settings.journal?.lineage(this.payloads + 1, linesOf, rows, payload, items)
    this.payloads++
    this.rowsInPayloads += rows.length
    this.ledger.settle(linesOf, "payload")
    return true
  }

  /** Writes accepted payloads given as UTF-8 lines (each ended by a line feed), in the order accepted. */
  writePayloads(lines: Uint8Array): void {
    if (lines.length > 0) this.settings.out.write(lines)
  }

  /** Book-keeping for every item the reader yields; returns the row to map, if it is one. */
  take(item: SourceItem): SourceRow | undefined {
    switch (item.kind) {
      case "header":
        return undefined
      case "skipped":
        if (item.why === "blank") this.blankLines += item.lines.length
        return undefined
      case "excluded":
        this.rowsRead++
        for (const line of item.lines) {
          this.ledger.markRead(line)
          if (line > this.lastLine) this.lastLine = line
        }
        this.exclude(item)
        return undefined
      case "refused":
        this.rowsRead++
        this.ledger.markRead(item.line)
        if (item.line > this.lastLine) this.lastLine = item.line
        this.reject({ lines: [item.line], rows: [item.raw], raw: [item.raw], errors: [{ code: item.code, detail: item.detail }] }, 1)
        return undefined
      case "warning":
        this.readerWarning(item)
        return undefined
      case "row":
        this.rowsRead++
        for (const line of item.lines) {
          this.ledger.markRead(line)
          if (line > this.lastLine) this.lastLine = line
        }
        if (this.rowsCanRepeatUnseen) this.warnings.see(item)
        return item
    }
  }

  /** Whether a destination is full: the runs await only then, as an await per payload would cost more than the payload. */
  full(): boolean {
    const { out, rejectsOut, lineageOut, excludedOut } = this.settings
    return out.full || rejectsOut?.full === true || lineageOut?.full === true || excludedOut?.full === true
  }

  /** Waits until every full destination has drained. */
  async backpressure(): Promise<void> {
    const { out, rejectsOut, lineageOut, excludedOut } = this.settings
    if (out.full) await out.drained()
    if (excludedOut?.full === true) await excludedOut.drained()
    if (rejectsOut?.full === true) await rejectsOut.drained()
    if (lineageOut?.full === true) await lineageOut.drained()
  }
}

// `map --journal FILE`: the map run recorded in the campaign's ledger.

/** What the journal needs of a run's counts. */
export interface MapCounts {
  readonly rowsRead: number
  readonly payloads: number
  readonly rowsRejected: number
  readonly rowsExcluded?: number | undefined
}

/** The rows one top-level item of a payload was built from (`attr` `transactions.3`). */
export interface ItemSourceRows {
  readonly attr: string
  readonly rows: ReadonlyArray<SourceRow>
}

/** The journal of one map run, as the map command drives it. */
export interface MapJournalRun {
  rejected(reject: Reject): void
  /** A record left out on purpose (skipped, superseded, cancelled). */
  excluded(record: ExcludedRecord): void
  /** A warning about rows of `payload` (parsed, or `undefined` where the caller did not parse it), which went out. */
  warned(warning: LocatedWarning, payload: unknown, rows: ReadonlyArray<SourceRow>): void
  /** Payload `payloadLine` came from `rows`; `items` tells which rows each of its items came from, when it has items. */
  lineage(payloadLine: number, lines: ReadonlyArray<number>, rows: ReadonlyArray<SourceRow>, payload: unknown, items?: ReadonlyArray<ItemSourceRows>): void
  /** The versions of values mapped by this run and earlier ones (the ledger's `map_versions`). */
  readonly versions: MapVersions
  /** Ends the run once (later calls do nothing): its totals are `counts` (none read when unknown). */
  end(ended: "completed" | "interrupted" | "failed", counts: MapCounts | undefined): void
}

/** The text of a supplier or account as a payload holds it; `null` for anything else. */
const textOf = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)

/** Where a payload's records are filed: its supplier and account. */
interface Owner {
  readonly supplier: string | null
  readonly account: string | null
}

/**
 * The supplier and account of the payload rows belong to (an endpoint whose records are keyed by account):
 * read from the payload where there is one; else each of the two fields converted on its own from the rows,
 * as the mapping converts it (a value table's code becomes the supplier it names), so that a row rejected
 * for another field is still filed where its payload would have been. A field that does not convert, or
 * that the rows give different values of, is `null`: unknown, never the raw cell.
 */
const ownerReader = (mapping: Mapping): ((payload: unknown, rows: ReadonlyArray<unknown>) => Owner) => {
  const nobody: Owner = { supplier: null, account: null }
  if (!isPostEndpointId(mapping.endpoint) || !naturalKeyOf(mapping.endpoint).account) return () => nobody
  const readerOf = (path: string): FieldReader | undefined => {
    const source = mapping.fields[path]
    return source === undefined ? undefined : fieldReader(source)
  }
  const readers = { supplier: readerOf("import_supplier"), account: readerOf("external_account_number") }
  const convert = (read: FieldReader | undefined, rows: ReadonlyArray<unknown>): string | null => {
    if (read === undefined) return null
    const values = new Set<string | null>()
    for (const record of rows) {
      if (typeof record !== "object" || record === null) return null
      const outcome = readFieldSafely(read, record as LegacyRecord)
      if (!outcome.ok) return null
      values.add(textOf(typeof outcome.value === "string" ? outcome.value.trim() : outcome.value))
    }
    return values.size === 1 ? [...values][0]! : null
  }
  return (payload, rows) => {
    if (typeof payload === "object" && payload !== null) {
      const body = payload as Readonly<Record<string, unknown>>
      return { supplier: textOf(body["import_supplier"]), account: textOf(body["external_account_number"]) }
    }
    return { supplier: convert(readers.supplier, rows), account: convert(readers.account, rows) }
  }
}

/** The raw text of rows, each distinct text once (a row and its exact repeat are one text). */
const rawOf = (rows: ReadonlyArray<SourceRow>): string => [...new Set(rows.map((row) => row.raw))].join("\n")

/**
 * The lines of each record of a payload of many records, by the record's natural key (as the ledger keys
 * it): the rows of the item it is; `undefined` for a payload that is one record, or whose items are not known.
 */
const recordLinesOf = (endpoint: string, payload: unknown, items: ReadonlyArray<ItemSourceRows> | undefined) => {
  if (items === undefined || items.length === 0 || !isPostEndpointId(endpoint)) return undefined
  const field = naturalKeyOf(endpoint).items
  if (field === undefined) return undefined
  const byAttr = new Map(items.map((item) => [item.attr, item.rows]))
  return (itemKeysOf(endpoint, payload) ?? []).flatMap((key, index) => {
    const rows = byAttr.get(`${field}.${index}`)
    return rows === undefined ? [] : [{ key, lines: rows.flatMap((row) => row.lines), raw: rawOf(rows) }]
  })
}

/** The reasons of a reject in one sentence: each with its place (column, cell, attribute), then its detail. */
const detailOf = (r: Reject): string =>
  `${r.errors.map((e) => {
    const place = reasonPlace(e)
    const detail = clause(e.detail)
    return place === "" ? detail : detail === "" ? place : `${place}: ${detail}`
  }).join("; ")}.`

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
    if (error instanceof LedgerDamagedError) throw ioError(error.message)
    const code = (error as { code?: unknown } | undefined)?.code
    if (code === "ERR_SQLITE_ERROR" || /sqlite|database|disk/iu.test(String((error as Error | undefined)?.message))) {
      throw ioError(`the ledger ${path}: ${describeError(error)}`)
    }
    throw error
  }
  let ended = false
  const ownerOf = ownerReader(mapping)
  return {
    versions: journal.versions,
    rejected: (r) => {
      journal.rejected({
        lines: r.lines,
        codes: [...new Set(r.errors.map((e) => e.code))],
        detail: detailOf(r),
        raw: r.raw.join("\n"),
        ...ownerOf(undefined, r.rows)
      })
    },
    excluded: (e) => {
      journal.excluded({
        lines: e.lines,
        outcome: e.outcome,
        reason: e.reason,
        detail: e.detail,
        raw: e.raw,
        ...ownerOf(undefined, e.record === undefined ? [] : [e.record])
      })
    },
    warned: (w, payload, rows) => {
      const concerned = new Set(w.lines)
      journal.warned({
        lines: w.lines,
        code: w.code,
        attr: w.attr ?? null,
        detail: w.detail,
        raw: rawOf(rows.filter((row) => concerned.has(row.lines[0]!))),
        ...ownerOf(payload, rows.map((row) => row.record))
      })
    },
    lineage: (payloadLine, lines, rows, payload, items) =>
      journal.lineage({ payloadLine, lines, raw: rows.map((row) => row.raw).join("\n"), records: recordLinesOf(mapping.endpoint, payload, items) }),
    end: (how, counts) => {
      if (ended) return
      ended = true
      if (counts === undefined) journal.close()
      else journal.end(how, counts)
    }
  }
}
