/**
 * The account of a location: a table MaLo → external account number with validity periods (a supplier
 * change moves a MaLo between accounts), and a pass over records that adds each record's account, or
 * rejects the record with `no_account_for_location` (none valid at its time), `ambiguous_account`
 * (more than one; periods of one account that overlap name one) or `unreadable_time` (its time is not a date-time, or a wall time a clock change skips
 * or repeats) — an unresolved location is a reject, never a guess. With the period's end (`end`), an amount
 * over which the account changes is `account_change_in_period`, naming both accounts and the change's
 * instant, unless `acrossChange: "start"` books it to the account at its start.
 *
 * Times are read strictly (see {@link readTime}), never with `Date.parse`: that reads a time without an
 * offset in the machine's zone, and takes texts such as `2024-1-1` or `01/02/2024`.
 *
 * @module
 */
import { csvTable } from "../csv/csv-record.js"
import type { LegacyRecord } from "../../mappers/field-source.js"
import { isoDateTimeConverter } from "../../mappers/to-iso-date-time.js"
import { cachedOffsetSecondsAt, offsetFormatFor } from "../../schemas/zone-offsets.js"
import { toInstant } from "../../schemas/instant.js"
import { isCalendarDate } from "../../schemas/is-calendar-date.js"
import { ISO_DATETIME_RE } from "../../schemas/patterns.js"

/** One row of the table: the account of `location` from `from` (inclusive) to `to` (exclusive, open when undefined). */
export interface AccountPeriod {
  readonly location: string
  readonly account: string
  readonly from: number
  readonly to: number | undefined
}

/**
 * How to look up: the cell with the location, the cell with the record's time (the start of its period),
 * the cell to write; optionally the cell with the period's end (exclusive), and what to do with a period
 * that spans a change of account.
 */
export interface AccountLookup {
  readonly location: string
  readonly at: string
  readonly into: string
  /** The cell with the end of the record's period (exclusive): the account must be one over the whole period. */
  readonly end?: string | undefined
  /**
   * A period over which the account changes: `"reject"` (default) rejects the record as
   * `account_change_in_period`, naming both accounts and the instant of the change; `"start"` books it
   * to the account at the period's start.
   */
  readonly acrossChange?: "reject" | "start" | undefined
}

/** The values of {@link AccountLookup.acrossChange}. */
const ACROSS_CHANGE: ReadonlyArray<unknown> = ["reject", "start"]

/**
 * The problems of a reader file's `accounts` (absent is none), one a line.
 *
 * @example
 * accountLookupProblems({ table: "accounts.csv", location: "LOC+172.2.1", at: "DTM+163", into: "@account", acrossChange: "start" })
 * // => ["accounts: acrossChange needs end, the cell with the period's end (DTM+164)"]
 */
export const accountLookupProblems = (accounts: unknown): Array<string> => {
  if (accounts === undefined) return []
  if (typeof accounts !== "object" || accounts === null || Array.isArray(accounts)) return ["accounts: { table, location, at, into, end?, acrossChange? } (strings)"]
  const spec = accounts as Record<string, unknown>
  return [
    ...(["table", "location", "at", "into"].some((k) => typeof spec[k] !== "string") ? ["accounts: { table, location, at, into } (strings)"] : []),
    ...Object.keys(spec).filter((k) => !["table", "location", "at", "into", "end", "acrossChange"].includes(k)).map((k) => `accounts: unknown key ${JSON.stringify(k)} (known: table, location, at, into, end, acrossChange)`),
    ...(spec["end"] !== undefined && (typeof spec["end"] !== "string" || spec["end"] === "") ? ["accounts: end is the cell with the period's end (DTM+164)"] : []),
    ...(spec["acrossChange"] !== undefined && !ACROSS_CHANGE.includes(spec["acrossChange"]) ? ["accounts: acrossChange is \"reject\" (a period over which the account changes is rejected) or \"start\" (booked to the account at its start)"] : []),
    ...(spec["acrossChange"] !== undefined && spec["end"] === undefined ? ["accounts: acrossChange needs end, the cell with the period's end (DTM+164)"] : [])
  ]
}

/**
 * The cells a lookup reads of a record (a reader gives them beside the mapping's).
 *
 * @example
 * accountColumns({ location: "LOC+172.2.1", at: "DTM+163", end: "DTM+164", into: "@account" }) // => ["LOC+172.2.1", "DTM+163", "DTM+164"]
 */
export const accountColumns = (lookup: AccountLookup): Array<string> => [lookup.location, lookup.at, ...(lookup.end !== undefined ? [lookup.end] : [])]

/** The zone of a reader file without `zone`. */
export const DEFAULT_ZONE = "Europe/Berlin"

/**
 * A time read by {@link readTime}: its instant in milliseconds since the epoch (a fraction of a millisecond
 * cut off, which keeps every comparison with a whole millisecond), and its form; or why it is not read (the
 * words that follow the quoted text).
 */
export type TimeReading =
  | { readonly ok: true; readonly ms: number; readonly form: "date" | "offset" | "wall" }
  | { readonly ok: false; readonly reason: string }

/** Date, and optionally time of day (seconds and fraction optional) with an optional `Z` or offset. */
const TIME_TEXT = /^([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[T ]([0-9]{2}:[0-9]{2})(:[0-9]{2}(?:\.([0-9]+))?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$/u

const wallConverters = new Map<string, ReturnType<typeof isoDateTimeConverter>>()

/** The project's wall-time converter for `zone`, to UTC, refusing a skipped and a repeated wall time. */
const wallConverter = (zone: string) => {
  let convert = wallConverters.get(zone)
  if (convert === undefined) {
    convert = isoDateTimeConverter({ format: "yyyy-MM-ddTHH:mm:ss", timeZone: zone, ambiguous: "reject", output: "utc" })
    wallConverters.set(zone, convert)
  }
  return convert
}

/** The milliseconds of a well-formed ISO date-time with offset (a fraction's digits past the third cut off). */
const msOf = (iso: string): number => {
  const { seconds, fraction } = toInstant(iso)
  // Most times have no fraction: no text is made for its milliseconds.
  return fraction === "" ? seconds * 1000 : seconds * 1000 + Number(fraction.slice(0, 3).padEnd(3, "0"))
}

/** What a time reads, in the words after its quoted text. */
const NOT_A_TIME = "is not a date-time (read: YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS[.fraction]] with Z, an offset ±HH:MM or none; T or a space between date and time)"

/**
 * Reads a time strictly, the same on every machine:
 *
 * - with `Z` or an offset (`2024-03-31T03:00:00+02:00`): its instant, whatever `zone`;
 * - without (`2024-03-31T02:30:00`): a wall time in `zone`; one that a clock change skips or repeats there is
 *   not read (which instant it means is not known);
 * - a date (`2024-03-31`): its midnight in `zone`.
 *
 * The date is `YYYY-MM-DD`, the time `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fraction` (any digits), after `T`
 * or a space (RFC 3339 allows it; BO4E exports write it); surrounding whitespace is dropped. Anything
 * else is not read: `2024-1-1`, `01/02/2024`, `2024-03` (a month), `24:00`, `2024-02-30`, an offset
 * without its colon or beyond ±23:59.
 *
 * @example
 * readTime("2024-01-01T00:00:00", "Europe/Berlin") // => { ok: true, ms: 1704063600000, form: "wall" }
 * readTime("2024-01-01T00:00:00Z", "Europe/Berlin") // => { ok: true, ms: 1704067200000, form: "offset" }
 * readTime("2024-10-27T02:30:00", "Europe/Berlin").ok // => false
 */
export const readTime = (text: string, zone: string): TimeReading => {
  const trimmed = text.trim()
  // The usual text (every DTM the EDIFACT reader read, an API datetime) at once.
  if (ISO_DATETIME_RE.test(trimmed) && isCalendarDate(trimmed)) return { ok: true, ms: msOf(trimmed), form: "offset" }
  const m = TIME_TEXT.exec(trimmed)
  if (m === null) return { ok: false, reason: NOT_A_TIME }
  const [, date, hourMinute, seconds, fraction, offset] = m as unknown as [string, string, string | undefined, string | undefined, string | undefined, string | undefined]
  const wall = `${date}T${hourMinute ?? "00:00"}${seconds?.slice(0, 3) ?? ":00"}`
  if (date.startsWith("0000") || !isCalendarDate(wall)) return { ok: false, reason: `is not a date-time: ${date} is not a day of the calendar (years 0001-9999)` }
  const decimals = fraction === undefined ? "" : `.${fraction}`
  if (offset !== undefined) {
    const iso = `${wall}${decimals}${offset}`
    return ISO_DATETIME_RE.test(iso)
      ? { ok: true, ms: msOf(iso), form: "offset" }
      : { ok: false, reason: "is not a date-time: its time of day or offset does not exist" }
  }
  const converted = wallConverter(zone)(wall)
  if (converted.ok) return { ok: true, ms: msOf(`${converted.value.slice(0, 19)}${decimals}Z`), form: hourMinute === undefined ? "date" : "wall" }
  const what = hourMinute === undefined ? "is a date whose midnight" : "has no offset, and as a wall time it"
  switch (converted.error.code) {
    case "nonexistent_time":
      return { ok: false, reason: `${what} does not exist in ${zone} (a clock change skips it)` }
    case "ambiguous_time":
      return { ok: false, reason: `${what} occurs twice in ${zone} (a clock change repeats it): which instant it means is not known` }
    case "invalid_time_zone":
      return { ok: false, reason: `has no offset, and the time zone ${JSON.stringify(zone)} is not known` }
    case "out_of_range":
      return { ok: false, reason: "is not a date-time: its instant lies outside the years 0001-9999" }
    default:
      return { ok: false, reason: "is not a date-time: its time of day does not exist" }
  }
}

/** A table's date (midnight in `zone`) or date-time with offset; a date-time without offset is not taken. */
const tableInstant = (text: string, zone: string): number | undefined => {
  const read = readTime(text, zone)
  return read.ok && read.form !== "wall" ? read.ms : undefined
}

/** The columns of the account table; `valid_to` may be left out (every period is then open). */
const COLUMNS = ["malo", "account", "valid_from", "valid_to"]
const REQUIRED = ["malo", "account", "valid_from"]

/**
 * What is wrong with the table's header. A column the table does not know is refused rather than passed
 * over: a misspelt `valid_to` (`gueltig_bis`) would leave every period open, and the account of a reading
 * long after a supplier change would be the old one, without a word. A column named twice is refused too:
 * its later cell would silently win.
 */
const headerProblemsOf = (names: ReadonlyArray<string>): Array<string> => [
  // A column without a name is the trailing delimiter of a spreadsheet export: its cells must be empty.
  ...names.filter((name) => name !== "" && !COLUMNS.includes(name)).map((name) => `the account table's header has the column ${JSON.stringify(name)}, which is none of ${COLUMNS.join(", ")}`),
  ...names.filter((name, i) => COLUMNS.includes(name) && names.indexOf(name) !== i).map((name) => `the account table's header names the column ${JSON.stringify(name)} twice`),
  ...REQUIRED.filter((name) => !names.includes(name)).map((name) => `the account table's header has no column ${name} (it needs ${REQUIRED.join(", ")} and optionally valid_to)`)
]

/**
 * Reads the table (CSV with a header `malo;account;valid_from;valid_to`, `;` or `,`); dates are midnight
 * in `zone`, date-times need `Z` or an offset (both read by {@link readTime}). The header names each of
 * these columns once, in any order (`valid_to` may be left out); any other column is a problem, but for
 * columns without a name whose cells are all empty (a trailing delimiter). Returns
 * the periods, or the problems of its header or lines (a table with problems is not used).
 *
 * @example
 * readAccountTable("malo;account;valid_from;valid_to\n51238696781;KD-1;2024-01-01;\n").periods[0]?.account // => "KD-1"
 */
export const readAccountTable = (text: string, zone = DEFAULT_ZONE): { readonly periods: ReadonlyArray<AccountPeriod>; readonly problems: ReadonlyArray<string> } => {
  if (offsetFormatFor(zone) === undefined) return { periods: [], problems: [`the time zone ${JSON.stringify(zone)} is not known`] }
  const { delimiter, rows: lines } = csvTable(text, [";", ","])
  const header = lines[0]
  if (delimiter === undefined || header === undefined || "error" in header) return { periods: [], problems: ["the account table is not CSV: its header needs malo;account;valid_from;valid_to"] }
  const names = header.cells.map((c) => c.trim())
  const headerProblems = headerProblemsOf(names)
  if (headerProblems.length > 0) return { periods: [], problems: headerProblems }
  const rows: Array<{ readonly line: number; readonly cells: Record<string, string> }> = []
  for (const row of lines.slice(1)) {
    if ("error" in row) return { periods: [], problems: [`the account table is not CSV: line ${row.line}: ${row.error}`] }
    if (row.cells.length !== names.length) return { periods: [], problems: [`the account table is not CSV: line ${row.line}: ${row.cells.length} cells, the header has ${names.length}`] }
    const unnamed = row.cells.find((cell, i) => names[i] === "" && cell.trim() !== "")
    if (unnamed !== undefined) return { periods: [], problems: [`line ${row.line}: the column without a name holds ${JSON.stringify(unnamed.trim())}`] }
    rows.push({ line: row.line, cells: Object.fromEntries(names.map((name, i) => [name, row.cells[i]!.trim()])) })
  }
  const periods: Array<AccountPeriod> = []
  const problems: Array<string> = []
  rows.forEach(({ line, cells: row }) => {
    const location = row["malo"] ?? ""
    const account = row["account"] ?? ""
    const from = tableInstant(row["valid_from"] ?? "", zone)
    const toText = row["valid_to"] ?? ""
    const to = toText === "" ? undefined : tableInstant(toText, zone)
    if (location === "" || account === "") problems.push(`line ${line}: malo and account are required`)
    else if (from === undefined) problems.push(`line ${line}: valid_from ${JSON.stringify(row["valid_from"] ?? "")} is not a date (YYYY-MM-DD) or an ISO date-time with offset`)
    else if (toText !== "" && to === undefined) problems.push(`line ${line}: valid_to ${JSON.stringify(toText)} is not a date or an ISO date-time with offset`)
    else if (to !== undefined && to <= from) problems.push(`line ${line}: valid_to is not after valid_from`)
    else periods.push({ location, account, from, to })
  })
  return { periods, problems }
}

/**
 * A reader's item, whatever its location (EDIFACT segment, BO4E document and path); `Other` is what else a
 * reader yields (records left out on purpose), which the lookup passes as it is.
 */
export type LookupItem<At, Other extends { readonly kind: string } = never> =
  | { readonly kind: "record"; readonly record: LegacyRecord; readonly at: At; readonly raw: string }
  | { readonly kind: "reject" | "warning"; readonly code: string; readonly detail: string; readonly at: At; readonly raw: string }
  | Other

/** Options of {@link accountFinder}. */
export interface AccountFinderOptions {
  /** Write the account into the record itself rather than into a copy. Default `false`. */
  readonly inPlace?: boolean
  /** The zone of a record's time without offset (the reader file's `zone`). Default `"Europe/Berlin"`. */
  readonly zone?: string | undefined
}

/**
 * The account lookup of {@link withAccounts} for one item at a time: a record gets its account (in a copy,
 * or with `inPlace` in the record itself, the cell where the copy would have it), or becomes a reject;
 * other items pass as they are. The record's time is read by {@link readTime}, a time without offset as
 * wall time in `zone`.
 */
export const accountFinder = <At, Other extends { readonly kind: string } = never>(
  periods: ReadonlyArray<AccountPeriod>,
  lookup: AccountLookup,
  options: AccountFinderOptions = {}
): (item: LookupItem<At, Other>) => LookupItem<At, Other> => {
  const { inPlace = false, zone = DEFAULT_ZONE } = options
  const byLocation = new Map<string, Array<AccountPeriod>>()
  for (const p of periods) byLocation.set(p.location, [...(byLocation.get(p.location) ?? []), p])
  // Each location's instants where a period begins or ends, sorted: worked out once, not per record.
  const boundariesOf = new Map<string, ReadonlyArray<number>>()
  for (const [location, list] of byLocation) boundariesOf.set(location, [...new Set(list.flatMap((p) => (p.to === undefined ? [p.from] : [p.from, p.to])))].sort((a, b) => a - b))
  // A series' records come in order, each interval's end the next one's start: the last two times read
  // are kept, so most of a series' times are read once, not twice.
  let lastText: string | undefined
  let lastRead: TimeReading | undefined
  let priorText: string | undefined
  let priorRead: TimeReading | undefined
  const timeOf = (text: string): TimeReading => {
    if (text === lastText) return lastRead!
    if (text === priorText) return priorRead!
    const read = readTime(text, zone)
    priorText = lastText
    priorRead = lastRead
    lastText = text
    lastRead = read
    return read
  }
  return (any) => {
    if (any.kind !== "record") return any
    const item = any as Extract<LookupItem<At>, { readonly kind: "record" }>
    const location = String(item.record[lookup.location] ?? "").trim()
    const atText = String(item.record[lookup.at] ?? "")
    const read = atText.trim() === "" ? undefined : timeOf(atText)
    if (read !== undefined && !read.ok) {
      // A time that cannot be read (a wall time a clock change skips or repeats, a day that does not exist,
      // a DTM the reader left as written, a text only Date.parse would take) is the reason, not a gap in the table.
      const detail = `the account of location ${JSON.stringify(location)} cannot be looked up: ${lookup.at} ${JSON.stringify(atText)} ${read.reason}`
      return { kind: "reject", code: "unreadable_time", detail, at: item.at, raw: item.raw }
    }
    const at = read?.ms
    // The accounts, not the periods, must be one: a row exported twice, or two periods of one account that
    // overlap, still name one account; two accounts at one moment are a reject, never a pick.
    const found: Array<string> = []
    if (at !== undefined) {
      for (const p of byLocation.get(location) ?? []) if (p.from <= at && (p.to === undefined || at < p.to) && !found.includes(p.account)) found.push(p.account)
    }
    if (found.length === 1 && lookup.end !== undefined && at !== undefined) {
      const endText = String(item.record[lookup.end] ?? "")
      const end = endText.trim() === "" ? undefined : timeOf(endText)
      if (end !== undefined && !end.ok) {
        const detail = `the account of location ${JSON.stringify(location)} cannot be looked up over its period: ${lookup.end} ${JSON.stringify(endText)} ${end.reason}`
        return { kind: "reject", code: "unreadable_time", detail, at: item.at, raw: item.raw }
      }
      const change = end === undefined ? undefined : changeWithin(byLocation.get(location)!, boundariesOf.get(location)!, found[0]!, at, end.ms)
      if (change !== undefined && lookup.acrossChange !== "start") {
        const after = change.accounts.length === 0 ? "no account from then on" : `${change.accounts.join(", ")} from then on`
        const detail = `the period ${atText} – ${endText} of location ${JSON.stringify(location)} spans a change of account in the account table on ${instantText(change.at, zone)}: ${found[0]!} before, ${after}; ` +
          `it is booked to neither (acrossChange: "start" in the reader file's accounts books such a period to the account at its start)`
        return { kind: "reject", code: "account_change_in_period", detail, at: item.at, raw: item.raw }
      }
    }
    if (found.length === 1) {
      if (!inPlace) return { ...item, record: { ...item.record, [lookup.into]: found[0]! } }
      ;(item.record as Record<string, unknown>)[lookup.into] = found[0]!
      return item
    }
    const code = found.length === 0 ? "no_account_for_location" : "ambiguous_account"
    const detail = found.length === 0
      ? `no account in the account table for location ${JSON.stringify(location)} at ${atText === "" ? `(no ${lookup.at})` : atText}`
      : `${found.length} accounts (${found.join(", ")}) in the account table for location ${JSON.stringify(location)} at ${atText}`
    return { kind: "reject", code, detail, at: item.at, raw: item.raw }
  }
}

/**
 * The first instant strictly inside `from`–`to` at which the accounts of a location's `periods` are other
 * than `account` alone (a period of another account begins, or the account's own ends), with the accounts
 * then; `undefined` when `account` holds over the whole period.
 */
const changeWithin = (
  periods: ReadonlyArray<AccountPeriod>,
  /** The instants where the periods begin or end, sorted, each once. */
  boundaries: ReadonlyArray<number>,
  account: string,
  from: number,
  to: number
): { readonly at: number; readonly accounts: ReadonlyArray<string> } | undefined => {
  for (const b of boundaries) {
    if (b <= from) continue
    if (b >= to) break
    const accounts = [...new Set(periods.filter((p) => p.from <= b && (p.to === undefined || b < p.to)).map((p) => p.account))]
    if (accounts.length !== 1 || accounts[0] !== account) return { at: b, accounts }
  }
  return undefined
}

/** An instant as ISO text with the zone's offset at it (`2022-03-15T00:00:00+01:00`). */
const instantText = (ms: number, zone: string): string => {
  const format = offsetFormatFor(zone)
  const offset = format === undefined ? 0 : cachedOffsetSecondsAt(format, ms)
  const abs = Math.abs(offset)
  const hhmm = `${String(Math.trunc(abs / 3600)).padStart(2, "0")}:${String(Math.trunc((abs % 3600) / 60)).padStart(2, "0")}`
  return `${new Date(ms + offset * 1000).toISOString().slice(0, 19)}${offset < 0 ? "-" : "+"}${hhmm}`
}

/**
 * Adds the account of each record's location at its time to the record (cell `lookup.into`), or
 * rejects the record; a time without offset is wall time in `zone` (default Europe/Berlin).
 */
export async function* withAccounts<At, Other extends { readonly kind: string } = never>(
  items: AsyncIterable<LookupItem<At, Other>> | Iterable<LookupItem<At, Other>>,
  periods: ReadonlyArray<AccountPeriod>,
  lookup: AccountLookup,
  zone: string = DEFAULT_ZONE
): AsyncGenerator<LookupItem<At, Other>> {
  const find = accountFinder<At, Other>(periods, lookup, { zone })
  for await (const item of items) yield find(item)
}
