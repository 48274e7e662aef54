/**
 * The rows of a legacy export (CSV or NDJSON) with the physical lines each came from. A malformed line
 * (a stray or unclosed quote, a wrong number of columns, a NUL byte, bytes not valid in the encoding, a
 * line that is not a JSON object) is refused alone, with its raw text, and reading resynchronises at the
 * next line: one broken line never takes others with it. A quoted CSV field may still span lines where it
 * is well-formed.
 *
 * @module
 */
import { findJsonSyntaxError, lineAndColumn } from "../json/json-syntax-error.js"
import type { OverlongLine, PhysicalLine } from "../lines/physical-lines.js"
import { overlongDetail } from "./record-errors.js"
import { parseRecord } from "../csv/csv-record.js"
import { isRecord } from "../../schemas/is-record.js"
import { inexactNumberErrors } from "../../validation/inexact-numbers.js"
import { withoutBom } from "../byte-order-mark.js"
import { repeatedJsonKeys } from "../json/repeated-json-keys.js"

/** Delimiters recognised in a CSV header line when none is given, in order of preference. */
export const DEFAULT_DELIMITERS: ReadonlyArray<string> = [";", ",", "\t", "|"]

/** The header of a CSV input: its line, the column names (trimmed), and the delimiter. */
export interface CsvHeader {
  readonly kind: "header"
  readonly line: number
  readonly names: ReadonlyArray<string>
  readonly delimiter: string
}

/** A row read: the physical lines it spans (first to last), its cells by column, and its raw text. */
export interface SourceRow {
  readonly kind: "row"
  readonly lines: ReadonlyArray<number>
  readonly record: Record<string, unknown>
  /** The row's physical lines as read, joined by line feeds: what to fix and send again. */
  readonly raw: string
}

/** A line that could not be read as a row, with its raw text. */
export interface RefusedLine {
  readonly kind: "refused"
  readonly line: number
  readonly code: "invalid_csv" | "invalid_encoding" | "invalid_json" | "invalid" | "inexact_number"
  readonly detail: string
  readonly raw: string
}

/** Lines that carry no data: blank lines, rows of empty cells, and a preamble skipped with `--skip-lines`. */
export interface SkippedLines {
  readonly kind: "skipped"
  readonly lines: ReadonlyArray<number>
  readonly why: "blank" | "preamble"
}

/**
 * Why a record read is left out on purpose: outside the mapping's selection (`skipped`: a message type,
 * a Prüfidentifikator, a qualifier), an earlier version of a value a later message sends again
 * (`superseded`), or a value its sender cancelled (`cancelled`).
 */
export type ExclusionOutcome = "skipped" | "superseded" | "cancelled"

/**
 * A record read and left out on purpose: its line (data, counted and settled like a row), the outcome,
 * a short reason that groups it in counts (`PID 13007`, `qualifier 187`), a sentence saying why, and its raw text.
 */
export interface ExcludedRecord {
  readonly kind: "excluded"
  readonly lines: ReadonlyArray<number>
  readonly outcome: ExclusionOutcome
  readonly reason: string
  readonly detail: string
  readonly raw: string
  /** Its cells, when the reader made them (the supplier and account it is filed under are read from them). */
  readonly record?: Record<string, unknown> | undefined
}

/**
 * A warning of a reader (an EDIFACT series, an envelope count) that costs nothing: counted among `map`'s
 * warnings. `detail` says where it is; `record` is the record it concerns, when it concerns one: the
 * ledger then files it under that record's account, as the warnings of payloads are.
 */
export interface ReaderWarning {
  readonly kind: "warning"
  readonly line: number
  readonly code: string
  readonly detail: string
  readonly raw: string
  readonly record?: Record<string, unknown> | undefined
}

/** What the readers yield, in input order. */
export type SourceItem = CsvHeader | SourceRow | RefusedLine | SkippedLines | ExcludedRecord | ReaderWarning

/**
 * The longest header line read, in characters. A header of 500 columns of 30 characters is 15,000; a
 * longer one is a file whose lines end in CR alone (the whole file is its first line) or no CSV at all,
 * and looking its "columns" up would cost minutes and print megabytes.
 */
export const MAX_HEADER_LENGTH = 65_536

/** The header line is longer than {@link MAX_HEADER_LENGTH}: the input cannot be read as CSV. */
export class HeaderTooLong extends Error {
  constructor(
    readonly line: number,
    /** Whether the line holds carriage returns: its lines then end in CR alone. */
    readonly carriageReturns: boolean
  ) {
    super(`the header (line ${line}) is longer than ${MAX_HEADER_LENGTH} characters`)
  }
}

/** Options of the CSV reader. */
export interface CsvOptions {
  /** The delimiter; detected from the header line when not given. */
  readonly delimiter?: string | undefined
  /** Lines above the header (a report title, say). */
  readonly skipLines?: number | undefined
  /** The most physical lines one quoted field may span before its quote counts as unclosed. */
  readonly maxRecordLines?: number | undefined
  /** The maximum the lines were read with (see `physicalLines`), named in the refusal of a longer one. */
  readonly maxLineBytes?: number | undefined
}

/** The delimiter a CSV header line uses most (outside quotes), among the usual ones; `,` when none. */
export const detectDelimiter = (headerLine: string): string => {
  let best = ","
  let bestCount = 0
  for (const candidate of DEFAULT_DELIMITERS) {
    let count = 0
    let quoted = false
    for (const c of headerLine) {
      if (c === "\"") quoted = !quoted
      else if (!quoted && c === candidate) count++
    }
    if (count > bestCount) {
      best = candidate
      bestCount = count
    }
  }
  return best
}

const refused = (line: PhysicalLine, code: RefusedLine["code"], detail: string): RefusedLine => ({ kind: "refused", line: line.line, code, detail, raw: line.text })

/** Refuses lines no reader can use: bytes not valid in the encoding, and NUL bytes. */
const unusable = (line: PhysicalLine): RefusedLine | undefined => {
  if ("undecodable" in line) return refused(line, "invalid_encoding", "The line is not valid in the input's encoding (an export from Windows is often windows-1252: --encoding windows-1252).")
  const nul = line.text.indexOf("\u0000")
  return nul === -1 ? undefined : refused(line, "invalid_csv", `The line holds a NUL byte at column ${nul + 1}.`)
}

const isBlank = (text: string): boolean => text.trim() === ""

/** The refusal of a line longer than the reader's maximum (`maxLineBytes`), which was skipped unread. */
const overlongRefusal = (line: OverlongLine, code: RefusedLine["code"], maxLineBytes: number | undefined): RefusedLine =>
  refused(line, code, overlongDetail(line.length, maxLineBytes ?? line.length))

/**
 * The header and rows of a CSV input. The header is the first line after `skipLines` that is not blank; its names are
 * trimmed (and a byte order mark dropped). A data row may end with one empty extra column (a trailing
 * delimiter, as SAP writes it). Rows whose cells are all empty are skipped as blank.
 */
export async function* csvRows(input: AsyncIterable<ReadonlyArray<PhysicalLine>>, options: CsvOptions = {}): AsyncGenerator<SourceItem> {
  const skip = options.skipLines ?? 0
  const maxLines = options.maxRecordLines ?? 1000
  const source = input[Symbol.asyncIterator]()
  let buffer: Array<PhysicalLine> = []
  let pos = 0
  let atEnd = false
  const fill = async (): Promise<void> => {
    const next = await source.next()
    buffer = next.done === true ? buffer.slice(pos) : buffer.slice(pos).concat(next.value)
    if (next.done === true) atEnd = true
    pos = 0
  }
  let header: CsvHeader | undefined
  for (;;) {
    if (pos >= buffer.length) {
      if (atEnd) return
      await fill()
      continue
    }
    const line = buffer[pos]!
    if (line.line <= skip) {
      yield { kind: "skipped", lines: [line.line], why: "preamble" }
      pos++
      continue
    }
    if ("overlong" in line) {
      if (header === undefined) throw new HeaderTooLong(line.line, line.carriageReturns)
      yield overlongRefusal(line, "invalid_csv", options.maxLineBytes)
      pos++
      continue
    }
    const bad = unusable(line)
    if (bad !== undefined) {
      yield bad
      pos++
      continue
    }
    if (header === undefined && line.text.length > MAX_HEADER_LENGTH) throw new HeaderTooLong(line.line, line.text.includes("\r"))
    if (header === undefined) {
      // Blank lines above the header (a byte order mark alone among them) are skipped, as spreadsheet
      // tools do: a file of nothing else has no header and no rows, like an empty one.
      if (isBlank(line.text)) {
        yield { kind: "skipped", lines: [line.line], why: "blank" }
        pos++
        continue
      }
      const delimiter = options.delimiter ?? detectDelimiter(line.text)
      const parsed = parseRecord([line], 0, delimiter, 1, true, 0)
      const names = ("fields" in parsed ? parsed.fields : line.text.split(delimiter)).map((n) => withoutBom(n).trim())
      // A trailing delimiter on the header line names no column.
      if (names.length > 1 && names[names.length - 1] === "") names.pop()
      header = { kind: "header", line: line.line, names, delimiter }
      yield header
      pos++
      continue
    }
    if (isBlank(line.text)) {
      yield { kind: "skipped", lines: [line.line], why: "blank" }
      pos++
      continue
    }
    if (!line.text.includes("\"")) {
      // The usual line: no quotes, so its cells are its text cut at the delimiter, counted here and cut
      // only when the record is read (a worker usually cuts it).
      const count = cellCount(line.text, header.delimiter)
      if (count === header.names.length || (count === header.names.length + 1 && line.text.endsWith(header.delimiter))) {
        pos++
        if (allCellsBlank(line.text, header.delimiter)) yield { kind: "skipped", lines: [line.line], why: "blank" }
        else yield new CsvRow([line.line], line.text, header, undefined)
        continue
      }
    }
    const parsed = parseRecord(buffer, pos, header.delimiter, maxLines, atEnd, header.names.length)
    if ("needMore" in parsed) {
      await fill()
      continue
    }
    if ("error" in parsed) {
      yield refused(line, "invalid_csv", `${parsed.error}.`)
      pos++
      continue
    }
    const fields = parsed.fields
    if (fields.length === header.names.length + 1 && fields[fields.length - 1] === "") fields.pop()
    if (fields.length !== header.names.length) {
      yield refused(
        line,
        "invalid_csv",
        parsed.span > 1
          ? `A quote opened on this line runs over ${parsed.span} lines into a row of ${fields.length} columns, not ${header.names.length}: the quote is probably never closed.`
          : `Expected ${header.names.length} columns (as in the header, line ${header.line}), found ${fields.length}.`
      )
      pos++
      continue
    }
    const lines = Array.from({ length: parsed.span }, (_, k) => buffer[pos + k]!.line)
    const raw = parsed.span === 1 ? line.text : buffer.slice(pos, pos + parsed.span).map((l) => l.text).join("\n")
    pos += parsed.span
    if (fields.every((f) => f.trim() === "")) {
      yield { kind: "skipped", lines, why: "blank" }
      continue
    }
    yield new CsvRow(lines, raw, header, fields)
  }
}

/**
 * The rows of an NDJSON input: one flat JSON object per line; blank lines are skipped. A line with a
 * number a double cannot hold exactly (`12345678901234567890.5`) is refused as `inexact_number`, one with
 * a key repeated in an object as `invalid_json`.
 */
export async function* ndjsonRows(input: AsyncIterable<ReadonlyArray<PhysicalLine>>, maxLineBytes?: number): AsyncGenerator<SourceItem> {
  for await (const batch of input) {
    for (const line of batch) {
      if ("overlong" in line) {
        yield overlongRefusal(line, "invalid_json", maxLineBytes)
        continue
      }
      const bad = unusable(line)
      if (bad !== undefined) {
        yield { ...bad, code: bad.code === "invalid_csv" ? "invalid_json" : bad.code }
        continue
      }
      if (isBlank(line.text)) {
        yield { kind: "skipped", lines: [line.line], why: "blank" }
        continue
      }
      try {
        const record: unknown = JSON.parse(line.text)
        const inexact = isRecord(record) ? inexactNumberErrors(line.text) : []
        if (inexact.length > 0) {
          // The parse has rounded these numbers already: no converter could give back what the line says.
          const which = inexact.map((e) => `${e.attr}: ${e.detail.replace(/\.$/u, "")}`).join("; ")
          yield refused(line, "inexact_number", `${which}; write the value as a string ("…") to keep it exact.`)
        } else if (isRecord(record)) {
          const repeated = repeatedJsonKeys(line.text)[0]?.key
          if (repeated === undefined) yield { kind: "row", lines: [line.line], record, raw: line.text }
          else yield refused(line, "invalid_json", `The key ${JSON.stringify(repeated)} appears twice in one object: which value is meant is not known (parsing keeps the last).`)
        } else {
          yield refused(line, "invalid", "A record must be a JSON object of column → value.")
        }
      } catch {
        const found = findJsonSyntaxError(line.text)
        const at = lineAndColumn(line.text, found?.offset ?? 0)
        yield refused(line, "invalid_json", `Invalid JSON at column ${at.column}: ${found?.message ?? "syntax error"}.`)
      }
    }
  }
}

// One CSV record: the cells of a row that may span physical lines (a quoted field over several lines),
// and the row as the reader yields it, with its record made only when it is read.

/** The number of cells of a line without quotes. */
export const cellCount = (text: string, delimiter: string): number => {
  let count = 1
  for (let at = text.indexOf(delimiter); at !== -1; at = text.indexOf(delimiter, at + 1)) count++
  return count
}

/** Whether every cell of a line without quotes is blank (the line holds only delimiters and white space). */
export const allCellsBlank = (text: string, delimiter: string): boolean => {
  for (const c of text) if (c !== delimiter && c.trim() !== "") return false
  return true
}

/**
 * A CSV row whose record is made when it is first read: a row of a mapping without `groupBy` goes to be
 * mapped as its text (cut where it is mapped), and its record here is read only for a rejection or a
 * batch mapped again.
 */
export class CsvRow implements SourceRow {
  readonly kind = "row"
  private made: Record<string, unknown> | undefined

  constructor(
    readonly lines: ReadonlyArray<number>,
    readonly raw: string,
    private readonly header: CsvHeader,
    /** The cells; `undefined` for a one-line row without quotes, cut from `raw` when read. */
    private readonly fields: ReadonlyArray<string> | undefined
  ) {}

  get record(): Record<string, unknown> {
    this.made ??= cellsByColumn(this.header.names, this.cells)
    return this.made
  }

  /** The row's cells, in column order. */
  get cells(): ReadonlyArray<string> {
    return this.fields ?? this.raw.split(this.header.delimiter)
  }

  /** The input's delimiter. */
  get delimiter(): string {
    return this.header.delimiter
  }
}

/**
 * A row's cells by column name. A trailing delimiter (SAP) makes one empty extra cell, which names no
 * column; a column named `__proto__` is a cell like any other (assigning it would set the prototype).
 */
export const cellsByColumn = (names: ReadonlyArray<string>, fields: ReadonlyArray<string>): Record<string, unknown> => {
  const record: Record<string, unknown> = {}
  for (let k = 0; k < names.length && k < fields.length; k++) {
    const name = names[k]!
    if (name === "__proto__") Object.defineProperty(record, name, { value: fields[k], enumerable: true, writable: true, configurable: true })
    else record[name] = fields[k]
  }
  return record
}
