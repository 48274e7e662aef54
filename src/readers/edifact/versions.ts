/**
 * Versions of a value across the messages of a run: the same (MaLo, OBIS, interval), named by the cells
 * of the reader file's `versions.key`, sent again in a later message (a re-send, or a correction from
 * `Z18` to `67` or `220`) is one value, and only its latest version is mapped. Cancellations (PID 13006,
 * `BGM` 1225 `1`, the cancelled document named in `RFF+ACW`; or the reader file's `versions.cancellations`,
 * e.g. an INVOIC Storno 31004 naming its invoice in `RFF+OI`) void the values of the document they name;
 * without a `key`, only cancellations act, on whole documents.
 *
 * An index is built before anything is mapped, from every input: the message headers
 * ({@link VersionIndex.addMessage}: sender, `BGM` 1004, `DTM+137`, cancellations) and the values
 * ({@link VersionIndex.addValue}: records with the key cells, so a key is the same text the mapping
 * reads). `map` gives both from its one reading of each input (the record reader's `onMessage`, then the
 * records); {@link VersionIndex.addInput} reads an input so. Each record of the mapping then asks {@link VersionIndex.verdictOf} whether it is
 * mapped, left out (`superseded`, `cancelled`) or rejected (`version_conflict`, against a version an
 * earlier run recorded in the campaign's ledger).
 *
 * The order of versions: the message date `DTM+137` (a message without a readable one before every dated
 * one), then the input's place in the run, the message's in its input, the value's in its message. What
 * counts as the same document is its sender (`UNB` 0004), `BGM` 1004 and `DTM+137` as written.
 *
 * @module
 */
import { dtmToIso } from "./dtm.js"
import { el, type EdifactLocation, type EdifactMessage } from "./messages.js"
import { type EdifactExclusion, type EdifactRecord, type EdifactRecordItem, type EdifactRecordOptions, type EdifactReject, readEdifactRecordRuns } from "./records.js"
import type { Segment } from "./segments.js"
import { LatestValues, type VersionPlace } from "./latest-values.js"
import { type KeySeries, OrderedKeys, packDateTime } from "./ordered-keys.js"

/**
 * Which messages are cancellations, and the segment naming the document each cancels: by default
 * MSCONS's (`BGM` 1225 `1` or PID 13006, `RFF+ACW`); an INVOIC Storno is PID 31004, `BGM` 457, `RFF+OI`.
 * `BGM` 1225 `1` is a cancellation whatever the option says.
 */
export interface CancellationOptions {
  /** PIDs (`RFF+Z13`) of cancellations. */
  readonly pids?: ReadonlyArray<string>
  /** Document types (`BGM` 1001) of cancellations. */
  readonly documentTypes?: ReadonlyArray<string>
  /** The `RFF` (as `RFF+` and its qualifier) whose 1154 is the `BGM` 1004 of the document cancelled. */
  readonly refers?: string
}

/** The reader file's `versions`: the cells that name one value across messages, and what a cancellation is. */
export interface VersionOptions {
  /**
   * Cells of a record that together name one value: `["LOC+172.2.1", "PIA+5.2.1", "DTM+163", "DTM+164"]`.
   * Without it no value supersedes another (an invoice is a document of its own), and only cancellations act.
   */
  readonly key?: ReadonlyArray<string>
  /**
   * Instead of `key`: cells that together name one document across messages (`["NAD+MS.2.1",
   * "RFF+Z13.1.2"]`: a participant's data sheet of one kind). The latest message with them wins whole; every
   * record of an earlier one is `superseded`. For documents the API keeps once (a market participant).
   */
  readonly documents?: ReadonlyArray<string>
  readonly cancellations?: CancellationOptions
}

/** MSCONS's cancellations: PID 13006 (and `BGM` 1225 `1`), naming the document in `RFF+ACW`. */
const DEFAULT_CANCELLATIONS = { pids: ["13006"], documentTypes: [], refers: "RFF+ACW" } as const

const REFERS = /^RFF\+[A-Z0-9]{1,3}$/u

/** The key of the example reader file: MaLo, OBIS code, interval start and end. */
export const DEFAULT_VERSION_KEY: ReadonlyArray<string> = ["LOC+172.2.1", "PIA+5.2.1", "DTM+163", "DTM+164"]

/**
 * The problems of a reader file's `versions` value, one a line (none when it is usable).
 *
 * @example
 * versionOptionProblems({ key: ["LOC+172.2.1", "DTM+163"] }) // => []
 * versionOptionProblems({ key: [] }) // => ['versions: { "key": [cells that name one value] } (["LOC+172.2.1", "PIA+5.2.1", "DTM+163", "DTM+164"]), or { "documents": [cells that name one document] }']
 */
export const versionOptionProblems = (value: unknown): Array<string> => {
  const usage = `versions: { "key": [cells that name one value] } (${JSON.stringify(DEFAULT_VERSION_KEY).replaceAll(",", ", ")}), or { "documents": [cells that name one document] }`
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [usage]
  const spec = value as Record<string, unknown>
  const key = spec["key"]
  const unknown = Object.keys(spec).filter((k) => k !== "key" && k !== "documents" && k !== "cancellations").map((k) => `versions: unknown key ${JSON.stringify(k)} (known: key, documents, cancellations)`)
  const strings = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every((c) => typeof c === "string" && c !== "")
  // A key may be left out only where documents or cancellations are declared: `versions` then acts on
  // whole documents. Values and documents are not both versioned: one names the other's parts.
  const documents = spec["documents"]
  const keyOk = key === undefined
    ? (documents === undefined ? spec["cancellations"] !== undefined : strings(documents))
    : strings(key) && documents === undefined
  const c = spec["cancellations"]
  const cancellationUsage = 'versions.cancellations: { "pids": ["31004"], "documentTypes": ["457"], "refers": "RFF+OI" } (each optional; refers: RFF+ and the qualifier naming the document cancelled)'
  const cancellationsOk = c === undefined || (typeof c === "object" && c !== null && !Array.isArray(c) &&
    Object.entries(c).every(([k, v]) => (k === "pids" || k === "documentTypes") ? strings(v) : k === "refers" && typeof v === "string" && REFERS.test(v)))
  return [...unknown, ...(keyOk ? [] : [usage]), ...(cancellationsOk ? [] : [cancellationUsage])]
}

/** A message as the index knows it: where it is, who sent it, which document it is, what it cancels. */
export interface MessageHeader {
  /** The input's place in the run (0-based) and its name. */
  readonly file: number
  readonly fileName: string
  /** The message's number in its input (1-based) and its `UNH` 0062. */
  readonly number: number
  readonly reference: string
  readonly at: EdifactLocation
  /** `UNB` 0004, the interchange's sender (`""` outside an interchange). */
  readonly sender: string
  /** `BGM` 1004. */
  readonly document: string
  /** `DTM+137` as written, as ISO text in the zone (as written when it cannot be read), and its instant (ms). */
  readonly datedText: string | undefined
  readonly datedIso: string | undefined
  readonly dated: number | undefined
  /** A cancellation: `BGM` 1225 `1`, or a PID (`RFF+Z13`) or document type (`BGM` 1001) of the reader file's cancellations (13006 by default). */
  readonly cancellation: boolean
  /** `RFF+ACW` (or the reader file's `cancellations.refers`): the document a cancellation cancels, and where that segment is. */
  readonly refers: string | undefined
  readonly refersAt: EdifactLocation | undefined
}

/** A version recorded by an earlier run (the campaign's ledger), as the index compares it; `datedText` is `DTM+137` as ISO text. */
export interface PriorVersion {
  readonly run: number
  readonly file: string
  readonly sender: string
  readonly document: string
  readonly datedText: string | null
  readonly dated: number | null
  readonly raw: string
}

/** What earlier runs recorded: the version of a key, and whether a document's values were mapped. */
export interface PriorVersions {
  find(key: string): PriorVersion | undefined
  /** A run that mapped values of the document (sender, `BGM` 1004), if any. */
  findDocument(sender: string, document: string): { readonly run: number; readonly file: string } | undefined
}

/** A winning version, to be recorded once it went into a payload (`line`: its segment; `datedText`: `DTM+137` as ISO text). */
export interface WinningVersion {
  readonly key: string
  readonly fileName: string
  readonly line: number
  readonly message: string
  readonly sender: string
  readonly document: string
  readonly datedText: string | null
  readonly dated: number | null
  readonly raw: string
}

/** What the reading of one input asks of the versions of its run: the verdict on each of its records. */
export interface InputVersions {
  verdictOf(item: EdifactRecord): EdifactExclusion | EdifactReject | undefined
  /** The input's items as the run's one reading of it gave them (`readEdifactItems`), when it read them already. */
  readonly read?: (() => Iterable<ReadonlyArray<EdifactRecordItem>>) | undefined
}

/** A located warning of the index (an orphan cancellation). */
export interface VersionWarning {
  readonly fileName: string
  readonly code: string
  readonly detail: string
  readonly at: EdifactLocation
}

interface Version {
  readonly file: number
  readonly message: number
  readonly segment: number
  readonly raw: string
  readonly header: MessageHeader
}

/** What becomes of the latest version of a key, after comparing it with the ledger's. */
type Verdict = { readonly kind: "map" } | { readonly kind: "exclude"; readonly reason: string; readonly detail: string } | { readonly kind: "conflict"; readonly detail: string }

interface Latest extends Version {
  verdict: Verdict
}

const MAP: Verdict = { kind: "map" }

/** A DTM cell the reader read: ISO text (`2024-10-27T02:00:00+02:00`, `2024-10`), never digits as written. */
const READ_DATE = /^\d{4}-\d{2}/u

/**
 * A copy of `text` that holds nothing else: a record's raw text is a chain of slices of its message's
 * text, and kept as it is for each of a run's values it would keep every message's text alive too.
 */
const flat = (text: string): string => JSON.parse(JSON.stringify(text)) as string

/**
 * The header of a message: the segments before its `UNS`. Its texts are copies ({@link flat}): an index
 * keeps every message's header, and slices would keep the whole text of every input alive with it (52 MB
 * for an archive of 10,000 small interchanges).
 */
export const messageHeaderOf = (message: EdifactMessage, file: number, fileName: string, zone: string, cancellations: CancellationOptions = DEFAULT_CANCELLATIONS): MessageHeader => {
  const refersTo = (cancellations.refers ?? DEFAULT_CANCELLATIONS.refers).slice("RFF+".length)
  let document = ""
  let documentType = ""
  let cancellationCode = false
  let datedText: string | undefined
  let datedIso: string | undefined
  let dated: number | undefined
  let pid = ""
  let refers: string | undefined
  let refersAt: EdifactLocation | undefined
  let seenBgm = false
  const reference = flat(message.reference)
  const interchangeReference = message.interchange !== undefined ? flat(message.interchange.reference) : undefined
  const locationOf = (segment: Segment): EdifactLocation => ({
    offset: segment.offset,
    segment: segment.number,
    message: message.number,
    messageReference: reference,
    ...(interchangeReference !== undefined ? { interchangeReference } : {})
  })
  for (const segment of message.segments) {
    if (segment.tag === "UNS") break
    if (segment.tag === "BGM" && !seenBgm) {
      seenBgm = true
      document = flat(el(segment, 1))
      documentType = el(segment, 0)
      cancellationCode = el(segment, 2) === "1"
    } else if (segment.tag === "DTM" && el(segment, 0) === "137" && datedText === undefined) {
      datedText = flat(el(segment, 0, 1))
      const read = dtmToIso(datedText, el(segment, 0, 2), zone)
      datedIso = read.ok ? read.iso : datedText
      const instant = read.ok ? Date.parse(read.iso) : Number.NaN
      if (!Number.isNaN(instant)) dated = instant
    } else if (segment.tag === "RFF" && el(segment, 0) === refersTo && refers === undefined) {
      refers = flat(el(segment, 0, 1))
      refersAt = locationOf(segment)
    } else if (segment.tag === "RFF" && el(segment, 0) === "Z13" && pid === "") pid = el(segment, 0, 1)
  }
  return {
    file,
    fileName,
    number: message.number,
    reference,
    at: locationOf(message.segments[0]!),
    sender: flat(message.interchange?.sender ?? ""),
    document,
    datedText,
    datedIso,
    dated,
    cancellation: cancellationCode || (cancellations.pids ?? DEFAULT_CANCELLATIONS.pids).includes(pid) || (cancellations.documentTypes ?? []).includes(documentType),
    refers,
    refersAt
  }
}

/** Whether version `a` is later than `b`: message date, then input, message and segment order. */
const later = (a: Version, b: Version): boolean => laterThan(a.header, a.file, a.message, a.segment, b.header, b)

/**
 * {@link later} for a version not made yet: the one in message `header` (number `message` of input
 * `file`), at `segment`, against the one at `b` in message `bHeader`.
 */
const laterThan = (header: MessageHeader, file: number, message: number, segment: number, bHeader: MessageHeader, b: { readonly file: number; readonly message: number; readonly segment: number }): boolean => {
  const da = header.dated ?? Number.NEGATIVE_INFINITY
  const db = bHeader.dated ?? Number.NEGATIVE_INFINITY
  if (da !== db) return da > db
  if (file !== b.file) return file > b.file
  if (message !== b.message) return message > b.message
  return segment > b.segment
}

const sameDocument = (a: MessageHeader, b: { readonly sender: string; readonly document: string; readonly datedText: string | null | undefined }): boolean =>
  a.sender === b.sender && a.document === b.document && (a.datedIso ?? null) === (b.datedText ?? null)

/** A message as a detail names it. */
const messageName = (h: MessageHeader): string => `message ${JSON.stringify(h.reference)} (#${h.number}) of ${h.fileName} (${documentName(h)})`

/** A message's document and date, as a detail names them. */
const documentName = (h: MessageHeader): string => `BGM ${JSON.stringify(h.document)}, DTM+137 ${h.datedIso ?? "none"}`

const priorName = (p: PriorVersion): string =>
  `the version mapped in run ${p.run} from ${p.file} (BGM ${JSON.stringify(p.document)}, DTM+137 ${p.datedText ?? "none"}: ${JSON.stringify(p.raw)})`

const documentKey = (sender: string, document: string): string => `${sender}\u0000${document}`
/** A message's document as a version of a document names it: sender, BGM 1004 and DTM+137 as read. */
const documentIdentity = (h: MessageHeader): string => `document ${h.document} of ${h.sender}, DTM+137 ${h.datedIso ?? "none"}`
const messageKey = (file: number, message: number): string => `${file}:${message}`
const isDateCell = (cell: string): boolean => cell.startsWith("DTM")
/** What `findEntry` gives for a record without a key. */
const NO_KEY = -2
const placeKey = (file: number, message: number, segment: number): string => `${file}:${message}:${segment}`

/**
 * The versions of the values of a run's inputs. Build it with {@link addInput} (or {@link addMessage} and
 * {@link addValue}) for every input, then {@link settle}; then ask {@link verdictOf} for each record.
 *
 * @example
 * // Two messages of one sender send the same quarter-hour; the later DTM+137 wins. A record is asked
 * // about as the mapping's reading gives it: its key cells, and where it is (message 1's QTY is segment 10).
 * const message = (ref: string, dated: string, qty: string) =>
 *   `UNH+${ref}+MSCONS:D:04B:UN:2.4c'BGM+7+DOC-${ref}+9'DTM+137:${dated}:203'UNS+D'NAD+DP'LOC+172+51238696781'LIN+1'PIA+5+1-1?:1.29.0:SRW'` +
 *   `QTY+${qty}'DTM+163:202401010000:203'DTM+164:202401010015:203'UNT+12+${ref}'`
 * const text = `UNB+UNOC:3+SENDER+RECEIVER+240101:1200+1'${message("1", "202401020800", "Z18:5")}${message("2", "202401030800", "67:7")}UNZ+2+1'`
 * const options = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }
 * const index = new VersionIndex({ key: DEFAULT_VERSION_KEY }, "Europe/Berlin")
 * await index.addInput(0, "a.edi", [text], options)
 * index.settle(undefined)
 * const cells = { "LOC+172.2.1": "51238696781", "PIA+5.2.1": "1-1:1.29.0", "DTM+163": "2024-01-01T00:00:00+01:00", "DTM+164": "2024-01-01T00:15:00+01:00" }
 * index.verdictOf(0, { kind: "record", record: cells, at: { offset: 0, segment: 10, message: 1 }, raw: "" })?.reason // => "superseded"
 * index.verdictOf(0, { kind: "record", record: cells, at: { offset: 0, segment: 22, message: 2 }, raw: "" }) // => undefined
 */
export class VersionIndex {
  /** Each message's header, by file and number: its number in {@link headerList}. */
  private readonly headers = new Map<string, number>()
  private readonly headerList: Array<MessageHeader> = []
  private readonly documents = new Map<string, Array<MessageHeader>>()
  /** Messages cancelled, by file and number: the cancellation. */
  private readonly cancelled = new Map<string, MessageHeader>()
  /** With `documents`: each document key's latest message. */
  private readonly latest = new Map<string, Latest>()
  /** With `key`: each value's latest version, and the verdicts {@link settle} gave those not mapped. */
  private values: LatestValues
  private readonly valueVerdicts = new Map<number, Verdict>()
  /**
   * The values that are not their key's latest version, by place: every other value with a key is the
   * latest, and fares as {@link settle} left it; so the mapping looks a value's key up only for these
   * (or when the ledger changed the fate of a latest one), not for each of a run's values again.
   */
  private readonly losers = new Set<string>()
  /**
   * Latest versions, by place, whose raw text a loser that came after them names, and which the index
   * does not hold yet: built without keys, it holds a first version's raw text only when asked so
   * ({@link passing}), as most values have no other version.
   */
  private readonly rawsWanted = new Set<string>()
  /** The latest versions that {@link settle} found not to be mapped (against the ledger). */
  private latestNotMapped = 0
  /** The segment a cancellation names its document in, as details name it (`RFF+ACW`). */
  private readonly refersName: string
  /** With `documents`: each message's document key (from its first record that has every cell of it). */
  private readonly messageKeys = new Map<string, string>()
  /** Without a key: each document's first record, by file and message, recorded as its version once mapped. */
  private readonly documentStarts = new Map<string, { readonly header: MessageHeader; readonly segment: number; readonly raw: string }>()
  /** Warnings found while settling (orphan cancellations). */
  readonly warnings: Array<VersionWarning> = []

  /**
   * `keepKeys`: whether each value's key and raw text are kept, which only a ledger needs ({@link settle}
   * with earlier runs' versions, {@link winners}); a run without one spares a tenth of a kilobyte a value.
   * Without them, the records must then be read again in the order they were added ({@link passing} or
   * {@link verdictOf} for each), which is when a raw text that another version names is kept.
   */
  constructor(
    readonly options: VersionOptions,
    private readonly zone: string,
    private readonly keepKeys = true
  ) {
    this.refersName = options.cancellations?.refers ?? DEFAULT_CANCELLATIONS.refers
    this.keyDates = (options.key ?? []).map(isDateCell)
    this.values = new LatestValues(keepKeys)
  }

  /** The winners that an earlier run does not already hold (once settled): to be recorded once mapped. */
  *winners(): Generator<WinningVersion> {
    // Made when asked, not kept: only a run with a ledger records them, and a list of every value's
    // winner would double what the index holds.
    for (let entry = 0; entry < this.values.size; entry++) {
      if (this.valueVerdicts.has(entry)) continue
      const { segment, header: number } = this.values.place(entry)
      const header = this.headerList[number]!
      yield {
        key: this.values.key(entry),
        fileName: header.fileName,
        line: segment,
        message: header.reference,
        sender: header.sender,
        document: header.document,
        datedText: header.datedIso ?? null,
        dated: header.dated ?? null,
        raw: this.values.raw(entry)
      }
    }
    for (const [key, best] of this.latest) {
      if (best.verdict.kind !== "map") continue
      yield {
        key,
        fileName: best.header.fileName,
        line: best.segment,
        message: best.header.reference,
        sender: best.header.sender,
        document: best.header.document,
        datedText: best.header.datedIso ?? null,
        dated: best.header.dated ?? null,
        raw: best.raw
      }
    }
    for (const { header, segment, raw } of this.documentStarts.values()) {
      const datedText = header.datedIso ?? null
      yield { key: JSON.stringify(["document", header.sender, header.document, datedText]), fileName: header.fileName, line: segment, message: header.reference, sender: header.sender, document: header.document, datedText, dated: header.dated ?? null, raw }
    }
  }

  /** Whether input `file` holds a cancellation (a file of cancellations alone gives no record, and is no empty export). */
  holdsCancellations(file: number): boolean {
    if (!this.matched) this.matchCancellations()
    return this.cancellationFiles.has(file)
  }

  /**
   * The key of a record, or `undefined` when one of its key cells is missing or blank, or is a date the
   * reader could not read (it takes no part: its payload is refused by the check).
   */
  keyOf(record: EdifactRecord["record"], cells: ReadonlyArray<string> | undefined = this.options.key): string | undefined {
    const values = cells === undefined ? undefined : this.keyValues(record, cells)
    return values === undefined ? undefined : JSON.stringify(values)
  }

  /** The values of a record's key cells `cells` ({@link keyOf} is their JSON), or `undefined` when it has no key. */
  private keyValues(record: EdifactRecord["record"], cells: ReadonlyArray<string>): Array<string> | undefined {
    const dates = cells === this.options.key ? this.keyDates : cells.map(isDateCell)
    const values: Array<string> = []
    for (let i = 0; i < cells.length; i++) {
      const value = record[cells[i]!]
      if (typeof value !== "string" || value.trim() === "") return undefined
      // A DTM left as written (a 203 in the repeated autumn hour without `ambiguous`) names two instants:
      // the hour's two passes would share a key, and the first would pass for superseded by the second.
      if (dates[i] === true && !READ_DATE.test(value)) return undefined
      values.push(value)
    }
    return values
  }

  /** Which cells of the key are dates (`DTM…`), worked out once: every value's key is read by them. */
  private readonly keyDates: ReadonlyArray<boolean>

  /**
   * The keys of one or two date-times written as the reader writes them, by series (see ordered-keys.ts);
   * every other key by its text's digest in `values`. A key goes one way or the other by its own cells,
   * so equal keys go the same way.
   */
  private ordered = new OrderedKeys()
  /** What {@link findEntry} learned of a key it did not find, for {@link addEntry}. */
  private foundValues: Array<string> = []
  private foundSeries: KeySeries | undefined
  private foundStart = 0
  private foundEnd = 0
  private foundKey: string | undefined

  /**
   * The entry of a record's key ({@link keyOf}) among the values, -1 when it has none yet, {@link NO_KEY}
   * when the record has no key.
   */
  private findEntry(record: EdifactRecord["record"]): number {
    this.foundSeries = undefined
    this.foundKey = undefined
    const cells = this.options.key
    const values = cells === undefined ? undefined : this.keyValues(record, cells)
    if (values === undefined) return NO_KEY
    this.foundValues = values
    const others: Array<string> = []
    let dates = 0
    let start = 0
    let end = 0
    for (let i = 0; i < values.length; i++) {
      if (this.keyDates[i] !== true) others.push(values[i]!)
      else if (dates++ === 0) start = packDateTime(values[i]!)
      else end = packDateTime(values[i]!)
    }
    if (dates === 0 || dates > 2 || Number.isNaN(start) || Number.isNaN(end)) {
      const key = (this.foundKey = JSON.stringify(values))
      return this.values.find(key)
    }
    const series = this.ordered.seriesOf(others)
    const entry = series.find(start, end)
    if (entry >= 0) return entry
    this.foundSeries = series
    this.foundStart = start
    this.foundEnd = end
    if (series.appends) return -1
    // Out of order: a key of this series that came so is held by its digest.
    const key = (this.foundKey = JSON.stringify(values))
    return series.scattered > 0 ? this.values.find(key) : -1
  }

  /** Adds the key that {@link findEntry} just did not find, with its first version. */
  private addEntry(place: VersionPlace, raw: string | undefined): void {
    const series = this.foundSeries
    if (series !== undefined && series.appends) {
      const entry = this.values.addUnhashed(this.keepKeys ? JSON.stringify(this.foundValues) : undefined, place, raw)
      series.append(this.foundStart, this.foundEnd, entry)
      return
    }
    this.values.add(this.foundKey!, place, raw)
    if (series !== undefined) series.scattered++
  }

  /**
   * The number of the message a value of input `file` is in (in {@link headerList}; -1 for one the index
   * does not know), the last asked kept with its {@link messageKey}: a message's values come together.
   */
  private headerAt(file: number, number: number): number {
    if (file !== this.lastFile || number !== this.lastNumber) {
      this.lastFile = file
      this.lastNumber = number
      this.lastMessageKey = messageKey(file, number)
      this.lastHeader = this.headers.get(this.lastMessageKey) ?? -1
    }
    return this.lastHeader
  }

  private lastFile = -1
  private lastNumber = -1
  private lastHeader = -1
  /** The {@link messageKey} of the message {@link headerAt} was last asked about. */
  private lastMessageKey = ""

  /**
   * The header of one message of input `file` (named `fileName`) that checked out: its segments before
   * the `UNS` are read (the record reader's `onMessage` gives them, before the message's records).
   */
  addMessage(file: number, fileName: string, message: EdifactMessage): void {
    const header = messageHeaderOf(message, file, fileName, this.zone, this.options.cancellations)
    this.headers.set(messageKey(file, message.number), this.headerList.length)
    this.headerList.push(header)
    if (file === this.lastFile && message.number === this.lastNumber) this.lastFile = -1
    if (!header.cancellation) {
      const key = documentKey(header.sender, header.document)
      const list = this.documents.get(key)
      if (list === undefined) this.documents.set(key, [header])
      else list.push(header)
    }
  }

  /**
   * Reads input `file` (named `fileName`) once, as `map` does: each message's header as the record reader
   * tells it (`onMessage`), then each of its records' values. Gives back the records, for a caller that
   * must add them again when {@link valuesToReadAgain} says so once every input is read. (`map` reads
   * through the reader file's selection and keeps the items in its spool: `src/mappers/run/run-versions.ts`.)
   */
  async addInput(file: number, fileName: string, chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, options: EdifactRecordOptions): Promise<Array<EdifactRecord>> {
    const cells = this.options.documents ?? this.options.key ?? []
    const records: Array<EdifactRecord> = []
    const reading = readEdifactRecordRuns(chunks, { ...options, columns: [...(options.columns ?? []), ...cells], onMessage: (message) => this.addMessage(file, fileName, message) })
    for await (const run of reading) {
      for (const item of run) {
        if (item.kind !== "record") continue
        this.addValue(file, item)
        records.push(item)
      }
    }
    return records
  }

  /**
   * One value of input `file` (a record with the key cells, which the reader file's selection keeps),
   * after its message's header: the latest version of each key is kept. Values may come before every
   * input's headers are known (one reading of each input); {@link valuesToReadAgain} then tells whether
   * a cancellation found since voids some of them.
   */
  addValue(file: number, item: EdifactRecord): void {
    const number = item.at.message
    if (number === undefined) return
    const headerNumber = this.headerAt(file, number)
    const header = this.headerList[headerNumber]
    if (header === undefined || header.cancellation) return
    const at = this.lastMessageKey
    if (this.cancelled.size > 0 && this.cancelled.has(at)) return
    if (!this.matched) this.valuesBeforeMatching = true
    // Without a key no value is a version of another: only where each document starts is read, so that a
    // ledger records the documents mapped, and a later cancellation of one is told from an orphan.
    const documents = this.options.documents
    if (documents !== undefined) {
      if (this.messageKeys.has(at)) return
      const key = this.keyOf(item.record, documents)
      if (key === undefined) return
      this.messageKeys.set(at, key)
      // A document's version is its message: the sender, BGM 1004 and DTM+137 are what it is compared by.
      const version: Latest = { file, message: number, segment: item.at.segment, raw: documentIdentity(header), header, verdict: MAP }
      const best = this.latest.get(key)
      if (best === undefined || later(version, best)) this.latest.set(key, version)
      return
    }
    if (this.options.key === undefined) {
      if (!this.documentStarts.has(at)) this.documentStarts.set(at, { header, segment: item.at.segment, raw: flat(item.raw) })
      return
    }
    const entry = this.findEntry(item.record)
    if (entry === NO_KEY) return
    const place = { file, message: number, segment: item.at.segment, header: headerNumber }
    if (entry < 0) {
      this.addEntry(place, this.keepKeys ? item.raw : undefined)
      return
    }
    const best = this.values.place(entry)
    if (laterThan(header, file, number, item.at.segment, this.headerList[best.header]!, best)) {
      this.losers.add(placeKey(best.file, best.message, best.segment))
      this.values.replace(entry, place, item.raw)
    } else {
      this.losers.add(placeKey(file, number, item.at.segment))
      // The loser names the latest version's raw text, which came before it: kept as it passes again.
      if (!this.values.holdsRaw(entry)) this.rawsWanted.add(placeKey(best.file, best.message, best.segment))
    }
  }

  /**
   * A record of input `file` as the mapping reads it again, before any record after it is asked about
   * ({@link verdictOf} calls it too): where a later loser names this version's raw text, it is kept now.
   */
  passing(file: number, item: EdifactRecord): void {
    if (this.rawsWanted.size === 0 || item.at.message === undefined) return
    if (!this.rawsWanted.delete(placeKey(file, item.at.message, item.at.segment))) return
    const entry = this.findEntry(item.record)
    if (entry >= 0 && !this.values.holdsRaw(entry)) this.values.keepRaw(entry, item.raw)
  }

  /**
   * Once every input's headers are known: whether values were added before the cancellations were
   * matched and one of them cancels a document, so that the values must be added again (after
   * {@link clearValues}): a cancelled value is no version, and an earlier one of its key may be the latest.
   */
  valuesToReadAgain(): boolean {
    if (!this.matched) this.matchCancellations()
    return this.valuesBeforeMatching && this.cancelled.size > 0
  }

  /** Forgets every value added (to add them again, now that cancellations are known). */
  clearValues(): void {
    this.latest.clear()
    this.values = new LatestValues(this.keepKeys)
    this.ordered = new OrderedKeys()
    this.valueVerdicts.clear()
    this.losers.clear()
    this.rawsWanted.clear()
    this.messageKeys.clear()
    this.documentStarts.clear()
    this.valuesBeforeMatching = false
  }

  private valuesBeforeMatching = false
  private matched = false
  private cancellationsOf: Array<MessageHeader> = []
  private readonly cancellationFiles = new Set<number>()

  /** Pairs each cancellation with the messages of the document it names (sender, `RFF+ACW` or `cancellations.refers` = `BGM` 1004). */
  private matchCancellations(): void {
    this.matched = true
    for (const header of this.headerList) {
      if (!header.cancellation) continue
      this.cancellationsOf.push(header)
      this.cancellationFiles.add(header.file)
      const targets = header.refers === undefined ? [] : this.documents.get(documentKey(header.sender, header.refers)) ?? []
      for (const target of targets) {
        const key = messageKey(target.file, target.number)
        if (!this.cancelled.has(key)) this.cancelled.set(key, header)
      }
    }
  }

  /**
   * Ends the building: each key's latest version is compared with what earlier runs recorded (`prior`,
   * the campaign's ledger), and each cancellation whose document is nowhere is a warning.
   */
  settle(prior: PriorVersions | undefined): void {
    if (!this.matched) this.matchCancellations()
    for (const c of this.cancellationsOf) {
      const at = c.refersAt ?? c.at
      if (c.refers === undefined || c.refers === "") {
        this.warnings.push({ fileName: c.fileName, code: "orphan_cancellation", at, detail: `the cancellation (${documentName(c)}) names no document (no ${this.refersName}): nothing is cancelled` })
        continue
      }
      if ((this.documents.get(documentKey(c.sender, c.refers)) ?? []).length > 0) continue
      const mapped = prior?.findDocument(c.sender, c.refers)
      if (mapped !== undefined) {
        this.warnings.push({
          fileName: c.fileName,
          code: "cancels_mapped_document",
          at,
          detail: `the cancellation (${documentName(c)}) cancels document ${JSON.stringify(c.refers)} of sender ${JSON.stringify(c.sender)}, whose values were mapped in run ${mapped.run} from ${mapped.file}: the API has no update, so cancel those amounts in the platform`
        })
      } else {
        this.warnings.push({
          fileName: c.fileName,
          code: "orphan_cancellation",
          at,
          detail: `the cancellation (${documentName(c)}) names document ${JSON.stringify(c.refers)} of sender ${JSON.stringify(c.sender)}, which is in no input of this run${prior !== undefined ? " nor in the ledger" : ""}: nothing is cancelled`
        })
      }
    }
    if (prior === undefined) return
    if (!this.keepKeys && this.values.size > 0) throw new Error("the index was built without its keys, which a ledger's versions are compared by")
    for (const [key, best] of this.latest) {
      const verdict = this.priorVerdict(prior, key, best.header, best.raw)
      if (verdict !== undefined) best.verdict = verdict
    }
    for (let entry = 0; entry < this.values.size; entry++) {
      const verdict = this.priorVerdict(prior, this.values.key(entry), this.headerList[this.values.place(entry).header]!, this.values.raw(entry))
      if (verdict !== undefined) this.valueVerdicts.set(entry, verdict)
    }
  }

  /** The verdict on the latest version of `key` (in message `header`, `raw`) against the ledger's version; `undefined` where it is mapped. */
  private priorVerdict(prior: PriorVersions, key: string, header: MessageHeader, raw: string): Verdict | undefined {
    const p = prior.find(key)
    if (p === undefined || (sameDocument(header, p) && p.raw === raw)) return undefined
    // The ledger's version is newer when its date is later; on the same date this run's is later.
    const priorNewer = (p.dated ?? Number.NEGATIVE_INFINITY) > (header.dated ?? Number.NEGATIVE_INFINITY)
    this.latestNotMapped++
    if (priorNewer) return { kind: "exclude", reason: p.raw === raw ? "re-sent" : "superseded", detail: `superseded by ${priorName(p)}` }
    if (p.raw === raw) return { kind: "exclude", reason: "re-sent", detail: `re-sent unchanged: ${priorName(p)} has the same value and stands` }
    return {
      kind: "conflict",
      detail: `this value (${messageName(header)}: ${JSON.stringify(raw)}) corrects ${priorName(p)}: the API has no update, so the earlier amount stays; correct it in the platform, or map this one in a campaign of its own`
    }
  }

  /**
   * What becomes of a record of input `file` as the mapping reads it (its cells include the key cells):
   * `undefined` when it is mapped; an exclusion (`superseded`, `cancelled`) or a reject (`version_conflict`).
   */
  verdictOf(file: number, item: EdifactRecord): EdifactExclusion | EdifactReject | undefined {
    this.passing(file, item)
    const number = item.at.message
    if (number === undefined) return undefined
    const header = this.headerList[this.headerAt(file, number)]
    if (header === undefined) return undefined
    if (header.cancellation) {
      return { kind: "exclusion", code: "cancelled", reason: "in a cancellation", detail: `a value in the cancellation ${messageName(header)} is no amount`, at: item.at, raw: item.raw }
    }
    const by = this.cancelled.size === 0 ? undefined : this.cancelled.get(messageKey(file, number))
    if (by !== undefined) {
      return { kind: "exclusion", code: "cancelled", reason: "cancelled", detail: `cancelled by ${messageName(by)}, which names document ${JSON.stringify(header.document)} in ${this.refersName}`, at: item.at, raw: item.raw }
    }
    if (this.options.documents !== undefined) return this.documentVerdict(file, number, header, item)
    if (this.latestNotMapped === 0 && (this.losers.size === 0 || !this.losers.has(placeKey(file, number, item.at.segment)))) return undefined
    const entry = this.findEntry(item.record)
    if (entry < 0) return undefined
    const place = this.values.place(entry)
    const best = { ...place, raw: this.values.raw(entry), header: this.headerList[place.header]! }
    const self = best.file === file && best.message === number && best.segment === item.at.segment
    // A copy of the winning document (the same file given twice, a document re-sent under its own number
    // and date) is the same version: it fares as the winner does, and an identical payload is a duplicate.
    const copy = !self && best.raw === item.raw && sameDocument(best.header, { ...header, datedText: header.datedIso }) && !(best.file === file && best.message === number)
    if (self || copy) {
      const v = this.valueVerdicts.get(entry) ?? MAP
      if (v.kind === "map") return undefined
      if (v.kind === "exclude") return { kind: "exclusion", code: "superseded", reason: v.reason, detail: v.detail, at: item.at, raw: item.raw }
      return { kind: "reject", code: "version_conflict", detail: v.detail, at: item.at, raw: item.raw }
    }
    const where = best.file === file && best.message === number ? `later in the same message (segment ${best.segment})` : `${messageName(best.header)}, segment ${best.segment}`
    return best.raw === item.raw
      ? { kind: "exclusion", code: "superseded", reason: "re-sent", detail: `re-sent unchanged: the same value comes again in ${where}`, at: item.at, raw: item.raw }
      : { kind: "exclusion", code: "superseded", reason: "superseded", detail: `superseded by ${where}: ${JSON.stringify(best.raw)}`, at: item.at, raw: item.raw }
  }

  /** The verdict on a record of message `number` of input `file` when whole documents are versioned. */
  private documentVerdict(file: number, number: number, header: MessageHeader, item: EdifactRecord): EdifactExclusion | EdifactReject | undefined {
    const key = this.messageKeys.get(messageKey(file, number))
    const best = key === undefined ? undefined : this.latest.get(key)
    if (best === undefined) return undefined
    // The winning message, or a copy of it (the same file given twice): it fares as the winner does, and an
    // identical payload is a duplicate.
    if ((best.file === file && best.message === number) || best.raw === documentIdentity(header)) {
      const v = best.verdict
      if (v.kind === "map") return undefined
      if (v.kind === "exclude") return { kind: "exclusion", code: "superseded", reason: v.reason, detail: v.detail, at: item.at, raw: item.raw }
      return { kind: "reject", code: "version_conflict", detail: v.detail, at: item.at, raw: item.raw }
    }
    return { kind: "exclusion", code: "superseded", reason: "superseded", detail: `its document is replaced by the later ${messageName(best.header)}`, at: item.at, raw: item.raw }
  }
}
