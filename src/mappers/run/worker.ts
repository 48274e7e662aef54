/**
 * The worker threads: a validation worker checks batches of records, a mapping worker maps batches of
 * rows; each answers one result per batch, in the order received. Runs in the same bundle as the
 * command line (`isMainThread` tells them apart, `workerData.role` the two kinds).
 *
 * @module
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads"
import { defineMapping, type Mapping, type MappingSpec } from "../define-mapping.js"
import { batchRowMapper, type OrderState } from "./map-batch-after.js"
import type { FromWorker, MapBatch, MapResult, PayloadWarningItem, SettingsMessage, ToWorker, WorkerSettings } from "../../validation/run/batch.js"
import { AWAITING_SETTINGS } from "../../validation/run/early-worker.js"
import { BatchChecker } from "../../validation/run/check-batch.js"
import { cellsByColumn } from "../../readers/rows/source-rows.js"
import { BYTES_PER_FULL_COLLECTION, collectEvery, fullCollection } from "../../validation/run/full-collections.js"
import { bytesDigest } from "../../readers/lookup/seen-keys.js"

/** The largest first size of a batch's buffer of payload lines (it grows when a batch needs more). */
const LINES_BYTES = 1 << 19
/** The first size of that buffer per row of the batch: a small batch (a small file's) gets a small buffer. */
const LINES_BYTES_PER_ROW = 1 << 10
const LINE_FEED = 10
const encoder = new TextEncoder()

/** A row of a batch as a record: a CSV line is cut into its columns as the CSV reader does for a line without quotes. */
const recordOf = (batch: MapBatch, row: unknown): unknown => {
  const csv = batch.csv
  return csv === undefined || typeof row !== "string" ? row : cellsByColumn(csv.columns, row.split(csv.delimiter))
}

/** Whether two lists of warnings are alike: the same items with the same keys and values, in the same order. */
const sameWarnings = (a: ReadonlyArray<PayloadWarningItem>, b: ReadonlyArray<PayloadWarningItem>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as unknown as Readonly<Record<string, unknown>>
    const y = b[i] as unknown as Readonly<Record<string, unknown>>
    let keys = 0
    for (const key in x) {
      if (!Object.hasOwn(y, key) || x[key] !== y[key]) return false
      keys++
    }
    for (const _ in y) keys--
    if (keys !== 0) return false
  }
  return true
}

/**
 * Maps a batch of rows (a mapping without `groupBy`), with each payload's digest for the duplicate check
 * when `digests`; on the main thread, from the state the rows before left (`state`): a run of one job, or
 * the same rows again after a batch that left `by-order` date-times in a run. Row by row, each payload
 * turned into text at once: what a row leaves behind is its text, so little survives to be collected.
 */
export const mapBatch = (mapping: Mapping, batch: MapBatch, digests: boolean, state?: OrderState): MapResult => {
  const rows = batchRowMapper(mapping, state)
  let lines = new Uint8Array(Math.min(LINES_BYTES, LINES_BYTES_PER_ROW * Math.max(1, batch.rows.length)))
  let used = 0
  const lineEnds: Array<number> = []
  let digestsOf = ""
  const payloadRows: Array<number> = []
  const rejected: Array<MapResult["rejected"][number]> = []
  const warned: Array<number> = []
  const lists: Array<ReadonlyArray<PayloadWarningItem>> = []
  let lastList: ReadonlyArray<PayloadWarningItem> | undefined
  for (const row of batch.rows) {
    for (const event of rows.next(recordOf(batch, row))) {
      if (event.kind === "rejected") {
        rejected.push({ sourceRows: event.sourceRows, errors: event.errors })
        continue
      }
      if (event.sourceRows.length !== 1) throw new Error(`a payload of ${event.sourceRows.length} rows from a mapping without groupBy`)
      const text = JSON.stringify(event.payload)
      // At most 3 bytes of UTF-8 per UTF-16 unit, and the line feed.
      if (used + 3 * text.length + 1 > lines.length) {
        const grown = new Uint8Array(Math.max(2 * lines.length, used + 3 * text.length + 1))
        grown.set(lines.subarray(0, used))
        lines = grown
      }
      const start = used
      used += encoder.encodeInto(text, lines.subarray(used)).written
      if (digests) digestsOf += bytesDigest(lines.subarray(start, used))
      lines[used++] = LINE_FEED
      lineEnds.push(used)
      if (event.warnings !== undefined) {
        if (lastList === undefined || !sameWarnings(lastList, event.warnings)) lastList = event.warnings
        warned.push(lineEnds.length - 1)
        lists.push(lastList)
      }
      payloadRows.push(event.sourceRows[0]!)
    }
  }
  return { seq: batch.seq, lines: lines.subarray(0, used), lineEnds, payloadRows, ...(digests ? { digests: digestsOf } : {}), ...(warned.length > 0 ? { warnings: { payloads: warned, lists } } : {}), rejected, ...rows.end() }
}

/** The bytes of JSON a validation batch has the worker parse. */
const bytesToParse = (message: ToWorker): number =>
  message.type === "ndjson" || message.type === "json" ? message.bytes.byteLength : message.type === "ndjson-range" ? message.end - message.start : 0

/** Answers the batches of a worker with `settings`, from the main thread's `port`. */
const answerBatches = (port: MessagePort, settings: WorkerSettings): void => {
  const checker = settings.role === "validate" ? new BatchChecker(settings) : undefined
  const collect = checker !== undefined ? fullCollection() : undefined
  const parsed = collect !== undefined ? collectEvery(BYTES_PER_FULL_COLLECTION, collect) : undefined
  const mapping = settings.role === "map" ? defineMapping(settings.mapping as MappingSpec) : undefined
  port.on("message", (message: ToWorker) => {
    if (message.type === "quiet") {
      if (checker !== undefined) checker.details[message.listing] = false
      return
    }
    let reply: FromWorker<unknown>
    try {
      const result = message.type === "map"
        ? mapBatch(mapping!, message, settings.role === "map" && settings.digests)
        : message.type === "ndjson"
        ? checker!.checkNdjson(message)
        : message.type === "ndjson-range"
        ? checker!.checkNdjsonRange(message)
        : checker!.checkJson(message)
      reply = { type: "result", result }
    } catch (cause) {
      // A bug, not bad input (bad input is reported per record): the main thread stops with this message.
      reply = { type: "failed", seq: message.seq, message: cause instanceof Error ? cause.message : String(cause) }
    }
    // A mapping result's lines move to the main thread (no copy).
    const lines = reply.type === "result" && message.type === "map" ? (reply.result as MapResult).lines : undefined
    port.postMessage(reply, lines !== undefined ? [lines.buffer as ArrayBuffer] : [])
    // After the answer, so the main thread does not wait for the collection.
    parsed?.(bytesToParse(message))
  })
  port.postMessage({ type: "ready" } satisfies FromWorker<unknown>)
}

/** Starts answering batches from the main thread (an early worker once its settings have come). */
export const runWorker = (): void => {
  const port = parentPort
  if (port === null) return
  if (workerData !== AWAITING_SETTINGS) return answerBatches(port, workerData as WorkerSettings)
  // The settings come first; the batches after them reach the listener added here, in order.
  port.once("message", (message: SettingsMessage) => answerBatches(port, message.settings))
}
