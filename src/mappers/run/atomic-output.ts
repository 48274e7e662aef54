/**
 * Output files that appear whole or not at all: each is written to a temporary file beside its target
 * and renamed over the target only when the run has finished. A run that stops on the way (an error, a
 * signal) removes its temporary files and leaves every target as it was.
 *
 * @module
 */
import { statSync, unlinkSync } from "node:fs"
import { open, rename } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { describeError, EXIT, type ExitCode, ioError } from "../../readers/exit-codes.js"
import { openOutput, Output } from "../../readers/io.js"

/** Whether `path` names something other than a regular file (a FIFO, a device): written in place, as it cannot be replaced. */
const isSpecial = (path: string): boolean => {
  try {
    return !statSync(path).isFile()
  } catch {
    return false
  }
}

/** The output files of one run, written beside their targets until {@link AtomicOutputs.commit}. */
export class AtomicOutputs {
  private readonly temporary: Array<{ readonly temp: string; readonly target: string }> = []

  /** Opens `target` for writing through a temporary file in the same directory (so the rename is atomic). */
  async open(target: string): Promise<Output> {
    if (isSpecial(target)) return openOutput(target)
    const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`)
    this.temporary.push({ temp, target })
    try {
      const handle = await open(temp, "wx")
      return new Output(handle.createWriteStream(), target)
    } catch (cause) {
      throw ioError(`cannot write ${target}: ${describeError(cause)}`)
    }
  }

  /** The targets written through temporary files. */
  get targets(): ReadonlyArray<string> {
    return this.temporary.map((t) => t.target)
  }

  /** Renames every temporary file over its target; call after every output is closed. */
  async commit(): Promise<void> {
    for (const { temp, target } of this.temporary.splice(0)) {
      try {
        await rename(temp, target)
      } catch (cause) {
        throw ioError(`cannot write ${target}: ${describeError(cause)}`)
      }
    }
  }

  /** Removes every temporary file not yet renamed (synchronously: it runs in a signal handler too). */
  discard(): void {
    for (const { temp } of this.temporary.splice(0)) {
      try {
        unlinkSync(temp)
      } catch {
        // Never created, or already gone.
      }
    }
  }
}

/**
 * Until the returned function is called, SIGINT and SIGTERM stop the run: `outputs` are discarded,
 * `onSignal` (if given) runs, one line on stderr says so, and the process exits with 130 (SIGINT) or 143 (SIGTERM).
 */
export const discardOnSignal = (outputs: AtomicOutputs, command: string, onSignal?: (signal: NodeJS.Signals) => void): (() => void) => {
  const handler = (signal: NodeJS.Signals): void => {
    const targets = outputs.targets
    outputs.discard()
    onSignal?.(signal)
    const code: ExitCode = signal === "SIGINT" ? EXIT.interrupted : EXIT.terminated
    const what = targets.length > 0 ? `nothing was written to ${targets.join(", ")} (its temporary files are removed)` : "the output is incomplete"
    process.stderr.write(`\ndata-import: ${command} interrupted (${signal}): ${what}\n`)
    process.exit(code)
  }
  process.on("SIGINT", handler)
  process.on("SIGTERM", handler)
  return () => {
    process.off("SIGINT", handler)
    process.off("SIGTERM", handler)
  }
}
