/**
 * The segments of an EDIFACT interchange, read as a stream: the service string advice (`UNA`) sets the
 * separators, the release character and the decimal mark; each segment comes out with its elements and
 * components unescaped and with where it was (byte offset, length, segment number). A segment that
 * cannot be read (a bad tag, a release character before an ordinary character, text cut off at the end)
 * comes out as a located problem, never as an exception and never left out.
 *
 * Bytes are read as Latin-1 (UNOC, ISO 8859-1), one character per byte, so offsets are byte offsets; a
 * segment with bytes above 0x7F that form valid UTF-8 is read as UTF-8 (files re-encoded on the way). A
 * UTF-8 byte order mark is skipped; CR and LF between segments are ignored.
 *
 * @module
 */

/** The service characters of an interchange (`UNA:+.? '` by default). */
export interface Separators {
  readonly component: string
  readonly element: string
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
  readonly code: "invalid_segment" | "invalid_release" | "truncated" | "invalid_una"
  readonly detail: string
  readonly offset: number
  readonly length: number
  readonly number: number
  readonly raw: string
}

export type SegmentItem = Segment | SegmentProblem

const TAG = /^[A-Z][A-Z0-9]{2}$/u

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

/** The elements of a segment's text (tag and terminator excluded), or the index of a bad release. */
const splitSegment = (body: string, s: Separators): Array<Array<string>> | number => {
  if (s.release === "" || !body.includes(s.release)) return body.split(s.element).map((e) => e.split(s.component))
  const elements: Array<Array<string>> = []
  let components: Array<string> = []
  let current = ""
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c === s.release) {
      const next = body[i + 1]
      if (next !== s.release && next !== s.component && next !== s.element && next !== s.terminator) return i
      current += next
      i++
    } else if (c === s.component) {
      components.push(current)
      current = ""
    } else if (c === s.element) {
      components.push(current)
      elements.push(components)
      components = []
      current = ""
    } else current += c
  }
  components.push(current)
  elements.push(components)
  return elements
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
  let s: Separators = DEFAULT_SEPARATORS
  let text = ""
  /** Byte offset of text[0]. */
  let base = 0
  let number = 0
  let first = true
  // Where to resume the scan for a terminator: text before it has been scanned (and has no terminator).
  let scanFrom = 0
  // Whether the text held has only ASCII (most interchanges): then no segment needs decoding.
  let ascii = true
  const segmentOf = (start: number, end: number): SegmentItem => {
    // end: index of the terminator
    const raw = text.slice(start, end + 1)
    const offset = base + start
    number++
    const body = ascii ? text.slice(start, end) : decodeText(text.slice(start, end))
    const tag = body.slice(0, 3)
    if (!TAG.test(tag) || (body.length > 3 && body[3] !== s.element)) {
      return { kind: "problem", code: "invalid_segment", detail: `${JSON.stringify(body.slice(0, 12))} does not start with a segment tag (three capital letters or digits) and an element separator`, offset, length: raw.length, number, raw }
    }
    const elements = body.length > 3 ? splitSegment(body.slice(4), s) : []
    if (typeof elements === "number") {
      return { kind: "problem", code: "invalid_release", detail: `the release character ${JSON.stringify(s.release)} at byte ${offset + 4 + elements} precedes an ordinary character`, offset, length: raw.length, number, raw }
    }
    return { kind: "segment", tag, elements, offset, length: raw.length, number, raw: ascii ? raw : decodeText(raw), decimal: s.decimal }
  }
  for await (const chunk of chunks) {
    const added = typeof chunk === "string" ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1")
    ascii = isAscii(text) && isAscii(added)
    text += added
    if (first) {
      if (text.length < 3) continue
      first = false
      if (text.startsWith("\u00ef\u00bb\u00bf")) {
        text = text.slice(3)
        base = 3
      }
    }
    let start = 0
    let i = scanFrom
    for (;;) {
      // Skip the line breaks between segments.
      while (start < text.length && (text.charCodeAt(start) === 10 || text.charCodeAt(start) === 13)) start++
      if (i < start) i = start
      if (text.startsWith("UNA", start) || (text.length - start < 3 && "UNA".startsWith(text.slice(start)))) {
        if (text.length - start < 9) break
        const una = text.slice(start, start + 9)
        number++
        const [component, element, decimal, release, , terminator] = [...una.slice(3)] as [string, string, string, string, string, string]
        const next = { component, element, decimal, release: release === " " ? "" : release, terminator }
        const service = [component, element, terminator, ...(next.release === "" ? [] : [next.release])]
        if (new Set(service).size < service.length || service.some((c) => c === "\n" || c === "\r")) {
          yield { kind: "problem", code: "invalid_una", detail: `the service string advice ${JSON.stringify(una)} names one character for two purposes (or a line break); the separators before it stay`, offset: base + start, length: 9, number, raw: una }
        } else {
          s = next
          yield { kind: "segment", tag: "UNA", elements: [[una.slice(3)]], offset: base + start, length: 9, number, raw: una, decimal }
        }
        start += 9
        i = start
        continue
      }
      // Find the terminator that is not released.
      let end = -1
      const release = s.release
      const terminator = s.terminator
      while (i < text.length) {
        const t = text.indexOf(terminator, i)
        if (t < 0) {
          i = text.length
          break
        }
        // Count the release characters just before the terminator: an odd number escapes it.
        let k = t - 1
        let releases = 0
        while (release !== "" && k >= start && text[k] === release) {
          releases++
          k--
        }
        if (releases % 2 === 0) {
          end = t
          break
        }
        i = t + 1
      }
      if (end < 0) break
      yield segmentOf(start, end)
      start = end + 1
      i = start
    }
    text = text.slice(start)
    base += start
    scanFrom = Math.max(0, i - start)
  }
  if (first && text.startsWith("\u00ef\u00bb\u00bf")) {
    text = text.slice(3)
    base = 3
  }
  let rest = 0
  while (rest < text.length && (text.charCodeAt(rest) === 10 || text.charCodeAt(rest) === 13 || text.charCodeAt(rest) === 32)) rest++
  if (rest < text.length) {
    number++
    const raw = text.slice(rest)
    yield { kind: "problem", code: "truncated", detail: `the input ends inside a segment (no terminator ${JSON.stringify(s.terminator)} after ${JSON.stringify(decodeText(raw.slice(0, 12)))})`, offset: base + rest, length: raw.length, number, raw: decodeText(raw) }
  }
}
