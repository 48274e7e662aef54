/**
 * EDIFACT messages as flat records for the mapping engine: one record per segment that starts a record
 * (for MSCONS energy quantities, each `QTY`), with the cells of that segment, of the segments after it up
 * to the next group, of its enclosing groups and of the message header. A cell is named by its segment
 * and position (see docs/market-messages.md):
 *
 * - `TAG.e.c`: component `c` of element `e` (both 1-based, after the tag) of the nearest `TAG` segment;
 * - `TAG+Q.e.c`: the same of the nearest `TAG` whose first component is the qualifier `Q` (`LOC+172.2.1`);
 *   `TAG+Q.e` is `TAG+Q.e.1`;
 * - `DTM+Q`: the date/time of `DTM+Q` as ISO text in the reader's zone (formats 102, 203, 303, 304, 610);
 * - the quantity/amount/price of `QTY`, `MOA`, `PRI` (element 1, component 2) with the UNA decimal mark
 *   made a point;
 * - `@message`, `@segment`, `@offset`: the lineage of the record (UNH 0062, segment number, byte offset).
 *
 * The nearest segment wins: a `DTM+163` of the quantity before the one of its location. Every record
 * segment ends in exactly one record or one located reject: a message that is damaged or of a format the
 * reader does not support rejects each of its record segments (or itself, when it has none).
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import { addAllCells, addPickedCells, type Cells, compilePicks, type Picks } from "./cells.js"
import { type EdifactLocation, type EdifactMessage, type EdifactProblem, type MessageOptions, readMessages } from "./messages.js"
import type { Segment } from "./segments.js"

/** How messages become records. */
export interface EdifactRecordOptions extends MessageOptions {
  /** The tag of the segment that starts a record: `QTY`. */
  readonly record: string
  /** Tags that open the nested groups of the detail section, outermost first, ending with `record`: `["NAD", "LOC", "LIN", "QTY"]`. */
  readonly groups: ReadonlyArray<string>
  /** Accepted messages as `TYPE:VERSION:RELEASE` (`MSCONS:D:04B`); others are refused as `unsupported_format`. */
  readonly messages: ReadonlyArray<string>
  /** The zone of ISO date-times (default `Europe/Berlin`). */
  readonly zone?: string
  /**
   * The cells to give (the columns a mapping reads, e.g. `mappingColumns(mapping)`); every cell when
   * absent. A wanted cell has the value it has among all cells; `@message`, `@segment` and `@offset` are
   * always given.
   */
  readonly columns?: ReadonlyArray<string>
}

/** A record: its cells, where its record segment is, and the raw text of its segments. */
export interface EdifactRecord {
  readonly kind: "record"
  readonly record: LegacyRecord
  readonly at: EdifactLocation
  readonly raw: string
}

/** A record segment (or a segment or message without one) that gives no record, and why. */
export interface EdifactReject {
  readonly kind: "reject"
  readonly code: string
  readonly detail: string
  readonly at: EdifactLocation
  readonly raw: string
}

/** A problem that cost nothing (an interchange count, a UNT count let through). */
export interface EdifactNotice {
  readonly kind: "warning"
  readonly code: string
  readonly detail: string
  readonly at: EdifactLocation
  readonly raw: string
}

export type EdifactRecordItem = EdifactRecord | EdifactReject | EdifactNotice

const locationOf = (message: EdifactMessage, segment: Segment): EdifactLocation => ({
  offset: segment.offset,
  segment: segment.number,
  message: message.number,
  messageReference: message.reference,
  ...(message.interchange !== undefined ? { interchangeReference: message.interchange.reference } : {})
})

/** A group: its segments, its own cells and its cells with those of the groups around it, each worked out once. */
interface Level {
  readonly depth: number
  readonly segments: Array<Segment>
  readonly parent: Level | undefined
  own: Cells | undefined
  merged: Cells | undefined
}

/** How the cells of a segment are added: all, or the picked ones. */
type AddCells = (cells: Cells, segment: Segment) => void

const ownOf = (level: Level, add: AddCells): Cells => {
  if (level.own === undefined) {
    const cells: Cells = {}
    for (const segment of level.segments) add(cells, segment)
    level.own = cells
  }
  return level.own
}

/** The cells of a group and of the groups around it; a nearer group's cell replaces an outer one of the same name. */
const mergedOf = (level: Level, add: AddCells): Cells => {
  if (level.merged === undefined) level.merged = level.parent === undefined ? ownOf(level, add) : { ...mergedOf(level.parent, add), ...ownOf(level, add) }
  return level.merged
}

/** The records of one message whose envelope checked out. */
function* recordsOf(message: EdifactMessage, options: EdifactRecordOptions, add: AddCells, columns: ReadonlyArray<string> | undefined): Generator<EdifactRecordItem> {
  const detailStart = message.segments.findIndex((s) => s.tag === "UNS")
  const levels: Array<Level> = [{ depth: 0, segments: [], parent: undefined, own: undefined, merged: undefined }]
  const flush = (): EdifactRecordItem | undefined => {
    const own = levels[levels.length - 1]!
    if (own.depth !== options.groups.length) return undefined
    const outer = own.parent === undefined ? {} : mergedOf(own.parent, add)
    const mine = ownOf(own, add)
    let cells: Cells
    if (columns === undefined) cells = { ...outer, ...mine }
    else {
      // Only the wanted cells, always in the same order (records of one shape).
      cells = {}
      for (const column of columns) {
        if (Object.hasOwn(mine, column)) cells[column] = mine[column]!
        else if (Object.hasOwn(outer, column)) cells[column] = outer[column]!
      }
    }
    const first = own.segments[0]!
    cells["@message"] = message.reference
    cells["@segment"] = String(first.number)
    cells["@offset"] = String(first.offset)
    let raw = ""
    for (const segment of own.segments) raw += segment.raw
    return { kind: "record", record: cells, at: locationOf(message, first), raw }
  }
  for (let i = 0; i < message.segments.length; i++) {
    const segment = message.segments[i]!
    const depth = i > detailStart || detailStart < 0 ? options.groups.indexOf(segment.tag) + 1 : 0
    if (depth > 0 || segment.tag === "UNT") {
      const item = flush()
      if (item !== undefined) yield item
    }
    if (depth > 0) {
      while (levels[levels.length - 1]!.depth >= depth) levels.pop()
      levels.push({ depth, segments: [segment], parent: levels[levels.length - 1], own: undefined, merged: undefined })
    } else if (segment.tag !== "UNT") {
      const level = levels[levels.length - 1]!
      level.segments.push(segment)
      level.own = undefined
      level.merged = undefined
    }
  }
}

/** Each record segment of a message that cannot give records, rejected for `code`; the message itself when it has none. */
function* rejectAll(segments: ReadonlyArray<Segment>, options: EdifactRecordOptions, code: string, detail: string, at: EdifactLocation, raw: string): Generator<EdifactReject> {
  let any = false
  for (const segment of segments) {
    if (segment.tag !== options.record) continue
    any = true
    yield { kind: "reject", code, detail, at: { ...at, offset: segment.offset, segment: segment.number }, raw: segment.raw }
  }
  if (!any) yield { kind: "reject", code, detail, at, raw }
}

/**
 * Reads the records of an EDIFACT input.
 *
 * @example
 * // An MSCONS message with two quantities (decimal mark ","), then a message of a format not read.
 * const text = "UNA:+,? 'UNB+UNOC:3+SENDER+RECEIVER+240101:1200+42'" +
 *   "UNH+M1+MSCONS:D:04B:UN:2.4c'BGM+7+DOC-1+9'UNS+D'NAD+DP'LOC+172+MELO-1'LIN+1'QTY+220:4,5'QTY+220:7'UNT+9+M1'" +
 *   "UNH+M2+ORDERS:D:96A:UN:EAN008'UNT+2+M2'UNZ+2+42'"
 * const options = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }
 * const items: Array<EdifactRecordItem> = []
 * for await (const item of readEdifactRecords([new TextEncoder().encode(text)], options)) items.push(item)
 * for (const item of items) console.log(item.kind, item.kind === "record" ? item.record["QTY.1.2"] : item.code)
 * // record 4.5
 * // record 7
 * // reject unsupported_format
 * items[0] // => { kind: "record", record: { "QTY.1.2": "4.5", "LOC+172.2": "MELO-1", "BGM.2": "DOC-1", "@message": "M1", "@segment": "9", "@offset": "127", … }, at: { offset: 127, segment: 9, message: 1, messageReference: "M1", interchangeReference: "42" }, raw: "QTY+220:4,5'" }
 * items[2] // => { kind: "reject", code: "unsupported_format", detail: "unsupported format: ORDERS:D:96A EAN008 (message M2); this mapping reads MSCONS:D:04B", at: { offset: 158, segment: 12, message: 2, messageReference: "M2", interchangeReference: "42" }, raw: "UNH+M2+ORDERS:D:96A:UN:EAN008'" }
 */
export async function* readEdifactRecords(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: EdifactRecordOptions
): AsyncGenerator<EdifactRecordItem> {
  const zone = options.zone ?? "Europe/Berlin"
  const picks: Picks | undefined = options.columns === undefined ? undefined : compilePicks(options.columns)
  const add: AddCells = picks === undefined ? (cells, segment) => addAllCells(cells, segment, zone) : (cells, segment) => addPickedCells(cells, segment, picks, zone)
  const columns = options.columns === undefined ? undefined : [...new Set(options.columns)]
  for await (const item of readMessages(chunks, options)) {
    if (item.kind === "warning") {
      yield item
      continue
    }
    if (item.kind === "problem") {
      const problem: EdifactProblem = item
      if (problem.segmentNumbers.length === 0) yield { kind: "warning", code: problem.code, detail: problem.detail, at: problem.at, raw: problem.raw }
      else yield* rejectAll(problem.segments, options, problem.code, problem.detail, problem.at, problem.raw)
      continue
    }
    const name = `${item.type}:${item.version}:${item.release}`
    if (!options.messages.includes(name)) {
      const detail = `unsupported format: ${name} ${item.association} (message ${item.reference}); this mapping reads ${options.messages.join(", ")}`
      yield* rejectAll(item.segments, options, "unsupported_format", detail, locationOf(item, item.segments[0]!), item.segments[0]!.raw)
      continue
    }
    yield* recordsOf(item, options, add, columns)
  }
}
