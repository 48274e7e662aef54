/** The main thread's line chunker: whole lines out, any split of the input, overlong lines skipped. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type LinePiece, LineChunker } from "../../../src/readers/lines/line-chunks.js"

const feed = (chunks: ReadonlyArray<string>, max: number): Array<LinePiece> => {
  const chunker = new LineChunker(max)
  return [...chunks.flatMap((c) => chunker.push(Buffer.from(c))), ...chunker.end()]
}

/** The lines a list of pieces stands for: text of the lines, or `<N>` for an overlong one. */
const linesOf = (pieces: ReadonlyArray<LinePiece>): Array<string> =>
  pieces.flatMap((p) => {
    if (p.kind === "overlong") return [`<${p.length}>`]
    const text = Buffer.from(p.bytes).toString()
    const lines = text.split("\n")
    if (text.endsWith("\n")) lines.pop()
    return lines
  })

const splits = (text: string) =>
  fc.array(fc.nat({ max: text.length }), { maxLength: 6 }).map((cuts) => {
    const at = [...new Set([0, ...cuts, text.length])].sort((a, b) => a - b)
    return at.slice(1).map((end, i) => text.slice(at[i], end))
  })

describe("LineChunker", () => {
  it("hands on whole lines whatever the chunks are, and nothing longer than the maximum", () => {
    const line = fc.string({ unit: fc.constantFrom("a", "b", "{", "\r"), maxLength: 12 })
    fc.assert(fc.property(fc.array(line, { maxLength: 8 }), fc.boolean(), fc.integer({ min: 1, max: 10 }), (lines, newlineAtEnd, max) => {
      const text = lines.join("\n") + (newlineAtEnd && lines.length > 0 ? "\n" : "")
      // A line's length is counted without a CR at its end, as the workers count it.
      const measured = (l: string): number => (l.endsWith("\r") ? l.length - 1 : l.length)
      const expected = (text === "" ? [] : text.replace(/\n$/u, "").split("\n")).map((l) => (measured(l) > max ? `<${measured(l)}>` : l))
      fc.assert(fc.property(splits(text), (chunks) => {
        const pieces = feed(chunks, max)
        // Short lines are whole; long ones are either skipped (overlong) or left for the worker to measure.
        const got = linesOf(pieces).map((l) => (l.startsWith("<") || measured(l) <= max ? l : `<${measured(l)}>`))
        expect(got).toEqual(expected)
      }), { numRuns: 20 })
    }), { numRuns: 200, seed: 21 })
  })

  it("marks only the piece at the start of the stream", () => {
    const pieces = feed(["ab\ncd", "\nef\n"], 100)
    expect(pieces.map((p) => p.kind === "lines" && p.atStreamStart)).toEqual([true, false])
  })

  it("measures a line without the CR of its CRLF, as the workers do, wherever the chunks are cut", () => {
    const max = 12
    const text = `${"a".repeat(max)}\r\n${"b".repeat(max)}\r\n${"c".repeat(max + 1)}\r\n${"d".repeat(max)}\r\n`
    fc.assert(fc.property(splits(text), (chunks) => {
      const pieces = feed(chunks, max)
      // Only the line of max + 1 bytes may be cut out here, and then with its own length.
      expect(pieces.filter((p) => p.kind === "overlong")).toEqual(pieces.some((p) => p.kind === "overlong") ? [{ kind: "overlong", length: max + 1 }] : [])
      expect(linesOf(pieces).filter((l) => !l.startsWith("<")).map((l) => l.replace(/\r$/u, ""))).toEqual(expect.arrayContaining(["a", "b", "d"].map((c) => c.repeat(max))))
    }), { numRuns: 300, seed: 3 })
  })

  it("never holds more than the maximum of a line without a newline", () => {
    const chunker = new LineChunker(10)
    for (let i = 0; i < 1000; i++) expect(chunker.push(Buffer.alloc(1000, 0x61))).toEqual([])
    expect(chunker.push(Buffer.from("x\nok\n"))).toEqual([
      { kind: "overlong", length: 1_000_001 },
      expect.objectContaining({ kind: "lines" })
    ])
  })
})
