/**
 * The cells of EDIFACT segments (see {@link readEdifactRecords} for their names), all of them or only
 * the ones a mapping reads. Reading only the wanted cells gives the same value for each of them as
 * reading all of them: the same first-of-a-name-wins order inside a group, the same nearer-group-wins
 * order between groups — it only skips the building of cells nobody reads (a record of MSCONS has
 * about 115 cells; a mapping reads about a dozen).
 *
 * A list cell (`TAG+Q.e.c[]`, `TAG.e.c[]`, `TAG+Q.e[]`) holds the component of every segment of that name
 * in the nearest group that has one, in order, blanks left out, joined by {@link LIST_SEPARATOR}: every
 * `STS+Z33` of a quantity, where `STS+Z33.3.1` is the first.
 *
 * @module
 */
import { dtmToIso } from "./dtm.js"
import type { Segment } from "./segments.js"

export type Cells = Record<string, string>

/**
 * The numeric cells that are not numbers, and the list cells with an item that holds the list separator,
 * by name, with the segment each comes from: written as they are into the cells, and the record that
 * carries one is rejected (see `readEdifactRecords`).
 */
export type BadNumbers = Record<string, Segment>

/**
 * What joins the items of a list cell: the `list` converter's default separator. An item that holds it
 * (a free text) would be split by that converter, so its record is rejected instead.
 */
export const LIST_SEPARATOR = ";"

/** Whether a cell name is a list cell's (`STS+Z33.3.1[]`). */
export const isListCell = (name: string): boolean => name.endsWith("[]")

/** Adds an item to a list cell (the separator between items); an item holding the separator goes to `bad`. */
const addItem = (cells: Cells, name: string, value: string | undefined, segment: Segment, bad: BadNumbers): void => {
  if (value === undefined || value === "") return
  if (value.includes(LIST_SEPARATOR) && !Object.hasOwn(bad, name)) bad[name] = segment
  cells[name] = Object.hasOwn(cells, name) ? `${cells[name]}${LIST_SEPARATOR}${value}` : value
}

/**
 * The numeric components of each tag, as `element.component` (0-based): the quantity of a QTY, the amount
 * of a MOA, the price of a PRI (C186/C516/C509, element 1, component 2), and the lower and upper bound of
 * a RNG (C280, element 2, components 2 and 3: a PRICAT zone's interval).
 */
const NUMERIC: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["QTY", new Set(["0.1"])],
  ["MOA", new Set(["0.1"])],
  ["PRI", new Set(["0.1"])],
  ["RNG", new Set(["1.1", "1.2"])]
])
const QUALIFIER = /^[A-Z0-9]{1,3}$/u

/**
 * Where the qualifier of a segment is (0-based element and component), for the tags whose code is not
 * their first component: `COM` writes its number first and its kind second (C076: 3148, then 3155 `EM`
 * e-mail, `TE` telephone, `FX` fax, `AJ`, `AL`), so `COM+EM.1.1` is an e-mail address. Every other
 * segment's qualifier is its first component.
 */
const QUALIFIER_AT: Readonly<Record<string, readonly [number, number]>> = { COM: [0, 1] }

/** The qualifier of a segment (`""` when it has none). */
const qualifierOf = (segment: Segment): string => {
  const [e, c] = QUALIFIER_AT[segment.tag] ?? [0, 0]
  return segment.elements[e]?.[c] ?? ""
}

// ISO 9735 numbers: digits, at most one decimal mark with digits on both sides, a leading minus; no
// thousands separator, plus sign, exponent or blank.
const EDIFACT_NUMBER = /^-?[0-9]+(?:([.,])[0-9]+)?$/u

/**
 * A number as EDIFACT writes it, with the decimal mark `decimal` (`.` or `,`), as a decimal with a point;
 * `undefined` for any other text. `1,234` where the mark is `.` is not read as 1234 or as 1.234: which one
 * the sender meant is not known.
 *
 * @example
 * edifactNumber("4250,465", ",") // => "4250.465"
 * edifactNumber("12.345", ".") // => "12.345"
 * edifactNumber("1,234", ".") // => undefined
 */
export const edifactNumber = (text: string, decimal: string): string | undefined => {
  const m = EDIFACT_NUMBER.exec(text)
  if (m === null || (m[1] !== undefined && m[1] !== decimal)) return undefined
  return m[1] === "," ? text.replace(",", ".") : text
}

/** Whether a cell is a number as EDIFACT writes it, or a list of them (`QTY.1.2`, `MOA+9.1.2[]`, `RNG+10.2.3`). */
export const isNumericCell = (name: string): boolean => {
  const m = ELEMENT_NAME.exec(name)
  return m !== null && isNumeric(m[1]!, Number(m[3]) - 1, m[4] === undefined ? 0 : Number(m[4]) - 1)
}

/** Whether component `c` of element `e` (0-based) of a segment tagged `tag` is a number (see {@link NUMERIC}). */
const isNumeric = (tag: string, e: number, c: number): boolean => NUMERIC.get(tag)?.has(`${e}.${c}`) === true

/**
 * The value of component `c` of element `e` (0-based), a number with its decimal mark made a point; a
 * numeric component that is not a number stays as written, and its cell `name` goes to `bad`.
 */
const componentOf = (segment: Segment, e: number, c: number, name: string, bad: BadNumbers): string | undefined => {
  const value = segment.elements[e]?.[c]
  if (value === undefined || value === "" || !isNumeric(segment.tag, e, c)) return value
  const number = edifactNumber(value, segment.decimal)
  if (number !== undefined) return number
  bad[name] = segment
  return value
}

// Consecutive records share date-times (one quantity's end is the next one's start): a small cache by
// zone, format and value (looked up without making a key).
const isoCache = new Map<string, Map<string, Map<string, string>>>()
let isoCached = 0

// The last two date-times read, looked at before the cache: a quantity's start is the end of the one
// before it, so most values are one of them (comparing a string costs less than hashing it for a map).
let lastZone = ""
let lastFormat = ""
let lastValue = ""
let lastIso = ""
let otherZone = ""
let otherFormat = ""
let otherValue = ""
let otherIso = ""

/**
 * Reads a DTM of format 203 (no zone) whose wall time an autumn clock change repeats, by the reader
 * file's `ambiguous` (`repeatedHourReader`); `undefined` where it reads as any other value.
 */
export type RepeatedHour = (value: string, qualifier: string) => string | undefined

const isoOf = (segment: Segment, zone: string, repeated?: RepeatedHour): string => {
  const value = segment.elements[0]?.[1] ?? ""
  const format = segment.elements[0]?.[2] ?? ""
  if (repeated !== undefined && format === "203") {
    // Not cached: with "by-order" the instant depends on the values before it.
    const read = repeated(value, segment.elements[0]?.[0] ?? "")
    if (read !== undefined) return read
  }
  if (value === lastValue && format === lastFormat && zone === lastZone && lastIso !== "") return lastIso
  if (value === otherValue && format === otherFormat && zone === otherZone && otherIso !== "") return otherIso
  const iso = isoOfAnew(value, format, zone)
  otherZone = lastZone
  otherFormat = lastFormat
  otherValue = lastValue
  otherIso = lastIso
  lastZone = zone
  lastFormat = format
  lastValue = value
  lastIso = iso
  return iso
}

const isoOfAnew = (value: string, format: string, zone: string): string => {
  let byFormat = isoCache.get(zone)
  if (byFormat === undefined) {
    if (isoCache.size >= 16) isoCache.clear()
    byFormat = new Map()
    isoCache.set(zone, byFormat)
  }
  let cache = byFormat.get(format)
  if (cache === undefined) {
    if (byFormat.size >= 16) byFormat.clear()
    cache = new Map()
    byFormat.set(format, cache)
  }
  const cached = cache.get(value)
  if (cached !== undefined) return cached
  const result = dtmToIso(value, format, zone)
  // A value that cannot be read stays as written, so the payload's check rejects it visibly.
  const iso = result.ok ? result.iso : value
  if (++isoCached > 4096) {
    isoCache.clear()
    isoCached = 0
    return iso
  }
  cache.set(value, iso)
  return iso
}

/** Adds all cells of a segment to `cells`, keeping cells already there (a nearer segment wins); numeric cells that are not numbers also to `bad`. */
export const addAllCells = (cells: Cells, segment: Segment, zone: string, bad: BadNumbers, repeated?: RepeatedHour): void => {
  const tag = segment.tag
  const qualifier = qualifierOf(segment)
  const names = qualifier !== "" && QUALIFIER.test(qualifier) ? [tag, `${tag}+${qualifier}`] : [tag]
  segment.elements.forEach((element, e) => {
    element.forEach((_, c) => {
      for (const name of names) {
        const key = `${name}.${e + 1}.${c + 1}`
        const value = key in cells ? undefined : componentOf(segment, e, c, key, bad)
        if (value !== undefined) cells[key] = value
        addItem(cells, `${key}[]`, componentOf(segment, e, c, `${key}[]`, bad), segment, bad)
        if (c === 0 && !(`${name}.${e + 1}` in cells)) cells[`${name}.${e + 1}`] = segment.elements[e]![0]!
        if (c === 0) addItem(cells, `${name}.${e + 1}[]`, segment.elements[e]![0], segment, bad)
      }
    })
  })
  if (tag === "DTM" && qualifier !== "" && !(`DTM+${qualifier}` in cells)) cells[`DTM+${qualifier}`] = isoOf(segment, zone, repeated)
}

/** One way a wanted cell can come from a segment of its tag. */
interface Pick {
  readonly column: string
  /** Only segments whose first component is this (a `TAG+Q…` name). */
  readonly qualifier: string | undefined
  /** 0-based element and component; `-1`: the date/time of a `DTM+Q`. */
  readonly e: number
  readonly c: number
  /** A list cell: every segment of the group adds its item. */
  readonly list: boolean
}

const ELEMENT_NAME = /^([A-Z][A-Z0-9]{2})(?:\+([A-Z0-9]{1,3}))?\.([1-9][0-9]*)(?:\.([1-9][0-9]*))?(\[\])?$/u

/** The wanted cells, by segment tag, in the order {@link addAllCells} would write them for a segment. */
export type Picks = ReadonlyMap<string, ReadonlyArray<Pick>>

/** Compiles the names of the wanted cells; a name no segment can have is never given. */
export const compilePicks = (columns: ReadonlyArray<string>): Picks => {
  const elementPicks: Array<Pick & { readonly tag: string }> = []
  const dtmPicks: Array<Pick & { readonly tag: string }> = []
  for (const column of new Set(columns)) {
    const m = ELEMENT_NAME.exec(column)
    if (m !== null) elementPicks.push({ tag: m[1]!, column, qualifier: m[2], e: Number(m[3]) - 1, c: m[4] === undefined ? 0 : Number(m[4]) - 1, list: m[5] !== undefined })
    if (column.startsWith("DTM+") && column.length > 4) dtmPicks.push({ tag: "DTM", column, qualifier: column.slice(4), e: -1, c: -1, list: false })
  }
  const picks = new Map<string, Array<Pick>>()
  // Element cells before the date/time of a DTM, as addAllCells writes them.
  for (const { tag, ...pick } of [...elementPicks, ...dtmPicks]) picks.set(tag, [...(picks.get(tag) ?? []), pick])
  return picks
}

/** Adds the wanted cells of a segment to `cells`, keeping cells already there; numeric cells that are not numbers also to `bad`. */
export const addPickedCells = (cells: Cells, segment: Segment, picks: Picks, zone: string, bad: BadNumbers, repeated?: RepeatedHour): void => {
  const wanted = picks.get(segment.tag)
  if (wanted === undefined) return
  const qualifier = qualifierOf(segment)
  for (const pick of wanted) {
    if (pick.list) {
      if (pick.qualifier === undefined || pick.qualifier === qualifier) addItem(cells, pick.column, componentOf(segment, pick.e, pick.c, pick.column, bad), segment, bad)
      continue
    }
    if (pick.column in cells) continue
    if (pick.e < 0) {
      if (qualifier === pick.qualifier) cells[pick.column] = isoOf(segment, zone, repeated)
      continue
    }
    if (pick.qualifier !== undefined && pick.qualifier !== qualifier) continue
    const value = componentOf(segment, pick.e, pick.c, pick.column, bad)
    if (value !== undefined) cells[pick.column] = value
  }
}
