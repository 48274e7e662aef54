/**
 * `data-import validate`: checks every record of NDJSON and JSON files against the contract, in worker
 * threads, and reports totals, counts and the first problems with file and line.
 *
 * @module
 */
import { availableParallelism } from "node:os"
import { ENDPOINT_IDS, isEndpointId } from "../../index.js"
import { type BatchSummary, countUnparseable, emptySummary, rejectedValue, repeatedKeyRejecter, WorkerPool, type WorkerSettings } from "../../validation/run/index.js"
import { documentsReport } from "../documents-option.js"
import { DEFAULT_MAX_LINE_BYTES, EXIT, type ExitCode, type InputKind, JsonDocumentSplitter, type JsonPiece, LineChunker, openInput, openOutput, Output, overlongDetail, READ_CHUNK_BYTES, readChunks, type RegularFile, sizeOf, sniffStdin, unparseable, UnreadableInput, usageError, validateInputs } from "../../readers/index.js"
import { startProgress } from "../progress.js"
import { jsonReport, ndjsonEmptyLine, ndjsonLine, ndjsonWarnedLine, type ReportFormat, summaryLine, textReport } from "../reports.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { Tally } from "../tally.js"
import { stylesFor, useColour } from "../terminal.js"

/** Options of `validate`, as parsed from the command line. */
export interface ValidateOptions {
  readonly endpoint?: string | undefined
  readonly format: ReportFormat
  readonly maxErrors?: number | undefined
  readonly maxWarnings?: number | undefined
  readonly failOnWarnings?: boolean | undefined
  readonly allowEmpty?: boolean | undefined
  readonly inputFormat?: "json" | "ndjson" | undefined
  readonly quiet?: boolean | undefined
  readonly jobs?: number | undefined
  readonly rejectFile?: string | undefined
  readonly maxLineLength: number
  readonly documents?: string | undefined
}

/** Default `--max-errors` and `--max-warnings` per format: a screenful for people, all of them for a stream. */
export const DEFAULT_MAX_ERRORS: Readonly<Record<ReportFormat, number>> = {
  text: 20,
  json: 1000,
  ndjson: Number.POSITIVE_INFINITY
}

export { DEFAULT_MAX_LINE_BYTES }

/** JSON values are sent to the workers in batches of about this many bytes (or this many values). */
const JSON_BATCH_BYTES = 1 << 20
const JSON_BATCH_VALUES = 4096

interface BatchOrigin {
  readonly file: number
  readonly kind: "ndjson" | "json"
  /** A range a worker read itself: its size in bytes, for progress. */
  readonly rangeBytes?: number
  /** The file's last range: its file is closed once the range is handed back. */
  readonly closeAfter?: RegularFile
}

/** A regular NDJSON file is handed to the workers in ranges of this many bytes, which they read themselves. */
const RANGE_BYTES = READ_CHUNK_BYTES

/** Runs `validate` and returns its exit code. `workerScript` is the module the workers run. */
export const runValidate = async (names: ReadonlyArray<string>, options: ValidateOptions, workerScript: URL): Promise<ExitCode> => {
  if (options.endpoint !== undefined && !isEndpointId(options.endpoint)) {
    throw usageError(`unknown endpoint ${options.endpoint}: use one of ${ENDPOINT_IDS.join(", ")}`)
  }
  const inputs = validateInputs(names, options.inputFormat)
  const documents = documentsReport(options.documents)
  const quiet = options.quiet === true
  const streaming = options.format === "ndjson" && !quiet
  refuseOverwritingInputs([{ flag: "--reject-file", path: options.rejectFile }], inputs.map((i) => i.name))
  const stdout = new Output(process.stdout, "stdout")
  const rejects = options.rejectFile !== undefined ? await openOutput(options.rejectFile) : undefined
  const tally = new Tally({
    maxListed: quiet ? 0 : options.maxErrors ?? DEFAULT_MAX_ERRORS[options.format],
    maxWarned: quiet ? 0 : options.maxWarnings ?? DEFAULT_MAX_ERRORS[options.format],
    failOnWarnings: options.failOnWarnings === true,
    allowEmpty: options.allowEmpty === true
  })
  const settings: WorkerSettings = {
    role: "validate",
    endpoint: options.endpoint,
    now: new Date().toISOString(),
    keepRaw: rejects !== undefined,
    maxLineBytes: options.maxLineLength,
    documents: options.documents
  }
  const rejectRepeatedKeys = repeatedKeyRejecter()
  const origins = new Map<number, BatchOrigin>()
  const nextLine = inputs.map(() => 1)
  const recordsIn = inputs.map(() => 0)
  const unreadable = new Set<number>()
  const onSummary = (summary: BatchSummary): void => {
    const origin = origins.get(summary.seq)
    if (origin === undefined) throw new Error(`no origin for batch ${summary.seq}`)
    origins.delete(summary.seq)
    const file = inputs[origin.file]!
    const base = nextLine[origin.file]!
    const absolute = (line: number): number => (origin.kind === "ndjson" ? base + line : line)
    rejectRepeatedKeys(summary, (line) => ({ file: file.name, line: absolute(line) }))
    documents?.take(summary.documents)
    const listed = tally.add(summary, (p) => ({
      file: file.name,
      line: origin.kind === "ndjson" ? base + p.line : p.line,
      ...(p.column !== undefined ? { column: p.column } : {})
    }))
    recordsIn[origin.file] = recordsIn[origin.file]! + summary.records
    if (streaming) {
      // One batch is one file: its lines in line order, problems and warned records together.
      const lines = [
        ...listed.problems.map((p) => ({ line: p.line, text: ndjsonLine(p) })),
        ...listed.warned.map((w) => ({ line: w.line, text: ndjsonWarnedLine(w) }))
      ].sort((a, b) => a.line - b.line)
      for (const { text } of lines) stdout.write(`${text}\n`)
    }
    if (rejects !== undefined) {
      for (const p of summary.problems) {
        if (p.raw === undefined) continue
        rejects.write(p.raw)
        rejects.write("\n")
      }
    }
    nextLine[origin.file] = base + summary.lines
    if (origin.rangeBytes !== undefined) bytesRead += origin.rangeBytes
    if (origin.closeAfter !== undefined) closeFile(origin.closeAfter)
    // Once a listing is full nothing needs its details, unless the reject file still does.
    if (tally.full && rejects === undefined) pool.silence("problems")
    if (tally.warningsFull) pool.silence("warnings")
  }
  const jobs = Math.max(1, options.jobs ?? availableParallelism())
  const pool: WorkerPool<BatchSummary> = new WorkerPool({
    size: jobs,
    script: workerScript,
    settings,
    onResult: onSummary
  })

  const sizes = await Promise.all(inputs.map((input) => sizeOf(input.name)))
  const totalBytes = sizes.some((s) => s === undefined) ? undefined : sizes.reduce<number>((a, b) => a + (b ?? 0), 0)
  let bytesRead = 0
  const progress = quiet
    ? { clear: () => undefined, stop: () => undefined }
    : startProgress(process.stderr, () => ({ records: tally.totals.records, bytesRead, totalBytes }))

  const local = (file: number, kind: BatchOrigin["kind"], fill: (summary: BatchSummary) => void): void => {
    const summary = emptySummary(pool.seq)
    fill(summary)
    origins.set(summary.seq, { file, kind })
    pool.local(summary)
  }
  const unparseableSummary = (summary: BatchSummary, problem: ReturnType<typeof unparseable>): void => {
    countUnparseable(summary, problem)
    summary.problems.push(problem)
  }
  const backpressure = async (): Promise<void> => {
    await stdout.drained()
    if (rejects !== undefined) await rejects.drained()
  }

  const readNdjson = async (index: number, chunks: AsyncIterable<Uint8Array>): Promise<void> => {
    const chunker = new LineChunker(options.maxLineLength)
    const submit = async (pieces: ReturnType<LineChunker["push"]>): Promise<void> => {
      for (const piece of pieces) {
        if (piece.kind === "overlong") {
          local(index, "ndjson", (summary) => {
            unparseableSummary(summary, unparseable(0, "line_too_long", overlongDetail(piece.length, options.maxLineLength)))
            summary.lines = 1
          })
          continue
        }
        const seq = pool.seq
        origins.set(seq, { file: index, kind: "ndjson" })
        await pool.submit({ type: "ndjson", seq, bytes: piece.bytes, atStreamStart: piece.atStreamStart }, [piece.bytes.buffer as ArrayBuffer])
      }
    }
    for await (const chunk of chunks) {
      bytesRead += chunk.length
      await submit(chunker.push(chunk))
      await backpressure()
    }
    await submit(chunker.end())
  }

  // Files whose ranges are still out: each is closed after its last range, or at the end on a failure.
  const openFiles = new Set<RegularFile>()
  const closeFile = (file: RegularFile): void => {
    // Every range is read: a failure to close loses nothing, and must not end the run.
    if (openFiles.delete(file)) file.close().catch(() => undefined)
  }
  const readNdjsonRanges = async (index: number, file: RegularFile): Promise<void> => {
    openFiles.add(file)
    if (file.size === 0) return closeFile(file)
    for (let start = 0; start < file.size; start += RANGE_BYTES) {
      const end = Math.min(start + RANGE_BYTES, file.size)
      const seq = pool.seq
      origins.set(seq, { file: index, kind: "ndjson", rangeBytes: end - start, ...(end === file.size ? { closeAfter: file } : {}) })
      await pool.submit({ type: "ndjson-range", seq, fd: file.fd, start, end, toEnd: end === file.size }, [])
      await backpressure()
    }
  }

  const readJson = async (index: number, chunks: AsyncIterable<Uint8Array>): Promise<void> => {
    const splitter = new JsonDocumentSplitter(options.maxLineLength)
    let values: Array<Extract<JsonPiece, { kind: "value" }>> = []
    let size = 0
    const flush = async (): Promise<void> => {
      if (values.length === 0) return
      const bytes = new Uint8Array(size)
      const spans = new Int32Array(values.length * 4)
      let at = 0
      values.forEach((v, i) => {
        bytes.set(v.bytes, at)
        spans.set([at, at + v.bytes.length, v.line, v.column], i * 4)
        at += v.bytes.length
      })
      values = []
      size = 0
      const seq = pool.seq
      origins.set(seq, { file: index, kind: "json" })
      await pool.submit({ type: "json", seq, bytes, spans }, [bytes.buffer, spans.buffer])
    }
    const take = async (pieces: Array<JsonPiece>): Promise<void> => {
      for (const piece of pieces) {
        if (piece.kind === "value") {
          values.push(piece)
          size += piece.bytes.length
          if (size >= JSON_BATCH_BYTES || values.length >= JSON_BATCH_VALUES) await flush()
          continue
        }
        await flush()
        local(index, "json", (summary) =>
          unparseableSummary(summary, piece.kind === "overlong"
            ? unparseable(piece.line, "line_too_long", overlongDetail(piece.length, options.maxLineLength), { column: piece.column })
            : unparseable(piece.line, "invalid_json", `Invalid JSON: ${piece.message}.`, {
              column: piece.column,
              // The element the file ends in goes to the reject file like any other broken element.
              ...(rejects !== undefined && piece.element !== undefined ? { raw: rejectedValue(piece.element) } : {})
            })))
      }
    }
    for await (const chunk of chunks) {
      bytesRead += chunk.length
      await take(splitter.push(chunk))
      await backpressure()
    }
    await take(splitter.end())
    await flush()
  }

  try {
    for (const [index, input] of inputs.entries()) {
      try {
        const opened = await openInput(input.name)
        // One worker checks while the main thread reads (measured faster than the worker reading too);
        // two or more read their own ranges, which leaves the main thread no work to compete with them.
        if (input.kind === "ndjson" && opened.file !== undefined && jobs > 1) {
          await readNdjsonRanges(index, opened.file)
          continue
        }
        let chunks: AsyncIterable<Uint8Array> = readChunks(input.name, opened.chunks)
        let kind: InputKind = input.kind
        if (input.name === "-" && options.inputFormat === undefined) ({ kind, chunks } = await sniffStdin(chunks))
        await (kind === "json" ? readJson(index, chunks) : readNdjson(index, chunks))
      } catch (cause) {
        if (!(cause instanceof UnreadableInput)) throw cause
        tally.unreadable.push({ file: input.name, detail: cause.detail })
        unreadable.add(index)
        progress.clear()
        process.stderr.write(`data-import: ${cause.message}\n`)
      }
    }
    await pool.idle()
    // A file that was read and held no record is almost always a broken export.
    for (const [index, input] of inputs.entries()) if (recordsIn[index] === 0 && !unreadable.has(index)) tally.empty.push(input.name)
  } finally {
    progress.stop()
    await pool.close()
    await Promise.all([...openFiles].map((file) => file.close().catch(() => undefined)))
  }
  const styles = stylesFor(useColour(process.stdout))
  if (quiet) stdout.write(`${summaryLine(tally, styles)}\n`)
  else if (options.format === "json") stdout.write(`${jsonReport(tally)}\n`)
  else if (options.format === "text") stdout.write(`${textReport(tally, styles, { showEndpoint: options.endpoint === undefined })}\n`)
  else for (const file of tally.empty) stdout.write(`${ndjsonEmptyLine(file)}\n`)
  await stdout.close()
  if (rejects !== undefined) await rejects.close()
  process.stderr.write(documents?.note() ?? "")
  return tally.unreadable.length > 0 ? EXIT.unreadable : tally.ok ? EXIT.ok : EXIT.invalid
}

