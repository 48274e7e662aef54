/**
 * The validate engine, as `data-import validate` drives it: batches of records checked in a pool of
 * workers, their counts and located errors, and the documents folder they may name. Not part of the
 * package's exports: the CLI's entry to it.
 *
 * @module
 */
export { type BatchSummary, type Counts, emptySummary, type Problem, type RecordError, type WorkerSettings } from "./batch.js"
export { countUnparseable, rejectedValue } from "./check-batch.js"
export { repeatedKeyRejecter } from "./repeated-keys.js"
export { WorkerPool } from "./worker-pool.js"
export { type FileStoreFolder, fileStoreFolder, folderProblem } from "../file-store.js"
