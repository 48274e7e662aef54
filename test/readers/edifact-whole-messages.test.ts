/**
 * A message as one document (src/readers/edifact/whole-messages.ts): over generated inputs of messages
 * whose records are taken, rejected or left out, every message ends wholly as records or wholly without
 * one, nothing is lost or added, and the order of the items stays.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { EdifactRecordItem } from "../../src/readers/edifact/records.js"
import { DOCUMENT_INCOMPLETE, WholeMessages, wholeMessage } from "../../src/readers/edifact/whole-messages.js"

type Fate = "record" | "reject" | "superseded" | "cancelled" | "warning"

/** The items of an input: per message, the fates of its items in order; segments numbered through. */
const itemsOf = (messages: ReadonlyArray<ReadonlyArray<Fate>>): Array<EdifactRecordItem> => {
  let segment = 0
  return messages.flatMap((fates, m) =>
    fates.map((fate): EdifactRecordItem => {
      segment += 3
      const at = { offset: segment * 20, segment, message: m + 1, messageReference: `M${m + 1}` }
      const raw = `QTY+Z31:${segment}'`
      if (fate === "record") return { kind: "record", record: { "QTY.1.2": String(segment) }, at, raw }
      if (fate === "reject") return { kind: "reject", code: "invalid_number", detail: "not a number", at, raw }
      if (fate === "warning") return { kind: "warning", code: "series_gap", detail: "a gap", at, raw }
      return { kind: "exclusion", code: fate, reason: fate, detail: `${fate} by another`, at, raw, record: { "QTY.1.2": String(segment) } }
    })
  )
}

const run = (items: ReadonlyArray<EdifactRecordItem>): Array<EdifactRecordItem> => {
  const whole = new WholeMessages()
  return [...items.flatMap((item) => whole.add(item)), ...whole.end()]
}

const fates = fc.array(fc.array(fc.constantFrom<Fate>("record", "record", "record", "reject", "superseded", "cancelled", "warning"), { maxLength: 6 }), { maxLength: 6 })

describe("each message as one document", () => {
  it("property: a message ends wholly as records or with none; every item once, in order", () => {
    fc.assert(
      fc.property(fates, (messages) => {
        const items = itemsOf(messages)
        const out = run(items)
        // Nothing lost, nothing added: each segment once; a message's items in their order.
        expect(out.map((i) => i.at.segment).sort((a, b) => a - b)).toEqual(items.map((i) => i.at.segment))
        for (const [m, fatesOf] of messages.entries()) {
          const mine = out.filter((i) => i.at.message === m + 1 && i.kind !== "warning")
          expect(mine.map((i) => i.at.segment)).toEqual(items.filter((i) => i.at.message === m + 1 && i.kind !== "warning").map((i) => i.at.segment))
          const records = mine.filter((i) => i.kind === "record").length
          const kept = fatesOf.filter((f) => f !== "warning")
          if (kept.every((f) => f === "record")) expect(records).toBe(kept.length)
          else expect(records).toBe(0)
          // A reject takes its message's records as document_incomplete; else the first exclusion takes them.
          const firstOut = kept.find((f) => f !== "record")
          for (const [k, item] of mine.entries()) {
            if (kept[k] !== "record" || firstOut === undefined) continue
            if (kept.includes("reject")) expect(item).toMatchObject({ kind: "reject", code: DOCUMENT_INCOMPLETE })
            else expect(item).toMatchObject({ kind: "exclusion", code: firstOut, reason: firstOut })
          }
        }
      })
    )
  })

  it("names the segment that cost the document, and keeps the cells of a record left out", () => {
    const [a, b, c] = itemsOf([["record", "superseded", "record"]])
    const out = wholeMessage([a!, b!, c!])
    expect(out[0]).toEqual({ kind: "exclusion", code: "superseded", reason: "superseded", detail: "left out with its message, one document: its segment 6 is superseded (superseded by another)", at: a!.at, raw: a!.raw, record: { "QTY.1.2": "3" } })
    expect(out[1]).toBe(b)
    const [d, e] = itemsOf([["record", "reject"]])
    expect(wholeMessage([d!, e!])[0]).toEqual({ kind: "reject", code: DOCUMENT_INCOMPLETE, detail: "the message is one document, and its segment 6 was rejected (invalid_number)", at: d!.at, raw: d!.raw })
  })

  it("passes an item outside any message at once, after settling the message before it", () => {
    const whole = new WholeMessages()
    const [a] = itemsOf([["record"]])
    expect(whole.add(a!)).toEqual([])
    const outside: EdifactRecordItem = { kind: "reject", code: "truncated", detail: "cut off", at: { offset: 900, segment: 40 }, raw: "UNZ+1" }
    expect(whole.add(outside)).toEqual([a, outside])
    expect(whole.end()).toEqual([])
  })
})
