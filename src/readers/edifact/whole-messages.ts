/**
 * A message as one document (the reader file's `"wholeMessages": true`): a delivery note is one MSCONS
 * message, and without one of its amounts it is another document, not a smaller one. So when one record
 * of a message is rejected (a number that is not one, an OBIS code without a unit, no account for its
 * MaLo), every other record of that message is rejected too, as `document_incomplete` naming the failing
 * segment; and when one is left out on purpose (`superseded` by a later document's value, `cancelled`,
 * `skipped`), every other record of it is left out with the same outcome and reason, its detail naming
 * that segment. A reject wins over an exclusion: a document that cannot go out for a fault is a problem
 * to see, whatever else became of it.
 *
 * A message's items are held until an item of another message (or the end) arrives: memory is one
 * message's records, as the reader already holds one message's text. Notices (warnings) pass at once:
 * they cost nothing, and the series check gives a message's warnings after its last record.
 *
 * @module
 */
import type { EdifactExclusion, EdifactRecordItem, EdifactReject } from "./records.js"

/** The code of a record rejected because another record of its message was. */
export const DOCUMENT_INCOMPLETE = "document_incomplete"

/**
 * The items of one message, settled as one document: unchanged when none is a reject or an exclusion;
 * else every record becomes a reject `document_incomplete` (when one item is a reject) or an exclusion
 * like the first one left out.
 *
 * @example
 * const at = (segment: number) => ({ offset: segment * 10, segment, message: 1, messageReference: "M1" })
 * const record = (segment: number) => ({ kind: "record" as const, record: { "QTY.1.2": "4" }, at: at(segment), raw: "QTY+Z31:4'" })
 * const reject = { kind: "reject" as const, code: "unknown_obis", detail: "no unit for 1-1:9.99.0", at: at(20), raw: "QTY+Z31:5'" }
 * const settled = wholeMessage([record(14), reject])
 * settled.map((i) => (i.kind === "record" ? "record" : i.code)) // => ["document_incomplete", "unknown_obis"]
 * settled.map((i) => (i.kind === "reject" ? i.detail : ""))[0] // => "the message is one document, and its segment 20 was rejected (unknown_obis)"
 * wholeMessage([record(14), record(17)]).every((i) => i.kind === "record") // => true
 */
export const wholeMessage = (items: ReadonlyArray<EdifactRecordItem>): Array<EdifactRecordItem> => {
  const failed = items.find((i): i is EdifactReject => i.kind === "reject")
  if (failed !== undefined) {
    const detail = `the message is one document, and its segment ${failed.at.segment} was rejected (${failed.code})`
    return items.map((i) => (i.kind === "record" ? { kind: "reject", code: DOCUMENT_INCOMPLETE, detail, at: i.at, raw: i.raw } : i))
  }
  const left = items.find((i): i is EdifactExclusion => i.kind === "exclusion")
  if (left !== undefined) {
    const detail = `left out with its message, one document: its segment ${left.at.segment} is ${left.code} (${left.detail})`
    return items.map((i) =>
      i.kind === "record" ? { kind: "exclusion", code: left.code, reason: left.reason, detail, at: i.at, raw: i.raw, record: i.record } : i
    )
  }
  return [...items]
}

/**
 * The items of an input, settled message by message ({@link wholeMessage}): {@link add} each item in
 * order, and take what it returns; {@link end} after the last.
 *
 * @example
 * const whole = new WholeMessages()
 * const at = (message: number, segment: number) => ({ offset: 0, segment, message, messageReference: `M${message}` })
 * whole.add({ kind: "record", record: {}, at: at(1, 14), raw: "" }) // => []
 * whole.add({ kind: "record", record: {}, at: at(2, 40), raw: "" }).map((i) => i.at.segment) // => [14]
 * whole.end().map((i) => i.at.segment) // => [40]
 */
export class WholeMessages {
  private held: Array<EdifactRecordItem> = []
  private message: number | undefined

  /** Takes `item`; returns the items of the message before it, settled, once that message is complete. */
  add(item: EdifactRecordItem): Array<EdifactRecordItem> {
    if (item.kind === "warning") return [item]
    const message = item.at.message
    if (message === undefined) return [...this.end(), item]
    if (message !== this.message) {
      const done = this.end()
      this.message = message
      this.held.push(item)
      return done
    }
    this.held.push(item)
    return []
  }

  /** The items of the message held, settled. */
  end(): Array<EdifactRecordItem> {
    const done = wholeMessage(this.held)
    this.held = []
    this.message = undefined
    return done
  }
}
