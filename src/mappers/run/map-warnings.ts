/**
 * `map`'s warnings: the payload warnings `validatePayload` gives (`unknown_choice`, `empty_optional`, …)
 * and `duplicate_row`, an exact repeat of an earlier row (the same cells), which no mapping may merge or
 * send twice silently. Rows are told apart by a 64-bit hash of their cells, never by their text: memory
 * grows with the number of rows by 15 to 23 bytes each (`seen-rows.ts`, which says why 64 bits will do).
 *
 * @module
 */
import type { PayloadWarningItem } from "../../validation/run/batch.js"
import { SeenRows } from "./seen-rows.js"
import { CsvRow, type SourceRow } from "../../readers/rows/source-rows.js"

/** How many warnings a report shows in detail (all are counted). */
export const WARNINGS_SHOWN = 20

/** A warning as reported: where it is (the file's physical lines), its attr when it has one, code and detail. */
export interface LocatedWarning {
  readonly file: string
  /** The first line of the row it concerns (for `duplicate_row`, the repeat). */
  readonly line: number
  /** Every line it concerns: the payload's, or the repeat's and the first row's. */
  readonly lines: ReadonlyArray<number>
  readonly attr?: string
  readonly code: string
  readonly detail: string
}

/** The most lines one listed warning names (a payload of a large group has thousands). */
const LINES_SHOWN = 100

/**
 * The key of a row's cells: a line without quotes is its text; a quoted row its cells, joined where that
 * is unambiguous; an EDIFACT record its cells but its place (`@segment`, `@offset`, `@message`,
 * `@interchange`), as its text is its own segments only: two lines' equal `TAX` segments are no repeat
 * when their lines differ.
 */
const cellsKey = (row: SourceRow): string => {
  if (!(row instanceof CsvRow) && typeof row.record["@segment"] === "string" && typeof row.record["@offset"] === "string") {
    const { "@segment": _s, "@offset": _o, "@message": _m, "@interchange": _i, ...cells } = row.record
    // A key that starts with a NUL comes from here only: no other row's text starts with one.
    return `\u0000${JSON.stringify(cells)}`
  }
  if (!(row instanceof CsvRow) || !row.raw.includes("\"")) return row.raw
  const cells = row.cells
  const delimiter = row.delimiter
  const plain = cells.every((c) => !c.includes(delimiter) && !c.includes("\"") && !c.includes("\n"))
  // A key that starts with a quote comes from here only: a row without quotes has none.
  return plain ? cells.join(delimiter) : `"${JSON.stringify(cells)}`
}

/** The warnings of one `map` run: counted by code, the first ones kept in detail. */
export class MapWarnings {
  total = 0
  readonly byCode: Record<string, number> = {}
  readonly first: Array<LocatedWarning> = []
  /** Made at the first row seen: a run over thousands of small files keeps the warnings of each file. */
  private rowsSeen: SeenRows | undefined
  /** The first line of each row that repeats an earlier one, with that row's first line: only the repeats are held. */
  private readonly repeats = new Map<number, number>()

  constructor(private readonly file: string) {}

  /** Notes a row read (call in input order): whether it repeats an earlier row exactly. */
  see(row: SourceRow): void {
    const line = row.lines[0]!
    const first = (this.rowsSeen ??= new SeenRows()).see(cellsKey(row), line)
    if (first !== undefined) this.repeats.set(line, first)
  }

  /** The warnings of a payload of `rows` with the payload's own `warnings`, each located; `undefined` when none. */
  of(rows: ReadonlyArray<SourceRow>, lines: ReadonlyArray<number>, warnings: ReadonlyArray<PayloadWarningItem> | undefined): Array<LocatedWarning> | undefined {
    let found: Array<LocatedWarning> | undefined
    if (this.repeats.size > 0) {
      for (const row of rows) {
        const line = row.lines[0]!
        const first = this.repeats.get(line)
        if (first === undefined) continue
        this.repeats.delete(line)
        ;(found ??= []).push({
          file: this.file,
          line,
          lines: [first, line],
          code: "duplicate_row",
          detail: `Line ${line} repeats line ${first} exactly (the same cells): the same data would be sent twice; remove one of them.`
        })
      }
    }
    if (warnings !== undefined) {
      const shown = lines.length > LINES_SHOWN ? lines.slice(0, LINES_SHOWN) : lines
      for (const w of warnings) (found ??= []).push({ file: this.file, line: lines[0]!, lines: shown, ...(w.attr !== undefined ? { attr: w.attr } : {}), code: w.code, detail: w.detail })
    }
    return found
  }

  /** Forgets the repeats among rows that were rejected (they carry no warning). */
  forget(lines: ReadonlyArray<number>): void {
    if (this.repeats.size > 0) for (const line of lines) this.repeats.delete(line)
  }

  /**
   * Counts a payload's own `warnings` as {@link of} and {@link count} would, when nothing else is needed
   * of them (no repeated row waits to be told, the first ones are kept already): whether it did. The
   * usual payload of a sample that warns of every payload takes this way, without a located copy.
   */
  countOnly(warnings: ReadonlyArray<PayloadWarningItem>): boolean {
    if (this.repeats.size > 0 || this.first.length < WARNINGS_SHOWN || warnings.length === 0) return false
    for (const w of warnings) {
      this.total++
      this.byCode[w.code] = (this.byCode[w.code] ?? 0) + 1
    }
    return true
  }

  /** Counts the warnings of a payload that went out. */
  count(warnings: ReadonlyArray<LocatedWarning>): void {
    for (const w of warnings) {
      this.total++
      this.byCode[w.code] = (this.byCode[w.code] ?? 0) + 1
      if (this.first.length < WARNINGS_SHOWN) this.first.push(w)
    }
  }
}
