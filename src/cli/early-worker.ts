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
 * Starts a worker thread for a run that will need one (`validate`), from `script` (the tool's bin).
 * Where starting it fails, nothing changes: the pool starts its workers as it would have.
 */
export const startEarlyWorker = (script: URL): void => {
  try {
    const worker = new Worker(script, {
      workerData: AWAITING_SETTINGS,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
    })
    worker.unref()
    // Until a pool takes it, an error of its own is nobody's business: the pool starts another.
    const ignore = (): void => undefined
    worker.on("error", ignore)
    early = { script: script.href, worker }
  } catch {
    early = undefined
  }
}

/** The early worker started from `script`, taken once (`undefined` if there is none). */
export const takeEarlyWorker = (script: URL): Worker | undefined => {
  if (early === undefined || early.script !== script.href) return undefined
  const { worker } = early
  early = undefined
  worker.removeAllListeners("error")
  worker.ref()
  return worker
}
