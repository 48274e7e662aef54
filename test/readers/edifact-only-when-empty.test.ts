/**
 * Record tags that start a record only when their group holds no other record (`onlyWhenEmpty`): a UTILTS
 * transaction (`IDE`) with definitions (`SEQ`) is their context, one without any is a record itself, so
 * that every transaction ends in an outcome. The records expected are counted from the generated text,
 * never from the reader.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const read = async (text: string, options: EdifactRecordOptions): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([text], options)) items.push(item)
  return items
}

const UTILTS: EdifactRecordOptions = { record: ["IDE", "SEQ"], groups: ["IDE", "SEQ"], detail: "UNH", onlyWhenEmpty: ["IDE"], messages: ["UTILTS:D:18A"] }

/** A message of transactions, each with `n` definitions; its text, one segment a line, and the segment number of each record expected. */
const message = (definitions: ReadonlyArray<number>): { readonly text: string; readonly expected: Array<readonly [string, number]> } => {
  const segments = ["UNB+UNOC:3+9900000000001:500+9900000000002:500+241215:1100+U1", "UNH+1+UTILTS:D:18A:UN:1.1e", "BGM+Z60+D-1", "NAD+MS+9900000000001::293"]
  const expected: Array<readonly [string, number]> = []
  definitions.forEach((n, t) => {
    segments.push(`IDE+24+T${t}`)
    if (n === 0) expected.push([`T${t}`, segments.length])
    segments.push(`STS+Z36+${n === 0 ? "Z46" : "Z45"}`, "RFF+Z13:25004")
    for (let d = 0; d < n; d++) {
      segments.push("SEQ+Z42")
      expected.push([`T${t}`, segments.length])
      segments.push(`CCI+Z39++D${d}`)
    }
  })
  segments.push(`UNT+${segments.length}+1`, "UNZ+1+U1")
  return { text: segments.map((s) => `${s}'\n`).join(""), expected }
}

describe("onlyWhenEmpty: a group's own record only when it holds none", () => {
  it("a transaction with definitions gives theirs, one without any its own, in the order of the message", async () => {
    const { text, expected } = message([2, 0, 1, 0])
    const items = await read(text, UTILTS)
    // IDE T0 (line 5) holds SEQ at 8, 10; T1 (line 12) none; T2 (15) a SEQ at 18; T3 (20) none.
    expect(expected).toEqual([["T0", 8], ["T0", 10], ["T1", 12], ["T2", 18], ["T3", 20]])
    expect(items.map((item) => (item.kind === "record" ? [item.record["IDE.2.1"], item.at.segment, item.record["@record"]] : item.kind))).toEqual([
      ["T0", 8, "SEQ"],
      ["T0", 10, "SEQ"],
      ["T1", 12, "IDE"],
      ["T2", 18, "SEQ"],
      ["T3", 20, "IDE"]
    ])
    // A transaction's own record has its cells, no definition's.
    const t1 = items[2]!
    expect(t1.kind === "record" && t1.record["STS.2.1"]).toBe("Z46")
    expect(t1.kind === "record" && t1.record["CCI.3.1"]).toBe(undefined)
  })

  it("without it, every IDE is a record beside its definitions", async () => {
    const { text } = message([1])
    const { onlyWhenEmpty: _onlyWhenEmpty, ...every } = UTILTS
    const items = await read(text, every)
    expect(items.map((item) => (item.kind === "record" ? item.record["@record"] : item.kind))).toEqual(["IDE", "SEQ"])
  })

  it("property: every transaction ends in its definitions' records or, holding none, in its own", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 6 }), async (definitions) => {
        const { text, expected } = message(definitions)
        const items = await read(text, UTILTS)
        expect(items.map((item) => (item.kind === "record" ? [item.record["IDE.2.1"], item.at.segment] : item.kind))).toEqual(expected)
      }),
      { numRuns: 50 }
    )
  })
})
