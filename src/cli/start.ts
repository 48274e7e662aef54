/**
 * Starts the command-line tool or, in a worker thread, a worker: `isMainThread` tells the two roles
 * apart. No stack trace ever reaches the user: a known error is one line with its exit code, anything
 * else is reported as an internal error (exit 70).
 *
 * @module
 */
import { isMainThread } from "node:worker_threads"
import { CliError, EXIT } from "../readers/index.js"
import { runCli } from "./program.js"
import { runWorker } from "../mappers/run/index.js"

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
    (code) => exitWhenWritten(code),
    (cause: unknown) => {
      if (cause instanceof CliError) {
        process.stderr.write(`data-import: ${cause.message}\n`)
        exitWhenWritten(cause.exitCode)
        return
      }
      internalError(cause)
    }
  )
}

/** The longest wait for stdout and stderr to take what was written, before the process ends anyway. */
const FLUSH_WAIT_MS = 10_000

/**
 * Ends the process with `code` once stdout and stderr have taken everything written to them. The command
 * is done: what it leaves behind must not keep the process alive. A request given up on after
 * `--timeout` still holds its connection in fetch (undici ends it after 300 s), and an idle keep-alive
 * connection holds one for seconds.
 */
const exitWhenWritten = (code: number): void => {
  process.exitCode = code
  let open = 2
  const flushed = (): void => {
    if (--open === 0) process.exit(code)
  }
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.destroyed || !stream.writable) flushed()
    else stream.write("", flushed)
  }
  setTimeout(() => process.exit(code), FLUSH_WAIT_MS).unref()
}
