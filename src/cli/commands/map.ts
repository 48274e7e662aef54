/**
 * `data-import map`: streams a legacy export (CSV or NDJSON records) through a JSON mapping and the
 * library's `mapRecords`. Payloads come out as NDJSON; rejected rows with their lines, raw text and
 * reasons; `--lineage` ties each payload to its source lines. Before it exits, `map` checks that every
 * data line is in exactly one payload or one rejection (exit 70 otherwise).
 *
 * @module
 */
import { availableParallelism } from "node:os"
import {
  defineMapping,
  formatMappingProblem,
  headerProblems,
  type Mapping,
  type MappingEvent,
  type MappingProblem,
  type MappingSpec,
  mappingProblems,
  mapRecords,
  mustMapAgain,
  type OrderState,
  orderStateAfter
} from "../../index.js"
import type { MapBatch, MapResult } from "../batch.js"
import { EXIT, type ExitCode, ioError, usageError } from "../exit-codes.js"
import { openInput, openOutput, Output, readChunks, UnreadableInput } from "../io.js"
import { LineLedger } from "../line-ledger.js"
import { readJsonFile } from "../read-json-file.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { physicalLines } from "../physical-lines.js"
import { startProgress } from "../progress.js"
import { keyDigest, SeenKeys, transactionKey } from "../seen-keys.js"
import { csvRows, ndjsonRows, type SourceItem, type SourceRow } from "../source-rows.js"
import { formatCount, stylesFor, useColour } from "../terminal.js"
import { mapBatch } from "../worker.js"
import { WorkerPool } from "../worker-pool.js"

export { DEFAULT_DELIMITERS, detectDelimiter } from "../source-rows.js"

/** Options of `map`, as parsed from the command line. */
export interface MapOptions {
  readonly mapping: string
  readonly out?: string | undefined
  readonly rejects?: string | undefined
  readonly lineage?: string | undefined
  readonly delimiter?: string | undefined
  readonly encoding: string
  readonly inputFormat?: "csv" | "ndjson" | undefined
  readonly jobs?: number | undefined
  readonly skipLines?: number | undefined
  readonly maxRecordLines?: number | undefined
  readonly format?: "text" | "json" | undefined
  readonly allowDuplicates?: boolean | undefined
  readonly allowEmpty?: boolean | undefined
}

/** Rows per batch sent to a mapping worker. */
const MAP_BATCH_ROWS = 1000

type ErrorItem = { readonly column?: string; readonly attr?: string; readonly code: string; readonly detail: string }

/**
 * A rejected row (or group of rows), as written to `--rejects`: its lines, its rows (cells by column;
 * the raw text for a line that could not be read), their raw text as read, and the reasons.
 */
interface Reject {
  readonly lines: ReadonlyArray<number>
  readonly rows: ReadonlyArray<unknown>
  readonly raw: ReadonlyArray<string>
  readonly errors: ReadonlyArray<ErrorItem>
}

const rejectOf = (rows: ReadonlyArray<SourceRow>, errors: ReadonlyArray<ErrorItem>): Reject => ({
  lines: rows.flatMap((r) => r.lines),
  rows: rows.map((r) => r.record),
  raw: rows.map((r) => r.raw),
  errors
})

const problemsText = (path: string, what: string, problems: ReadonlyArray<MappingProblem>): string =>
  `${what} ${path} is not usable:\n${problems.map((p) => `  ${formatMappingProblem(p)}`).join("\n")}`

const loadMapping = async (path: string): Promise<Mapping> => {
  const spec = await readJsonFile(path, "the mapping")
  const problems = mappingProblems(spec)
  if (problems.length > 0) throw usageError(problemsText(path, "the mapping", problems))
  return defineMapping(spec as MappingSpec)
}

const inputFormatOf = (input: string, given: MapOptions["inputFormat"]): "csv" | "ndjson" => {
  if (given !== undefined) return given
  const lower = input.toLowerCase()
  if (input === "-" || lower.endsWith(".csv") || lower.endsWith(".tsv") || lower.endsWith(".txt")) return "csv"
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl")) return "ndjson"
  throw usageError(`cannot tell the format of ${input}: use .csv, .ndjson or .jsonl, or --input-format`)
}

const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`

/** Runs `map` and returns its exit code. */
export const runMap = async (input: string, options: MapOptions, workerScript: URL): Promise<ExitCode> => {
  const mapping = await loadMapping(options.mapping)
  const format = inputFormatOf(input, options.inputFormat)
  const report = options.format ?? "text"
  if (report === "json" && options.out === undefined) throw usageError("--format json prints the summary on stdout, which carries the payloads: add --out FILE")
  const delimiter = options.delimiter === "\\t" ? "\t" : options.delimiter
  if (delimiter !== undefined && delimiter.length !== 1) throw usageError("--delimiter needs one character")
  refuseOverwritingInputs(
    [{ flag: "--out", path: options.out }, { flag: "--rejects", path: options.rejects }, { flag: "--lineage", path: options.lineage }],
    [input, options.mapping]
  )
  let opened
  try {
    opened = await openInput(input)
  } catch (cause) {
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  let bytesRead = 0
  const counted = async function*(): AsyncGenerator<Uint8Array> {
    for await (const chunk of readChunks(input, opened.chunks)) {
      bytesRead += chunk.length
      yield chunk
    }
  }
  const lines = physicalLines(counted(), options.encoding)
  const source: AsyncGenerator<SourceItem> = format === "csv"
    ? csvRows(lines, { delimiter, skipLines: options.skipLines, maxRecordLines: options.maxRecordLines })
    : ndjsonRows(lines)

  // The header is checked before anything is opened for writing: a bad mapping leaves no output behind.
  const early: Array<SourceItem> = []
  let headerLine: number | undefined
  let header: MapBatch["csv"]
  try {
    if (format === "csv") {
      for (let next = await source.next(); next.done !== true; next = await source.next()) {
        if (next.value.kind !== "header") {
          early.push(next.value)
          continue
        }
        headerLine = next.value.line
        header = { columns: next.value.names, delimiter: next.value.delimiter }
        const problems = headerProblems(mapping, next.value.names)
        if (problems.length > 0) throw usageError(problemsText(input, `the mapping ${options.mapping} does not fit the header (line ${headerLine}) of`, problems))
        break
      }
    }
  } catch (cause) {
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }

  const out = options.out !== undefined ? await openOutput(options.out) : new Output(process.stdout, "stdout")
  const rejectsOut = options.rejects !== undefined ? await openOutput(options.rejects) : undefined
  const lineageOut = options.lineage !== undefined ? await openOutput(options.lineage) : undefined
  const s = stylesFor(useColour(process.stderr))

  const ledger = new LineLedger()
  const payloadsSeen = new SeenKeys()
  const transactionsSeen = new SeenKeys()
  let rowsRead = 0
  let rowsInPayloads = 0
  let rowsRejected = 0
  let payloads = 0
  let blankLines = 0
  const rejectedByCode: Record<string, number> = {}
  const progress = startProgress(process.stderr, () => ({ records: rowsRead, bytesRead, totalBytes: opened.size }))

  const writeReject = (r: Reject): void => {
    ledger.settle(r.lines, "rejected")
    for (const e of r.errors) rejectedByCode[e.code] = (rejectedByCode[e.code] ?? 0) + 1
    if (rejectsOut !== undefined) {
      rejectsOut.write(`${JSON.stringify({ file: input, ...r })}\n`)
      return
    }
    progress.clear()
    for (const e of r.errors) {
      const place = [e.column !== undefined ? `column ${e.column}` : "", e.attr ?? ""].filter((p) => p !== "").join(", ")
      process.stderr.write(`${input}:${r.lines.join(",")} ${place !== "" ? `${place} ` : ""}${s.red(e.code)} ${e.detail}\n`)
    }
  }
  // Rejects are written in input order: a reject waits until every row above it is settled.
  let held: Array<Reject> = []
  const releaseRejects = (watermark: number): void => {
    if (held.length === 0) return
    held.sort((a, b) => a.lines[0]! - b.lines[0]!)
    const ready = held.filter((r) => r.lines[0]! < watermark)
    held = held.filter((r) => r.lines[0]! >= watermark)
    for (const r of ready) writeReject(r)
  }
  const reject = (r: Reject, rows: number): void => {
    rowsRejected += rows
    held.push(r)
  }

  /** A mapped payload goes out unless it repeats an earlier one or one of its transaction ids. */
  const emitPayload = (text: string, payload: unknown, rows: ReadonlyArray<SourceRow>, given?: string): void => {
    const linesOf = rows.flatMap((r) => r.lines)
    const errors: Array<ErrorItem> = []
    const digest = options.allowDuplicates === true ? undefined : given ?? keyDigest(text)
    const first = digest === undefined ? undefined : payloadsSeen.lookupDigest(digest)
    if (first !== undefined) {
      errors.push({ code: "duplicate_payload", detail: `This payload is identical to the one from line ${first}; use --allow-duplicates to keep both.` })
    }
    const keys: Array<string> = []
    if (mapping.endpoint === "transactions") {
      const transactions = (payload as { readonly transactions?: ReadonlyArray<unknown> }).transactions ?? []
      transactions.forEach((t, i) => {
        const key = transactionKey(payload, t)
        if (key === undefined) return
        keys.push(key)
        const seen = transactionsSeen.lookup(key)
        if (seen !== undefined && first === undefined) {
          errors.push({
            attr: `transactions.${i}.transaction_id`,
            code: "duplicate_transaction_ids",
            detail: `transaction_id ${JSON.stringify((t as Record<string, unknown>)["transaction_id"])} was already used for this account by the payload from line ${seen}: the service would skip one of them.`
          })
        }
      })
    }
    if (errors.length > 0) {
      reject(rejectOf(rows, errors), rows.length)
      return
    }
    if (digest !== undefined) payloadsSeen.recordDigest(digest, linesOf[0]!)
    for (const key of keys) transactionsSeen.record(key, linesOf[0]!)
    out.write(`${text}\n`)
    lineageOut?.write(`${JSON.stringify({ payload: payloads, lines: linesOf })}\n`)
    payloads++
    rowsInPayloads += rows.length
    ledger.settle(linesOf, "payload")
  }

  /** Book-keeping for every item the reader yields; returns the row to map, if it is one. */
  const take = (item: SourceItem): SourceRow | undefined => {
    switch (item.kind) {
      case "header":
        return undefined
      case "skipped":
        if (item.why === "blank") blankLines += item.lines.length
        return undefined
      case "refused":
        rowsRead++
        ledger.markRead(item.line)
        reject({ lines: [item.line], rows: [item.raw], raw: [item.raw], errors: [{ code: item.code, detail: item.detail }] }, 1)
        return undefined
      case "row":
        rowsRead++
        for (const line of item.lines) ledger.markRead(line)
        return item
    }
  }
  // Awaiting only when a destination is full: an await per payload would cost more than the payload.
  const full = (): boolean => out.full || rejectsOut?.full === true || lineageOut?.full === true
  const backpressure = async (): Promise<void> => {
    if (out.full) await out.drained()
    if (rejectsOut?.full === true) await rejectsOut.drained()
    if (lineageOut?.full === true) await lineageOut.drained()
  }
  const items = async function*(): AsyncGenerator<SourceItem> {
    yield* early
    yield* source
  }

  try {
    const jobs = Math.max(1, options.jobs ?? availableParallelism())
    // One job maps in this thread: a single worker would add the cost of cloning every row and of a second
    // heap, and on a busy machine it does not even gain the overlap with reading.
    if (mapping.groupBy === undefined && jobs > 1) {
      // Every row is a payload of its own: batches of rows are mapped in parallel and put back in input order.
      // A by-order date-time's run of repeated wall times can cross a batch: each batch is mapped from no run,
      // and the rare one that read the run it started with is mapped again here after the batch before it.
      const batches = new Map<number, { readonly rows: ReadonlyArray<SourceRow>; readonly refused: ReadonlyArray<Reject> }>()
      let orderState: OrderState = []
      const pool: WorkerPool<MapResult> = new WorkerPool({
        size: jobs,
        script: workerScript,
        settings: { role: "map", mapping: mapping satisfies MappingSpec, digests: options.allowDuplicates !== true },
        onResult: (mapped) => {
          const { rows, refused } = batches.get(mapped.seq) ?? { rows: [], refused: [] }
          batches.delete(mapped.seq)
          const result = mustMapAgain(orderState, mapped) ? mapBatch(mapping, { type: "map", seq: mapped.seq, rows: rows.map((r) => r.record) }, false, orderState) : mapped
          orderState = orderStateAfter(orderState, result)
          const events: Array<{ readonly first: number; readonly run: () => void }> = []
          for (const p of result.payloads) {
            const of = p.sourceRows.map((i) => rows[i]!)
            events.push({ first: of[0]!.lines[0]!, run: () => emitPayload(p.text, mapping.endpoint === "transactions" ? JSON.parse(p.text) : undefined, of, p.digest) })
          }
          for (const r of result.rejected) {
            const of = r.sourceRows.map((i) => rows[i]!)
            events.push({ first: of[0]!.lines[0]!, run: () => reject(rejectOf(of, r.errors), of.length) })
          }
          for (const r of refused) events.push({ first: r.lines[0]!, run: () => held.push(r) })
          events.sort((a, b) => a.first - b.first)
          for (const e of events) e.run()
          releaseRejects(Number.POSITIVE_INFINITY)
        }
      })
      let batch: Array<SourceRow> = []
      const submit = async (): Promise<void> => {
        if (batch.length === 0) return
        const seq = pool.seq
        batches.set(seq, { rows: batch, refused: [] })
        // A one-line row without quotes goes as its text (cloning a string costs a fraction of an object).
        const rows = batch.map((row) => (header !== undefined && row.lines.length === 1 && !row.raw.includes("\"") ? row.raw : row.record))
        batch = []
        await pool.submit({ type: "map", seq, rows, ...(header !== undefined ? { csv: header } : {}) }, [])
        await backpressure()
      }
      try {
        for await (const item of items()) {
          const row = take(item)
          if (row !== undefined) {
            batch.push(row)
            if (batch.length >= MAP_BATCH_ROWS) await submit()
            continue
          }
          if (held.length === 0) continue
          // A refused line goes out after the rows above it, which may still be in a worker.
          const refused = held
          held = []
          await submit()
          const seq = pool.seq
          batches.set(seq, { rows: [], refused })
          pool.local({ seq, payloads: [], rejected: [], readStart: [], endRuns: [] })
        }
        await submit()
        await pool.idle()
      } finally {
        await pool.close()
      }
    } else {
      // Groups need the rows in order (and one job is this thread): mapped as they stream by.
      const pending = new Map<number, SourceRow>()
      let index = 0
      const rowOf = (item: SourceItem): Record<string, unknown> | undefined => {
        const row = take(item)
        if (row === undefined) return undefined
        pending.set(index++, row)
        return row.record
      }
      // The source read directly (not through items()): every generator between reader and mapper costs per row.
      const records = async function*(): AsyncGenerator<Record<string, unknown>> {
        for (const item of early) {
          const record = rowOf(item)
          if (record !== undefined) yield record
        }
        for await (const item of source) {
          const record = rowOf(item)
          if (record !== undefined) yield record
        }
      }
      const settle = (indexes: ReadonlyArray<number>): Array<SourceRow> =>
        indexes.flatMap((i) => {
          const row = pending.get(i)
          pending.delete(i)
          return row === undefined ? [] : [row]
        })
      for await (const event of mapRecords(mapping, records()) as AsyncGenerator<MappingEvent>) {
        const rows = settle(event.sourceRows)
        if (event.kind === "payload") emitPayload(JSON.stringify(event.payload), event.payload, rows)
        else reject(rejectOf(rows, event.errors), rows.length)
        if (held.length > 0) {
          const oldest = pending.values().next()
          releaseRejects(oldest.done === true ? Number.POSITIVE_INFINITY : oldest.value.lines[0]!)
        }
        if (full()) await backpressure()
      }
    }
    releaseRejects(Number.POSITIVE_INFINITY)
  } catch (cause) {
    progress.stop()
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  progress.stop()
  await out.close()
  await rejectsOut?.close()
  await lineageOut?.close()

  const violations = ledger.check()
  const balanced = rowsRead === rowsInPayloads + rowsRejected
  if (violations.length > 0 || !balanced) {
    process.stderr.write(
      `data-import: internal error: the run does not account for every line of ${input}: ${[...violations.slice(0, 10), ...(balanced ? [] : [`rows read ${rowsRead} ≠ ${rowsInPayloads} in payloads + ${rowsRejected} rejected`])].join("; ")}\n`
    )
    return EXIT.internal
  }
  const empty = rowsRead === 0 && options.allowEmpty !== true
  if (report === "json") {
    process.stdout.write(`${JSON.stringify({
      ok: rowsRejected === 0 && !empty,
      file: input,
      endpoint: mapping.endpoint,
      headerLine: headerLine ?? null,
      rowsRead,
      rowsInPayloads,
      rowsRejected,
      payloads,
      linesRead: ledger.linesRead,
      linesInPayloads: ledger.linesInPayloads,
      linesRejected: ledger.linesRejected,
      blankLines,
      rejectedByCode
    })}\n`)
  }
  if (empty) {
    process.stderr.write(`${s.red(`no rows in ${input}`)}${headerLine !== undefined ? ` (only the header, line ${headerLine})` : ""}: an empty export is almost always a broken one; use --allow-empty if it is meant\n`)
    return EXIT.invalid
  }
  const summary = `${input}: ${plural(rowsRead, "row")} read = ${formatCount(rowsInPayloads)} in ${plural(payloads, "payload")} (${mapping.endpoint}) + ${formatCount(rowsRejected)} rejected` +
    `${headerLine !== undefined && headerLine !== 1 ? `; header on line ${headerLine}` : ""}${blankLines > 0 ? `; ${plural(blankLines, "blank line")} skipped` : ""}`
  if (report === "text") process.stderr.write(`${rowsRejected > 0 ? s.red(summary) : summary}\n`)
  return rowsRejected > 0 ? EXIT.invalid : EXIT.ok
}
