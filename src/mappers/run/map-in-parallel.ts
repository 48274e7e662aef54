/**
 * `map` in batches, for a mapping without groups: every row is a payload of its own, so batches of rows
 * are mapped apart (by workers with several jobs, in this thread with one) and their outcomes put back in
 * input order.
 *
 * @module
 */
import type { Mapping } from "../define-mapping.js"
import { mustMapAgain, type OrderState, orderStateAfter } from "./map-batch-after.js"
import type { MapResult } from "../../validation/run/batch.js"
import { DIGEST_LENGTH, keyDigest } from "../../readers/lookup/seen-keys.js"
import { uniqueInInputOf } from "../../validation/run/unique-in-input.js"
import type { SourceItem, SourceRow } from "../../readers/rows/source-rows.js"
import { mapBatch } from "./worker.js"
import { isRun, type MapSource } from "./map-source.js"
import { type MapOutcomes, type Reject, rejectOf } from "./map-outcomes.js"
import type { MapRunWorkers } from "./map-run-workers.js"

/** Reads a payload's line back where the main thread needs the payload itself. */
const textOf = new TextDecoder()

/** Rows per batch. */
const MAP_BATCH_ROWS = 1000

/** How a batched mapping of one input is done. */
export interface MapInParallelSettings {
  /** The run's workers (one pool for all its inputs), or this thread alone. */
  readonly workers: MapRunWorkers
  readonly allowDuplicates: boolean
}

/**
 * Maps the rows of `input` in batches, each outcome to `outcomes` in input order. A batch goes to the
 * run's workers only where they pay for themselves (see {@link MapRunWorkers.take}); the others, and all
 * of them with one job, are mapped in this thread from the `by-order` state the batch before left.
 */
export const mapInParallel = async (mapping: Mapping, input: MapSource, outcomes: MapOutcomes, settings: MapInParallelSettings): Promise<void> => {
  const { early, source, header } = input
  const batches = new Map<number, { readonly rows: ReadonlyArray<SourceRow>; readonly refused: ReadonlyArray<Reject> }>()
  const settle = (result: MapResult): void => {
    const { rows, refused } = batches.get(result.seq) ?? { rows: [], refused: [] }
    batches.delete(result.seq)
    // Payloads go out in row order (the order the duplicate check sees them in), each run of accepted
    // ones written as one piece of the worker's bytes; rejects wait in `held` and are written sorted by
    // line, so they need no order here.
    const { lines, lineEnds, digests: digestsOf } = result
    const keyed = uniqueInInputOf(mapping.endpoint) !== undefined
    let start = 0
    let runStart = 0
    const warned = result.warnings
    let nextWarned = 0
    for (let i = 0; i < lineEnds.length; i++) {
      const warnings = warned !== undefined && warned.payloads[nextWarned] === i ? warned.lists[nextWarned++] : undefined
      const end = lineEnds[i]!
      // Only a payload with a rule across records is read again here (for its items' keys). `mapBatch` computes the
      // digests whenever asked; the text is hashed here only should one ever be missing.
      const text = keyed || (digests && digestsOf === undefined) ? textOf.decode(lines.subarray(start, end - 1)) : undefined
      const digest = !digests ? undefined : digestsOf ?? keyDigest(text!)
      if (!outcomes.accept(keyed ? JSON.parse(text!) : undefined, [rows[result.payloadRows[i]!]!], digest, digestsOf !== undefined ? i * DIGEST_LENGTH : 0, warnings)) {
        outcomes.writePayloads(lines.subarray(runStart, start))
        runStart = end
      }
      start = end
    }
    outcomes.writePayloads(lines.subarray(runStart, start))
    for (const r of result.rejected) {
      const of = r.sourceRows.map((i) => rows[i]!)
      outcomes.reject(rejectOf(of, r.errors), of.length)
    }
    for (const r of refused) outcomes.held.push(r)
    outcomes.releaseRejects(Number.POSITIVE_INFINITY)
  }
  const digests = !settings.allowDuplicates
  // Workers map each batch from no `by-order` state: a date-time's run of repeated wall times can cross a
  // batch, so the rare batch that read the run it started with is mapped again here after the batch before it.
  let orderState: OrderState = []
  /** Batches of this input at a worker and not settled yet. */
  let atWorkers = 0
  /** Batches (and refused lines) settled in this thread: mapped from the state before them, never again. */
  const here = new Set<number>()
  /** Full batches of this input so far: the run's workers start once an input has shown it is long. */
  let fullBatches = 0
  const stream = settings.workers.stream((result) => {
    if (here.delete(result.seq)) return settle(result)
    atWorkers--
    const rows = batches.get(result.seq)?.rows ?? []
    const redone = mustMapAgain(orderState, result) ? mapBatch(mapping, { type: "map", seq: result.seq, rows: rows.map((r) => r.record) }, digests, orderState) : result
    orderState = orderStateAfter(orderState, redone)
    settle(redone)
  })
  let batch: Array<SourceRow> = []
  /** Sends the batch read so far on its way; `last`: the input has no more rows. */
  const submit = async (last: boolean): Promise<void> => {
    if (batch.length === 0) return
    const rows = batch
    batch = []
    if (rows.length >= MAP_BATCH_ROWS) fullBatches++
    // Asked before the batch is numbered: the answer may start the pool, which numbers batches from then on.
    const pool = settings.workers.take({ last, atWorkers, fullBatches })
    const seq = stream.seq
    batches.set(seq, { rows, refused: [] })
    if (pool === undefined) {
      // Nothing of this input is at a worker (take says so): every batch before this one is settled.
      const result = mapBatch(mapping, { type: "map", seq, rows: rows.map((r) => r.record) }, digests, orderState)
      orderState = orderStateAfter(orderState, result)
      here.add(seq)
      stream.local(result)
      // A turn of the event loop a batch while the workers load, so that the word of one ready is heard.
      if (settings.workers.starting) await new Promise<void>((resolve) => setImmediate(resolve))
    } else {
      atWorkers++
      // A one-line row without quotes goes as its text (cloning a string costs a fraction of an object).
      const sent = rows.map((row) => (header !== undefined && row.lines.length === 1 && !row.raw.includes("\"") ? row.raw : row.record))
      await pool.submit({ type: "map", seq, rows: sent, ...(header !== undefined ? { csv: header } : {}) }, [])
    }
    await outcomes.backpressure()
  }
  /** Books an item; whether a batch must go now (it is full, or a refused line waits behind it). */
  const take = (item: SourceItem): boolean => {
    const row = outcomes.take(item)
    if (row === undefined) return outcomes.held.length > 0
    batch.push(row)
    return batch.length >= MAP_BATCH_ROWS
  }
  const flush = async (): Promise<void> => {
    // A refused line goes out after the rows above it, which may still be in a worker: it waits aside
    // (results that come in meanwhile write every held reject).
    const refused = outcomes.held
    outcomes.held = []
    await submit(false)
    if (refused.length === 0) return
    const seq = stream.seq
    batches.set(seq, { rows: [], refused })
    here.add(seq)
    stream.local({ seq, lines: new Uint8Array(0), lineEnds: [], payloadRows: [], rejected: [], readStart: [], endRuns: [] })
  }
  // The source read directly (not through one generator of early and source items): every generator
  // between reader and mapper costs per row.
  for (const item of early) if (take(item)) await flush()
  for await (const got of source) {
    if (isRun(got)) {
      for (const item of got) if (take(item)) await flush()
    } else if (take(got)) await flush()
  }
  await submit(true)
  await stream.idle()
}
