/**
 * The exit codes of `data-import`, and the error type that carries one up to the entry point.
 *
 * @module
 */

/** Exit codes, as documented in the README and in `--help`. */
export const EXIT = {
  /** Every record is valid (warnings allowed); every row was mapped. */
  ok: 0,
  /** Invalid or unparseable records; rows that could not be mapped. */
  invalid: 1,
  /** The command line is wrong: unknown option, bad value, unknown endpoint, bad mapping. */
  usage: 2,
  /** An input cannot be read (missing, a directory, no permission, read error) or an output cannot be written. */
  unreadable: 3,
  /** `send` was stopped by SIGINT (Ctrl-C) or SIGTERM: what was in flight is written, the rest not sent. */
  interrupted: 130,
  terminated: 143,
  /** A bug in data-import itself: the message says what happened. */
  internal: 70
} as const

/** One of the exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** An error the user can act on: printed as one line (no stack trace) and ends the run with its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode
  constructor(exitCode: ExitCode, message: string) {
    super(message)
    this.name = "CliError"
    this.exitCode = exitCode
  }
}

/** A usage error: wrong options or arguments (exit code 2). */
export const usageError = (message: string): CliError => new CliError(EXIT.usage, message)

/** An input that cannot be read, or an output that cannot be written (exit code 3). */
export const ioError = (message: string): CliError => new CliError(EXIT.unreadable, message)

/** A short, stack-free description of any thrown value, for messages. */
export const describeError = (cause: unknown): string => {
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code
    switch (code) {
      case "ENOENT":
        return "no such file"
      case "EISDIR":
        return "is a directory"
      case "EACCES":
      case "EPERM":
        return "permission denied"
      default:
        return cause.message
    }
  }
  return String(cause)
}
