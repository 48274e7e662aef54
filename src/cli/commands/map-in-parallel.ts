/**
 * `map` with several jobs, for a mapping without groups: every row is a payload of its own, so batches
 * of rows are mapped in parallel by workers and their outcomes put back in input order.
 *
 * @module
 */
import { type Mapping, type MappingSpec, mustMapAgain, type OrderState, orderStateAfter } from "../../index.js"
import type { MapResult } from "../batch.js"
import type { SourceItem, SourceRow } from "../source-rows.js"
import { mapBatch } from "../worker.js"
import { WorkerPool } from "../worker-pool.js"
import type { MapSource } from "./map-source.js"
import { type MapOutcomes, type Reject, rejectOf } from "./map-outcomes.js"

/** Rows per batch sent to a mapping worker. */
const MAP_BATCH_ROWS = 1000

/** How a parallel run of `map` is done. */
export interface MapInParallelSettings {
  readonly jobs: number
  readonly workerScript: URL
  readonly allowDuplicates: boolean
}

/**
 * Maps the rows of `input` in batches on `settings.jobs` workers, each outcome to `outcomes` in input order.
 */
export const mapInParallel = async (mapping: Mapping, input: MapSource, outcomes: MapOutcomes, settings: MapInParallelSettings): Promise<void> => {
  const { early, source, header } = input
  // A by-order date-time's run of repeated wall times can cross a batch: each batch is mapped from no run,
  // and the rare one that read the run it started with is mapped again here after the batch before it.
  const batches = new Map<number, { readonly rows: ReadonlyArray<SourceRow>; readonly refused: ReadonlyArray<Reject> }>()
  let orderState: OrderState = []
  const pool: WorkerPool<MapResult> = new WorkerPool({
    size: settings.jobs,
    script: settings.workerScript,
    settings: { role: "map", mapping: mapping satisfies MappingSpec, digests: !settings.allowDuplicates },
    onResult: (mapped) => {
      const { rows, refused } = batches.get(mapped.seq) ?? { rows: [], refused: [] }
      batches.delete(mapped.seq)
      const result = mustMapAgain(orderState, mapped) ? mapBatch(mapping, { type: "map", seq: mapped.seq, rows: rows.map((r) => r.record) }, false, orderState) : mapped
      orderState = orderStateAfter(orderState, result)
      const events: Array<{ readonly first: number; readonly run: () => void }> = []
      for (const p of result.payloads) {
        const of = p.sourceRows.map((i) => rows[i]!)
        events.push({ first: of[0]!.lines[0]!, run: () => outcomes.payload(p.text, mapping.endpoint === "transactions" ? JSON.parse(p.text) : undefined, of, p.digest) })
      }
      for (const r of result.rejected) {
        const of = r.sourceRows.map((i) => rows[i]!)
        events.push({ first: of[0]!.lines[0]!, run: () => outcomes.reject(rejectOf(of, r.errors), of.length) })
      }
      for (const r of refused) events.push({ first: r.lines[0]!, run: () => outcomes.held.push(r) })
      events.sort((a, b) => a.first - b.first)
      for (const e of events) e.run()
      outcomes.releaseRejects(Number.POSITIVE_INFINITY)
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
    await outcomes.backpressure()
  }
  const items = async function*(): AsyncGenerator<SourceItem> {
    yield* early
    yield* source
  }
  try {
    for await (const item of items()) {
      const row = outcomes.take(item)
      if (row !== undefined) {
        batch.push(row)
        if (batch.length >= MAP_BATCH_ROWS) await submit()
        continue
      }
      if (outcomes.held.length === 0) continue
      // A refused line goes out after the rows above it, which may still be in a worker.
      const refused = outcomes.held
      outcomes.held = []
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
}
