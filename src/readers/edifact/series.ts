/**
 * The series check of EDIFACT records: the intervals of one location and product (`LOC+172`, `PIA+5`) in
 * one message form a series, and what is irregular in it is named, located at its `QTY`:
 *
 * - `irregular_interval` (warning): an interval whose length is not the series' resolution, the most
 *   common length of its intervals in the message (the shortest of them on a tie). MSCONS declares no
 *   resolution (the old `DTM+672` period length is gone), and one archive mixes quarter-hours, days and
 *   months, so the message itself is the only witness. Lengths of a day or more are counted in calendar
 *   days or months of the zone (the same wall time on another day), so that a 23- or 25-hour day or a
 *   month of 28 days is as regular as its neighbours;
 * - `interval_overlap` (warning): an interval starting before the end of an earlier one (by start);
 * - `series_gap` (warning): no interval between the end of one and the start of the next, unless a `QTY`
 *   between them in the message ended otherwise (rejected, left out on purpose, or with a time that could
 *   not be read): that one already has its own outcome;
 * - `repeated_interval` (warning): the same interval twice in one message with another quantity or
 *   qualifier (twice with the same is an identical payload, which `map` refuses as `duplicate_payload`);
 * - `interval_backwards`, `interval_empty` (rejects): an end before the start, or at it: no amount
 *   can be measured over such a period, whatever the rest of the series.
 *
 * Memory: the intervals of one message, dropped when the next message begins.
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import { readTime } from "../lookup/accounts.js"
import type { EdifactLocation } from "./messages.js"
import type { EdifactNotice, EdifactRecordItem } from "./records.js"

/** The cells the series check reads of a record: the MSCONS names. */
export const SERIES_CELLS = {
  start: "DTM+163",
  end: "DTM+164",
  location: "LOC+172.2.1",
  product: "PIA+5.2.1",
  quantity: "QTY.1.2",
  qualifier: "QTY.1.1"
} as const

/** The columns a reader must give for the series check (add them to the mapping's). */
export const SERIES_COLUMNS: ReadonlyArray<string> = Object.values(SERIES_CELLS)

/**
 * A warning of the series check: about a record, whose cells (its account, once looked up) it keeps,
 * where the check keeps records (see {@link SeriesCheck}).
 */
export interface SeriesWarning extends EdifactNotice {
  readonly record?: LegacyRecord
}

/**
 * One interval of a series: its instants, its text, its quantity and qualifier as the record wrote them
 * (compared, as {@link valueOf} says, only where an interval comes twice), and where it is.
 */
interface Interval {
  readonly start: number
  readonly end: number
  readonly startText: string
  readonly endText: string
  readonly quantity: string
  readonly qualifier: string
  readonly at: EdifactLocation
  readonly raw: string
  readonly record: LegacyRecord | undefined
}

/** A series: its location, its product and its intervals in the message. */
interface Series {
  readonly location: string
  readonly product: string
  readonly intervals: Array<Interval>
}

const MINUTE = 60_000

/** A decimal's text without the zeros that do not change it (`1.50` and `1.5` are one value). */
const decimalKey = (text: string): string => {
  let t = text.trim()
  if (t.includes(".")) t = t.replace(/0+$/u, "").replace(/\.$/u, "")
  const negative = t.startsWith("-")
  if (negative) t = t.slice(1)
  t = t.replace(/^0+(?=\d)/u, "")
  return negative && t !== "0" ? `-${t}` : t
}

/** What an interval says, as a repeat of it is compared and named: `1.50` and `1.5` are one value. */
const valueOf = (i: Interval): string => `quantity ${decimalKey(i.quantity)}, qualifier ${i.qualifier}`

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

/** The days from 0000-03-01 of a date written `YYYY-MM-DD`: differences of dates in whole days. */
const dayNumber = (date: string): number => {
  const y = Number(date.slice(0, 4))
  const m = Number(date.slice(5, 7))
  const d = Number(date.slice(8, 10))
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
}

/**
 * The length of an interval as the series counts it: months or days where start and end are the same
 * wall time of the zone (the texts are the reader's, written with the zone's offset) and the instants a
 * day or more apart; minutes of the instants otherwise.
 *
 * @example
 * intervalLength("2024-03-01T00:00:00+01:00", "2024-04-01T00:00:00+02:00", 0, 30 * 86_400_000 + 23 * 3_600_000) // => "1 month"
 * intervalLength("2024-03-31T01:45:00+01:00", "2024-03-31T03:00:00+02:00", 0, 15 * 60_000) // => "15 minutes"
 */
export const intervalLength = (startText: string, endText: string, start: number, end: number): string => lengthText(lengthKey(startText, endText, start, end))

/**
 * An interval's length as the series compares lengths: its text in days or months (see
 * {@link intervalLength}), or else its milliseconds, of which {@link lengthText} makes the text. Two
 * intervals have one length exactly when their keys are equal; a message's quarter-hours make no text.
 */
const lengthKey = (startText: string, endText: string, start: number, end: number): string | number => {
  if (end - start >= 23 * 60 * MINUTE && startText.slice(11, 19) === endText.slice(11, 19)) {
    if (startText.slice(8, 10) === endText.slice(8, 10)) {
      const months = (Number(endText.slice(0, 4)) - Number(startText.slice(0, 4))) * 12 + Number(endText.slice(5, 7)) - Number(startText.slice(5, 7))
      if (months > 0) return plural(months, "month")
    }
    return plural(dayNumber(endText.slice(0, 10)) - dayNumber(startText.slice(0, 10)), "day")
  }
  return end - start
}

/** The text of a length {@link lengthKey} gives. */
const lengthText = (key: string | number): string =>
  typeof key === "string" ? key : key % MINUTE === 0 ? plural(key / MINUTE, "minute") : plural(key / 1000, "second")

/** The instant of a date-time cell as the reader wrote it (with an offset); `undefined` for anything else. */
const instantOf = (text: unknown, zone: string): number | undefined => {
  if (typeof text !== "string" || text === "") return undefined
  const read = readTime(text, zone)
  return read.ok && read.form === "offset" ? read.ms : undefined
}

const span = (i: { readonly startText: string; readonly endText: string }): string => `${i.startText} – ${i.endText}`

/**
 * The series check over a stream of a reader's items, in input order: {@link check} each run of items, then
 * {@link end}. Records pass (a record whose period runs backwards or is empty becomes a reject); the
 * warnings of a message come once its last item has passed.
 *
 * @example
 * // A quarter-hour series with a 75-minute interval among them.
 * const at = { offset: 0, segment: 1, message: 1, messageReference: "M1" }
 * const qh = (from: string, to: string, segment: number): EdifactRecordItem => ({
 *   kind: "record", at: { ...at, segment }, raw: "QTY+220:1'",
 *   record: { "DTM+163": from, "DTM+164": to, "LOC+172.2.1": "51238696781", "PIA+5.2.1": "1-1:1.29.0", "QTY.1.2": "1", "QTY.1.1": "220" }
 * })
 * const check = new SeriesCheck("Europe/Berlin")
 * const items = [...check.check([
 *   qh("2024-06-10T00:00:00+02:00", "2024-06-10T00:15:00+02:00", 10),
 *   qh("2024-06-10T00:15:00+02:00", "2024-06-10T01:30:00+02:00", 12),
 *   qh("2024-06-10T01:30:00+02:00", "2024-06-10T01:45:00+02:00", 14)
 * ]), ...check.end()]
 * items.map((item) => item.kind === "warning" ? `${item.code} ${item.at.segment}` : item.kind) // => ["record", "record", "record", "irregular_interval 12"]
 */
export class SeriesCheck {
  /** The message whose intervals are held, by its number in the input. */
  private message: number | undefined
  private readonly series = new Map<string, Series>()
  /** Segments of the message's QTYs that ended otherwise: each stands where an interval would. */
  private readonly elsewhere: Array<number> = []

  /**
   * `records`: whether each warning keeps its record, for a journal to file it under the record's
   * account. Without it, a message's intervals hold no record until the message ends: the collector
   * would otherwise copy every record of a long message into its old generation.
   */
  constructor(
    private readonly zone: string,
    private readonly records = true
  ) {}

  /** The items of `run` as they go on, after the warnings of a message that ended before them. */
  check(run: ReadonlyArray<EdifactRecordItem>): Array<EdifactRecordItem> {
    const out: Array<EdifactRecordItem> = []
    for (const item of run) {
      const message = item.at.message
      if (message !== undefined && message !== this.message) {
        this.flush(out)
        this.message = message
      }
      if (item.kind !== "record") {
        if (item.kind !== "warning" && message !== undefined) this.elsewhere.push(item.at.segment)
        out.push(item)
        continue
      }
      out.push(this.take(item))
    }
    return out
  }

  /** The warnings of the last message. */
  end(): Array<EdifactRecordItem> {
    const out: Array<EdifactRecordItem> = []
    this.flush(out)
    this.message = undefined
    return out
  }

  /** The end cell of the record before, and its instant. */
  private lastEndText: unknown
  private lastEnd: number | undefined

  /** A record into its series; what it becomes. */
  private take(item: Extract<EdifactRecordItem, { readonly kind: "record" }>): EdifactRecordItem {
    const { record } = item
    const startText = record[SERIES_CELLS.start]
    const endText = record[SERIES_CELLS.end]
    // A series' interval starts where the one before it ended: that instant was read already.
    const start = startText === this.lastEndText && startText !== undefined ? this.lastEnd : instantOf(startText, this.zone)
    const end = instantOf(endText, this.zone)
    this.lastEndText = endText
    this.lastEnd = end
    if (start === undefined || end === undefined) {
      // No period, or one the payload check refuses: it has its own outcome there.
      if (startText !== undefined || endText !== undefined) this.elsewhere.push(item.at.segment)
      return item
    }
    if (end <= start) {
      this.elsewhere.push(item.at.segment)
      const detail = end < start
        ? `the period ${String(startText)} – ${String(endText)} ends before it starts (${intervalLength(String(endText), String(startText), end, start)} earlier): no amount is measured over it`
        : `the period ${String(startText)} – ${String(endText)} ends when it starts: no amount is measured over it`
      return { kind: "reject", code: end < start ? "interval_backwards" : "interval_empty", detail, at: item.at, raw: item.raw }
    }
    const location = String(record[SERIES_CELLS.location] ?? "")
    const product = String(record[SERIES_CELLS.product] ?? "")
    // A message's records of one series come together: the series of the record before is tried first.
    let series = this.lastSeries
    if (series === undefined || series.location !== location || series.product !== product) {
      const key = `${location}\u0000${product}`
      series = this.series.get(key)
      if (series === undefined) {
        series = { location, product, intervals: [] }
        this.series.set(key, series)
      }
      this.lastSeries = series
    }
    const quantity = String(record[SERIES_CELLS.quantity] ?? "")
    const qualifier = String(record[SERIES_CELLS.qualifier] ?? "")
    series.intervals.push({ start, end, startText: String(startText), endText: String(endText), quantity, qualifier, at: item.at, raw: item.raw, record: this.records ? record : undefined })
    return item
  }

  /** The series the last record went to (in the message held). */
  private lastSeries: Series | undefined

  /** The warnings of the message held, into `out`; then nothing is held. */
  private flush(out: Array<EdifactRecordItem>): void {
    const elsewhere = this.elsewhere.sort((a, b) => a - b)
    for (const series of this.series.values()) for (const w of warningsOf(series, elsewhere)) out.push(w)
    this.series.clear()
    this.lastSeries = undefined
    this.elsewhere.length = 0
  }
}

/** Whether a segment of `sorted` lies strictly between `a` and `b` (either order). */
const between = (sorted: ReadonlyArray<number>, a: number, b: number): boolean => {
  const lo = Math.min(a, b)
  const hi = Math.max(a, b)
  let l = 0
  let h = sorted.length
  while (l < h) {
    const mid = (l + h) >>> 1
    if (sorted[mid]! <= lo) l = mid + 1
    else h = mid
  }
  return l < sorted.length && sorted[l]! < hi
}

/** Whether intervals are in order of start, then end. */
const inOrder = (intervals: ReadonlyArray<Interval>): boolean => {
  for (let k = 1; k < intervals.length; k++) {
    const a = intervals[k - 1]!
    const b = intervals[k]!
    if (b.start < a.start || (b.start === a.start && b.end < a.end)) return false
  }
  return true
}

/** The warnings of one series, in the order of their segments. */
const warningsOf = (series: Series, elsewhere: ReadonlyArray<number>): Array<SeriesWarning> => {
  const { intervals } = series
  const found: Array<SeriesWarning> = []
  const name = `location ${JSON.stringify(series.location)}, product ${JSON.stringify(series.product)}`
  const warn = (i: Interval, code: string, detail: string): void => {
    found.push({ kind: "warning", code, detail: `series of ${name}: ${detail}`, at: i.at, raw: i.raw, ...(i.record !== undefined ? { record: i.record } : {}) })
  }
  // The resolution: the most common length, the shortest of them on a tie.
  const lengths = intervals.map((i) => lengthKey(i.startText, i.endText, i.start, i.end))
  const counts = new Map<string | number, { n: number; ms: number }>()
  intervals.forEach((i, k) => {
    const c = counts.get(lengths[k]!)
    if (c === undefined) counts.set(lengths[k]!, { n: 1, ms: i.end - i.start })
    else c.n++
  })
  let resolution: string | number = ""
  let best = { n: 0, ms: Number.POSITIVE_INFINITY }
  for (const [length, c] of counts) {
    if (c.n > best.n || (c.n === best.n && c.ms < best.ms)) {
      resolution = length
      best = c
    }
  }
  intervals.forEach((i, k) => {
    if (lengths[k] !== resolution) {
      warn(i, "irregular_interval", `the interval ${span(i)} is ${lengthText(lengths[k]!)} long, not the series' resolution of ${lengthText(resolution)} (${best.n} of its ${intervals.length} intervals in this message)`)
    }
  })
  // By start, then end, then place in the message: a series sent in order is that already.
  const sorted = inOrder(intervals) ? intervals : intervals.map((i, k) => ({ i, k })).sort((a, b) => a.i.start - b.i.start || a.i.end - b.i.end || a.k - b.k).map((x) => x.i)
  let latest: Interval | undefined
  let same: Interval | undefined
  for (const i of sorted) {
    if (same !== undefined && same.start === i.start && same.end === i.end) {
      if (valueOf(same) !== valueOf(i)) {
        const [first, repeat] = same.at.segment < i.at.segment ? [same, i] : [i, same]
        warn(repeat, "repeated_interval", `the interval ${span(i)} is sent twice in this message with different values: ${valueOf(first)} (segment ${first.at.segment}), then ${valueOf(repeat)} (segment ${repeat.at.segment})`)
      }
      continue
    }
    same = i
    if (latest !== undefined) {
      if (i.start < latest.end) {
        const [first, later] = latest.at.segment < i.at.segment ? [latest, i] : [i, latest]
        const minutes = (Math.min(i.end, latest.end) - i.start) / MINUTE
        warn(later, "interval_overlap", `the interval ${span(later)} overlaps the interval ${span(first)} (segment ${first.at.segment}) by ${plural(minutes, "minute")}`)
      } else if (i.start > latest.end && !between(elsewhere, latest.at.segment, i.at.segment)) {
        warn(i, "series_gap", `no interval from ${latest.endText} (the end of segment ${latest.at.segment}) to ${i.startText}, the start of this one: a gap of ${plural((i.start - latest.end) / MINUTE, "minute")}`)
      }
    }
    if (latest === undefined || i.end > latest.end) latest = i
  }
  return found.sort((a, b) => a.at.segment - b.at.segment)
}
