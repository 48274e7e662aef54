/**
 * The workers of one `map` run: one pool for all its inputs, started only by an input long enough to
 * gain from it, and never a worker per file. Real worker threads run a stand-in script that counts its
 * own starts in shared memory and answers each batch with an empty result.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import type { MappingSpec } from "../../../src/index.js"
import type { MapResult } from "../../../src/validation/run/batch.js"
import { FULL_BATCHES_BEFORE_WORKERS, MapRunWorkers } from "../../../src/mappers/run/map-run-workers.js"

const dir = mkdtempSync(join(tmpdir(), "map-run-workers-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Counts its start in the shared counter the settings carry, says it is ready, answers every batch.
const script = join(dir, "stand-in.mjs")
writeFileSync(script, `import { parentPort, workerData } from "node:worker_threads"
Atomics.add(new Int32Array(workerData.mapping.started), 0, 1)
parentPort.on("message", (m) => parentPort.postMessage({ type: "result", result: { seq: m.seq, lines: new Uint8Array(0), lineEnds: [], payloadRows: [], rejected: [], readStart: [], endRuns: [] } }))
parentPort.postMessage({ type: "ready" })
`)

const emptyResult = (seq: number): MapResult => ({ seq, lines: new Uint8Array(0), lineEnds: [], payloadRows: [], rejected: [], readStart: [], endRuns: [] })

/** A run's workers whose threads count their starts in `started[0]`. */
const runWorkers = (jobs: number): { readonly workers: MapRunWorkers; readonly started: Int32Array } => {
  const shared = new SharedArrayBuffer(4)
  const workers = new MapRunWorkers({ jobs, workerScript: pathToFileURL(script), mapping: { started: shared } as unknown as MappingSpec, digests: false })
  return { workers, started: new Int32Array(shared) }
}

/**
 * Feeds one input of `batches` batches through `workers` as `mapInParallel` does: a batch goes where
 * `take` says, results come back in order. Returns how many went to a worker.
 */
const feed = async (workers: MapRunWorkers, batches: number, waitForWorkers: boolean): Promise<{ readonly atWorkers: number; readonly settled: ReadonlyArray<number> }> => {
  const settled: Array<number> = []
  let atWorkers = 0
  let sent = 0
  const stream = workers.stream((result) => settled.push(result.seq))
  for (let b = 1; b <= batches; b++) {
    const last = b === batches
    // A long input: the main thread reads on for a while, so a worker started by an earlier batch has loaded.
    for (let wait = 0; waitForWorkers && b > FULL_BATCHES_BEFORE_WORKERS && wait < 500 && workers.take({ last: false, atWorkers: 1, fullBatches: b }) === undefined; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const pool = workers.take({ last, atWorkers, fullBatches: last ? b - 1 : b })
    const seq = stream.seq
    if (pool === undefined) {
      expect(atWorkers).toBe(0)
      stream.local(emptyResult(seq))
    } else {
      atWorkers++
      sent++
      await pool.submit({ type: "map", seq, rows: [] }, [])
    }
  }
  await stream.idle()
  return { atWorkers: sent, settled }
}

describe("the workers of a map run", () => {
  it("start no worker for a thousand inputs of one batch each, with two jobs", async () => {
    const { workers, started } = runWorkers(2)
    for (let input = 0; input < 1000; input++) {
      const { atWorkers, settled } = await feed(workers, 1, false)
      expect(atWorkers).toBe(0)
      expect(settled.length).toBe(1)
    }
    await workers.close()
    expect(Atomics.load(started, 0)).toBe(0)
  })

  it("start once for a run of several long inputs, and those inputs' batches go to them, in order", async () => {
    const { workers, started } = runWorkers(2)
    let toWorkers = 0
    for (let input = 0; input < 3; input++) {
      const { atWorkers, settled } = await feed(workers, 12, true)
      toWorkers += atWorkers
      // Every batch handed back once, in the order submitted.
      expect(settled).toEqual([...settled].sort((a, b) => a - b))
      expect(new Set(settled).size).toBe(12)
    }
    // Both workers of the pool have run their script (the second may still be loading when the inputs end);
    // a pool per input would have started six.
    for (let wait = 0; wait < 500 && Atomics.load(started, 0) < 2; wait++) await new Promise((resolve) => setTimeout(resolve, 20))
    await workers.close()
    expect(Atomics.load(started, 0)).toBe(2)
    expect(toWorkers).toBeGreaterThan(0)
  })

  it("map the last batch of an input in this thread when none of its batches is at a worker", async () => {
    const { workers } = runWorkers(2)
    const long = await feed(workers, 12, true)
    expect(long.atWorkers).toBeGreaterThan(0)
    // The pool has loaded: a lone last batch stays here, one after batches at a worker goes to a worker.
    expect(workers.take({ last: true, atWorkers: 0, fullBatches: 0 })).toBeUndefined()
    expect(workers.take({ last: true, atWorkers: 1, fullBatches: 5 })).toBeDefined()
    await workers.close()
  })

  it("never start a worker with one job", async () => {
    const { workers, started } = runWorkers(1)
    const { atWorkers } = await feed(workers, 12, false)
    await workers.close()
    expect(atWorkers).toBe(0)
    expect(Atomics.load(started, 0)).toBe(0)
  })
})
