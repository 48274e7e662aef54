/**
 * The repeated hour of an autumn clock change, resolved from evidence instead of guessed: from the order
 * of the rows (`ambiguous: "by-order"`) or from a column that states the offset or the season.
 *
 * @module
 */
import { type ConversionResult, fail, succeed } from "./conversion-result.js"
import type { Cell, LegacyRecord } from "./field-source.js"
import { rememberConversions } from "./remember-conversions.js"
import { isoDateTimeConverter, toIsoDateTime, type ToIsoDateTimeOptions } from "./to-iso-date-time.js"

/** Spellings of summer time (the earlier instant of a repeated hour) and standard time (the later). */
const SUMMER = new Set(["s", "so", "sommer", "summer", "sz", "mesz", "cest", "dst"])
const WINTER = new Set(["w", "wi", "winter", "wz", "mez", "cet", "std"])
const OFFSET = /^([+-])(\d{2}):?(\d{2})?$/u

type Stated = { readonly offset: string } | { readonly season: "summer" | "winter" }

const readOffsetCell = (cell: Cell): Stated | undefined => {
  // Stryker disable next-line StringLiteral: equivalent, a blank cell is passed over before it is read
  const text = String(cell ?? "").trim()
  const m = OFFSET.exec(text)
  if (m !== null) return { offset: `${m[1]}${m[2]}:${m[3] ?? "00"}` }
  const lower = text.toLowerCase()
  if (SUMMER.has(lower)) return { season: "summer" }
  if (WINTER.has(lower)) return { season: "winter" }
  return undefined
}

const offsetOf = (iso: string): string => iso.slice(-6)

const toUtc = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19)}Z`

/** The zone's summer and standard offsets in the year of `iso` (equal when it has no summer time). */
const seasonsOf = (iso: string, options: ToIsoDateTimeOptions): { readonly summer: string; readonly winter: string } => {
  const year = iso.slice(0, 4)
  const january = toIsoDateTime(`${year}-01-15T12:00:00`, { ...options, format: "yyyy-MM-ddTHH:mm:ss", ambiguous: "earlier" })
  const july = toIsoDateTime(`${year}-07-15T12:00:00`, { ...options, format: "yyyy-MM-ddTHH:mm:ss", ambiguous: "earlier" })
  // Stryker disable next-line StringLiteral: equivalent, noon of 15 January exists in every zone, so the fallback is never taken
  const a = january.ok ? offsetOf(january.value) : "+00:00"
  const b = july.ok ? offsetOf(july.value) : a
  // Stryker disable next-line ArithmeticOperator: equivalent for "-" in place of "+", which keeps the order of two offsets whose hours differ, as a zone's summer and standard offsets do ("/" in place of "*" fails the Lord Howe test)
  const minutes = (o: string) => (o.startsWith("-") ? -1 : 1) * (Number(o.slice(1, 3)) * 60 + Number(o.slice(4, 6)))
  // Stryker disable next-line EqualityOperator: equivalent, equal offsets are the same either way round
  return minutes(a) >= minutes(b) ? { summer: a, winter: b } : { summer: b, winter: a }
}

/** A run of repeated wall times in progress: each wall time read so far and the instant it took. */
export type WallTimeRun = ReadonlyArray<readonly [string, "earlier" | "later"]>

/** A date-time column whose repeated wall times are resolved by row order or by an offset column. */
export interface WallTimeResolver {
  readonly convert: (cell: Exclude<Cell, null | undefined>, row: LegacyRecord) => ConversionResult<string>
  /** The column was blank in this row: a run of repeated wall times ends. */
  readonly blank: () => void
  /** Starts a batch of rows with the run the rows before it left (batches of one input mapped apart). */
  readonly start: (run: WallTimeRun) => void
  /**
   * Where the batch since {@link start} leaves the run: `readStart` when a `by-order` pick read the run
   * it started with (so it is right only if that was the run the rows before left), and the run at its
   * end (`undefined`: the batch never ended the run it started with, which goes on as it was).
   */
  readonly end: () => { readonly readStart: boolean; readonly run: WallTimeRun | undefined }
}

/**
 * A resolver for one date-time field. `by-order`: within a run of rows whose wall time in this column is
 * ambiguous, the first occurrence of a wall time takes the earlier offset and its repeat the later one
 * (a third occurrence starts a new run); any unambiguous or blank value ends the run. `offsetColumn`: the
 * stated offset (or season) picks the instant, and must agree with an unambiguous one.
 */
export const resolveWallTime = (options: Readonly<Record<string, unknown>>): WallTimeResolver => {
  const base = options as ToIsoDateTimeOptions & { readonly offsetColumn?: string }
  const convertOptions: ToIsoDateTimeOptions = { ...base, output: "offset" }
  // Built once: a conversion runs for every row.
  const rejecting: ToIsoDateTimeOptions = { ...convertOptions, ambiguous: "reject" }
  const earlierOptions: ToIsoDateTimeOptions = { ...convertOptions, ambiguous: "earlier" }
  const laterOptions: ToIsoDateTimeOptions = { ...convertOptions, ambiguous: "later" }
  const unambiguous = rememberConversions(isoDateTimeConverter(rejecting))
  const toEarlier = isoDateTimeConverter(earlierOptions)
  const toLater = isoDateTimeConverter(laterOptions)
  const byOrder = options["ambiguous"] === "by-order"
  const output = (iso: string): ConversionResult<string> => succeed(base.output === "utc" ? toUtc(iso) : iso)
  let run = new Map<string, "earlier" | "later">()
  // Since start(): the run is still the one the batch started with (perhaps grown), and whether a pick read it.
  let fresh = true
  let readStart = false
  const reset = (): void => {
    // Cleared in place, and only when it holds a run: this runs for every unambiguous wall time, and the
    // map is this resolver's own.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, clearing an empty map changes nothing
    if (run.size > 0) run.clear()
    fresh = false
  }
  return {
    blank: reset,
    start: (given) => {
      run = new Map(given)
      fresh = true
      readStart = false
    },
    end: () => ({ readStart, run: fresh && !readStart ? undefined : [...run] }),
    convert: (cell, row) => {
      // One conversion settles the usual unambiguous wall time; only a repeated one needs both instants.
      const once = unambiguous(cell)
      // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, a shortcut: the way below ends the run and gives the one instant too
      if (once.ok && base.offsetColumn === undefined) {
        // The usual row: one instant, nothing stated to check it against.
        reset()
        // Stryker disable next-line ConditionalExpression: equivalent where it always calls output, which writes the offset form as it is
        return base.output === "utc" ? output(once.value) : once
      }
      // Stryker disable next-line ConditionalExpression: equivalent, a wall time refused otherwise is refused alike by the earlier pick below
      if (!once.ok && once.error.code !== "ambiguous_time") return once
      const earlier = once.ok ? once : toEarlier(cell)
      // Stryker disable next-line ConditionalExpression: equivalent, a repeated wall time always has an earlier and a later instant
      if (!earlier.ok) return earlier
      const later = once.ok ? once : toLater(cell)
      // Stryker disable next-line ConditionalExpression: equivalent, see above
      if (!later.ok) return later
      const candidates = earlier.value === later.value ? [earlier.value] : [earlier.value, later.value]
      // Stryker disable next-line ConditionalExpression: equivalent, without an offset column no row has a cell for it
      if (base.offsetColumn !== undefined) {
        const offsetCell = Object.hasOwn(row, base.offsetColumn) ? row[base.offsetColumn] : undefined
        if (offsetCell !== undefined && offsetCell !== null && String(offsetCell).trim() !== "") {
          const stated = readOffsetCell(offsetCell)
          if (stated === undefined) {
            return fail("invalid_offset", `${base.offsetColumn} ${JSON.stringify(String(offsetCell))} is neither an offset (+02:00) nor a season (S/W, MESZ/MEZ, CEST/CET)`)
          }
          const wanted = "offset" in stated ? stated.offset : seasonsOf(earlier.value, convertOptions)[stated.season]
          const match = candidates.find((c) => offsetOf(c) === wanted)
          if (match === undefined) {
            return fail("offset_mismatch", `${String(cell)} has the offset ${candidates.map(offsetOf).join(" or ")} in ${base.timeZone ?? "Europe/Berlin"}, but ${base.offsetColumn} says ${JSON.stringify(String(offsetCell))}`)
          }
          return output(match)
        }
      }
      if (candidates.length === 1) {
        reset()
        return output(candidates[0]!)
      }
      if (!byOrder) {
        // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent, a shortcut: toIsoDateTime below picks the same instant for earlier and later
        if (base.ambiguous === "earlier" || base.ambiguous === "later") return output(base.ambiguous === "earlier" ? earlier.value : later.value)
        return toIsoDateTime(cell, base)
      }
      if (fresh) readStart = true
      const wall = String(cell).trim()
      const seen = run.get(wall)
      if (seen === "later") reset()
      const pick = seen === "earlier" ? "later" : "earlier"
      run.set(wall, pick)
      return output(pick === "earlier" ? earlier.value : later.value)
    }
  }
}
