/**
 * Every QTY of an interchange ends in exactly one record or one located reject, whatever damage the
 * interchange has: the QTYs are counted from the generated segments, never from the reader.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"
import { fixtureBytes } from "./edifact-fixtures.js"

const OPTIONS: EdifactRecordOptions = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }

const read = async (chunks: ReadonlyArray<Uint8Array | string>, options: EdifactRecordOptions = OPTIONS): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords(chunks, options)) items.push(item)
  return items
}

const chunked = (bytes: Uint8Array, size: number): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size))
  return out
}

/** The segment numbers of the QTYs that came out: as records, or as rejects whose raw text is the QTY. */
const qtysOut = (items: ReadonlyArray<EdifactRecordItem>): Array<number> =>
  items.filter((i) => i.kind === "record" || (i.kind === "reject" && i.raw.startsWith("QTY"))).map((i) => i.at.segment)

/** One MSCONS message: its header, then per location its LIN and quantities. */
const mscons = (reference: string, quantities: ReadonlyArray<string>): Array<string> => [
  `UNH+${reference}+MSCONS:D:04B:UN:2.4c`, "BGM+7+MSI1+9", "DTM+137:202404010800?+00:303", "UNS+D", "NAD+DP", "LOC+172+51238696781", "LIN+1", "PIA+5+1-1?:1.29.0:SRW",
  ...quantities.flatMap((q) => [`QTY+220:${q}:KWH`, "DTM+163:202403312200?+00:303", "DTM+164:202403312215?+00:303"])
]

const closed = (segments: ReadonlyArray<string>, reference: string): Array<string> => [...segments, `UNT+${segments.length + 1}+${reference}`]

describe("readEdifactRecords: every QTY in one record or one reject", () => {
  it("rejects a damaged QTY with the other QTYs of its message, instead of losing it", async () => {
    const segments = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", ...closed(mscons("1", ["1", "2?x", "3"]), "1"), "UNZ+1+I1"]
    const items = await read([segments.map((s) => `${s}'`).join("")])
    const qtys = segments.flatMap((s, i) => (s.startsWith("QTY") ? [i + 1] : []))
    expect(qtys).toHaveLength(3)
    expect(items.filter((i) => i.kind === "record")).toEqual([])
    expect(qtysOut(items)).toEqual(qtys)
    expect(items.filter((i) => i.kind === "reject").map((i) => i.kind === "reject" && i.code)).toEqual(["invalid_release", "invalid_release", "invalid_release"])
    expect(items.find((i) => i.at.segment === qtys[1])!.raw).toBe("QTY+220:2?x:KWH'")
  })

  it("rejects a QTY cut off at the end of the input with the QTYs before it", async () => {
    const segments = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", ...mscons("1", ["1", "2"])]
    const text = `${segments.map((s) => `${s}'`).join("")}QTY+220:3`
    const items = await read([text])
    expect(qtysOut(items)).toEqual([...segments.flatMap((s, i) => (s.startsWith("QTY") ? [i + 1] : [])), segments.length + 1])
  })

  it("rejects a QTY before the UNS, which no group holds, naming it", async () => {
    const body = mscons("1", ["1"])
    body.splice(body.indexOf("UNS+D"), 0, "QTY+220:9:KWH")
    const segments = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", ...closed(body, "1"), "UNZ+1+I1"]
    const items = await read([segments.map((s) => `${s}'`).join("")])
    expect(items.map((i) => (i.kind === "record" ? i.record["QTY.1.2"] : i.kind === "reject" ? `${i.code} ${i.raw}` : i.code))).toEqual(["record_before_uns QTY+220:9:KWH'", "1"])
    expect(items[0]!.at).toMatchObject({ segment: 5, message: 1, messageReference: "1" })
  })

  it("rejects the QTYs of a message whose UNH is damaged, not each of its segments as outside any message", async () => {
    const body = mscons("1", ["1", "2"])
    body[0] = `${body[0]}?x`
    const segments = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", ...closed(body, "1"), ...closed(mscons("2", ["3"]), "2"), "UNZ+2+I1"]
    const items = await read([segments.map((s) => `${s}'`).join("")])
    const qtys = segments.flatMap((s, i) => (s.startsWith("QTY") ? [i + 1] : []))
    expect(items.map((i) => (i.kind === "record" ? `record ${i.at.segment}` : `${i.kind} ${i.code} ${i.at.segment}`))).toEqual([
      `reject invalid_release ${qtys[0]}`,
      `reject invalid_release ${qtys[1]}`,
      `record ${qtys[2]}`
    ])
    expect(items[0]!.at).toMatchObject({ message: 1 })
    expect(items[2]!.at).toMatchObject({ message: 2, messageReference: "2" })
  })

  it("notes NUL or SUB padding after the last segment as a warning, not as a record cut off", async () => {
    const text = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", ...closed(mscons("1", ["1"]), "1"), "UNZ+1+I1"].map((s) => `${s}'`).join("\r\n")
    for (const padding of ["\u001a", "\u0000\u0000\u0000", "\r\n\u001a\u0000"]) {
      const items = await read([`${text}${padding}`])
      expect(items.map((i) => (i.kind === "record" ? "record" : `${i.kind} ${i.code}`))).toEqual(["record", "warning trailing_padding"])
      expect(items[1]!.at.offset).toBe(text.length + padding.search(/[\u0000\u001a]/u))
    }
    // Anything else after the last terminator is text cut off, and rejected (padding before it noted).
    expect((await read([`${text}Q\u001a`])).map((i) => `${i.kind} ${i.kind === "record" ? "" : i.code}`)).toEqual(["record ", "reject truncated"])
    expect((await read([`${text}\u001aQ`])).map((i) => `${i.kind} ${i.kind === "record" ? "" : i.code}`)).toEqual(["record ", "warning padding", "reject truncated"])
    // Padding inside a message does not close it: the message is cut off.
    const cut = text.slice(0, text.indexOf("UNT"))
    expect((await read([`${cut}\u0000\u0000`])).map((i) => `${i.kind} ${i.kind === "record" ? "" : i.code}`)).toEqual(["reject truncated", "warning trailing_padding", "warning interchange_not_closed"])
  })

  it("reads files put one after the other with DOS's end-of-file mark between them, each by its own UNA", async () => {
    const file = (una: string, reference: string, quantity: string): string =>
      `${una}${["UNB+UNOC:3+S:14+R:14+240401:0800+I" + reference, ...closed(mscons(reference, [quantity]), reference), `UNZ+1+I${reference}`].map((s) => `${s}'`).join("\r\n")}\r\n\u001a`
    const first = file("UNA:+.? '", "1", "1.5")
    const items = await read([`${first}${file("UNA:+,? '", "2", "2,5")}`])
    expect(items.map((i) => (i.kind === "record" ? i.record["QTY.1.2"] : `${i.kind} ${i.code}`))).toEqual(["1.5", "warning padding", "2.5", "warning trailing_padding"])
    expect(items[1]!.at.offset).toBe(first.length - 1)
  })

  it("reads a message with padding between two of its segments, noting the padding once, with all cells or some", async () => {
    const body = mscons("1", ["1", "2"])
    const text = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", ...closed(body, "1"), "UNZ+1+I1"].map((s) => `${s}'`).join("").replace("QTY+220:2", "\u001a\u0000QTY+220:2")
    for (const options of [OPTIONS, { ...OPTIONS, columns: ["QTY.1.2"] }]) {
      const items = await read([text], options)
      expect(items.map((i) => (i.kind === "record" ? i.record["QTY.1.2"] : `${i.kind} ${i.code}`))).toEqual(["warning padding", "1", "2"])
    }
  })

  it("reads the QTYs of messages in functional groups, the UNG and UNE rejecting nothing", async () => {
    const segments = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", "UNG+MSCONS+S:14+R:14+240401:0800+G1+UN+D:04B", ...closed(mscons("1", ["1", "2"]), "1"), "UNE+1+G1", "UNZ+1+I1"]
    const items = await read([segments.map((s) => `${s}'`).join("")])
    expect(items.map((i) => (i.kind === "record" ? i.record["QTY.1.2"] : `${i.kind} ${i.code}`))).toEqual(["1", "2"])
  })

  it("notes a damaged UNB or UNZ, or a UNZ without UNB, as warnings: they hold no record and cost none", async () => {
    const text = (unb: string, unz: string) => [unb, ...closed(mscons("1", ["1"]), "1"), unz].map((s) => `${s}'`).join("")
    const outcomes = async (t: string) => (await read([t])).map((i) => (i.kind === "record" ? i.record["QTY.1.2"] : `${i.kind} ${i.code}`))
    // The damaged UNB still opens its interchange (reference unknown): its UNZ is not one without UNB.
    expect(await outcomes(text("UNB+UNOC:3+S?x:14+R:14+240401:0800+I1", "UNZ+1+I1"))).toEqual(["warning invalid_release", "1"])
    expect(await outcomes(text("UNB+UNOC:3+S:14+R:14+240401:0800+I1", "UNZ+1+I1?x"))).toEqual(["1", "warning invalid_release"])
    expect(await outcomes(`${text("UNB+UNOC:3+S:14+R:14+240401:0800+I1", "UNZ+1+I1")}UNZ+1+I1'`)).toEqual(["1", "warning interchange_not_open"])
    const [record] = await read([text("UNB+UNOC:3+S?x:14+R:14+240401:0800+I1", "UNZ+1+I1")])
    expect(record!.at.interchangeReference).toBe(undefined)
  })

  /** Damage done to one segment of a message (its index among the message's segments), or a QTY put in its header. */
  type Damage = "release" | "count" | "header" | "blank" | "padding" | "none"
  const damageArb = fc.constantFrom<Damage>("release", "count", "header", "blank", "padding", "none")
  const messageArb = fc.record({
    quantities: fc.array(fc.stringMatching(/^[0-9]{1,5}(\.[0-9]{1,3})?$/u), { maxLength: 4 }),
    damage: damageArb,
    at: fc.nat()
  })

  it("accounts for every QTY of random interchanges with random damage, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(messageArb, { minLength: 1, maxLength: 4 }), fc.nat(), fc.integer({ min: 1, max: 64 }), async (messages, cut, size) => {
        const segments = ["UNA:+.? ", "UNB+UNOC:3+S:14+R:14+240401:0800+I1"]
        messages.forEach((m, n) => {
          const body = mscons(String(n + 1), m.quantities)
          if (m.damage === "release") {
            // A release character before an ordinary character, in any segment (the UNH, a QTY too).
            const i = m.at % body.length
            body[i] = `${body[i]}?x`
          }
          if (m.damage === "header") body.splice(1 + (m.at % 3), 0, "QTY+220:9:KWH")
          // Blanks before a segment (an indented file): read past, as line breaks are.
          if (m.damage === "blank") body[m.at % body.length] = ` \t${body[m.at % body.length]}`
          // NUL and SUB padding before a segment (files glued together): noted, no segment.
          if (m.damage === "padding") body[m.at % body.length] = `\u001a\u0000${body[m.at % body.length]}`
          const message = closed(body, String(n + 1))
          if (m.damage === "count") message[message.length - 1] = `UNT+99+${n + 1}`
          segments.push(...message)
        })
        segments.push(`UNZ+${messages.length}+I1`)
        const texts = segments.map((s, i) => (i === 0 ? s.slice(0, 8) + "'" : `${s}'`))
        const whole = texts.join("")
        // Cut the input anywhere in its last 60 characters (or not at all).
        const end = whole.length - (cut % 61)
        const text = whole.slice(0, end)
        const items = await read(chunked(Buffer.from(text, "latin1"), size))
        // Independent count: the QTY segments whose tag is in the cut text.
        let offset = 0
        const expected: Array<number> = []
        const strip = (text: string): string => text.replace(/^[\s\u0000\u001a]+/u, "")
        texts.forEach((t, i) => {
          if (strip(segments[i]!).startsWith("QTY") && offset + t.length - strip(t).length + 3 <= end) expected.push(i + 1)
          offset += t.length
        })
        expect(qtysOut(items)).toEqual(expected)
        // Every segment is in a message: none is rejected as outside one, and a damaged message costs one
        // reject at most beside its QTYs (when it has none); a cut UNZ is one more.
        expect(items.filter((i) => i.kind === "reject" && i.code === "segment_outside_message")).toEqual([])
        expect(items.filter((i) => i.kind === "reject" && !i.raw.startsWith("QTY")).length).toBeLessThanOrEqual(messages.length + 1)
      }),
      { numRuns: 300 }
    )
  })

  it("reads random edits of an interchange without throwing, no QTY in two outcomes, with all cells or some", async () => {
    // The real sample's envelope around two whole messages, so that edits hit messages that check out too.
    const head = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz").toString("latin1").slice(0, 200).split("UNH+")[0]!
    const messages = [closed(mscons("1", ["1", "2.5", "3"]), "1"), closed(mscons("2", ["-4", "5"]), "2")]
    const sample = Buffer.from(`${head}${messages.flat().map((s) => `${s}'`).join("")}UNZ+2+${/UNB\+(?:[^+]*\+){4}([^+']*)/u.exec(head)![1]}'`, "latin1")
    expect((await read([sample])).filter((i) => i.kind !== "record")).toEqual([])
    const byteArb = fc.constantFrom(..."'+:?\r\n \u0000\u001a\u00ef\u00bb\u00bfUNAHTZQYé0123456789.,-".split("").map((c) => c.charCodeAt(0) & 0xff))
    // Edits anywhere, and inserts at the start of a segment (after a terminator), where blanks, BOMs and padding are read.
    const editArb = fc.tuple(fc.nat(), fc.constantFrom("set", "insert", "delete", "between"), byteArb)
    await fc.assert(
      fc.asyncProperty(fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 600 }), fc.boolean(), async (edits, size, some) => {
        let bytes = Buffer.from(sample)
        for (const [at, how, byte] of edits) {
          let i = at % bytes.length
          if (how === "between") i = bytes.indexOf(0x27, i) + 1
          if (how === "set") bytes[i] = byte
          else if (how === "insert" || how === "between") bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(i)])
          else bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)])
        }
        const items = await read(chunked(bytes, size), some ? { ...OPTIONS, columns: ["QTY.1.2", "DTM+163", "LOC+172.2.1"] } : OPTIONS)
        const out = qtysOut(items)
        expect(new Set(out).size).toBe(out.length)
      }),
      { numRuns: 400 }
    )
  })
})
