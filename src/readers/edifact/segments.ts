/**
 * The segments of an EDIFACT interchange, read as a stream: the service string advice (`UNA`) sets the
 * separators, the release character and the decimal mark; each segment comes out with its elements and
 * components unescaped and with where it was (byte offset, length, segment number). A segment that
 * cannot be read (a bad tag, a release character before an ordinary character, text cut off at the end)
 * comes out as a located problem, never as an exception and never left out.
 *
 * Bytes are read as Latin-1 (UNOC, ISO 8859-1), one character per byte, so offsets are byte offsets; a
 * segment with bytes above 0x7F that form valid UTF-8 is read as UTF-8 (files re-encoded on the way). A
 * UTF-8 byte order mark is skipped, at the start and between segments (files put one after the other);
 * line breaks, spaces and tabs between segments are ignored (unless a `UNA` makes one of them a service
 * character). A line break inside a segment is not data either (no EDIFACT character set has one): a file
 * wrapped at a fixed width reads as the file unwrapped, each segment's `raw` keeping its line breaks.
 *
 * @module
 */

/** The service characters of an interchange (`UNA:+.? '` by default). */
export interface Separators {
  readonly component: string
  readonly element: string
  /** The decimal mark of numbers: `.` or `,` (a `UNA` naming another is refused). */
  readonly decimal: string
  /** The release (escape) character; `""` when the UNA names none (a space there). */
  readonly release: string
  readonly terminator: string
}

/** The separators an interchange has without a `UNA`. */
export const DEFAULT_SEPARATORS: Separators = { component: ":", element: "+", decimal: ".", release: "?", terminator: "'" }

/** A segment read: its tag, its elements (each a list of components, unescaped), and where it was. */
export interface Segment {
  readonly kind: "segment"
  readonly tag: string
  readonly elements: ReadonlyArray<ReadonlyArray<string>>
  /** Byte offset of the segment's first character in the input. */
  readonly offset: number
  /** Bytes of the segment, terminator included. */
  readonly length: number
  /** 1-based number of the segment in the input (UNA included). */
  readonly number: number
  /** The segment as written, terminator included (decoded). */
  readonly raw: string
  /** The decimal mark in force for this segment (from the UNA). */
  readonly decimal: string
}

/** A segment that could not be read, with where it was and its raw text. */
export interface SegmentProblem {
  readonly kind: "problem"
  readonly code: "invalid_segment" | "invalid_release" | "truncated" | "invalid_una" | "padding" | "trailing_padding" | "segment_too_long"
  readonly detail: string
  readonly offset: number
  readonly length: number
  readonly number: number
  readonly raw: string
}

export type SegmentItem = Segment | SegmentProblem

/**
 * The longest segment read, in bytes (terminator excluded): 1 MiB. The longest segments of market
 * messages (free texts, FTX) hold a few kilobytes; a file without terminators (or with another one than
 * its UNA names) would otherwise be held whole before it is called truncated. A longer segment is a
 * `segment_too_long` problem as soon as it passes the bound, and its bytes are skipped to its terminator.
 */
export const MAX_SEGMENT_BYTES = 1024 * 1024

/** Characters of an overlong segment kept as its raw text: enough to see its tag and first elements. */
const TOO_LONG_RAW = 64

/** The first characters of a segment too long to keep: its tag and first elements. */
const tooLongProblem = (text: string, start: number, offset: number, number: number, s: Separators): SegmentProblem => {
  const raw = decodeText(text.slice(start, start + TOO_LONG_RAW))
  return {
    kind: "problem",
    code: "segment_too_long",
    detail: `the segment ${JSON.stringify(`${raw.slice(0, 12)}…`)} (number ${number}, at byte ${offset}) is longer than ${MAX_SEGMENT_BYTES} bytes (no terminator ${JSON.stringify(s.terminator)} within them): it is skipped to its terminator`,
    offset,
    length: MAX_SEGMENT_BYTES,
    number,
    raw: `${raw}…`
  }
}

const NOT_ASCII = /[^\u0000-\u007f]/u

const isAscii = (text: string): boolean => !NOT_ASCII.test(text)

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Latin-1 text as UTF-8 when its bytes are valid UTF-8 (a re-encoded file); as it is otherwise. */
const decodeText = (latin1: string): string => {
  if (isAscii(latin1)) return latin1
  try {
    return utf8.decode(Buffer.from(latin1, "latin1"))
  } catch {
    return latin1
  }
}

// Tags are few: each is made once and shared by every segment that has it.
const tags = new Map<number, string>()
const tagOf = (text: string, at: number): string => {
  const key = (text.charCodeAt(at) << 16) | (text.charCodeAt(at + 1) << 8) | text.charCodeAt(at + 2)
  let tag = tags.get(key)
  if (tag === undefined) {
    tag = text.slice(at, at + 3)
    if (tags.size < 4096) tags.set(key, tag)
  }
  return tag
}

/**
 * Whether the character code `c` is a blank between segments, skipped: CR, LF, tab, space (files broken
 * into lines or indented). Not when it is a service character of `s` (a `UNA` may make a space the
 * terminator): then it is part of the interchange.
 */
const isBlank = (c: number, s: Separators): boolean =>
  (c === 10 || c === 13 || c === 32 || c === 9) && c !== s.terminator.charCodeAt(0) && c !== s.element.charCodeAt(0) && c !== s.component.charCodeAt(0) && c !== s.release.charCodeAt(0)

/** A UTF-8 byte order mark, read as Latin-1. */
const BOM = "\u00ef\u00bb\u00bf"

/**
 * Where the blanks and byte order marks from `start` end: a file that was several files put one after the
 * other (`cat *.edi`) has a BOM before each one's `UNA`, which must not hide it.
 */
const skipBetween = (text: string, start: number, s: Separators): number => {
  let at = start
  for (;;) {
    if (at < text.length && isBlank(text.charCodeAt(at), s)) at++
    else if (text.charCodeAt(at) === 0xef && text.startsWith(BOM, at)) at += 3
    else return at
  }
}

const isCapital = (c: number): boolean => c >= 65 && c <= 90
const isCapitalOrDigit = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 48 && c <= 57)

/**
 * The elements of `text` from `from` to `to` (a segment's text after its tag and first element separator,
 * terminator excluded), unescaped; or the index (from `from`) of a release character before an ordinary
 * character. One pass over the character codes: a component without a release character is one slice.
 */
const splitElements = (text: string, from: number, to: number, s: Separators): Array<Array<string>> | number => {
  const component = s.component.charCodeAt(0)
  const element = s.element.charCodeAt(0)
  const release = s.release === "" ? -1 : s.release.charCodeAt(0)
  const terminator = s.terminator.charCodeAt(0)
  const elements: Array<Array<string>> = []
  let components: Array<string> = []
  let start = from
  // The text of the current component before its last release character, unescaped.
  let before: string | undefined
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c === release) {
      const next = i + 1 < to ? text.charCodeAt(i + 1) : -1
      if (next !== release && next !== component && next !== element && next !== terminator) return i - from
      before = (before ?? "") + text.slice(start, i) + text[i + 1]!
      i++
      start = i + 1
    } else if (c === component) {
      components.push(before === undefined ? text.slice(start, i) : before + text.slice(start, i))
      before = undefined
      start = i + 1
    } else if (c === element) {
      components.push(before === undefined ? text.slice(start, i) : before + text.slice(start, i))
      before = undefined
      start = i + 1
      elements.push(components)
      components = []
    }
  }
  components.push(before === undefined ? text.slice(start, to) : before + text.slice(start, to))
  elements.push(components)
  return elements
}

/** The elements of a segment read `light`ly (see {@link ScannerOptions}). */
const NO_ELEMENTS: Array<Array<string>> = []

/** Whether the tag at `at` is a service segment's (`UNA`, `UNB`, `UNH`, `UNT`, `UNZ`…): read whole even when light. */
const isEnvelope = (text: string, at: number): boolean => text.charCodeAt(at) === 85 && text.charCodeAt(at + 1) === 78

/** Where (from `from`) a release character before an ordinary character is, as {@link splitElements} finds it; `undefined` for none. */
const releaseProblem = (text: string, from: number, to: number, s: Separators): number | undefined => {
  if (s.release === "") return undefined
  const ordinary = (c: string | undefined): boolean => c !== s.release && c !== s.component && c !== s.element && c !== s.terminator
  for (let i = text.indexOf(s.release, from); i >= 0 && i < to; i = text.indexOf(s.release, i + 2)) {
    if (i + 1 >= to || ordinary(text[i + 1])) return i - from
  }
  return undefined
}

/**
 * The segment or problem of `text` from `start` to `end` (the index of its terminator), numbered `number`
 * and at byte `offset`; `ascii`: the text has no byte above 0x7F (then nothing needs decoding).
 */
const segmentAt = (text: string, start: number, end: number, offset: number, number: number, s: Separators, ascii: boolean, light: boolean, broken: boolean): SegmentItem => {
  const length = end + 1 - start
  let body = text
  let from = start
  let to = end
  if (!ascii) {
    body = decodeText(text.slice(start, end))
    from = 0
    to = body.length
  }
  // The segment decoded, line breaks and all (byte positions are counted in it).
  const decoded = body
  const decodedFrom = from
  if (broken) {
    body = body.slice(from, to).replace(LINE_BREAKS, "")
    from = 0
    to = body.length
  }
  const size = to - from
  if (size < 3 || !isCapital(body.charCodeAt(from)) || !isCapitalOrDigit(body.charCodeAt(from + 1)) || !isCapitalOrDigit(body.charCodeAt(from + 2)) || (size > 3 && body[from + 3] !== s.element)) {
    const raw = text.slice(start, end + 1)
    return { kind: "problem", code: "invalid_segment", detail: `${JSON.stringify(body.slice(from, Math.min(from + 12, to)))} does not start with a segment tag (three capital letters or digits) and an element separator`, offset, length, number, raw }
  }
  const elements = size <= 3 ? [] : light && !isEnvelope(body, from) ? releaseProblem(body, from + 4, to, s) ?? NO_ELEMENTS : splitElements(body, from + 4, to, s)
  if (typeof elements === "number") {
    // The index is of the decoded text without line breaks: in a segment read as UTF-8 a character may be
    // several bytes, and each line break dropped before it one or two.
    const before = decoded.slice(decodedFrom, decodedFrom + (broken ? withBreaks(decoded, decodedFrom, 4 + elements) : 4 + elements))
    const bytes = ascii || decoded === text.slice(start, end) ? before.length : Buffer.byteLength(before, "utf8")
    return { kind: "problem", code: "invalid_release", detail: `the release character ${JSON.stringify(s.release)} at byte ${offset + bytes} precedes an ordinary character`, offset, length, number, raw: text.slice(start, end + 1) }
  }
  const raw = text.slice(start, end + 1)
  return { kind: "segment", tag: tagOf(body, from), elements, offset, length, number, raw: ascii ? raw : decodeText(raw), decimal: s.decimal }
}

const LINE_BREAKS = /[\r\n]/gu

/** Padding after the last segment: NUL and SUB (DOS's end-of-file mark), blanks between them. */
const PADDING = /^[\u0000\u001a][\u0000\u001a\r\n\t ]*$/u

/** How many characters of `text` from `from` hold the first `count` characters that are not line breaks. */
const withBreaks = (text: string, from: number, count: number): number => {
  let at = from
  for (let seen = 0; seen < count; at++) if (text.charCodeAt(at) !== 10 && text.charCodeAt(at) !== 13) seen++
  return at - from
}

/** Options of a {@link SegmentScanner}: by default it reads an input from its start. */
export interface ScannerOptions {
  /** Read text from the middle of an input: the separators in force there, its byte offset, the number of the segment before it. */
  readonly separators?: Separators
  readonly offset?: number
  readonly number?: number
  /**
   * Split only service segments (`UN…`) into elements; the others come with no elements, checked for
   * their tag and release characters alone (the problems are the same): for a first pass that only
   * checks envelopes.
   */
  readonly light?: boolean
}

/**
 * The segments of an interchange, read synchronously chunk by chunk: {@link readSegments} without a
 * promise per segment, for readers that take many segments at a time.
 */
export class SegmentScanner {
  private s: Separators
  private text = ""
  /** Byte offset of text[0]. */
  private base: number
  private number: number
  private first: boolean
  private readonly light: boolean
  /** Each change of the separators by a `UNA`: its byte offset and the separators from there on. */
  private readonly changes: Array<{ readonly offset: number; readonly separators: Separators }> = []
  // Where to resume the scan for a terminator: text before it has been scanned (and has no terminator).
  private scanFrom = 0
  // Whether the text held has only ASCII (most interchanges): then no segment needs decoding.
  private ascii = true
  // A segment longer than MAX_SEGMENT_BYTES is being skipped: its bytes are not held; `releases` counts
  // the release characters that ended the text skipped so far (an odd number escapes a terminator after them).
  private skipping: { releases: number } | undefined

  constructor(options: ScannerOptions = {}) {
    this.s = options.separators ?? DEFAULT_SEPARATORS
    this.base = options.offset ?? 0
    this.number = options.number ?? 0
    // Text read from the middle of an input has no byte order mark to skip.
    this.first = options.offset === undefined
    this.light = options.light === true
  }

  /** The separators in force at byte `offset` (of text already read). */
  separatorsAt(offset: number): Separators {
    let s: Separators = DEFAULT_SEPARATORS
    for (const change of this.changes) if (change.offset <= offset) s = change.separators
    return s
  }

  /** The byte offset up to which the input has been read into segments. */
  get position(): number {
    return this.base
  }

  /** Reads a chunk of bytes (or text decoded as Latin-1); its segments go to `out`. */
  push(chunk: Uint8Array | string, out: Array<SegmentItem>): void {
    let added = typeof chunk === "string" ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1")
    if (this.skipping !== undefined) {
      const after = this.skipTo(added)
      if (after === undefined) return
      added = added.slice(after)
    }
    this.ascii = isAscii(this.text) && isAscii(added)
    let text = this.text + added
    this.text = text
    if (this.first) {
      if (text.length < 3) return
      this.first = false
      if (text.startsWith(BOM)) {
        text = text.slice(3)
        this.text = text
        this.base = 3
      }
    }
    const ascii = this.ascii
    let start = 0
    let i = this.scanFrom
    // The next line feed and carriage return in the text (-1: none; -2: not looked for yet).
    let lf = -2
    let cr = -2
    for (;;) {
      // Skip the line breaks, blanks and byte order marks between segments.
      start = skipBetween(text, start, this.s)
      // A byte order mark cut by the end of the chunk: wait for the rest.
      if (text.length - start < 3 && text.length > start && BOM.startsWith(text.slice(start))) break
      const first = text.charCodeAt(start)
      if (first === 0 || first === 0x1a) {
        // NUL or SUB padding (DOS's end-of-file mark) of a file another one follows: not data, noted and
        // passed over, so the next file's UNA applies. At the end of the text it may be the input's end: wait.
        let after = start + 1
        while (after < text.length && (text.charCodeAt(after) === 0 || text.charCodeAt(after) === 0x1a || isBlank(text.charCodeAt(after), this.s))) after++
        if (after === text.length) break
        const raw = text.slice(start, after)
        out.push({ kind: "problem", code: "padding", detail: `${raw.length === 1 ? "a byte" : `${raw.length} bytes`} of padding (NUL or SUB) between segments, passed over`, offset: this.base + start, length: raw.length, number: this.number + 1, raw })
        start = after
        i = start
        continue
      }
      if (i < start) i = start
      if (text.startsWith("UNA", start) || (text.length - start < 3 && "UNA".startsWith(text.slice(start)))) {
        if (text.length - start < 9) break
        const una = text.slice(start, start + 9)
        this.number++
        const [component, element, decimal, release, , terminator] = [...una.slice(3)] as [string, string, string, string, string, string]
        const next = { component, element, decimal, release: release === " " ? "" : release, terminator }
        const service = [component, element, terminator, decimal, ...(next.release === "" ? [] : [next.release])]
        // ISO 9735 knows two decimal marks, the comma and the point: any other (a digit, a letter) would
        // make the digits of a number mean something else than they say.
        if (new Set(service).size < service.length || service.some((c) => c === "\n" || c === "\r") || (decimal !== "." && decimal !== ",")) {
          out.push({ kind: "problem", code: "invalid_una", detail: `the service string advice ${JSON.stringify(una)} names one character for two purposes (or a line break), or a decimal mark other than "." and ","; the separators before it stay`, offset: this.base + start, length: 9, number: this.number, raw: una })
        } else {
          this.s = next
          this.changes.push({ offset: this.base + start, separators: next })
          out.push({ kind: "segment", tag: "UNA", elements: [[una.slice(3)]], offset: this.base + start, length: 9, number: this.number, raw: una, decimal })
        }
        start += 9
        i = start
        continue
      }
      // Find the terminator that is not released.
      let end = -1
      const release = this.s.release
      const terminator = this.s.terminator
      while (i < text.length) {
        const t = text.indexOf(terminator, i)
        if (t < 0) {
          i = text.length
          break
        }
        // Count the release characters just before the terminator: an odd number escapes it. A line break
        // between them is not data (a wrapped file): it is passed over.
        let k = t - 1
        let releases = 0
        while (release !== "" && k >= start && (text[k] === release || text.charCodeAt(k) === 10 || text.charCodeAt(k) === 13)) {
          if (text[k] === release) releases++
          k--
        }
        if (releases % 2 === 0) {
          end = t
          break
        }
        i = t + 1
      }
      if (end < 0) {
        if (text.length - start > MAX_SEGMENT_BYTES) {
          // No terminator within the bound: the segment is refused now, and the rest of it skipped unread.
          out.push(tooLongProblem(text, start, this.base + start, ++this.number, this.s))
          // The scan found no terminator that is not released: what matters of the text is how many
          // release characters end it.
          let k = text.length - 1
          while (this.s.release !== "" && k >= start && text[k] === this.s.release) k--
          this.skipping = { releases: text.length - 1 - k }
          this.base += text.length
          this.text = ""
          this.scanFrom = 0
          this.ascii = true
          return
        }
        break
      }
      if (end - start > MAX_SEGMENT_BYTES) {
        out.push(tooLongProblem(text, start, this.base + start, ++this.number, this.s))
        start = end + 1
        i = start
        continue
      }
      // Whether the segment has a line break (a wrapped file): the next of each is looked for only past
      // the one found, so a text without them is searched once.
      if (lf !== -1 && lf < start) lf = text.indexOf("\n", start)
      if (cr !== -1 && cr < start) cr = text.indexOf("\r", start)
      const broken = (lf !== -1 && lf < end) || (cr !== -1 && cr < end)
      out.push(segmentAt(text, start, end, this.base + start, ++this.number, this.s, ascii, this.light, broken))
      start = end + 1
      i = start
    }
    this.text = text.slice(start)
    this.base += start
    this.scanFrom = Math.max(0, i - start)
  }

  /**
   * Skips the text of an overlong segment up to its terminator (one not released): the index in `text`
   * just after it, or `undefined` when `text` ends first (then its bytes are counted as read).
   */
  private skipTo(text: string): number | undefined {
    const skipping = this.skipping!
    const { release, terminator } = this.s
    for (let from = 0; ;) {
      const t = text.indexOf(terminator, from)
      if (t < 0) break
      let k = t - 1
      let releases = 0
      while (release !== "" && k >= 0 && text[k] === release) {
        releases++
        k--
      }
      if (k < 0) releases += skipping.releases
      if (releases % 2 === 0) {
        this.skipping = undefined
        this.base += t + 1
        return t + 1
      }
      from = t + 1
    }
    let k = text.length - 1
    let releases = 0
    while (release !== "" && k >= 0 && text[k] === release) {
      releases++
      k--
    }
    skipping.releases = k < 0 ? skipping.releases + releases : releases
    this.base += text.length
    return undefined
  }

  /**
   * Ends the input: text left after the last terminator is a `truncated` problem, to `out`; or, when it
   * is only NUL and SUB bytes (with blanks), `trailing_padding`: the end-of-file mark of DOS and the block
   * padding of older transfers, which cut off no segment.
   */
  end(out: Array<SegmentItem>): void {
    if (this.skipping !== undefined) {
      // The input ends inside the overlong segment, which was refused already.
      this.skipping = undefined
      this.text = ""
      return
    }
    let text = this.text
    if (this.first && text.startsWith(BOM)) {
      text = text.slice(3)
      this.base = 3
    }
    const rest = skipBetween(text, 0, this.s)
    if (rest < text.length && PADDING.test(text.slice(rest))) {
      this.number++
      const raw = text.slice(rest)
      out.push({ kind: "problem", code: "trailing_padding", detail: `the input ends with ${raw.length === 1 ? "a byte" : `${raw.length} bytes`} of padding (NUL or SUB) after its last segment`, offset: this.base + rest, length: raw.length, number: this.number, raw })
    } else if (rest < text.length) {
      this.number++
      const raw = text.slice(rest)
      out.push({ kind: "problem", code: "truncated", detail: `the input ends inside a segment (no terminator ${JSON.stringify(this.s.terminator)} after ${JSON.stringify(decodeText(raw.slice(0, 12)))})`, offset: this.base + rest, length: raw.length, number: this.number, raw: decodeText(raw) })
    }
    this.text = ""
  }
}

/**
 * Reads the segments of an interchange from chunks of bytes (or text already decoded as Latin-1).
 *
 * @example
 * // The UNA makes "," the decimal mark; "?" releases the "'" of O'Brien; the input ends inside a segment.
 * const items: Array<SegmentItem> = []
 * for await (const item of readSegments([Buffer.from("UNA:+,? 'QTY+220:4,5'FTX+ZZZ+++O?'Brien'QTY+2")])) items.push(item)
 * items.map((item) => `${item.kind} ${item.number}`) // => ["segment 1", "segment 2", "segment 3", "problem 4"]
 * items[1] // => { kind: "segment", tag: "QTY", elements: [["220", "4,5"]], offset: 9, length: 12, number: 2, raw: "QTY+220:4,5'", decimal: "," }
 * items[2].kind === "segment" && items[2].elements // => [["ZZZ"], [""], [""], ["O'Brien"]]
 * items[3] // => { kind: "problem", code: "truncated", detail: "the input ends inside a segment (no terminator \"'\" after \"QTY+2\")", offset: 40, length: 5, number: 4, raw: "QTY+2" }
 */
export async function* readSegments(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<SegmentItem> {
  const scanner = new SegmentScanner()
  const out: Array<SegmentItem> = []
  for await (const chunk of chunks) {
    scanner.push(chunk, out)
    for (const item of out) yield item
    out.length = 0
  }
  scanner.end(out)
  yield* out
}
