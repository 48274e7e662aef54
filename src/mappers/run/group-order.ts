/**
 * The rows of a mapping with `groupBy` put in group order, wherever a group's rows are in the input:
 * groups in the order of their first row, each group's rows in input order. That is the order of the
 * same export sorted by its groups (a stable sort that keeps the groups in the order they first
 * appear), so an export whose late rows of a group were appended at its end maps to the payloads the
 * sorted export gives, each row keeping its own physical lines.
 *
 * Memory stays bounded whatever the size of the input: the rows are held as text in runs of
 * {@link RUN_BYTES}, each run sorted and written to a temporary file, and read back merged. The file is
 * unlinked as soon as it is created, so nothing is left behind, not even after a kill. A group is
 * known by its first line, remembered by a 64-bit hash of its key (`SeenRows`: 15 to 23 bytes a group).
 * Two keys with the same 64 bits would put two groups' rows into one run of rows; the mapping then
 * finds them interleaved and rejects the later group's rows as `group_not_contiguous`, never merging
 * them (the chance is at most n² / 2^65 among n groups).
 *
 * Rows already in group order (a sorted export) are written in runs as they come and read back in
 * order, without a sort.
 *
 * @module
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SeenRows } from "./seen-rows.js"
import { cellsByColumn, CsvRow, type RefusedLine, type SourceRow } from "../../readers/rows/source-rows.js"

/** The text a run holds in memory before it is sorted and written out (UTF-16 code units). */
export const RUN_BYTES = 4 * 1024 * 1024

/** What a stored CSV row's cells are read back with. */
export interface CsvFormat {
  readonly columns: ReadonlyArray<string>
  readonly delimiter: string
}

/** An item held: a row, or a line that could not be read (kept to settle in its place, as it came). */
export type GroupedItem = SourceRow | RefusedLine

/** An item read back, with the first line of its group (its own line for a line that could not be read). */
export interface HeldItem<I extends GroupedItem = GroupedItem> {
  readonly group: number
  readonly item: I
}

/** A row as one line of text: its group's first line, its own first line, then the rest as JSON. */
const encode = (group: number, item: GroupedItem): string => {
  if (item.kind === "refused") return `${group} ${item.line} ${JSON.stringify([item.code, item.detail, item.raw])}`
  const lines = item.lines.length === 1 ? 0 : item.lines
  // A CSV line without quotes is its cells cut at the delimiter: the raw text says it all.
  if (item instanceof CsvRow) return `${group} ${item.lines[0]!} ${JSON.stringify([lines, item.raw, item.raw.includes("\"") ? item.cells : 0])}`
  return `${group} ${item.lines[0]!} ${JSON.stringify([lines, item.raw, 0, item.record])}`
}

/** The item of a line of text made by {@link encode}. */
const decode = (text: string, csv: CsvFormat | undefined): GroupedItem => {
  const a = text.indexOf(" ")
  const b = text.indexOf(" ", a + 1)
  const line = Number(text.slice(a + 1, b))
  const parts = JSON.parse(text.slice(b + 1)) as Array<unknown>
  if (typeof parts[0] === "string") {
    const [code, detail, raw] = parts as [RefusedLine["code"], string, string]
    return { kind: "refused", line, code, detail, raw }
  }
  const [more, raw, cells, record] = parts as [0 | Array<number>, string, 0 | Array<string>, Record<string, unknown> | undefined]
  const lines = more === 0 ? [line] : more
  if (record !== undefined) return { kind: "row", lines, raw, record }
  return { kind: "row", lines, raw, record: cellsByColumn(csv!.columns, cells === 0 ? raw.split(csv!.delimiter) : cells) }
}

/** The (group, line) order of an encoded line, read from its first two numbers. */
interface Held {
  readonly group: number
  readonly line: number
  readonly text: string
}

const before = (x: Held, y: Held): boolean => x.group < y.group || (x.group === y.group && x.line < y.line)

/** A sorted run being read: its next line (`head`, `undefined` at its end). */
interface Run {
  readonly head: Held | undefined
  next(): void
}

/** The run still in memory. */
class MemoryRun implements Run {
  private at = 0
  constructor(private readonly held: ReadonlyArray<Held>) {}
  get head(): Held | undefined {
    return this.held[this.at]
  }
  next(): void {
    this.at++
  }
}

/** Reads the lines of a run back from the spill file, a buffer at a time. */
class RunReader implements Run {
  private buffer = Buffer.alloc(64 * 1024)
  private start = 0
  private end = 0
  private position: number
  head: Held | undefined

  constructor(private readonly fd: number, from: number, private readonly until: number) {
    this.position = from
    this.next()
  }

  /** Moves `head` to the next line of the run (`undefined` at its end). */
  next(): void {
    for (;;) {
      const newline = this.buffer.indexOf(10, this.start)
      if (newline !== -1 && newline < this.end) {
        const text = this.buffer.toString("utf8", this.start, newline)
        this.start = newline + 1
        this.head = held(text)
        return
      }
      if (this.position >= this.until) {
        this.head = undefined
        return
      }
      // Keep the unfinished line at the start of the buffer (grown when a line is longer than it).
      const rest = this.end - this.start
      if (rest * 2 > this.buffer.length) {
        const grown = Buffer.alloc(this.buffer.length * 2)
        this.buffer.copy(grown, 0, this.start, this.end)
        this.buffer = grown
      } else this.buffer.copy(this.buffer, 0, this.start, this.end)
      this.start = 0
      this.end = rest
      const read = readSync(this.fd, this.buffer, rest, Math.min(this.buffer.length - rest, this.until - this.position), this.position)
      this.position += read
      this.end += read
    }
  }
}

const held = (text: string): Held => {
  const a = text.indexOf(" ")
  const b = text.indexOf(" ", a + 1)
  return { group: Number(text.slice(0, a)), line: Number(text.slice(a + 1, b)), text }
}

/**
 * Rows of a grouped mapping, added in input order and read back in group order ({@link items}).
 *
 * @example
 * const order = new GroupOrder(undefined)
 * const row = (line, konto) => ({ kind: "row", lines: [line], record: { Konto: konto }, raw: konto })
 * order.add(row(2, "KD-1"), "KD-1")
 * order.add(row(3, "KD-2"), "KD-2")
 * order.add(row(4, "KD-1"), "KD-1")
 * Array.from(order.items(), (r) => r.item.lines) // => [[2], [4], [3]]
 * order.close()
 */
export class GroupOrder {
  private readonly firstLines = new SeenRows()
  private lastKey: string | undefined
  private lastGroup = 0
  private run: Array<Held> = []
  private runSize = 0
  /** Whether the current run is in order as it stands. */
  private runInOrder = true
  private readonly runs: Array<{ readonly from: number; readonly until: number }> = []
  private dir: string | undefined
  private fd: number | undefined
  private written = 0
  /** Whether some row came after a row of another group than its own (its group was regrouped). */
  regrouped = false

  constructor(private readonly csv: CsvFormat | undefined, private readonly runBytes: number = RUN_BYTES) {}

  /**
   * Holds `item`, a row of the group `key` or a line that could not be read (`key` undefined: it keeps
   * its place in the input, as a group of its own).
   */
  add(item: GroupedItem, key: string | undefined): void {
    const line = item.kind === "refused" ? item.line : item.lines[0]!
    let group = line
    if (key !== undefined) {
      if (key === this.lastKey) group = this.lastGroup
      else {
        const first = this.firstLines.see(key, line)
        if (first !== undefined) {
          group = first
          this.regrouped = true
        }
        this.lastKey = key
        this.lastGroup = group
      }
    }
    const entry: Held = { group, line, text: encode(group, item) }
    const last = this.run[this.run.length - 1]
    if (last !== undefined && before(entry, last)) this.runInOrder = false
    this.run.push(entry)
    this.runSize += entry.text.length
    if (this.runSize >= this.runBytes) this.spill()
  }

  /** The current run, sorted. */
  private sortedRun(): Array<Held> {
    if (!this.runInOrder) this.run.sort((x, y) => x.group - y.group || x.line - y.line)
    const run = this.run
    this.run = []
    this.runSize = 0
    this.runInOrder = true
    return run
  }

  /** Writes the current run, sorted, to the spill file. */
  private spill(): void {
    if (this.fd === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), "data-import-map-"))
      const path = join(this.dir, "rows")
      this.fd = openSync(path, "w+", 0o600)
      // Unlinked at once: the open file stays readable, and nothing remains after any end of the process.
      rmSync(this.dir, { recursive: true, force: true })
      this.dir = undefined
    }
    const from = this.written
    let chunk = ""
    for (const entry of this.sortedRun()) {
      chunk += `${entry.text}\n`
      if (chunk.length >= 1 << 20) {
        this.written += writeAll(this.fd, chunk, this.written)
        chunk = ""
      }
    }
    if (chunk !== "") this.written += writeAll(this.fd, chunk, this.written)
    this.runs.push({ from, until: this.written })
  }

  /** The items added, in group order: the runs merged (a heap of their heads), the one still in memory among them. */
  *items(): Generator<HeldItem> {
    const heap: Array<Run> = [new MemoryRun(this.sortedRun()), ...this.runs.map((r) => new RunReader(this.fd!, r.from, r.until))].filter((r) => r.head !== undefined)
    const down = (at: number): void => {
      for (;;) {
        const left = 2 * at + 1
        if (left >= heap.length) return
        const right = left + 1
        const least = right < heap.length && before(heap[right]!.head!, heap[left]!.head!) ? right : left
        if (!before(heap[least]!.head!, heap[at]!.head!)) return
        ;[heap[at], heap[least]] = [heap[least]!, heap[at]!]
        at = least
      }
    }
    for (let at = (heap.length >> 1) - 1; at >= 0; at--) down(at)
    while (heap.length > 0) {
      const run = heap[0]!
      const { group, text } = run.head!
      run.next()
      if (run.head === undefined) {
        heap[0] = heap[heap.length - 1]!
        heap.pop()
      }
      if (heap.length > 0) down(0)
      yield { group, item: decode(text, this.csv) }
    }
  }

  /** Releases the spill file. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true })
  }
}

/** Writes `text` at `position`; returns the bytes written. */
const writeAll = (fd: number, text: string, position: number): number => {
  const bytes = Buffer.from(text, "utf8")
  let done = 0
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done)
  return bytes.length
}
