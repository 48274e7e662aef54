/**
 * The `data-import` command-line tool (the package's `bin`). The same bundle runs the validation and
 * mapping workers (see `start.ts`).
 *
 * @module
 */
import * as nodeModule from "node:module"
import { isMainThread } from "node:worker_threads"
import { startEarlyWorker } from "../validation/run/early-worker.js"
import { nodeVersionProblem } from "./node-version.js"

// Before anything else: an older Node gets one message and exit 2, never an internal error later on
// (node:sqlite missing in send, serve and report, effect's own needs elsewhere).
const tooOld = isMainThread ? nodeVersionProblem(process.versions.node) : undefined
if (tooOld !== undefined) {
  process.stderr.write(`data-import: ${tooOld}\n`)
  process.exit(2)
}

// V8's compiled code of the bundle is kept on disk (in the system's temporary directory), so a run and
// each of its worker threads skip most of parsing and compiling it, the largest part of start-up. Where
// the cache cannot be used (a read-only directory, NODE_DISABLE_COMPILE_CACHE, a Node without it), nothing
// changes: a namespace import, so that a Node without the function still loads the tool.
nodeModule.enableCompileCache?.()
// `validate` checks its records in worker threads: the first one starts loading now, beside this thread.
if (isMainThread && process.argv[2] === "validate") startEarlyWorker(new URL(import.meta.url))
const { start } = await import("./start.js")
start(new URL(import.meta.url))
