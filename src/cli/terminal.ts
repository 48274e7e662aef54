/**
 * Terminal conventions: colour on a terminal unless `NO_COLOR` is set, `FORCE_COLOR` deciding when it is
 * set (as Node itself reads it), and a few styles.
 *
 * @module
 */

/**
 * Whether to colour output written to a stream. `FORCE_COLOR` decides when set: `0` or `false` never,
 * any other value (empty included) always, even into a pipe. Otherwise: only a TTY, and never when
 * `NO_COLOR` is set (non-empty).
 */
export const useColour = (stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean => {
  const force = env["FORCE_COLOR"]
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false"
  return stream.isTTY === true && (env["NO_COLOR"] === undefined || env["NO_COLOR"] === "")
}

/** Text styles; plain when colour is off. */
export interface Styles {
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly yellow: (text: string) => string
  readonly cyan: (text: string) => string
}

const sgr = (open: number, close: number) => (text: string): string => `\u001b[${open}m${text}\u001b[${close}m`
const plain = (text: string): string => text

/** The styles for a stream (ANSI escapes only when `colour`). */
export const stylesFor = (colour: boolean): Styles =>
  colour
    ? { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) }
    : { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain }

/** A count with thousands separators (`1,234,567`), locale-independent. */
export const formatCount = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/gu, ",")

/** A count and its noun, singular for one: "1 record", "2 records". */
export const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`

/** A byte size for people: `512 B`, `1.5 MiB`. */
export const formatBytes = (n: number): string => {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"]
  let value = n
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? String(value) : value.toFixed(1)} ${units[unit]}`
}
