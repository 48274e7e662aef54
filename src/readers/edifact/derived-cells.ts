/**
 * Cells a reader file derives from the cells of a record, or of the record after it in its message
 * (`"cells"` in the reader file). Market messages state some facts once where a payload needs them on
 * every part, or leave them to the order of their segment groups:
 *
 * - `{ "first": ["CCI+Z39.3.1", "RFF+Z27.1.2"] }`: the first of the named cells that is not blank. A UTILTS
 *   register (`SEQ+Z41`) names its time definition in `RFF+Z27`, the definition itself (`SEQ+Z42`) in
 *   `CCI+Z39`: one cell for both lets a mapping group a definition with its registers;
 * - `{ "day": "DTM+157" }`: the calendar day of a date-time cell that is the start of a day in the reader's
 *   zone (`2025-01-01T00:00:00+01:00` → `2025-01-01`), or of a date (format 102). Any other time of day rejects the record
 *   (`not_a_day_start`), naming the cell and its text: a day is never cut out of an instant without a word;
 *   a DTM the reader could not read is `unreadable_time`;
 * - `{ "next": "DTM+Z33", "within": ["IDE.2.1"], "last": "DTM+Z35" }`: the `next` cell of the following
 *   record of the same message (and the same `within` cells) that has one, in the order of the message;
 *   for the last such record, its own `last` cell. A UTILTS rolled-out definition states when each
 *   register becomes active (`DTM+Z33`); an entry ends where the next one begins, the last one at the end
 *   of the definition's validity (`DTM+Z35`). Records without the `next` cell take no part.
 *
 * A derived cell's name starts with `@` (it is no segment's). Memory: with `next`, the items of one message
 * are held until the next message begins; without it, none.
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import type { EdifactRecordItem } from "./records.js"

/** How one derived cell is made. */
export type DerivedCell =
  | { readonly first: ReadonlyArray<string> }
  | { readonly day: string }
  | { readonly next: string; readonly within?: ReadonlyArray<string>; readonly last?: string }

/** The reader file's `cells`: derived cell name → how it is made. */
export type DerivedCells = Readonly<Record<string, DerivedCell>>

const isCellName = (v: unknown): v is string => typeof v === "string" && v.trim() !== ""
const isCellNames = (v: unknown): v is ReadonlyArray<string> => Array.isArray(v) && v.length > 0 && v.every(isCellName)

/**
 * The problems of a reader file's `cells`, one a line (none: usable).
 *
 * @example
 * derivedCellsProblems({ "@definition": { first: ["CCI+Z39.3.1", "RFF+Z27.1.2"] } }) // => []
 * derivedCellsProblems({ definition: { first: [] } })
 * // => ["cells: \"definition\": a derived cell's name starts with \"@\"", "cells: \"definition\": first: a list of cells ([\"CCI+Z39.3.1\", \"RFF+Z27.1.2\"])"]
 */
export const derivedCellsProblems = (spec: unknown): Array<string> => {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    return ["cells: an object of derived cells ({ \"@definition\": { \"first\": [\"CCI+Z39.3.1\", \"RFF+Z27.1.2\"] } })"]
  }
  const problems: Array<string> = []
  for (const [name, how] of Object.entries(spec as Record<string, unknown>)) {
    const at = `cells: ${JSON.stringify(name)}`
    if (!name.startsWith("@") || name.length < 2) problems.push(`${at}: a derived cell's name starts with "@"`)
    if (typeof how !== "object" || how === null || Array.isArray(how)) {
      problems.push(`${at}: one of { "first": [cells] }, { "day": cell }, { "next": cell, "within"?: [cells], "last"?: cell }`)
      continue
    }
    const keys = Object.keys(how)
    const kinds = keys.filter((k) => k === "first" || k === "day" || k === "next")
    if (kinds.length !== 1) {
      problems.push(`${at}: exactly one of "first", "day", "next"`)
      continue
    }
    const h = how as Record<string, unknown>
    const allowed = kinds[0] === "next" ? ["next", "within", "last"] : kinds
    for (const k of keys) if (!allowed.includes(k)) problems.push(`${at}: unknown key ${JSON.stringify(k)} (known: ${allowed.join(", ")})`)
    if (kinds[0] === "first" && !isCellNames(h["first"])) problems.push(`${at}: first: a list of cells (["CCI+Z39.3.1", "RFF+Z27.1.2"])`)
    if (kinds[0] === "day" && !isCellName(h["day"])) problems.push(`${at}: day: a date-time cell ("DTM+157")`)
    if (kinds[0] === "next") {
      if (!isCellName(h["next"])) problems.push(`${at}: next: a cell ("DTM+Z33")`)
      if (h["within"] !== undefined && !isCellNames(h["within"])) problems.push(`${at}: within: a list of cells (["IDE.2.1"])`)
      if (h["last"] !== undefined && !isCellName(h["last"])) problems.push(`${at}: last: a cell ("DTM+Z35")`)
    }
  }
  return problems
}

/**
 * The cells the reader must give for the derived cells.
 *
 * @example
 * derivedColumns({ "@end": { next: "DTM+Z33", within: ["IDE.2.1"], last: "DTM+Z35" } }) // => ["DTM+Z33", "IDE.2.1", "DTM+Z35"]
 */
export const derivedColumns = (cells: DerivedCells): Array<string> =>
  Object.values(cells).flatMap((how) =>
    "first" in how ? [...how.first] : "day" in how ? [how.day] : [how.next, ...(how.within ?? []), ...(how.last !== undefined ? [how.last] : [])]
  )

const textOf = (record: LegacyRecord, cell: string): string => {
  const value = Object.hasOwn(record, cell) ? record[cell] : undefined
  return value === undefined || value === null ? "" : String(value).trim()
}

/** An ISO date-time at the start of a day, with its offset, or a date (a DTM of format 102): the day. */
const DAY_START = /^(\d{4}-\d{2}-\d{2})(?:T00:00(?::00(?:\.0+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/u

/** A date-time as the reader writes one it read: ISO text with its offset. */
const READ_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/u

/**
 * Derives the reader file's `cells` for a stream of a reader's items, in input order: {@link take} each
 * run of items, then {@link end}. Items come out in the order they came in.
 *
 * @example
 * const derive = new CellDeriver({ "@end": { next: "DTM+Z33", last: "DTM+Z35" } })
 * const at = { offset: 0, segment: 1, message: 1, messageReference: "1" }
 * const record = (start: string) => ({ kind: "record" as const, record: { "DTM+Z33": start, "DTM+Z35": "2026-01-01T00:00:00+01:00" }, at, raw: "SEQ+Z43'" })
 * const items = [...derive.take([record("2025-01-01T00:00:00+01:00"), record("2025-03-30T04:00:00+02:00")]), ...derive.end()]
 * items.map((item) => (item.kind === "record" ? item.record["@end"] : item.kind)) // => ["2025-03-30T04:00:00+02:00", "2026-01-01T00:00:00+01:00"]
 */
export class CellDeriver {
  private readonly plain: Array<readonly [string, DerivedCell]>
  private readonly following: Array<readonly [string, { readonly next: string; readonly within?: ReadonlyArray<string>; readonly last?: string }]>
  /** The items of the message being read, while a `next` cell may still come. */
  private held: Array<EdifactRecordItem> = []
  private heldMessage: string | undefined

  constructor(cells: DerivedCells) {
    const entries = Object.entries(cells)
    this.plain = entries.filter(([, how]) => !("next" in how))
    this.following = entries.flatMap(([name, how]) => ("next" in how ? [[name, how] as const] : []))
  }

  /** The items of a run with their derived cells, as far as they can be told yet. */
  take(run: ReadonlyArray<EdifactRecordItem>): Array<EdifactRecordItem> {
    const out: Array<EdifactRecordItem> = []
    for (const read of run) {
      const item = this.plainCells(read)
      if (this.following.length === 0) {
        out.push(item)
        continue
      }
      // A message's items come together; one of another message (or outside any) ends the one held.
      const message = item.at.message === undefined ? undefined : `${item.at.interchangeReference ?? ""}\u0000${item.at.message}`
      if (message !== this.heldMessage || message === undefined) out.push(...this.release())
      this.heldMessage = message
      this.held.push(item)
    }
    return out
  }

  /** The items still held, at the end of the input. */
  end(): Array<EdifactRecordItem> {
    return this.release()
  }

  private plainCells(item: EdifactRecordItem): EdifactRecordItem {
    if (item.kind !== "record" || this.plain.length === 0) return item
    const record: Record<string, LegacyRecord[string]> = { ...item.record }
    for (const [name, how] of this.plain) {
      if ("first" in how) {
        const found = how.first.map((cell) => textOf(record, cell)).find((text) => text !== "")
        if (found !== undefined) record[name] = found
      } else if ("day" in how) {
        const text = textOf(record, how.day)
        if (text === "") continue
        const day = DAY_START.exec(text)
        if (day === null && !READ_DATE_TIME.test(text)) {
          // A DTM the reader left as written (its format and length disagree, or no such time): no time of day to speak of.
          const detail = `${how.day} ${JSON.stringify(text)} is not a date-time the reader could read (its DTM's value does not fit its format), so its day (${name}) is not told`
          return { kind: "reject", code: "unreadable_time", detail, at: item.at, raw: item.raw }
        }
        if (day === null) {
          const detail = `${how.day} ${JSON.stringify(text)} is not the start of a day, so its day (${name}) is not told: a day is never cut out of another time of day`
          return { kind: "reject", code: "not_a_day_start", detail, at: item.at, raw: item.raw }
        }
        record[name] = day[1]!
      }
    }
    return { ...item, record }
  }

  /** The held items, each with the `next` cells that the records after it give. */
  private release(): Array<EdifactRecordItem> {
    const items = this.held
    this.held = []
    for (const [name, how] of this.following) {
      // From the end of the message backwards: the value of the record after, per `within` key.
      const after = new Map<string, string>()
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i]!
        if (item.kind !== "record") continue
        const start = textOf(item.record, how.next)
        if (start === "") continue
        const key = (how.within ?? []).map((cell) => textOf(item.record, cell)).join("\u0000")
        const next = after.has(key) ? after.get(key)! : how.last !== undefined ? textOf(item.record, how.last) : ""
        if (next !== "") items[i] = { ...item, record: { ...item.record, [name]: next } }
        after.set(key, start)
      }
    }
    return items
  }
}
