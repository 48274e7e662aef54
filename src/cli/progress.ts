/**
 * A progress line on stderr while a long run works: records, records per second and the share of bytes
 * read. Only on a terminal; elsewhere (a pipe, a CI log) nothing is written.
 *
 * @module
 */
import { formatBytes, formatCount } from "./terminal.js"

/** What the progress line shows. */
export interface ProgressState {
  readonly records: number
  readonly bytesRead: number
  /** Total bytes to read; `undefined` when unknown (stdin). */
  readonly totalBytes: number | undefined
}

/** A running progress line: `clear` before writing a message to the same stream, `stop` before the report. */
export interface Progress {
  readonly clear: () => void
  readonly stop: () => void
}

const INTERVAL_MS = 250

/** The text of one progress line. */
export const progressLine = (state: ProgressState, elapsedMs: number): string => {
  const rate = elapsedMs > 0 ? (state.records * 1000) / elapsedMs : 0
  const share = state.totalBytes !== undefined && state.totalBytes > 0
    ? `${Math.min(100, Math.floor((state.bytesRead * 100) / state.totalBytes))}% of ${formatBytes(state.totalBytes)}`
    : `${formatBytes(state.bytesRead)} read`
  return `${formatCount(state.records)} records  ${formatCount(rate)} records/s  ${share}`
}

/** Starts redrawing a progress line on `stream` every 250 ms, when it is a terminal. */
export const startProgress = (
  stream: NodeJS.WriteStream,
  read: () => ProgressState
): Progress => {
  if (stream.isTTY !== true) return { clear: () => undefined, stop: () => undefined }
  const started = Date.now()
  let drawn = false
  const draw = (): void => {
    const text = progressLine(read(), Date.now() - started)
    stream.write(`\r\u001b[2K${text.slice(0, Math.max(10, (stream.columns ?? 80) - 1))}`)
    drawn = true
  }
  const timer = setInterval(draw, INTERVAL_MS)
  timer.unref()
  const clear = (): void => {
    if (drawn) stream.write("\r\u001b[2K")
    drawn = false
  }
  return {
    clear,
    stop: () => {
      clearInterval(timer)
      clear()
    }
  }
}
