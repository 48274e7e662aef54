/**
 * A worker thread started before the tool has loaded: its start-up (loading the tool once more) then runs
 * beside the main thread's own, instead of after it. It waits for its settings; the first worker pool of
 * the run takes it in place of starting a worker. An early worker nobody takes does not keep the process
 * alive.
 *
 * @module
 */
import { Worker } from "node:worker_threads"

/** Young-generation size of a worker's heap, in MB. */
export const YOUNG_GENERATION_MB = 8

/** The `workerData` of a worker that receives its settings in its first message. */
export const AWAITING_SETTINGS = "awaiting-settings"

let early: { readonly script: string; readonly worker: Worker } | undefined

/**
 * Starts a worker thread for a run that will need one (`validate`), from `script` (the tool's bin), and
 * returns it. Where starting it fails, nothing changes: the pool starts its workers as it would have.
 */
export const startEarlyWorker = (script: URL): Worker | undefined => {
  try {
    const worker = new Worker(script, {
      workerData: AWAITING_SETTINGS,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
    })
    worker.unref()
    // A worker that fails or stops before a pool takes it is forgotten, so the pool starts one of its own
    // (a dead thread would drop every batch sent to it without a word).
    const forget = (): void => {
      if (early?.worker === worker) early = undefined
    }
    worker.on("error", forget)
    worker.on("exit", forget)
    early = { script: script.href, worker }
    return worker
  } catch {
    early = undefined
    return undefined
  }
}

/** The early worker started from `script` while it still runs, taken once (`undefined` if there is none). */
export const takeEarlyWorker = (script: URL): Worker | undefined => {
  if (early === undefined || early.script !== script.href) return undefined
  const { worker } = early
  early = undefined
  // From here on its failures are the pool's, which listens as it does to the workers it starts.
  worker.removeAllListeners("error")
  worker.removeAllListeners("exit")
  if (worker.threadId === -1) return undefined
  worker.ref()
  return worker
}
