/**
 * The work of a validation worker: split a batch into records, parse each, check it with the library's
 * compiled validator, and count. Only problems travel back in detail (and only while the main thread
 * still lists them); everything else is counted here.
 *
 * @module
 */
import { isUtf8 } from "node:buffer"
import { compileValidator, type PayloadValidator } from "../compile-validator.js"
import { type EndpointId, isEndpointId } from "../../schemas/endpoints/endpoint-id.js"
import { withExactNumbers } from "../inexact-numbers.js"
import {
  type BatchSummary,
  type Counts,
  emptySummary,
  type JsonBatch,
  type Listing,
  type NdjsonBatch,
  type NdjsonRangeBatch,
  NO_ENDPOINT,
  type Problem,
  type ValidateSettings
} from "./batch.js"
import { inferEndpoint } from "../../schemas/endpoints/infer-endpoint.js"
import { fileStoreFolder } from "../file-store.js"
import { withDocumentCheck } from "../with-documents.js"
import { inputKeysOf, uniqueInInputOf } from "./unique-in-input.js"
import { readRangeLines } from "../../readers/lines/range-lines.js"
import { findJsonSyntaxError, lineAndColumn } from "../../readers/json/json-syntax-error.js"
import { ENDPOINT_NOT_INFERRED, firstInvalidUtf8, overlongDetail, singleError, unparseable } from "../../readers/rows/record-errors.js"

const NEWLINE = 0x0a
const CR = 0x0d

/** Distinct attr patterns kept per batch; undocumented keys could otherwise make the table unbounded. */
const MAX_ATTR_PATTERNS = 500
/** The bucket for attr patterns beyond the limit. */
export const OTHER_ATTRS = "(other)"

/** An attr with its array indexes as `*`: `transactions.3.amount` → `transactions.*.amount`. */
export const attrPattern = (attr: string): string => attr.replace(/(^|\.)\d+(?=\.|$)/gu, "$1*")

const bump = (counts: Counts, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1
}

/** A JSON value's text on one line, for the reject file: line breaks (and the indentation after them) become one space. */
const oneLine = (text: string): string => text.trim().replace(/[\r\n]+[ \t]*/gu, " ")

/** A JSON value as the reject file takes it: on one line, or its bytes unchanged when they are not UTF-8. */
export const rejectedValue = (bytes: Uint8Array): string | Uint8Array =>
  firstInvalidUtf8(bytes) >= 0 ? Uint8Array.prototype.slice.call(bytes) : oneLine(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"))

const isBlank = (text: string, start: number, end: number): boolean => {
  // Almost every line starts with "{": decided by its first character.
  if (start < end && text.charCodeAt(start) > 0x20) return false
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false
  }
  return true
}

const isBlankBytes = (bytes: Uint8Array): boolean => {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== CR) return false
  return true
}

/** Counts an unparseable record (one error, at `non_field_errors`, of no endpoint) into a summary. */
export const countUnparseable = (summary: BatchSummary, problem: Problem): void => {
  summary.records++
  summary.unparseable++
  summary.errors++
  bump(summary.byCode, problem.error.errors[0]?.code ?? problem.error.code)
  bump(summary.byAttr, problem.error.errors[0]?.attr ?? "non_field_errors")
  bump(summary.byEndpoint, NO_ENDPOINT)
}

/**
 * A batch's text is decoded in pieces of about this many bytes, each ending at a line end: a string this
 * small is made in the young generation, while one of the whole batch (1 MiB) is a large object, given
 * fresh memory every batch (on 300 MB of NDJSON: 28,000 page faults instead of 100,000, 0.10 s of
 * system time instead of 0.25).
 */
const PIECE_BYTES = 1 << 16

/** Where the piece of `bytes` that starts at `from` ends: after the last line end within {@link PIECE_BYTES}, or after its one long line. */
export const pieceEnd = (bytes: Uint8Array, from: number): number => {
  if (bytes.length - from <= PIECE_BYTES) return bytes.length
  const last = bytes.lastIndexOf(NEWLINE, from + PIECE_BYTES - 1)
  if (last >= from) return last + 1
  const next = bytes.indexOf(NEWLINE, from + PIECE_BYTES)
  return next < 0 ? bytes.length : next + 1
}

/** Checks batches of records; one per worker, holding the compiled validators. */
export class BatchChecker {
  /** Per listing: while true, its records are sent back in detail; after a `quiet` message only counts are. */
  readonly details: Record<Listing, boolean> = { problems: true, warnings: true }
  private readonly options: { readonly now: Date }
  private readonly validators = new Map<EndpointId, PayloadValidator<EndpointId>>()
  private readonly fixed: EndpointId | undefined
  /** With `--documents`: the paths named since the last summary took them. */
  private referenced: Array<string> = []

  constructor(private readonly settings: ValidateSettings) {
    this.options = { now: new Date(settings.now) }
    this.fixed = settings.endpoint !== undefined && isEndpointId(settings.endpoint) ? settings.endpoint : undefined
  }

  /** Checks whole NDJSON lines. Line numbers in the problems are 0-based offsets within the batch. */
  checkNdjson(batch: NdjsonBatch): BatchSummary {
    const summary = emptySummary(batch.seq)
    const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength)
    if (isUtf8(bytes)) {
      // The common case: the batch decoded piece by piece, each piece cut into its lines.
      let line = 0
      for (let from = 0; from < bytes.length;) {
        const to = pieceEnd(bytes, from)
        const text = bytes.toString("utf8", from, to)
        let start = from === 0 && batch.atStreamStart && text.charCodeAt(0) === 0xfeff ? 1 : 0
        while (start < text.length) {
          const newline = text.indexOf("\n", start)
          const next = newline < 0 ? text.length : newline + 1
          let end = newline < 0 ? text.length : newline
          if (end > start && text.charCodeAt(end - 1) === CR) end--
          if (!isBlank(text, start, end)) this.checkLineText(summary, text, start, end, line)
          line++
          start = next
        }
        from = to
      }
      summary.lines = line
      return summary
    }
    // Some line is not UTF-8: go line by line on the bytes, so only the broken lines are reported.
    let start = batch.atStreamStart && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
    let line = 0
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start)
      const next = newline < 0 ? bytes.length : newline + 1
      let end = newline < 0 ? bytes.length : newline
      if (end > start && bytes[end - 1] === CR) end--
      const lineBytes = bytes.subarray(start, end)
      if (!isBlankBytes(lineBytes)) {
        const bad = firstInvalidUtf8(lineBytes)
        if (bad < 0) {
          const text = lineBytes.toString("utf8")
          this.checkLineText(summary, text, 0, text.length, line)
        } else {
          this.addProblem(summary, unparseable(line, "invalid_utf8",
            `The line is not valid UTF-8: byte 0x${lineBytes[bad]!.toString(16).padStart(2, "0")} at byte ${bad + 1} of the line cannot be read.`,
            this.settings.keepRaw ? { raw: Uint8Array.prototype.slice.call(lineBytes) } : {}))
        }
      }
      line++
      start = next
    }
    summary.lines = line
    return summary
  }

  /** Reads a range of an NDJSON file and checks its lines, as {@link checkNdjson} does. */
  checkNdjsonRange(batch: NdjsonRangeBatch): BatchSummary {
    const max = this.settings.maxLineBytes
    const read = readRangeLines(batch.fd, batch.start, batch.end, batch.toEnd, max)
    const summary = this.checkNdjson({ type: "ndjson", seq: batch.seq, bytes: read.bytes, atStreamStart: read.atFileStart })
    if (read.overlong !== undefined) {
      this.addProblem(summary, unparseable(summary.lines, "line_too_long", overlongDetail(read.overlong, max)))
      summary.lines++
    }
    return summary
  }

  /** Checks the values of a JSON document; problems carry absolute lines. */
  checkJson(batch: JsonBatch): BatchSummary {
    const summary = emptySummary(batch.seq)
    const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength)
    const spans = batch.spans
    for (let i = 0; i + 3 < spans.length; i += 4) {
      const valueBytes = bytes.subarray(spans[i]!, spans[i + 1]!)
      const line = spans[i + 2]!
      const column = spans[i + 3]!
      const bad = firstInvalidUtf8(valueBytes)
      if (bad >= 0) {
        this.addProblem(summary, unparseable(line, "invalid_utf8",
          `The value is not valid UTF-8: byte 0x${valueBytes[bad]!.toString(16).padStart(2, "0")} at byte ${bad + 1} of the value cannot be read.`,
          this.settings.keepRaw ? { raw: Uint8Array.prototype.slice.call(valueBytes) } : {}))
        continue
      }
      this.checkText(summary, valueBytes.toString("utf8"), line, column, true)
    }
    return summary
  }

  private checkLineText(summary: BatchSummary, text: string, start: number, end: number, line: number): void {
    // A UTF-16 unit is at most 3 bytes: count bytes only for lines that might be too long.
    if ((end - start) * 3 > this.settings.maxLineBytes) {
      const length = Buffer.byteLength(text.slice(start, end))
      if (length > this.settings.maxLineBytes) {
        this.addProblem(summary, unparseable(line, "line_too_long", overlongDetail(length, this.settings.maxLineBytes)))
        return
      }
    }
    this.checkText(summary, start === 0 && end === text.length ? text : text.slice(start, end), line, 1, false)
  }

  /**
   * Parses and checks one record. `line` and `column` say where its text starts (NDJSON: the batch-
   * relative line, column 1; JSON: the absolute position of the value).
   */
  private checkText(summary: BatchSummary, text: string, line: number, column: number, multiline: boolean): void {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (cause) {
      const found = findJsonSyntaxError(text) ?? { offset: 0, message: cause instanceof Error ? cause.message : String(cause) }
      const at = lineAndColumn(text, found.offset)
      const raw = this.settings.keepRaw ? (multiline ? oneLine(text) : text) : undefined
      this.addProblem(summary, unparseable(line + at.line - 1, "invalid_json", `Invalid JSON: ${found.message}.`, {
        column: at.line === 1 ? column + at.column - 1 : at.column,
        ...(raw !== undefined ? { raw } : {})
      }))
      return
    }
    summary.records++
    let endpoint = this.fixed
    if (endpoint === undefined) {
      const inferred = inferEndpoint(value)
      if (!inferred.ok) {
        summary.invalid++
        summary.errors++
        bump(summary.byCode, inferred.code)
        bump(summary.byAttr, "non_field_errors")
        bump(summary.byEndpoint, NO_ENDPOINT)
        this.keepProblem(summary, {
          line,
          kind: "invalid",
          endpoint: null,
          error: singleError(inferred.code === "invalid" ? "payload_failed_validation" : ENDPOINT_NOT_INFERRED, inferred.code, inferred.detail),
          warnings: []
        }, text, multiline)
        return
      }
      endpoint = inferred.endpoint
    }
    bump(summary.byEndpoint, endpoint)
    const result = withExactNumbers(text, value, this.validatorFor(endpoint)(value, this.options))
    if (this.referenced.length > 0) [summary.documents, this.referenced] = [[...(summary.documents ?? []), ...this.referenced], []]
    if (result.warnings.length > 0) {
      summary.warnings += result.warnings.length
      for (const w of result.warnings) bump(summary.warningsByCode, w.code)
    }
    if (result.ok) {
      summary.valid++
      if (result.warnings.length > 0) {
        summary.warnedValid++
        if (this.details.warnings) summary.warned.push({ line, endpoint, warnings: result.warnings })
      }
      if (uniqueInInputOf(endpoint) !== undefined) {
        const raw = this.settings.keepRaw ? (multiline ? oneLine(text) : text) : undefined
        summary.keyed.push({ line, endpoint, keys: inputKeysOf(endpoint, value), warned: result.warnings.length > 0, ...(raw !== undefined ? { raw } : {}) })
      }
      return
    }
    summary.invalid++
    summary.errors += result.error.errors.length
    for (const e of result.error.errors) {
      bump(summary.byCode, e.code)
      const pattern = attrPattern(e.attr)
      if (summary.byAttr[pattern] !== undefined || Object.keys(summary.byAttr).length < MAX_ATTR_PATTERNS) bump(summary.byAttr, pattern)
      else bump(summary.byAttr, OTHER_ATTRS)
    }
    this.keepProblem(summary, { line, kind: "invalid", endpoint, error: result.error, warnings: result.warnings }, text, multiline)
  }

  /** Records an unparseable record: counted, and kept when details are wanted. */
  private addProblem(summary: BatchSummary, problem: Problem): void {
    countUnparseable(summary, problem)
    if (this.details.problems || problem.raw !== undefined) summary.problems.push(problem)
  }

  private keepProblem(summary: BatchSummary, problem: Problem, text: string, multiline: boolean): void {
    const raw = this.settings.keepRaw ? (multiline ? oneLine(text) : text) : undefined
    if (!this.details.problems && raw === undefined) return
    summary.problems.push(raw === undefined ? problem : { ...problem, raw })
  }

  private validatorFor(endpoint: EndpointId): PayloadValidator<EndpointId> {
    let validator = this.validators.get(endpoint)
    if (validator === undefined) {
      // Every record comes from JSON.parse.
      validator = compileValidator(endpoint, { input: "json" })
      const documents = this.settings.documents
      if (documents !== undefined) validator = withDocumentCheck(validator, endpoint, fileStoreFolder(documents), (path) => this.referenced.push(path))
      this.validators.set(endpoint, validator)
    }
    return validator
  }
}

