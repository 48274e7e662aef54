/**
 * The offsets of a time zone, read from the runtime's tz database: the offset at an instant, and the
 * instants of a wall time (none in a gap, two in a repeated hour such as 27.10.2024 02:30 in Berlin),
 * cached by 12-hour window because formatting with Intl is by far the slowest step of converting a wall
 * time.
 *
 * @example
 * const zone = offsetFormatFor("Europe/Berlin")!
 * instantsFor(zone, Date.UTC(2024, 9, 27, 2, 30)).length // => 2
 *
 * @module
 */

// Offsets are read from the runtime's tz database through Intl rather than
// `tzOffset` from @date-fns/tz: tzOffset 1.5 flips the sign of offsets between
// -01:00 and 00:00 (e.g. Europe/Dublin before 1916 is -00:25:21 but comes back
// as +25.35 minutes), and it silently falls back to parsing the zone name.
const offsetFormats = new Map<string, Intl.DateTimeFormat>()

/** The formatter that tells the zone's offset at an instant; `undefined` for a zone the runtime does not know. */
export const offsetFormatFor = (timeZone: string): Intl.DateTimeFormat | undefined => {
  const cached = offsetFormats.get(timeZone)
  if (cached !== undefined) return cached
  try {
    const format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    offsetFormats.set(timeZone, format)
    return format
  } catch {
    // A time zone the runtime does not know.
  }
  return undefined
}

// The "longOffset" name is "GMT±HH:MM" or "GMT±HH:MM:SS"; some runtimes write offset zero as "GMT" alone
// (Node 22's ICU writes "GMT+00:00", so there the optional group and the anchor change nothing).
// Stryker disable next-line Regex: equivalent on this runtime, see above
const OFFSET_TEXT = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/

/** Offset of the zone at an instant, in seconds east of UTC. */
const offsetSecondsAt = (format: Intl.DateTimeFormat, epochMs: number): number => {
  const [, sign, hours, minutes, seconds] = OFFSET_TEXT.exec(format.format(epochMs))!
  const magnitude = Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)
  return sign === "-" ? -magnitude : magnitude
}

const HOUR_MS = 3_600_000
const WINDOW_MS = 12 * HOUR_MS

/**
 * Offsets that hold for a whole 12-hour window, by zone and window (`null`: the offset changes inside
 * the window). Formatting with Intl is by far the slowest step of a conversion; a legacy export asks
 * for the same few days over and over. Same offset at both ends of a window means the same offset all
 * through it, given that no zone changed its offset twice within 12 hours (see below).
 */
const windowOffsets = new Map<Intl.DateTimeFormat, Map<number, number | null>>()
const MAX_WINDOWS = 100_000

/** The offset that holds all through 12-hour window `window` (`null`: it changes inside the window). */
const windowOffset = (format: Intl.DateTimeFormat, windows: Map<number, number | null>, window: number): number | null => {
  let offset = windows.get(window)
  if (offset === undefined) {
    const start = window * WINDOW_MS
    const first = offsetSecondsAt(format, start)
    offset = first === offsetSecondsAt(format, start + WINDOW_MS - 1) ? first : null
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the bound only keeps memory small (a window forgotten is worked out again)
    if (windows.size >= MAX_WINDOWS) windows.clear()
    windows.set(window, offset)
  }
  return offset
}

const windowsOf = (format: Intl.DateTimeFormat): Map<number, number | null> => {
  let windows = windowOffsets.get(format)
  if (windows === undefined) {
    windows = new Map()
    windowOffsets.set(format, windows)
  }
  return windows
}

/** {@link offsetSecondsAt}, answered from the window cache when the window's offset is constant. */
export const cachedOffsetSecondsAt = (format: Intl.DateTimeFormat, epochMs: number): number =>
  windowOffset(format, windowsOf(format), Math.floor(epochMs / WINDOW_MS)) ?? offsetSecondsAt(format, epochMs)

// The instant behind a wall time lies within ±16 hours of the wall time read as
// UTC (no zone ever had a larger offset), so every offset it could carry is in
// force somewhere in that window. Sampling every 12 hours over ±1 day finds all
// of them unless a zone changed its offset twice within 12 hours, which the tz
// database has no example of.
const SAMPLES_MS = [-24 * HOUR_MS, -12 * HOUR_MS, 0, 12 * HOUR_MS, 24 * HOUR_MS]

/** All instants whose local time in the zone is `wallMs` (read as UTC), ascending. */
export const instantsFor = (format: Intl.DateTimeFormat, wallMs: number): ReadonlyArray<number> => {
  // Stryker disable next-line ArithmeticOperator: equivalent, the samples are symmetric about zero
  const candidates = new Set(SAMPLES_MS.map((delta) => cachedOffsetSecondsAt(format, wallMs + delta)))
  const instants: Array<number> = []
  for (const offset of candidates) {
    const instant = wallMs - offset * 1000
    if (cachedOffsetSecondsAt(format, instant) === offset) instants.push(instant)
  }
  // With at most one clock change within the samples, the candidates already come in this order (a repeated
  // hour comes from an offset that shrank, and the larger offset is sampled first); sorted all the same.
  // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: equivalent, see above
  return instants.sort((a, b) => a - b)
}

/**
 * By zone and window of the wall time (read as UTC): the one offset of every wall time in that window,
 * or `null` when {@link instantsFor} must look closer. The samples of `instantsFor` for a wall time in
 * window W fall in windows W-2 to W+2; when each of them holds one and the same offset all through,
 * that offset is the only candidate and its instant (within ±16 hours) lies inside them: the answer is
 * that one instant, without sampling again (the usual case: every wall time away from a clock change).
 */
const soleOffsets = new Map<Intl.DateTimeFormat, Map<number, number | null>>()

/** The one offset of every wall time around `wallMs` (read as UTC) in the zone, or `null` (see {@link soleOffsets}). */
export const soleOffsetAt = (format: Intl.DateTimeFormat, wallMs: number): number | null => {
  let sole = soleOffsets.get(format)
  if (sole === undefined) {
    sole = new Map()
    soleOffsets.set(format, sole)
  }
  const window = Math.floor(wallMs / WINDOW_MS)
  let offset = sole.get(window)
  if (offset === undefined) {
    const windows = windowsOf(format)
    offset = windowOffset(format, windows, window)
    for (let w = window - 2; w <= window + 2 && offset !== null; w++) {
      if (windowOffset(format, windows, w) !== offset) offset = null
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the bound only keeps memory small (a window forgotten is worked out again)
    if (sole.size >= MAX_WINDOWS) sole.clear()
    sole.set(window, offset)
  }
  return offset
}
