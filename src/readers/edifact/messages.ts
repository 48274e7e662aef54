/**
 * The messages of an EDIFACT interchange, with their envelopes checked: `UNB`…`UNZ` (the interchange
 * reference and the message count of `UNZ`) and `UNH`…`UNT` (the message reference and the segment count
 * of `UNT`). A message comes out whole, or as one located problem that costs it alone: a damaged segment
 * inside it, a wrong or missing `UNT`, or the input ending inside it. A problem of the interchange itself
 * (a wrong `UNZ` count, a segment outside any message) costs no message: each message is checked by its
 * own `UNT`.
 *
 * Memory is bounded by the largest message: its segments are held until its `UNT` is checked.
 *
 * @module
 */
import { type Segment, type SegmentItem, type SegmentProblem, SegmentScanner } from "./segments.js"

/** The interchange a message came in: `UNB` 0020 reference, sender, recipient, syntax. */
export interface Interchange {
  readonly reference: string
  readonly sender: string
  readonly recipient: string
  readonly syntax: string
}

/** A message whose envelope checked out: `UNH`…`UNT` inclusive. */
export interface EdifactMessage {
  readonly kind: "message"
  readonly interchange: Interchange | undefined
  /** `UNH` 0062 message reference. */
  readonly reference: string
  /** `UNH` S009: type (0065), version (0052), release (0054), agency (0051), association code (0057). */
  readonly type: string
  readonly version: string
  readonly release: string
  readonly association: string
  /** 1-based number of the message in the input. */
  readonly number: number
  readonly segments: ReadonlyArray<Segment>
}

/** Where a problem is: byte offset and segment number in the input, and the message it cost, if any. */
export interface EdifactLocation {
  readonly offset: number
  readonly segment: number
  /** 1-based number of the message in the input. */
  readonly message?: number
  /** `UNH` 0062. */
  readonly messageReference?: string
  /** `UNB` 0020. */
  readonly interchangeReference?: string
}

/** A located problem; `segments` are the ones it cost (all of a damaged message), `raw` the damaged text. */
export interface EdifactProblem {
  readonly kind: "problem"
  readonly code: string
  readonly detail: string
  readonly at: EdifactLocation
  readonly raw: string
  /** The segments the problem cost (read or not): the whole message, or the stray segment. */
  readonly segmentNumbers: ReadonlyArray<number>
  /** The segments of the message it cost that could be read (for per-record rejects). */
  readonly segments: ReadonlyArray<Segment>
  /** The segments of the message it cost that could not be read (a damaged record segment is rejected too). */
  readonly damaged: ReadonlyArray<SegmentProblem>
}

/** Something a message got through with, because the options allow it (a wrong `UNT` count under `segmentCount: "warn"`). */
export interface EdifactWarning {
  readonly kind: "warning"
  readonly code: string
  readonly detail: string
  readonly at: EdifactLocation
  readonly raw: string
}

export type MessageItem = EdifactMessage | EdifactProblem | EdifactWarning

/** Options of {@link readMessages}. */
export interface MessageOptions {
  /**
   * What a `UNT` segment count that does not match does: `"check"` (default) costs the message;
   * `"warn"` lets it through with a located warning (some real senders write a wrong count).
   */
  readonly segmentCount?: "check" | "warn"
}

/** Component `c` of element `e` (0-based) of a segment, `""` when it has none. */
export const el = (segment: Segment, e: number, c = 0): string => segment.elements[e]?.[c] ?? ""

/** Whether a count of a trailer (`UNT` 0074, `UNE` 0060) is written in digits and is `n`. */
const countIs = (text: string, n: number): boolean => /^[0-9]+$/u.test(text) && Number(text) === n

/** The `UNH` 0062 of a message; `""` when its UNH could not be read (its text is in the problem's `raw`). */
const referenceOf = (unh: SegmentItem): string => (unh.kind === "segment" ? el(unh, 0) : "")

/**
 * Whether a segment that could not be read is a `UNH` all the same (a release character before an
 * ordinary one in it, say): it still opens a message, damaged, so the message is lost as one, not each of
 * its segments as one outside any message.
 */
const isDamagedUnh = (item: SegmentItem): boolean => item.kind === "problem" && item.raw.startsWith("UNH")

/**
 * Whether a segment that could not be read is a `UNB` or `UNZ` all the same: the interchange is opened or
 * closed by it (reference unknown), and the damage noted, costing nothing (no record is in an envelope).
 */
const damagedEnvelope = (item: SegmentItem): "UNB" | "UNZ" | undefined =>
  item.kind !== "problem" ? undefined : item.raw.startsWith("UNB") ? "UNB" : item.raw.startsWith("UNZ") ? "UNZ" : undefined

interface Open {
  /** The message's UNH, or the problem of a UNH that could not be read (then `damage` is set). */
  readonly unh: Segment | SegmentProblem
  /** The items held for the message (`keep`): all of them, or the segments kept and every segment problem. */
  readonly items: Array<SegmentItem>
  /** Items of the message after the UNH, held or not. */
  count: number
  last: SegmentItem | undefined
  damage: { code: string; detail: string; item: SegmentItem } | undefined
}

/** What a reader of messages holds of each message. */
export interface MessageHooks {
  /**
   * The segments held for the message (its `segments`, and those of a problem that costs it), beside its
   * UNH and its segment problems (always held); every item when absent. Holding fewer holds less memory;
   * the counts are checked all the same.
   */
  readonly keep?: (segment: Segment) => boolean
}

/** What {@link MessageReader} gives: {@link readMessages}' items. */
export type MessageEvent = MessageItem

/**
 * The envelope checks of {@link readMessages}, one segment at a time (synchronously); `keep` holds fewer
 * of a message's segments until its `UNT` (a reader that reads a message that checked out again).
 */
export class MessageReader {
  private readonly warnCount: boolean
  /** The open interchange; `undefined` outside one, or inside one whose UNB could not be read. */
  private interchange: Interchange | undefined
  /** The UNB of the open interchange (or the problem of one that could not be read). */
  private unb: SegmentItem | undefined
  private messagesInInterchange = 0
  /** The functional groups (`UNG`…`UNE`) of the interchange so far: when it has any, its UNZ counts them, not messages. */
  private groupsInInterchange = 0
  /** The open functional group: its UNG 0048 reference and the messages in it so far. */
  private group: { readonly reference: string; messages: number } | undefined
  private messageNumber = 0
  private open: Open | undefined
  /** Whether the messages outside any interchange since the last `UNZ` (or the start) were noted. */
  private notedOutside = false

  constructor(options: MessageOptions, private readonly hooks: MessageHooks = {}) {
    this.warnCount = options.segmentCount === "warn"
  }

  /**
   * The byte offset of the open message's `UNH` while the message has no damage; `undefined` otherwise.
   * A damaged message is rejected from the segments held, never read again from its text: a reader that
   * keeps the open message's text for a second pass can drop it (a skipped overlong segment too).
   */
  get openUndamagedAt(): number | undefined {
    return this.open?.damage === undefined ? this.open?.unh.offset : undefined
  }

  private problemOf(code: string, detail: string, at: SegmentItem, cost: ReadonlyArray<SegmentItem>, message?: Open): EdifactProblem {
    const interchange = this.interchange
    return {
      kind: "problem",
      code,
      detail,
      at: {
        offset: at.offset,
        segment: at.number,
        ...(message !== undefined ? { message: this.messageNumber, messageReference: referenceOf(message.unh) } : {}),
        ...(interchange !== undefined ? { interchangeReference: interchange.reference } : {})
      },
      raw: at.raw,
      segmentNumbers: cost.map((s) => s.number),
      segments: cost.filter((s): s is Segment => s.kind === "segment"),
      damaged: cost.filter((s): s is SegmentProblem => s.kind === "problem")
    }
  }

  private closeDamaged(message: Open, code: string, detail: string, at: SegmentItem): EdifactProblem {
    return this.problemOf(message.damage?.code ?? code, message.damage?.detail ?? detail, message.damage?.item ?? at, [message.unh, ...message.items], message)
  }

  /** Takes the next segment (or segment problem) of the input; what it completes goes to `out`. */
  take(item: SegmentItem, out: (event: MessageEvent) => void): void {
    if (item.kind === "problem" && item.code === "padding") {
      // Padding between segments (a file another one follows) is no segment: noted, costing nothing.
      out(this.problemOf(item.code, item.detail, item, []))
      return
    }
    if (item.kind === "problem" && item.code === "trailing_padding") {
      // Padding ends the input: a message still open is cut off before it; the padding itself costs nothing.
      if (this.open !== undefined) out(this.closeDamaged(this.open, "truncated", `the input ends inside message ${referenceOf(this.open.unh)} (no UNT)`, this.open.last ?? this.open.unh))
      this.open = undefined
      out(this.problemOf(item.code, item.detail, item, []))
      return
    }
    const open = this.open
    if (open !== undefined) {
      const tag = item.kind === "segment" ? item.tag : isDamagedUnh(item) ? "UNH" : undefined
      if (tag === "UNH" || tag === "UNZ" || tag === "UNB" || tag === "UNG" || tag === "UNE") {
        // The message was never closed: it ends before this segment.
        out(this.closeDamaged(open, "message_not_closed", `the message ${referenceOf(open.unh)} has no UNT before this ${tag}`, item))
        this.open = undefined
      } else {
        open.count++
        open.last = item
        const keep = this.hooks.keep
        // A segment problem is always held (they are few): a damaged record segment is still a record to reject.
        if (keep === undefined || item.kind === "problem" || keep(item)) open.items.push(item)
        if (item.kind === "problem" && open.damage === undefined) open.damage = { code: item.code, detail: item.detail, item }
        if (tag !== "UNT") return
        const unt = item as Segment
        const m = open
        this.open = undefined
        // Without damage the UNH was read (a damaged one is the message's damage).
        const unh = m.unh as Segment
        const count = el(unt, 0)
        const segments = m.count + 1
        const countOk = countIs(count, segments)
        if (m.damage !== undefined) {
          out(this.closeDamaged(m, "", "", unt))
        } else if (!countOk && !this.warnCount) {
          out(this.problemOf("segment_count_mismatch", `UNT says the message has ${count} segments; it has ${segments} (UNH to UNT)`, unt, [m.unh, ...m.items], m))
        } else if (el(unt, 1) !== el(unh, 0)) {
          out(this.problemOf("message_reference_mismatch", `UNT names message ${JSON.stringify(el(unt, 1))}, UNH named ${JSON.stringify(el(unh, 0))}`, unt, [m.unh, ...m.items], m))
        } else {
          if (!countOk) {
            const { kind: _, segmentNumbers: __, segments: ___, damaged: ____, ...rest } = this.problemOf("segment_count_mismatch", `UNT says the message has ${count} segments; it has ${segments} (UNH to UNT); read anyway (segmentCount: "warn")`, unt, [], m)
            out({ kind: "warning", ...rest })
          }
          out({
            kind: "message",
            interchange: this.interchange,
            reference: el(unh, 0),
            type: el(unh, 1, 0),
            version: el(unh, 1, 1),
            release: el(unh, 1, 2),
            association: el(unh, 1, 4),
            number: this.messageNumber,
            segments: [unh, ...(m.items as Array<Segment>)]
          })
        }
        return
      }
    }
    if (item.kind === "problem") {
      const envelope = damagedEnvelope(item)
      if (isDamagedUnh(item)) this.openMessage(item, out)
      else if (envelope === undefined) out(this.problemOf(item.code, item.detail, item, [item]))
      else {
        out(this.problemOf(item.code, item.detail, item, []))
        if (envelope === "UNB") this.openInterchange(item, undefined, out)
        else this.closeInterchange()
      }
      return
    }
    switch (item.tag) {
      case "UNA":
        return
      case "UNB":
        this.openInterchange(item, { reference: el(item, 4), sender: el(item, 1), recipient: el(item, 2), syntax: item.elements[0]?.join(":") ?? "" }, out)
        return
      case "UNG":
        // A functional group: its messages are read as any; its UNE is checked as a UNZ is, costing nothing.
        if (this.group !== undefined) out(this.problemOf("group_not_closed", `the functional group ${this.group.reference} has no UNE before this UNG`, item, []))
        this.group = { reference: el(item, 4), messages: 0 }
        this.groupsInInterchange++
        return
      case "UNE": {
        const group = this.group
        if (group === undefined) out(this.problemOf("group_not_open", "UNE without UNG", item, []))
        else if (el(item, 1) !== group.reference) {
          out(this.problemOf("group_reference_mismatch", `UNE names functional group ${JSON.stringify(el(item, 1))}, UNG named ${JSON.stringify(group.reference)}`, item, []))
        } else if (!countIs(el(item, 0), group.messages)) {
          out(this.problemOf("group_message_count_mismatch", `UNE says the functional group has ${el(item, 0)} messages; it has ${group.messages}`, item, []))
        }
        this.group = undefined
        return
      }
      case "UNH":
        this.openMessage(item, out)
        return
      case "UNZ": {
        const interchange = this.interchange
        // A UNZ without UNB closes nothing, and holds no record: noted, costing nothing.
        if (this.unb === undefined) out(this.problemOf("interchange_not_open", "UNZ without UNB", item, []))
        else if (interchange !== undefined && el(item, 1) !== interchange.reference) {
          out(this.problemOf("interchange_reference_mismatch", `UNZ names interchange ${JSON.stringify(el(item, 1))}, UNB named ${JSON.stringify(interchange.reference)}`, item, []))
        } else if (Number(el(item, 0)) !== (this.groupsInInterchange > 0 ? this.groupsInInterchange : this.messagesInInterchange)) {
          // With functional groups, UNZ 0036 counts the groups (ISO 9735), not the messages.
          const [what, counted] = this.groupsInInterchange > 0 ? ["functional groups", this.groupsInInterchange] : ["messages", this.messagesInInterchange]
          out(this.problemOf("message_count_mismatch", `UNZ says the interchange has ${el(item, 0)} ${what}; it has ${counted}`, item, []))
        }
        if (this.group !== undefined) out(this.problemOf("group_not_closed", `the functional group ${this.group.reference} has no UNE before this UNZ`, item, []))
        this.closeInterchange()
        return
      }
      default:
        out(this.problemOf("segment_outside_message", `the ${item.tag} segment is outside any message (no UNH before it)`, item, [item]))
    }
  }

  /** Opens an interchange at its UNB (`interchange` undefined: the UNB could not be read). */
  private openInterchange(unb: SegmentItem, interchange: Interchange | undefined, out: (event: MessageEvent) => void): void {
    if (this.unb !== undefined) out(this.problemOf("interchange_not_closed", `the interchange ${this.interchange?.reference ?? "(UNB not read)"} has no UNZ before this UNB`, unb, []))
    this.unb = unb
    this.notedOutside = false
    this.interchange = interchange
    this.messagesInInterchange = 0
    this.groupsInInterchange = 0
    this.group = undefined
  }

  /** Closes the interchange: what comes after is in none until the next UNB, not located in the one closed here. */
  private closeInterchange(): void {
    this.unb = undefined
    this.interchange = undefined
    this.group = undefined
    this.groupsInInterchange = 0
  }

  /** Opens a message at its UNH (read, or damaged: then the message is, from the start). */
  private openMessage(unh: Segment | SegmentProblem, out: (event: MessageEvent) => void): void {
    // Messages without a UNB are read (a file cut down to its messages, say), but their interchange
    // cannot be checked: noted once for each run of them, costing none.
    if (this.unb === undefined && !this.notedOutside) {
      this.notedOutside = true
      out(this.problemOf("interchange_not_open", "UNH without UNB: the messages from here are outside any interchange, whose UNZ count cannot be checked", unh, []))
    }
    this.messageNumber++
    this.messagesInInterchange++
    if (this.group !== undefined) this.group.messages++
    const damage = unh.kind === "problem" ? { code: unh.code, detail: unh.detail, item: unh } : undefined
    this.open = { unh, items: [], count: 0, last: undefined, damage }
  }

  /** Ends the input: a message or interchange left open is a problem, to `out`. */
  end(out: (event: MessageEvent) => void): void {
    const open = this.open
    if (open !== undefined) {
      this.open = undefined
      out(this.closeDamaged(open, "truncated", `the input ends inside message ${referenceOf(open.unh)} (no UNT)`, open.last ?? open.unh))
    }
    if (this.unb !== undefined) {
      out(this.problemOf("interchange_not_closed", `the input ends inside interchange ${this.interchange?.reference ?? "(UNB not read)"} (no UNZ)`, this.unb, []))
      this.unb = undefined
    }
  }
}

/**
 * Reads the messages of one input (any number of interchanges).
 *
 * @example
 * // Two messages; the UNT of the second counts 5 segments where it has 2 (UNH to UNT).
 * const text = "UNB+UNOC:3+SENDER+RECEIVER+240101:1200+42'UNH+1+MSCONS:D:04B:UN:2.4c'BGM+7+DOC-1+9'UNT+3+1'UNH+2+MSCONS:D:04B:UN:2.4c'UNT+5+2'UNZ+2+42'"
 * const items: Array<MessageItem> = []
 * for await (const item of readMessages([Buffer.from(text)])) items.push(item)
 * items.map((item) => item.kind) // => ["message", "problem"]
 * items[0] // => { kind: "message", reference: "1", type: "MSCONS", version: "D", release: "04B", association: "2.4c", number: 1, … }
 * items[0].kind === "message" && items[0].interchange // => { reference: "42", sender: "SENDER", recipient: "RECEIVER", syntax: "UNOC:3" }
 * items[0].kind === "message" && items[0].segments.map((segment) => segment.tag) // => ["UNH", "BGM", "UNT"]
 * items[1] // => { kind: "problem", code: "segment_count_mismatch", detail: "UNT says the message has 5 segments; it has 2 (UNH to UNT)", at: { offset: 118, segment: 6, message: 2, messageReference: "2", interchangeReference: "42" }, raw: "UNT+5+2'", segmentNumbers: [5, 6], … }
 *
 * // With `segmentCount: "warn"` the second message gets through, after a warning.
 * const kinds: Array<string> = []
 * for await (const item of readMessages([text], { segmentCount: "warn" })) kinds.push(item.kind)
 * kinds // => ["message", "warning", "message"]
 */
export async function* readMessages(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: MessageOptions = {}
): AsyncGenerator<MessageItem> {
  const reader = new MessageReader(options)
  // Segments are taken a chunk at a time and handed on synchronously: no promise per segment.
  const out: Array<MessageItem> = []
  const take = (event: MessageEvent): void => {
    out.push(event)
  }
  const scanner = new SegmentScanner()
  const segments: Array<SegmentItem> = []
  for await (const chunk of chunks) {
    scanner.push(chunk, segments)
    for (const item of segments) reader.take(item, take)
    segments.length = 0
    yield* out
    out.length = 0
  }
  scanner.end(segments)
  for (const item of segments) reader.take(item, take)
  reader.end(take)
  yield* out
}
