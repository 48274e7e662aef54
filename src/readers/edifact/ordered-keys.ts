/**
 * The keys of a run's values that are told apart without hashing (see versions.ts). A value's key is its
 * series (the key's cells other than dates, as `OrderedKeys.seriesOf` names it) and one or two date-times
 * written as the reader writes them (`2024-10-27T02:00:00+02:00`), each packed into one exact number
 * ({@link packDateTime}). Metered values come in order, so each series keeps, in a sorted array, the keys
 * that came after all of its others: a new one is told new by a look at the last, a re-sent one is found
 * by a binary search, and neither is hashed. A key that comes out of order is left to the caller's hash
 * table (`LatestValues`), and its series counts those (`scattered`), so that it is asked only then.
 *
 * Hashing each value's key (SHA-1) and looking it up in a table of 10⁶ took about a microsecond a value,
 * most of it waiting for memory; the last key of a series is at hand.
 *
 * @module
 */

/** The digit at `i` of `text`, or -1. */
const digitAt = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48
  return d >= 0 && d <= 9 ? d : -1
}

/** The two-digit number at `i`, or a negative number when either is no digit. */
const twoAt = (text: string, i: number): number => {
  const tens = digitAt(text, i)
  const ones = digitAt(text, i + 1)
  return tens < 0 || ones < 0 ? -1 : 10 * tens + ones
}

/**
 * A date-time written `YYYY-MM-DDThh:mm:ss±hh:mm` (as the reader writes a DTM with its zone) as one exact
 * number, or `NaN` for any other text (a fraction of a second, `Z`, a date alone, a month above 12…).
 * Two texts of that form are equal exactly when their numbers are: the number is the local date-time's
 * fields and the offset's (with its sign) in mixed radix, below 2^53. Its order is the local time's,
 * then the offset's: an order, not the instants' (the repeated autumn hour sorts among the hour before).
 *
 * @example
 * packDateTime("2024-10-27T02:00:00+02:00") === packDateTime("2024-10-27T02:00:00+02:00") // => true
 * packDateTime("2024-10-27T02:00:00+02:00") === packDateTime("2024-10-27T02:00:00+01:00") // => false
 * packDateTime("2024-10-27T02:00:00Z") // => NaN
 */
export const packDateTime = (text: string): number => {
  if (text.length !== 25) return Number.NaN
  const c = (i: number): number => text.charCodeAt(i)
  // - - T : : sign :
  if (c(4) !== 45 || c(7) !== 45 || c(10) !== 84 || c(13) !== 58 || c(16) !== 58 || c(22) !== 58) return Number.NaN
  const sign = c(19) === 43 ? 0 : c(19) === 45 ? 1 : -1
  const high = twoAt(text, 0)
  const low = twoAt(text, 2)
  const month = twoAt(text, 5)
  const day = twoAt(text, 8)
  const hour = twoAt(text, 11)
  const minute = twoAt(text, 14)
  const second = twoAt(text, 17)
  const offsetHours = twoAt(text, 20)
  const offsetMinutes = twoAt(text, 23)
  if (sign < 0 || high < 0 || low < 0 || month < 0 || month > 12 || day < 0 || day > 31 || hour < 0 || hour > 23) return Number.NaN
  if (minute < 0 || minute > 59 || second < 0 || second > 59 || offsetHours < 0 || offsetMinutes < 0 || offsetMinutes > 59) return Number.NaN
  // At most 9999·13·32·24·60·60 ≈ 3.6·10¹¹ local seconds, times 2·100·60 offsets: below 2^53 ≈ 9·10¹⁵.
  const local = ((((100 * high + low) * 13 + month) * 32 + day) * 24 + hour) * 3600 + minute * 60 + second
  return local * 12_000 + sign * 6000 + offsetHours * 60 + offsetMinutes
}

/**
 * One series' keys that came in order: pairs of numbers (a second number 0 for a key of one date), sorted,
 * each with its entry. {@link find} says where a key is, and whether it would come after every key held
 * ({@link appends}), which is where {@link append} puts it.
 */
export class KeySeries {
  private starts = new Float64Array(16)
  private ends = new Float64Array(16)
  private entries = new Int32Array(16)
  private size = 0
  /** Keys of this series the caller holds elsewhere: they came after a later one. */
  scattered = 0
  /** Whether the key last given to {@link find} comes after every key held. */
  appends = false

  /** The entry of the key (`start`, `end`) among those held, or -1. */
  find(start: number, end: number): number {
    const last = this.size - 1
    if (last < 0 || start > this.starts[last]! || (start === this.starts[last] && end > this.ends[last]!)) {
      this.appends = true
      return -1
    }
    this.appends = false
    let low = 0
    let high = last
    while (low <= high) {
      const middle = (low + high) >>> 1
      const s = this.starts[middle]!
      const e = this.ends[middle]!
      if (s === start && e === end) return this.entries[middle]!
      if (s < start || (s === start && e < end)) low = middle + 1
      else high = middle - 1
    }
    return -1
  }

  /** Holds the key (`start`, `end`), which {@link find} said comes after every key held, as entry `entry`. */
  append(start: number, end: number, entry: number): void {
    if (this.size === this.starts.length) {
      const grow = <A extends Float64Array | Int32Array>(from: A, to: A): A => {
        to.set(from)
        return to
      }
      this.starts = grow(this.starts, new Float64Array(2 * this.size))
      this.ends = grow(this.ends, new Float64Array(2 * this.size))
      this.entries = grow(this.entries, new Int32Array(2 * this.size))
    }
    this.starts[this.size] = start
    this.ends[this.size] = end
    this.entries[this.size] = entry
    this.size++
  }
}

/**
 * The series of a run's keys, each named by the JSON of its cells other than dates; the series of the value
 * before is kept, since a message sends one series' values together.
 *
 * @example
 * const keys = new OrderedKeys()
 * const series = keys.seriesOf(["51238696781", "1-1:1.29.0"])
 * const start = packDateTime("2024-01-01T00:00:00+01:00")
 * const end = packDateTime("2024-01-01T00:15:00+01:00")
 * series.find(start, end) // => -1
 * series.appends // => true
 * series.append(start, end, 0)
 * keys.seriesOf(["51238696781", "1-1:1.29.0"]).find(start, end) // => 0
 * keys.seriesOf(["51238696781", "1-1:2.29.0"]).find(start, end) // => -1
 */
export class OrderedKeys {
  private readonly series = new Map<string, KeySeries>()
  private lastCells: ReadonlyArray<string> = []
  private last: KeySeries | undefined

  /** The series of the cells `cells` (the key's cells other than dates, in the key's order). */
  seriesOf(cells: ReadonlyArray<string>): KeySeries {
    const last = this.last
    if (last !== undefined && sameCells(cells, this.lastCells)) return last
    const name = JSON.stringify(cells)
    let series = this.series.get(name)
    if (series === undefined) {
      series = new KeySeries()
      this.series.set(name, series)
    }
    this.last = series
    this.lastCells = cells
    return series
  }
}

const sameCells = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
