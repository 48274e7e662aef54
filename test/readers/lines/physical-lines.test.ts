/** Physical lines in UTF-16: cut at line-feed code units, each line decoded alone, damage refused per line. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type PhysicalLine, physicalLines } from "../../../src/readers/lines/physical-lines.js"

const read = async (chunks: ReadonlyArray<Uint8Array>, encoding: string, maxLineBytes?: number): Promise<Array<PhysicalLine>> => {
  const out: Array<PhysicalLine> = []
  for await (const batch of physicalLines((async function*() { yield* chunks })(), encoding, maxLineBytes)) out.push(...batch)
  return out
}

const shown = (lines: ReadonlyArray<PhysicalLine>): Array<string> => lines.map((l) => ("undecodable" in l ? `!${l.line}` : l.text))

const utf16le = (text: string): Buffer => Buffer.from(text, "utf16le")
const utf16be = (text: string): Buffer => Buffer.from(text, "utf16le").swap16()

describe("physicalLines in UTF-16", () => {
  it("refuses a line with a lone surrogate, and a last line cut inside a code unit, as undecodable", async () => {
    const bytes = Buffer.concat([utf16le("a;b\nZ"), Buffer.from([0x00, 0xd8]), utf16le("\nc;d\ne;f"), Buffer.from([0x41])])
    expect(shown(await read([bytes], "utf-16le"))).toEqual(["a;b", "!2", "c;d", "!4"])
  })

  it("knows UTF-16 by any of its names: no line is made of a half code unit", async () => {
    const bytes = utf16le("K;Ċ\nx;y\n")
    for (const name of ["utf-16le", "utf-16", "UTF-16LE", "ucs-2", "unicode"]) expect(shown(await read([bytes], name)), name).toEqual(["K;Ċ", "x;y"])
    expect(shown(await read([utf16be("K;Ċ\nx;y\n")], "unicodefffe"))).toEqual(["K;Ċ", "x;y"])
  })

  it("gives the same lines however the bytes are cut into chunks, in both byte orders", async () => {
    const text = "\uFEFFKonto;Text\r\nKD-1;Ċ ä 😀\nKD-2;\u0A0A\r\n\nKD-3;end"
    for (const [encoding, encode] of [["utf-16le", utf16le], ["utf-16be", utf16be]] as const) {
      const bytes = encode(text)
      await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), bytes.length]
        const chunks = at.slice(1).map((end, i) => bytes.subarray(at[i], end))
        expect(shown(await read(chunks, encoding))).toEqual(["Konto;Text", "KD-1;Ċ ä 😀", "KD-2;\u0A0A", "", "KD-3;end"])
      }), { numRuns: 200, seed: 5 })
    }
  })
})

describe("physicalLines with a longest line", () => {
  it("gives each line no longer than the maximum as read, and a longer one as overlong with its length, however the bytes are cut (property)", async () => {
    const line = fc.oneof(fc.string({ unit: fc.constantFrom("a", ";", "ä", "\r"), maxLength: 12 }), fc.string({ unit: fc.constantFrom("x", "\r"), minLength: 13, maxLength: 40 }))
    await fc.assert(fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), async (lines, finalBreak, cutsAt) => {
      const content = lines.join("\n") + (finalBreak ? "\n" : "")
      const bytes = Buffer.from(content, "utf8")
      // A line break at the very end starts no line.
      const physical = content === "" ? [] : content.split("\n")
      if (content.endsWith("\n")) physical.pop()
      const cuts = [...new Set(cutsAt.map((c) => (bytes.length > 1 ? 1 + (c % (bytes.length - 1)) : 0)).filter((c) => c > 0))].sort((a, b) => a - b)
      const at = [0, ...cuts, bytes.length]
      const chunks = at.slice(1).map((end, i) => new Uint8Array(bytes.subarray(at[i], end)))
      // Worked out apart from the reader: a line's bytes without the CR of a CRLF, against 12.
      const expected = physical.map((text, i) => {
        const length = Buffer.byteLength(text.endsWith("\r") ? text.slice(0, -1) : text)
        return length > 12 ? `overlong ${i + 1} ${length}` : text.endsWith("\r") ? text.slice(0, -1) : text
      })
      const got = (await read(chunks, "utf-8", 12)).map((l) => ("overlong" in l ? `overlong ${l.line} ${l.length}` : l.text))
      expect(got).toEqual(expected)
    }), { numRuns: 500, seed: 11 })
  })
})
