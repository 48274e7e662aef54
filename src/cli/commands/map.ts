/**
 * `data-import map`: streams a legacy export (CSV through csv-parse, or NDJSON records) through a JSON
 * mapping and the library's `mapRecords`; payloads come out as NDJSON, rejected rows with their lines
 * and reasons.
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import { availableParallelism } from "node:os"
import { TextDecoder } from "node:util"
import { parse as parseCsv } from "csv-parse"
import { defineMapping, type Mapping, type MappingEvent, type MappingSpec, mappingProblems, mapRecords } from "../../index.js"
import { describeError, EXIT, type ExitCode, ioError, usageError } from "../exit-codes.js"
import { openInput, openOutput, Output, readChunks, UnreadableInput } from "../io.js"
import { findJsonSyntaxError, lineAndColumn } from "../json-syntax-error.js"
import type { MapResult } from "../batch.js"
import { formatCount, stylesFor, useColour } from "../terminal.js"
import { WorkerPool } from "../worker-pool.js"

/** Delimiters recognised in a CSV header line when `--delimiter` is not given, in order of preference. */
export const DEFAULT_DELIMITERS: ReadonlyArray<string> = [";", ",", "\t", "|"]

/** Options of `map`, as parsed from the command line. */
export interface MapOptions {
  readonly mapping: string
  readonly out?: string | undefined
  readonly rejects?: string | undefined
  readonly delimiter?: string | undefined
  readonly encoding: string
  readonly inputFormat?: "csv" | "ndjson" | undefined
  readonly jobs?: number | undefined
}

/** Rows per batch sent to a mapping worker. */
const MAP_BATCH_ROWS = 1000

/** A row of the input: where it starts, and its cells. */
interface SourceRow {
  readonly kind: "row"
  readonly line: number
  readonly record: Record<string, unknown>
}

/** A row that could not be read as a record (a ragged CSV row, a line that is not a JSON object). */
interface RefusedRow {
  readonly kind: "refused"
  readonly line: number
  readonly code: string
  readonly detail: string
  readonly raw?: string | undefined
}

/** What the input readers yield, in input order. */
type SourceItem = SourceRow | RefusedRow

/** A rejected row (or group of rows), as written to `--rejects`. */
interface Reject {
  readonly lines: ReadonlyArray<number>
  readonly rows: ReadonlyArray<unknown>
  readonly errors: ReadonlyArray<{ readonly column?: string; readonly attr?: string; readonly code: string; readonly detail: string }>
}

const loadMapping = async (path: string): Promise<Mapping> => {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (cause) {
    throw ioError(`cannot read the mapping ${path}: ${describeError(cause)}`)
  }
  let spec: unknown
  try {
    spec = JSON.parse(text)
  } catch {
    const found = findJsonSyntaxError(text)
    const at = lineAndColumn(text, found?.offset ?? 0)
    throw usageError(`the mapping ${path} is not valid JSON: ${found?.message ?? "syntax error"} at line ${at.line} column ${at.column}`)
  }
  const problems = mappingProblems(spec)
  if (problems.length > 0) throw usageError(`the mapping ${path} is not usable: ${problems.join("; ")}`)
  return defineMapping(spec as MappingSpec)
}

const inputFormatOf = (input: string, given: MapOptions["inputFormat"]): "csv" | "ndjson" => {
  if (given !== undefined) return given
  const lower = input.toLowerCase()
  if (input === "-" || lower.endsWith(".csv") || lower.endsWith(".tsv") || lower.endsWith(".txt")) return "csv"
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl")) return "ndjson"
  throw usageError(`cannot tell the format of ${input}: use .csv, .ndjson or .jsonl, or --input-format`)
}

const decoderFor = (encoding: string): TextDecoder => {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false })
  } catch {
    throw usageError(`unknown encoding ${encoding}: use utf-8, windows-1252, latin1, utf-16le, …`)
  }
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

/** Decodes the input in the given encoding; invalid bytes stop the run with a hint. */
async function* decode(name: string, chunks: AsyncIterable<Uint8Array>, encoding: string): AsyncGenerator<string> {
  const decoder = decoderFor(encoding)
  try {
    for await (const chunk of chunks) {
      const text = decoder.decode(chunk, { stream: true })
      if (text !== "") yield text
    }
    const rest = decoder.decode()
    if (rest !== "") yield rest
  } catch (cause) {
    if (cause instanceof TypeError) {
      throw ioError(`${name} is not valid ${encoding}${encoding.toLowerCase().replace("-", "") === "utf8" ? ": an export from Windows is often windows-1252 (--encoding windows-1252)" : ""}`)
    }
    throw cause
  }
}

/** CSV rows with the line each starts on (the header is line 1); rows csv-parse refuses go to `refused`. */
async function* csvRows(text: AsyncIterable<string>, delimiter: string | undefined): AsyncGenerator<SourceItem> {
  let parser: ReturnType<typeof parseCsv> | undefined
  // Where the last record (or refused row) ended, and how many empty lines had been skipped by then:
  // a record starts on the line after, plus the empty lines skipped since. csv-parse calls on_record and
  // on_skip in input order, so these stay right.
  let endLine = 1
  let emptyLines = 0
  const refused: Array<RefusedRow> = []
  const failure: { error?: Error } = {}
  const start = (firstText: string): ReturnType<typeof parseCsv> => {
    const firstLine = firstText.split(/\r?\n/u, 1)[0] ?? ""
    const p = parseCsv({
      columns: true,
      delimiter: delimiter ?? detectDelimiter(firstLine.replace(/^\uFEFF/u, "")),
      bom: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_record: (record: Record<string, unknown>, context: { lines: number; empty_lines: number }): SourceRow => {
        const row: SourceRow = { kind: "row", line: endLine + 1 + (context.empty_lines - emptyLines), record }
        endLine = context.lines
        emptyLines = context.empty_lines
        return row
      },
      on_skip: (error: (Error & { lines?: number; empty_lines?: number }) | undefined, raw: string | undefined) => {
        const lines = error?.lines ?? endLine + 1
        const skipped = error?.empty_lines ?? emptyLines
        refused.push({ kind: "refused", line: endLine + 1 + (skipped - emptyLines), code: "invalid_csv", detail: error?.message ?? "CSV record refused", raw })
        endLine = lines
        emptyLines = skipped
        return undefined
      }
    })
    p.on("error", (error: Error) => {
      failure.error = error
    })
    return p
  }
  // Records and refused rows come out in input order: a refused row waits for the records before it.
  const take = function*(): Generator<SourceItem> {
    for (let row = parser?.read() as SourceRow | null; row !== null && row !== undefined; row = parser?.read() as SourceRow | null) {
      while (refused.length > 0 && refused[0]!.line < row.line) yield refused.shift()!
      yield row
    }
  }
  const rest = function*(): Generator<SourceItem> {
    yield* take()
    yield* refused.splice(0)
  }
  for await (const piece of text) {
    parser ??= start(piece)
    parser.write(piece)
    if (failure.error !== undefined) throw ioError(`cannot read the CSV: ${failure.error.message}`)
    yield* take()
  }
  if (parser !== undefined) {
    const ended = parser
    await new Promise<void>((resolve) => ended.end(resolve))
    if (failure.error !== undefined) throw ioError(`cannot read the CSV: ${failure.error.message}`)
  }
  yield* rest()
}

/** NDJSON records with their line numbers; lines that are not a JSON object go to `refused`. */
async function* ndjsonRows(text: AsyncIterable<string>): AsyncGenerator<SourceItem> {
  let rest = ""
  let line = 0
  const one = (raw: string): SourceItem | undefined => {
    line++
    const content = (line === 1 ? raw.replace(/^\uFEFF/u, "") : raw).replace(/\r$/u, "")
    if (/^[ \t]*$/u.test(content)) return undefined
    try {
      const record: unknown = JSON.parse(content)
      if (typeof record === "object" && record !== null && !Array.isArray(record)) {
        return { kind: "row", line, record: record as Record<string, unknown> }
      }
      return { kind: "refused", line, code: "invalid", detail: "A record must be a JSON object of column → value.", raw: content }
    } catch {
      const found = findJsonSyntaxError(content)
      const at = lineAndColumn(content, found?.offset ?? 0)
      return { kind: "refused", line, code: "invalid_json", detail: `Invalid JSON at column ${at.column}: ${found?.message ?? "syntax error"}.`, raw: content }
    }
  }
  for await (const piece of text) {
    rest += piece
    let newline = rest.indexOf("\n")
    let from = 0
    while (newline >= 0) {
      const row = one(rest.slice(from, newline))
      if (row !== undefined) yield row
      from = newline + 1
      newline = rest.indexOf("\n", from)
    }
    rest = rest.slice(from)
  }
  if (rest !== "") {
    const row = one(rest)
    if (row !== undefined) yield row
  }
}

/** Runs `map` and returns its exit code. */
export const runMap = async (input: string, options: MapOptions, workerScript: URL): Promise<ExitCode> => {
  const mapping = await loadMapping(options.mapping)
  const format = inputFormatOf(input, options.inputFormat)
  decoderFor(options.encoding)
  const delimiter = options.delimiter === "\\t" ? "\t" : options.delimiter
  if (delimiter !== undefined && delimiter.length === 0) throw usageError("--delimiter needs a character")
  let opened
  try {
    opened = await openInput(input)
  } catch (cause) {
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  const out = options.out !== undefined ? await openOutput(options.out) : new Output(process.stdout, "stdout")
  const rejectsOut = options.rejects !== undefined ? await openOutput(options.rejects) : undefined
  const s = stylesFor(useColour(process.stderr))

  let rowsRead = 0
  let payloads = 0
  let payloadRows = 0
  let rejectedRows = 0
  const reject = (r: Reject): void => {
    rejectedRows += r.lines.length
    if (rejectsOut !== undefined) {
      rejectsOut.write(`${JSON.stringify({ file: input, ...r })}\n`)
      return
    }
    for (const e of r.errors) {
      const place = [e.column !== undefined ? `column ${e.column}` : "", e.attr ?? ""].filter((p) => p !== "").join(", ")
      process.stderr.write(`${input}:${r.lines.join(",")} ${place !== "" ? `${place} ` : ""}${s.red(e.code)} ${e.detail}\n`)
    }
  }
  const refusedReject = (row: RefusedRow): Reject => ({
    lines: [row.line],
    rows: row.raw !== undefined ? [row.raw] : [],
    errors: [{ code: row.code, detail: row.detail }]
  })
  const backpressure = async (): Promise<void> => {
    // Awaiting only when a destination is full: an await per payload would cost more than the payload.
    if (out.full) await out.drained()
    if (rejectsOut?.full === true) await rejectsOut.drained()
  }

  const text = decode(input, readChunks(input, opened.chunks), options.encoding)
  const source = format === "csv" ? csvRows(text, delimiter) : ndjsonRows(text)
  try {
    if (mapping.groupBy === undefined) {
      // Every row is a payload of its own: batches of rows can be mapped in parallel, in any order,
      // and put back in input order.
      const batches = new Map<number, ReadonlyArray<SourceItem>>()
      const pool: WorkerPool<MapResult> = new WorkerPool({
        size: Math.max(1, options.jobs ?? availableParallelism()),
        script: workerScript,
        settings: { role: "map", mapping: mapping satisfies MappingSpec },
        onResult: (result) => {
          const items = batches.get(result.seq) ?? []
          batches.delete(result.seq)
          out.write(result.payloadText)
          payloads += result.payloads
          payloadRows += result.payloadRows
          for (const r of result.rejected) {
            const rows = r.sourceRows.flatMap((i) => (items[i]?.kind === "row" ? [items[i] as SourceRow] : []))
            reject({ lines: rows.map((row) => row.line), rows: rows.map((row) => row.record), errors: r.errors })
          }
        }
      })
      let batch: Array<SourceRow> = []
      const submit = async (): Promise<void> => {
        if (batch.length === 0) return
        const seq = pool.seq
        batches.set(seq, batch)
        const rows = batch.map((row) => row.record)
        batch = []
        await pool.submit({ type: "map", seq, rows }, [])
        await backpressure()
      }
      try {
        for await (const item of source) {
          rowsRead++
          if (item.kind === "row") {
            batch.push(item)
            if (batch.length >= MAP_BATCH_ROWS) await submit()
            continue
          }
          await submit()
          const seq = pool.seq
          batches.set(seq, [])
          pool.local({ seq, payloadText: "", payloads: 0, payloadRows: 0, rejected: [] })
          reject(refusedReject(item))
        }
        await submit()
        await pool.idle()
      } finally {
        await pool.close()
      }
    } else {
      // Groups must be contiguous and are mapped as the rows stream by, in one thread.
      const rows = new Map<number, SourceRow>()
      let index = 0
      const records = async function*(): AsyncGenerator<Record<string, unknown>> {
        for await (const item of source) {
          rowsRead++
          if (item.kind === "refused") {
            reject(refusedReject(item))
            continue
          }
          rows.set(index++, item)
          yield item.record
        }
      }
      const take = (indexes: ReadonlyArray<number>): Array<SourceRow> =>
        indexes.flatMap((i) => {
          const row = rows.get(i)
          rows.delete(i)
          return row === undefined ? [] : [row]
        })
      for await (const event of mapRecords(mapping, records()) as AsyncGenerator<MappingEvent>) {
        const rowsOfEvent = take(event.sourceRows)
        if (event.kind === "payload") {
          payloads++
          payloadRows += rowsOfEvent.length
          out.write(`${JSON.stringify(event.payload)}\n`)
        } else {
          reject({ lines: rowsOfEvent.map((r) => r.line), rows: rowsOfEvent.map((r) => r.record), errors: event.errors })
        }
        await backpressure()
      }
    }
  } catch (cause) {
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  await out.close()
  if (rejectsOut !== undefined) await rejectsOut.close()
  const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`
  const summary = `${input}: ${plural(rowsRead, "row")} → ${plural(payloads, "payload")} (${mapping.endpoint}) from ${plural(payloadRows, "row")}, ${plural(rejectedRows, "row")} rejected`
  process.stderr.write(`${rejectedRows > 0 ? s.red(summary) : summary}\n`)
  return rejectedRows > 0 ? EXIT.invalid : EXIT.ok
}
