/**
 * EDIFACT messages as flat records for the mapping engine: one record per segment that starts a record
 * (for MSCONS energy quantities, each `QTY`; for an invoice, each `LIN` and each `TAX`), with the cells of
 * that segment, of the segments after it up to the next group, of its enclosing groups and of the message
 * header. A cell is named by its segment and position (see docs/market-messages.md):
 *
 * - `TAG.e.c`: component `c` of element `e` (both 1-based, after the tag) of the nearest `TAG` segment;
 * - `TAG+Q.e.c`: the same of the nearest `TAG` whose first component is the qualifier `Q` (`LOC+172.2.1`);
 *   `TAG+Q.e` is `TAG+Q.e.1`;
 * - `TAG+Q.e.c[]` (and `TAG.e.c[]`, `TAG+Q.e[]`): a list cell, the component of every such segment of the
 *   nearest group that has one, in order, blanks left out, joined by `;` (the `list` converter's default):
 *   every `STS+Z33` of a quantity, where `STS+Z33.3.1` is the first. A record whose item holds `;` is
 *   rejected `invalid_list_item`;
 * - `DTM+Q`: the date/time of `DTM+Q` as ISO text in the reader's zone (formats 102, 203, 303, 304, 610; a
 *   203 in the hour the autumn clock change repeats as `ambiguous` says);
 * - the quantity/amount/price of `QTY`, `MOA`, `PRI` (element 1, component 2) and the bounds of a `RNG`
 *   (element 2, components 2 and 3) with the UNA decimal mark made a point; a record whose number is not a
 *   number as EDIFACT writes it is rejected `invalid_number`;
 * - `@message`, `@segment`, `@offset`: the lineage of the record (UNH 0062, segment number, byte offset);
 *   `@interchange`: the UNB 0020 of its interchange (absent outside one); `@record`: the tag of its record
 *   segment (`LIN`), which picks a collection's records in a mapping.
 *
 * The nearest segment wins: a `DTM+163` of the quantity before the one of its location. Every record
 * segment ends in exactly one record or one located reject: a message that is damaged or of a format the
 * reader does not support rejects each of its record segments (or itself, when it has none).
 *
 * Memory is bounded by the text of the largest message (held until its `UNT` is checked), not by its
 * segments as objects: a message that checks out is read again for its records.
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import { addAllCells, addPickedCells, type BadNumbers, type Cells, compilePicks, isNumericCell, LIST_SEPARATOR, type Picks, type RepeatedHour } from "./cells.js"
import { type Ambiguous, repeatedHourReader } from "./dtm.js"
import { type EdifactLocation, type EdifactMessage, type MessageEvent, MessageReader, type MessageOptions } from "./messages.js"
import { type Segment, type SegmentItem, type SegmentProblem, SegmentScanner, type Separators } from "./segments.js"

/** How messages become records. */
export interface EdifactRecordOptions extends MessageOptions {
  /**
   * The tag of the segments that start a record (`QTY`), or a list of them (`["LIN", "TAX"]`): each
   * segment with one of these tags starts one. Each opens a group: at its place in `groups`, or, when it
   * is not there, one deeper than every group listed.
   */
  readonly record: string | ReadonlyArray<string>
  /** Tags that open the nested groups of the detail section, outermost first, ending with `record`: `["NAD", "LOC", "LIN", "QTY"]`. */
  readonly groups: ReadonlyArray<string>
  /**
   * Where group tags open groups: `"UNS"` (default) only after the message's `UNS` (MSCONS, whose header
   * has segments with group tags; a record segment before the `UNS` is rejected `record_before_uns`); or
   * `"UNH"` from the message's start (INVOIC, PRICAT, UTILTS, PARTIN, whose detail comes before the `UNS`
   * or that have none). With `"UNH"`, a `UNS` closes every open group: the segments after it (the
   * summary section: an invoice's totals) belong to no group before it, and are cells of the records
   * after it only.
   */
  readonly detail?: "UNS" | "UNH"
  /**
   * Record tags whose segment starts a record only when its group holds no other record: otherwise its
   * group is the context of the records inside it. A UTILTS transaction (`IDE`) with definitions gives
   * their records; one without any (`STS+Z36+Z46`, or a kind the reader's selection leaves out) gives a
   * record of its own, so that it ends in an outcome too.
   */
  readonly onlyWhenEmpty?: ReadonlyArray<string>
  /** Accepted messages as `TYPE:VERSION:RELEASE` (`MSCONS:D:04B`); others are refused as `unsupported_format`. */
  readonly messages: ReadonlyArray<string>
  /** The zone of ISO date-times (default `Europe/Berlin`). */
  readonly zone?: string
  /**
   * Which instant a DTM of format 203 (no zone) in the hour the autumn clock change repeats means, as the
   * `datetime` converter's `ambiguous`: `"reject"` (default: left as written, so the payload's check
   * refuses it), `"earlier"`, `"later"`, or `"by-order"` (within a message, the first occurrence of a wall
   * time of a DTM qualifier takes the earlier offset, its repeat the later one).
   */
  readonly ambiguous?: Ambiguous
  /**
   * The cells to give (the columns a mapping reads, e.g. `mappingColumns(mapping)`); every cell when
   * absent. A wanted cell has the value it has among all cells; `@message`, `@segment` and `@offset` are
   * always given.
   */
  readonly columns?: ReadonlyArray<string>
  /**
   * Told each message that checks out, before its records: the message with its segments from `UNH` up
   * to its `UNS` (to its `UNT` when it has none), so that a reader of the records learns the headers
   * (document number, date, references) in the same reading.
   */
  readonly onMessage?: (message: EdifactMessage) => void
}

/** The tags of the segments that start a record, as `record` names one or several. */
export const recordTags = (record: string | ReadonlyArray<string>): ReadonlySet<string> => new Set(typeof record === "string" ? [record] : record)

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

/**
 * A record segment left out on purpose, and why: outside the reader's selection (`skipped`), an earlier
 * version of a value sent again later (`superseded`), or cancelled by its sender (`cancelled`).
 */
export interface EdifactExclusion {
  readonly kind: "exclusion"
  /** The outcome. */
  readonly code: "skipped" | "superseded" | "cancelled"
  /** What groups it in counts: `PID 13007`, `qualifier 187`. */
  readonly reason: string
  readonly detail: string
  readonly at: EdifactLocation
  readonly raw: string
  /** The record's cells, where it was made before it was left out (its account can still be told). */
  readonly record?: LegacyRecord | undefined
}

export type EdifactRecordItem = EdifactRecord | EdifactReject | EdifactNotice | EdifactExclusion

const locationOf = (message: Pick<EdifactMessage, "reference" | "number" | "interchange">, segment: Segment): EdifactLocation =>
  message.interchange !== undefined
    ? { offset: segment.offset, segment: segment.number, message: message.number, messageReference: message.reference, interchangeReference: message.interchange.reference }
    : { offset: segment.offset, segment: segment.number, message: message.number, messageReference: message.reference }

/**
 * A group: its segments, its own cells (with those of its numeric cells that are not numbers) and its
 * cells with those of the groups around it, each worked out once.
 */
interface Level {
  readonly depth: number
  readonly segments: Array<Segment>
  readonly parent: Level | undefined
  own: Cells | undefined
  bad: BadNumbers | undefined
  merged: Cells | undefined
}

/** How the cells of a segment are added: all, or the picked ones; a numeric cell that is not a number also goes to `bad`. */
type AddCells = (cells: Cells, segment: Segment, bad: BadNumbers) => void

const ownOf = (level: Level, add: AddCells): Cells => {
  if (level.own === undefined) {
    const cells: Cells = {}
    const bad: BadNumbers = {}
    for (const segment of level.segments) add(cells, segment, bad)
    level.own = cells
    // Most groups have none: no object is kept for them.
    let any = false
    for (const _ in bad) any = true
    level.bad = any ? bad : undefined
  }
  return level.own
}

/**
 * The first cell of a record (`cells`, of the group `own` and the groups around it) that is numeric but
 * not a number, with the segment it comes from; `undefined` when there is none. A cell is checked where
 * its value comes from: the nearest group that has it.
 */
const badNumberOf = (own: Level, cells: Cells): { readonly name: string; readonly segment: Segment } | undefined => {
  for (let level: Level | undefined = own; level !== undefined; level = level.parent) {
    const bad = level.bad
    if (bad === undefined) continue
    for (const name in bad) {
      if (!Object.hasOwn(cells, name)) continue
      let nearer = false
      for (let l: Level = own; l !== level; l = l.parent!) if (Object.hasOwn(l.own!, name)) nearer = true
      if (!nearer) return { name, segment: bad[name]! }
    }
  }
  return undefined
}

/** The cells of a group and of the groups around it; a nearer group's cell replaces an outer one of the same name. */
const mergedOf = (level: Level, add: AddCells): Cells => {
  if (level.merged === undefined) level.merged = level.parent === undefined ? ownOf(level, add) : { ...mergedOf(level.parent, add), ...ownOf(level, add) }
  return level.merged
}

/**
 * The records of one message, built as its segments come (`push` each, in order, then `end`):
 * only the segments of the groups still open are held, never the whole message. With `detail` `"UNS"`, the
 * segments before the `UNS` wait until it comes (or, without one, until the end), as whether a group tag
 * opens a group depends on it.
 */
class MessageRecords {
  /** The items made since the last were taken (taken as the array itself, which is then replaced). */
  records: Array<EdifactRecordItem> = []
  private readonly levels: Array<Level> = [{ depth: 0, segments: [], parent: undefined, own: undefined, bad: undefined, merged: undefined }]
  /** Segments before the `UNS`, until it comes (`detail` `"UNS"`); `undefined` after it, or from the start. */
  private header: Array<Segment> | undefined
  /** The depth of the group each tag opens (group tags and record tags); 0 for other tags. */
  private readonly depths: ReadonlyMap<string, number>
  /** The record of a group whose tag is in `onlyWhenEmpty`, until a record inside it comes or it closes. */
  private pending: { readonly level: Level; readonly item: EdifactRecordItem } | undefined

  constructor(
    private readonly message: MessageOfRecords,
    private readonly options: EdifactRecordOptions,
    private readonly add: AddCells,
    private readonly columns: ReadonlyArray<string> | undefined,
    private readonly tags: ReadonlySet<string>
  ) {
    const depths = new Map<string, number>()
    options.groups.forEach((tag, i) => {
      if (!depths.has(tag)) depths.set(tag, i + 1)
    })
    for (const tag of tags) if (!depths.has(tag)) depths.set(tag, options.groups.length + 1)
    this.depths = depths
    this.header = options.detail === "UNH" ? undefined : []
  }

  private depthOf(tag: string): number {
    return this.depths.get(tag) ?? 0
  }

  private flush(): void {
    const { levels, columns, add, message } = this
    const own = levels[levels.length - 1]!
    // A record is the group its record segment opened: made when the next group (or the message's end) comes.
    if (own.depth === 0 || !this.tags.has(own.segments[0]!.tag)) return
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
    let raw = ""
    for (const segment of own.segments) raw += segment.raw
    const bad = badNumberOf(own, cells)
    if (bad !== undefined) {
      // Not read some other way (1,234 as 1234, or as 1.234, where the mark is "."): which one the
      // sender meant is not known, and a quantity 1000 times off would pass every later check.
      const { name, segment } = bad
      if (!isNumericCell(name)) {
        // A list item holding the separator would be split in two by the list converter.
        const detail = `${name} ${JSON.stringify(cells[name])}: an item (segment ${segment.number}) holds ${JSON.stringify(LIST_SEPARATOR)}, which separates the items of a list cell`
        this.emit(own, { kind: "reject", code: "invalid_list_item", detail, at: locationOf(message, first), raw })
        return
      }
      const detail = `${name} ${JSON.stringify(cells[name])} (segment ${segment.number}) is not a number as EDIFACT writes it: digits, the decimal mark ${JSON.stringify(segment.decimal)} of the interchange's UNA, a leading minus; no thousands separator, plus sign or exponent`
      this.emit(own, { kind: "reject", code: "invalid_number", detail, at: locationOf(message, first), raw })
      return
    }
    cells["@message"] = message.reference
    if (message.interchange !== undefined) cells["@interchange"] = message.interchange.reference
    cells["@record"] = first.tag
    cells["@segment"] = String(first.number)
    cells["@offset"] = String(first.offset)
    this.emit(own, { kind: "record", record: cells, at: locationOf(message, first), raw })
  }

  /** The item of the record (or reject) of a group: held while its group may still hold records (`onlyWhenEmpty`). */
  private emit(level: Level, item: EdifactRecordItem): void {
    if (this.options.onlyWhenEmpty?.includes(level.segments[0]!.tag) === true) {
      this.release()
      this.pending = { level, item }
      return
    }
    const pending = this.pending
    if (pending !== undefined) {
      let inside = false
      for (let l = level.parent; l !== undefined && !inside; l = l.parent) inside = l === pending.level
      // A record inside it: the group is context, not a record of its own.
      if (inside) this.pending = undefined
      else this.release()
    }
    this.records.push(item)
  }

  /** The held record of an `onlyWhenEmpty` group that holds no other record: its group has closed. */
  private release(): void {
    if (this.pending !== undefined) this.records.push(this.pending.item)
    this.pending = undefined
  }

  private step(segment: Segment, depth: number): void {
    const levels = this.levels
    if (depth > 0 || segment.tag === "UNT") this.flush()
    // The group held has closed when a group at its depth or outside it opens, or the message ends.
    if (this.pending !== undefined && (segment.tag === "UNT" || (segment.tag === "UNS" && this.options.detail === "UNH") || (depth > 0 && depth <= this.pending.level.depth))) this.release()
    if (segment.tag === "UNS" && this.options.detail === "UNH") {
      // The summary section: every group closes; its segments are a level of their own below the header's,
      // so the records after it (an invoice's tax totals) have them, and no record before it does.
      this.flush()
      levels.length = 1
      levels.push({ depth: 0, segments: [segment], parent: levels[0], own: undefined, bad: undefined, merged: undefined })
      return
    }
    if (depth > 0) {
      while (levels[levels.length - 1]!.depth >= depth) levels.pop()
      levels.push({ depth, segments: [segment], parent: levels[levels.length - 1], own: undefined, bad: undefined, merged: undefined })
    } else if (segment.tag !== "UNT") {
      const level = levels[levels.length - 1]!
      level.segments.push(segment)
      level.own = undefined
      level.bad = undefined
      level.merged = undefined
    }
  }

  /** The next segment of the message (`UNH` first, `UNT` last). */
  push(read: Segment): void {
    const segment = read.tag === "PIA" ? this.obisJoined(read) : read
    const header = this.header
    if (header === undefined) {
      this.step(segment, this.depthOf(segment.tag))
      return
    }
    header.push(segment)
    if (segment.tag !== "UNS") return
    // Up to the UNS (itself included), no segment opens a group. A record segment there belongs to no
    // group (an MSCONS QTY is always after UNS+D): rejected, as taking it into the header's cells would
    // give every record of the message its values, and leaving it out would lose it.
    this.header = undefined
    for (const s of header) {
      if (!this.tags.has(s.tag)) this.step(s, 0)
      else {
        const detail = `the ${s.tag} segment is before the UNS, in the message's header, where no group holds it`
        this.records.push({ kind: "reject", code: "record_before_uns", detail, at: locationOf(this.message, s), raw: s.raw })
      }
    }
  }

  /**
   * A PIA whose product id is an OBIS code with its ":" not released (`PIA+5+1-1:1.29.1:SRW`, written so by
   * real senders): its first two components joined again, with a warning. Read as written, the payload
   * would name item "1-1" of type "1.29.1" and pass every check; no item type code (an..3) looks like
   * "1.29.1", so nothing else is joined.
   */
  private obisJoined(pia: Segment): Segment {
    const c212 = pia.elements[1]
    if (c212 === undefined || c212.length < 2 || !OBIS_AB.test(c212[0]!) || !OBIS_CDE.test(c212[1]!)) return pia
    const obis = `${c212[0]}:${c212[1]}`
    const detail = `the product id ${JSON.stringify(obis)} is an OBIS code whose ":" is not released (written ${JSON.stringify(c212.join(":"))}): read as one component${c212.length > 2 ? `, of type ${JSON.stringify(c212[2])}` : ""}`
    this.records.push({ kind: "warning", code: "unreleased_obis_colon", detail, at: locationOf(this.message, pia), raw: pia.raw })
    const elements = [...pia.elements]
    elements[1] = [obis, ...c212.slice(2)]
    return { ...pia, elements }
  }

  /** After the `UNT`: without a `UNS`, every group tag opens its group. */
  end(): void {
    const header = this.header
    if (header === undefined) return
    this.header = undefined
    for (const s of header) this.step(s, this.depthOf(s.tag))
  }
}

/** An OBIS code's medium and channel (`1-1`), and its measured quantity, type and tariff (`1.29.1`, `1.8.0*255`). */
const OBIS_AB = /^[0-9]{1,3}-[0-9]{1,3}$/u
const OBIS_CDE = /^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(?:\*[0-9]{1,3})?$/u

/** What records need of their message: as {@link EdifactMessage}, without its segments. */
type MessageOfRecords = Pick<EdifactMessage, "reference" | "number" | "interchange">

/**
 * Each record segment of a message that cannot give records, rejected for `code`, in input order; the
 * message itself when it has none. A record segment that could not be read itself (`damaged`: a release
 * character before an ordinary one, cut off at the end) counts when its text starts with the record tag:
 * it is a record of the input all the same, and leaving it out would lose it without a word.
 */
function* rejectAll(
  segments: ReadonlyArray<Segment>,
  damaged: ReadonlyArray<SegmentProblem>,
  tags: ReadonlySet<string>,
  code: string,
  detail: string,
  at: EdifactLocation,
  raw: string
): Generator<EdifactReject> {
  const records: Array<Segment | SegmentProblem> = segments.filter((segment) => tags.has(segment.tag))
  const broken = damaged.filter((problem) => [...tags].some((tag) => problem.raw.startsWith(tag)))
  if (broken.length > 0) {
    records.push(...broken)
    records.sort((a, b) => a.number - b.number)
  }
  for (const segment of records) yield { kind: "reject", code, detail, at: { ...at, offset: segment.offset, segment: segment.number }, raw: segment.raw }
  if (records.length === 0) yield { kind: "reject", code, detail, at, raw }
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
  for await (const run of readEdifactRecordRuns(chunks, options)) yield* run
}

/**
 * {@link readEdifactRecords} a run of items at a time: the items, in the same order, in arrays of those
 * made together (from a chunk, or from a piece of a message read again). A caller that takes each item
 * in turn (`map`) pays a step of an async generator per run instead of one per record.
 *
 * @example
 * // The records of a message in one run, the reject of a message of a format not read in the next.
 * const text = "UNB+UNOC:3+SENDER+RECEIVER+240101:1200+42'" +
 *   "UNH+M1+MSCONS:D:04B:UN:2.4c'UNS+D'QTY+220:4'QTY+220:7'UNT+5+M1'" +
 *   "UNH+M2+ORDERS:D:96A:UN:EAN008'UNT+2+M2'UNZ+2+42'"
 * const options = { record: "QTY", groups: ["QTY"], messages: ["MSCONS:D:04B"] }
 * const runs: Array<ReadonlyArray<EdifactRecordItem>> = []
 * for await (const run of readEdifactRecordRuns([text], options)) runs.push(run)
 * runs.map((run) => run.map((item) => (item.kind === "record" ? item.record["QTY.1.2"] : item.code))) // => [["4", "7"], ["unsupported_format"]]
 */
export async function* readEdifactRecordRuns(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: EdifactRecordOptions
): AsyncGenerator<ReadonlyArray<EdifactRecordItem>> {
  const zone = options.zone ?? "Europe/Berlin"
  const picks: Picks | undefined = options.columns === undefined ? undefined : compilePicks(options.columns)
  const addWith = (repeated: RepeatedHour | undefined): AddCells =>
    picks === undefined ? (cells, segment, bad) => addAllCells(cells, segment, zone, bad, repeated) : (cells, segment, bad) => addPickedCells(cells, segment, picks, zone, bad, repeated)
  // The repeated autumn hour of DTM 203 as the reader file's `ambiguous` says; "by-order" afresh in each message.
  const ambiguous = options.ambiguous ?? "reject"
  const add = addWith(ambiguous === "reject" ? undefined : repeatedHourReader(zone, ambiguous))
  const addFor = (): AddCells => (ambiguous === "by-order" ? addWith(repeatedHourReader(zone, ambiguous)) : add)
  const columns = options.columns === undefined ? undefined : [...new Set(options.columns)]
  // Two passes over each message. The first checks the envelopes from segments read lightly (a service
  // segment whole, the others for their tag and release characters only), holding only the text of the
  // open message and its record segments (for rejects). A message that checks out is read again from its
  // text, and its records made one piece at a time as they are taken: nothing of a message is held as
  // objects until its UNT, which made the collector the reader's largest cost.
  const out: Array<EdifactRecordItem | CheckedMessage> = []
  const tags = recordTags(options.record)
  const reader = new MessageReader(options, { keep: (segment) => tags.has(segment.tag) })
  const scanner = new SegmentScanner({ light: true })
  /** The text read (Latin-1, a character a byte) from byte `textStart` on, in chunks: the open message's at least. */
  const texts: Array<string> = []
  let textStart = 0
  let textEnd = 0
  let current: SegmentItem | undefined
  const textOf = (from: number, to: number): string => {
    const joined = texts.length === 1 ? texts[0]! : texts.join("")
    texts.length = 0
    texts.push(joined)
    return joined.slice(from - textStart, to - textStart)
  }
  const take = (item: MessageEvent): void => {
    if (item.kind === "warning") {
      out.push(item)
      return
    }
    if (item.kind === "problem") {
      const problem = item
      if (problem.segmentNumbers.length === 0) out.push({ kind: "warning", code: problem.code, detail: problem.detail, at: problem.at, raw: problem.raw })
      else for (const reject of rejectAll(problem.segments, problem.damaged, tags, problem.code, problem.detail, problem.at, problem.raw)) out.push(reject)
      return
    }
    const message = item
    const name = `${message.type}:${message.version}:${message.release}`
    const unh = message.segments[0]!
    if (!options.messages.includes(name)) {
      const detail = `unsupported format: ${name} ${message.association} (message ${message.reference}); this mapping reads ${options.messages.join(", ")}`
      for (const reject of rejectAll(message.segments, [], tags, "unsupported_format", detail, locationOf(message, unh), unh.raw)) out.push(reject)
      return
    }
    const unt = current!
    out.push({ kind: "checked", message, text: textOf(unh.offset, unt.offset + unt.length), separators: scanner.separatorsAt(unh.offset), unh })
  }
  const onMessage = options.onMessage
  const records = function*(checked: CheckedMessage): Generator<ReadonlyArray<EdifactRecordItem>> {
    const { message, text, unh } = checked
    if (onMessage !== undefined) onMessage({ ...message, segments: headerOf(checked) })
    const again = new SegmentScanner({ separators: checked.separators, offset: unh.offset, number: unh.number - 1 })
    const state = new MessageRecords(message, options, addFor(), columns, tags)
    const segments: Array<SegmentItem> = []
    for (let at = 0; at < text.length; at += RECORDS_PIECE) {
      again.push(text.slice(at, at + RECORDS_PIECE), segments)
      // The text checked out in the first pass: every item is a segment, or padding between two (noted
      // in the first pass, no segment).
      for (const item of segments) if (item.kind === "segment") state.push(item)
      segments.length = 0
      if (at + RECORDS_PIECE >= text.length) state.end()
      if (state.records.length > 0) {
        yield state.records
        state.records = []
      }
    }
  }
  const drain = function*(): Generator<ReadonlyArray<EdifactRecordItem>> {
    let loose: Array<EdifactRecordItem> = []
    for (const item of out) {
      if (item.kind !== "checked") loose.push(item)
      else {
        if (loose.length > 0) yield loose
        loose = []
        yield* records(item)
      }
    }
    out.length = 0
    if (loose.length > 0) yield loose
  }
  const segments: Array<SegmentItem> = []
  for await (const chunk of chunks) for (const text of latin1Pieces(chunk)) {
    texts.push(text)
    textEnd += text.length
    scanner.push(text, segments)
    for (const segment of segments) {
      current = segment
      reader.take(segment, take)
    }
    segments.length = 0
    // Keep the text from the open message on, while it may check out (or from where the scanner is).
    const keepFrom = Math.min(reader.openUndamagedAt ?? Number.POSITIVE_INFINITY, scanner.position)
    if (keepFrom >= textEnd) {
      texts.length = 0
      textStart = textEnd
    } else if (keepFrom > textStart) {
      const joined = textOf(keepFrom, textEnd)
      texts.length = 0
      texts.push(joined)
      textStart = keepFrom
    }
    yield* drain()
  }
  scanner.end(segments)
  for (const segment of segments) {
    current = segment
    reader.take(segment, take)
  }
  reader.end(take)
  yield* drain()
}

/** The most bytes of a chunk decoded into one text: see {@link latin1Pieces}. */
const DECODE_BYTES = 64 * 1024

/**
 * A chunk as Latin-1 text, in pieces of at most {@link DECODE_BYTES}: a text of a megabyte (a file read a
 * megabyte at a time) is allocated apart from the others, in fresh memory each time, and took the runtime
 * several times as long as sixteen of 64 KB.
 */
function* latin1Pieces(chunk: Uint8Array | string): Generator<string> {
  if (typeof chunk === "string") {
    yield chunk
    return
  }
  for (let at = 0; at < chunk.byteLength; at += DECODE_BYTES) {
    yield Buffer.from(chunk.buffer, chunk.byteOffset + at, Math.min(DECODE_BYTES, chunk.byteLength - at)).toString("latin1")
  }
}

/** The segments of a message that checked out, from its `UNH` up to its `UNS` (to its `UNT` when it has none). */
const headerOf = (checked: CheckedMessage): Array<Segment> => {
  const { text, unh } = checked
  const scanner = new SegmentScanner({ separators: checked.separators, offset: unh.offset, number: unh.number - 1 })
  const header: Array<Segment> = []
  const segments: Array<SegmentItem> = []
  for (let at = 0; at < text.length; at += RECORDS_PIECE) {
    scanner.push(text.slice(at, at + RECORDS_PIECE), segments)
    for (const item of segments) {
      if (item.kind !== "segment") continue
      header.push(item)
      if (item.tag === "UNS") return header
    }
    segments.length = 0
  }
  scanner.end(segments)
  for (const item of segments) if (item.kind === "segment") header.push(item)
  return header
}

/** Characters of a checked message read again at a time: its records are made and taken a piece at a time. */
const RECORDS_PIECE = 16384

/** A message that checked out in the first pass, to read again for its records. */
interface CheckedMessage {
  readonly kind: "checked"
  readonly message: EdifactMessage
  /** Its text, `UNH` to `UNT` inclusive (Latin-1). */
  readonly text: string
  readonly separators: Separators
  readonly unh: Segment
}
