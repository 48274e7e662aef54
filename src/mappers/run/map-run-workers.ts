/**
 * The worker threads of one `map` run: one pool for all its inputs, started once an input has shown it
 * is long enough to pay for them, and used only once a worker has loaded. Until then, and for every
 * input too short to gain from them, batches are mapped in the main thread.
 *
 * Why: a worker loads the whole tool again (about 0.3 s, seconds on a loaded machine) and costs each
 * batch a copy of its rows and a round trip. An archive holds thousands of small interchanges of a
 * single batch each; a pool per input paid the start-up per file (95 files took 30–40 s against 1.7 s in
 * one thread), and even a warm pool gains nothing on one batch: the main thread, having nothing more to
 * read of the input, would only wait for the worker. Workers pay where the main thread reads on while
 * they map: long inputs. So `--jobs 2` is never slower than `--jobs 1`: what it does beyond it runs on
 * the other core, while this thread goes on as it would with one job. A run that read its inputs into
 * the versions' spool (`RunVersions`) has no workers: this thread, reading every record back and settling
 * it, is the bottleneck whatever maps it.
 *
 * @module
 */
import type { MappingSpec } from "../define-mapping.js"
import type { MapResult } from "../../validation/run/batch.js"
import { WorkerPool } from "../../validation/run/worker-pool.js"

/**
 * Full batches an input has given before the run's workers start: an input of fewer rows is over before
 * a worker could have loaded, and would leave it idle.
 */
export const FULL_BATCHES_BEFORE_WORKERS = 2

/** What one input hands the run's batches to: numbered in input order, its results in that order. */
export interface MapStream {
  /** The number the next batch or result gets. */
  readonly seq: number
  /** Takes a result made in this thread into the ordered stream. */
  local(result: MapResult): void
  /** Resolves once every result so far has been handed on; rejects when a worker failed. */
  idle(): Promise<void>
}

/** Settings of {@link MapRunWorkers}. */
export interface MapRunWorkersSettings {
  /** Worker threads at most (`--jobs`); 1: none, every batch in this thread. */
  readonly jobs: number
  readonly workerScript: URL
  readonly mapping: MappingSpec
  readonly digests: boolean
  /**
   * Every batch to a worker from the first one on, waiting for the workers to load (the pool is still one
   * for the run): how the tests reach the workers' path with small inputs (`DATA_IMPORT_MAP_WORKERS=always`).
   */
  readonly always?: boolean | undefined
}

/** The run's workers, started on demand, shared by the inputs of the run one after the other. */
export class MapRunWorkers {
  private pool: WorkerPool<MapResult> | undefined
  private onResult: (result: MapResult) => void = () => undefined
  /** Results numbered before the pool exists (the pool numbers on from there). */
  private seqHere = 0

  constructor(private readonly settings: MapRunWorkersSettings) {}

  /**
   * The ordered stream of one input, whose results (in submission order, whether mapped here or by a
   * worker) go to `onResult`. An input takes it after the one before it is idle.
   */
  stream(onResult: (result: MapResult) => void): MapStream {
    this.onResult = onResult
    const run = this
    return {
      get seq() {
        return run.pool?.seq ?? run.seqHere
      },
      local: (result) => {
        if (run.pool !== undefined) return run.pool.local(result)
        run.seqHere++
        onResult(result)
      },
      idle: () => run.pool?.idle() ?? Promise.resolve()
    }
  }

  /**
   * Where the next batch of an input goes: a worker pool, or `undefined` for this thread. This thread
   * while no worker has loaded (the workers start at the input's {@link FULL_BATCHES_BEFORE_WORKERS}th
   * full batch, and this thread maps on meanwhile), and for the last batch of an input none of whose
   * batches is at a worker (nothing to overlap with). `undefined` always means that every batch of the
   * input before this one has been mapped and handed on.
   */
  take(input: { readonly last: boolean; readonly atWorkers: number; readonly fullBatches: number }): WorkerPool<MapResult> | undefined {
    if (this.settings.jobs <= 1) return undefined
    const always = this.settings.always === true
    if (this.pool === undefined && (always || input.fullBatches >= FULL_BATCHES_BEFORE_WORKERS)) {
      const { jobs: size, workerScript: script, mapping, digests } = this.settings
      this.pool = new WorkerPool<MapResult>({
        size,
        script,
        settings: { role: "map", mapping, digests },
        onResult: (result) => this.onResult(result),
        firstSeq: this.seqHere
      })
      this.pool.start()
    }
    if (always) return this.pool
    if (this.pool === undefined || !this.pool.ready) return undefined
    if (input.last && input.atWorkers === 0) return undefined
    return this.pool
  }

  /**
   * Whether the workers were started and none has loaded yet. The word that one has loaded comes as an
   * event, and a regular file is read with blocking calls, so a run that never yields to the event loop
   * would map a long input to its end in this thread while the workers sit ready and unheard.
   */
  get starting(): boolean {
    return this.pool !== undefined && !this.pool.ready
  }

  /** Stops the workers, if any started. */
  async close(): Promise<void> {
    await this.pool?.close()
  }
}
