/**
 * The account of a location: a table MaLo → external account number with validity periods (a supplier
 * change moves a MaLo between accounts), and a pass over records that adds each record's account, or
 * rejects the record with `no_account_for_location` (none valid at its time), `ambiguous_account`
 * (more than one) or `unreadable_time` (its time is not a date-time) — an unresolved location is a
 * reject, never a guess.
 *
 * @module
 */
import { csvTable } from "../csv/csv-record.js"
import { dtmToIso } from "../edifact/dtm.js"
import type { LegacyRecord } from "../../mappers/field-source.js"

/** One row of the table: the account of `location` from `from` (inclusive) to `to` (exclusive, open when undefined). */
export interface AccountPeriod {
  readonly location: string
  readonly account: string
  readonly from: number
  readonly to: number | undefined
}

/** How to look up: the cell with the location, the cell with the record's time, the cell to write. */
export interface AccountLookup {
  readonly location: string
  readonly at: string
  readonly into: string
}

const instantOf = (text: string, zone: string): number | undefined => {
  const trimmed = text.trim()
  if (/^\d{4}-\d{2}-\d{2}$/u.test(trimmed)) {
    const local = dtmToIso(trimmed.replaceAll("-", ""), "102", zone)
    return local.ok ? Date.parse(local.iso) : undefined
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$/u.test(trimmed)) return undefined
  const ms = Date.parse(trimmed)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * Reads the table (CSV with a header `malo;account;valid_from;valid_to`, `;` or `,`); dates are midnight
 * in `zone`. Returns the periods, or the problems of its lines (a table with problems is not used).
 *
 * @example
 * readAccountTable("malo;account;valid_from;valid_to\n51238696781;KD-1;2024-01-01;\n").periods[0]?.account // => "KD-1"
 */
export const readAccountTable = (text: string, zone = "Europe/Berlin"): { readonly periods: ReadonlyArray<AccountPeriod>; readonly problems: ReadonlyArray<string> } => {
  const { delimiter, rows: lines } = csvTable(text, [";", ","])
  const header = lines[0]
  if (delimiter === undefined || header === undefined || "error" in header) return { periods: [], problems: ["the account table is not CSV: its header needs malo;account;valid_from;valid_to"] }
  const names = header.cells.map((c) => c.trim())
  const rows: Array<{ readonly line: number; readonly cells: Record<string, string> }> = []
  for (const row of lines.slice(1)) {
    if ("error" in row) return { periods: [], problems: [`the account table is not CSV: line ${row.line}: ${row.error}`] }
    if (row.cells.length !== names.length) return { periods: [], problems: [`the account table is not CSV: line ${row.line}: ${row.cells.length} cells, the header has ${names.length}`] }
    rows.push({ line: row.line, cells: Object.fromEntries(names.map((name, i) => [name, row.cells[i]!.trim()])) })
  }
  const periods: Array<AccountPeriod> = []
  const problems: Array<string> = []
  rows.forEach(({ line, cells: row }) => {
    const location = row["malo"] ?? ""
    const account = row["account"] ?? ""
    const from = instantOf(row["valid_from"] ?? "", zone)
    const toText = row["valid_to"] ?? ""
    const to = toText === "" ? undefined : instantOf(toText, zone)
    if (location === "" || account === "") problems.push(`line ${line}: malo and account are required`)
    else if (from === undefined) problems.push(`line ${line}: valid_from ${JSON.stringify(row["valid_from"] ?? "")} is not a date (YYYY-MM-DD) or an ISO date-time with offset`)
    else if (toText !== "" && to === undefined) problems.push(`line ${line}: valid_to ${JSON.stringify(toText)} is not a date or an ISO date-time with offset`)
    else if (to !== undefined && to <= from) problems.push(`line ${line}: valid_to is not after valid_from`)
    else periods.push({ location, account, from, to })
  })
  return { periods, problems }
}

/** A reader's item, whatever its location (EDIFACT segment, BO4E document and path). */
export type LookupItem<At> =
  | { readonly kind: "record"; readonly record: LegacyRecord; readonly at: At; readonly raw: string }
  | { readonly kind: "reject" | "warning"; readonly code: string; readonly detail: string; readonly at: At; readonly raw: string }

/**
 * The account lookup of {@link withAccounts} for one item at a time: a record gets its account (in a copy,
 * or with `inPlace` in the record itself, the cell where the copy would have it), or becomes a reject;
 * other items pass as they are.
 */
export const accountFinder = <At>(periods: ReadonlyArray<AccountPeriod>, lookup: AccountLookup, inPlace = false): (item: LookupItem<At>) => LookupItem<At> => {
  const byLocation = new Map<string, Array<AccountPeriod>>()
  for (const p of periods) byLocation.set(p.location, [...(byLocation.get(p.location) ?? []), p])
  return (item) => {
    if (item.kind !== "record") return item
    const location = String(item.record[lookup.location] ?? "").trim()
    const atText = String(item.record[lookup.at] ?? "")
    const at = Date.parse(atText)
    if (atText.trim() !== "" && Number.isNaN(at)) {
      // A time the reader could not read (a wall time a clock change skips or repeats, a day that does not
      // exist, an unknown DTM format) is the reason, not a gap in the table.
      const detail = `the account of location ${JSON.stringify(location)} cannot be looked up: ${lookup.at} ${JSON.stringify(atText)} is not a date-time`
      return { kind: "reject", code: "unreadable_time", detail, at: item.at, raw: item.raw }
    }
    const found = Number.isNaN(at) ? [] : (byLocation.get(location) ?? []).filter((p) => p.from <= at && (p.to === undefined || at < p.to))
    if (found.length === 1) {
      if (!inPlace) return { ...item, record: { ...item.record, [lookup.into]: found[0]!.account } }
      ;(item.record as Record<string, unknown>)[lookup.into] = found[0]!.account
      return item
    }
    const code = found.length === 0 ? "no_account_for_location" : "ambiguous_account"
    const detail = found.length === 0
      ? `no account in the account table for location ${JSON.stringify(location)} at ${atText === "" ? `(no ${lookup.at})` : atText}`
      : `${found.length} accounts (${found.map((p) => p.account).join(", ")}) in the account table for location ${JSON.stringify(location)} at ${atText}`
    return { kind: "reject", code, detail, at: item.at, raw: item.raw }
  }
}

/**
 * Adds the account of each record's location at its time to the record (cell `lookup.into`), or
 * rejects the record.
 */
export async function* withAccounts<At>(items: AsyncIterable<LookupItem<At>> | Iterable<LookupItem<At>>, periods: ReadonlyArray<AccountPeriod>, lookup: AccountLookup): AsyncGenerator<LookupItem<At>> {
  const find = accountFinder<At>(periods, lookup)
  for await (const item of items) yield find(item)
}
