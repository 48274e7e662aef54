/**
 * A pool of validation workers that hands back their summaries in submission order, whatever order
 * they finish in, so reports and line numbers follow the input. Workers start lazily (a small input
 * never pays for more than one), and submission waits while every worker is busy: memory stays
 * bounded however fast the input is read.
 *
 * @module
 */
import { Worker } from "node:worker_threads"
import type { FromWorker, Listing, ToWorker, WorkerSettings } from "./batch.js"
import { takeEarlyWorker, YOUNG_GENERATION_MB } from "./early-worker.js"

/** Batches waiting at or being checked by one worker before submission waits. */
const IN_FLIGHT_PER_WORKER = 2
/**
 * Batches submitted but not yet handed back in order, per worker, before submission waits. Larger than
 * the above on purpose: a worker that finished its batches gets more while an earlier batch is still in
 * another worker (a descheduled or slower thread does not idle the others); what waits is a summary.
 */
const UNORDERED_PER_WORKER = 8

interface Slot {
  readonly worker: Worker
  inFlight: number
  /** The worker has loaded and said so: a batch sent to it now does not wait for its start-up. */
  ready: boolean
}

/** Options of a {@link WorkerPool}. */
export interface WorkerPoolOptions<R extends { readonly seq: number }> {
  readonly size: number
  /** The module the workers run (this bundle). */
  readonly script: URL
  readonly settings: WorkerSettings
  /** Called once per submitted batch, in submission order. */
  readonly onResult: (result: R) => void
  /** The sequence number of the first batch (where batches before the pool were numbered elsewhere); 0 when absent. */
  readonly firstSeq?: number
}

/** Ordered, bounded, lazily started worker threads; `R` is what a worker answers per batch. */
export class WorkerPool<R extends { readonly seq: number }> {
  private readonly slots: Array<Slot> = []
  private readonly done = new Map<number, R>()
  private nextSeq: number
  private nextToEmit: number
  private inFlight = 0
  /** Batches sent to a worker and not answered yet. */
  private atWorkers = 0
  private waiting: Array<() => void> = []
  private idleWaiters: Array<() => void> = []
  private failure: Error | undefined
  private failureWaiters: Array<(error: Error) => void> = []
  private readonly quiet = new Set<Listing>()

  constructor(private readonly options: WorkerPoolOptions<R>) {
    this.nextSeq = this.nextToEmit = options.firstSeq ?? 0
  }

  /** The sequence number the next batch gets; batches must be built with it. */
  get seq(): number {
    return this.nextSeq
  }

  /**
   * Starts every worker now, before any batch is submitted: {@link ready} tells when one has loaded, so
   * that the caller can do the work itself meanwhile rather than wait for a start-up.
   */
  start(): void {
    while (this.slots.length < this.options.size) this.spawn()
  }

  /** Whether a worker has loaded (see {@link start}). */
  get ready(): boolean {
    return this.slots.some((slot) => slot.ready)
  }

  /** Sends a batch to the least busy worker; resolves once it is accepted (there is room). */
  async submit(batch: ToWorker & { readonly seq: number }, transfer: ReadonlyArray<ArrayBuffer>): Promise<void> {
    this.throwIfFailed()
    if (batch.seq !== this.nextSeq) throw new Error(`batch ${batch.seq} submitted out of order`)
    this.nextSeq++
    this.inFlight++
    const slot = this.pickSlot()
    slot.inFlight++
    this.atWorkers++
    slot.worker.postMessage(batch, [...transfer])
    while (
      (this.atWorkers >= this.options.size * IN_FLIGHT_PER_WORKER || this.inFlight >= this.options.size * UNORDERED_PER_WORKER) &&
      this.failure === undefined
    ) {
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    }
    this.throwIfFailed()
  }

  /** Takes a result made on the main thread (a line too long to read, say) into the ordered stream. */
  local(result: R): void {
    if (result.seq !== this.nextSeq) throw new Error(`result ${result.seq} out of order`)
    this.nextSeq++
    this.inFlight++
    this.complete(result)
  }

  /** From now on, workers send counts only for `listing` (its details are no longer needed). */
  silence(listing: Listing): void {
    if (this.quiet.has(listing)) return
    this.quiet.add(listing)
    for (const slot of this.slots) slot.worker.postMessage({ type: "quiet", listing })
  }

  /** Resolves when every submitted batch has been handed back; rejects when a worker failed. */
  async idle(): Promise<void> {
    this.throwIfFailed()
    if (this.inFlight === 0) return
    await new Promise<void>((resolve, reject) => {
      this.idleWaiters.push(resolve)
      this.failureWaiters.push(reject)
    })
    this.throwIfFailed()
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()))
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure
  }

  private pickSlot(): Slot {
    // The least busy of the workers that have loaded, if any has: a batch queued at a worker still
    // starting would hold up the ones after it.
    const loaded = this.slots.some((slot) => slot.ready)
    let best: Slot | undefined
    for (const slot of this.slots) if ((slot.ready || !loaded) && (best === undefined || slot.inFlight < best.inFlight)) best = slot
    if (best !== undefined && (best.inFlight === 0 || this.slots.length >= this.options.size)) return best
    return this.spawn()
  }

  private spawn(): Slot {
    // A small young generation: each record's objects die young, and a large nursery per worker only
    // raised the resident memory (measured: ~310 MB at 32 MB, ~200 MB at 8 MB, same speed).
    const early = takeEarlyWorker(this.options.script)
    if (early !== undefined) early.postMessage({ type: "settings", settings: this.options.settings })
    const worker = early ?? new Worker(this.options.script, {
      workerData: this.options.settings,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
    })
    const slot: Slot = { worker, inFlight: 0, ready: false }
    worker.on("message", (message: FromWorker<R>) => {
      if (message.type === "ready") {
        slot.ready = true
        return
      }
      slot.inFlight--
      this.atWorkers--
      if (message.type === "failed") return this.fail(new Error(message.message))
      this.complete(message.result)
    })
    worker.on("error", (error) => this.fail(error))
    worker.on("exit", (code) => {
      if (code !== 0 && this.failure === undefined && this.inFlight > 0) this.fail(new Error(`a worker stopped (exit code ${code})`))
    })
    for (const listing of this.quiet) worker.postMessage({ type: "quiet", listing })
    this.slots.push(slot)
    return slot
  }

  private complete(result: R): void {
    this.done.set(result.seq, result)
    for (let next = this.done.get(this.nextToEmit); next !== undefined; next = this.done.get(this.nextToEmit)) {
      this.done.delete(this.nextToEmit)
      this.nextToEmit++
      this.inFlight--
      try {
        this.options.onResult(next)
      } catch (error) {
        return this.fail(error instanceof Error ? error : new Error(String(error)))
      }
    }
    const waiting = this.waiting
    this.waiting = []
    for (const resume of waiting) resume()
    if (this.inFlight === 0) {
      const idle = this.idleWaiters
      this.idleWaiters = []
      this.failureWaiters = []
      for (const resolve of idle) resolve()
    }
  }

  private fail(error: Error): void {
    if (this.failure !== undefined) return
    this.failure = error
    for (const resume of this.waiting) resume()
    this.waiting = []
    for (const reject of this.failureWaiters) reject(error)
    this.failureWaiters = []
    this.idleWaiters = []
  }
}
