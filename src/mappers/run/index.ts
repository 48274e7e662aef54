/**
 * The map engine, as `data-import map` drives it: the run's inputs, their reading (with the versions of
 * EDIFACT values across inputs), mapping in this thread or in workers, and the outcomes with their journal.
 * Not part of the package's exports: the CLI's entry to it.
 *
 * @module
 */
export { AtomicOutputs, discardOnSignal } from "./atomic-output.js"
export { mapInOrder } from "./map-in-order.js"
export { mapInParallel } from "./map-in-parallel.js"
export { mapInputs } from "./map-inputs.js"
export { type MapJournalRun, MapOutcomes, openMapJournalRun, type Reject, reasonText, SharedOutcomes } from "./map-outcomes.js"
export { MapRunWorkers } from "./map-run-workers.js"
export { delimiterOf, inputFormatOf, loadMapping, type MapSource, type MapSourceOptions, openMapSource } from "./map-source.js"
export type { MapWarnings } from "./map-warnings.js"
export { runWorker } from "./worker.js"
export { RunVersions } from "./run-versions.js"
