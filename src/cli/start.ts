/**
 * Starts the command-line tool or, in a worker thread, a worker: `isMainThread` tells the two roles
 * apart. No stack trace ever reaches the user: a known error is one line with its exit code, anything
 * else is reported as an internal error (exit 70).
 *
 * @module
 */
import { isMainThread } from "node:worker_threads"
import { CliError, EXIT } from "../internal/exit-codes.js"
import { runCli } from "./program.js"
import { runWorker } from "../internal/worker.js"

const internalError = (cause: unknown): void => {
  const message = cause instanceof Error ? cause.message : String(cause)
  process.stderr.write(`data-import: internal error: ${message}\n`)
  process.exit(EXIT.internal)
}

/** Runs the tool, or a worker; `entry` is the script worker threads are started from (the `bin`). */
export const start = (entry: URL): void => {
  if (!isMainThread) {
    runWorker()
    return
  }
  process.on("uncaughtException", internalError)
  process.on("unhandledRejection", internalError)
  // A closed pipe (`data-import … | head`) ends the run quietly.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.ok)
  })
  runCli(process.argv, { workerScript: entry }).then(
    (code) => {
      process.exitCode = code
    },
    (cause: unknown) => {
      if (cause instanceof CliError) {
        process.stderr.write(`data-import: ${cause.message}\n`)
        process.exitCode = cause.exitCode
        return
      }
      internalError(cause)
    }
  )
}
