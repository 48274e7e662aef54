/** The JSON document splitter: records of a top-level array (or the whole document), with their positions. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type JsonPiece, JsonDocumentSplitter } from "../../../src/readers/json/json-document.js"

const split = (text: string | Buffer, cuts: ReadonlyArray<number> = [], max = 1 << 20): Array<JsonPiece> => {
  const bytes = Buffer.from(text)
  const at = [...new Set([0, ...cuts.filter((c) => c <= bytes.length), bytes.length])].sort((a, b) => a - b)
  const splitter = new JsonDocumentSplitter(max)
  return [...at.slice(1).flatMap((end, i) => splitter.push(bytes.subarray(at[i], end))), ...splitter.end()]
}

const describePiece = (p: JsonPiece): string =>
  p.kind === "value" ? `${p.line}:${p.column} ${Buffer.from(p.bytes).toString().trim()}` : `${p.line}:${p.column} ${p.kind}`

describe("JsonDocumentSplitter", () => {
  it("splits any array of JSON values into its elements, whatever the chunks", () => {
    fc.assert(fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), fc.nat({ max: 3 }), fc.array(fc.nat({ max: 400 }), { maxLength: 5 }),
      (values, indent, cuts) => {
        const text = JSON.stringify(values, null, indent)
        const pieces = split(text, cuts)
        expect(pieces.every((p) => p.kind === "value")).toBe(true)
        expect(pieces.map((p) => JSON.parse(Buffer.from((p as { bytes: Uint8Array }).bytes).toString()) as unknown)).toEqual(
          JSON.parse(text) as unknown[]
        )
      }), { numRuns: 300, seed: 4 })
  })

  it("gives each element the line and column (in characters) where it starts", () => {
    expect(split(`\uFEFF[\n  {"a": "ä"}, {"b": 1},\n  2\n]`).map(describePiece)).toEqual([
      `2:3 {"a": "ä"}`,
      `2:15 {"b": 1}`,
      "3:3 2"
    ])
  })

  it("takes a document that is not an array as one record", () => {
    expect(split(` {"a": [1, 2]}\n`).map(describePiece)).toEqual([`1:2 {"a": [1, 2]}`])
    expect(split(`{"a": 1} {"b": 2}`).map(describePiece)).toEqual([`1:1 {"a": 1} {"b": 2}`])
  })

  it("reports a missing value, a missing comma, content after the array and an unclosed array", () => {
    expect(split(`[1,,2]`).map(describePiece)).toEqual(["1:2 1", "1:4 broken", "1:5 2"])
    // Whitespace instead of a comma is not a structural break: the value "1 2" goes to JSON.parse, which refuses it.
    expect(split(`[1 2]`).map(describePiece)).toEqual(["1:2 1 2"])
    expect(split(`[{} {}]`).map(describePiece)).toEqual(["1:2 {} {}"])
    expect(split(`[1]\n{}`).map(describePiece)).toEqual(["1:2 1", "2:1 broken"])
    expect(split(`[1,]`).map(describePiece)).toEqual(["1:2 1", "1:4 broken"])
  })

  it("ends a file cut inside the array with one record for the cut, where the file ends", () => {
    // Inside an element: that element is the record of the cut, with its text for the reject file.
    const inside = split(`[1,\n{"a": "x`)
    expect(inside.map(describePiece)).toEqual(["1:2 1", "2:9 broken"])
    expect(Buffer.from((inside[1] as { element: Uint8Array }).element).toString()).toBe(`{"a": "x`)
    expect(split(`[1,\n2`).map(describePiece)).toEqual(["1:2 1", "2:2 broken"])
    // Between elements, or right after `[`: the missing element is the record.
    expect(split(`[1,\n`).map(describePiece)).toEqual(["1:2 1", "2:1 broken"])
    expect(split(`[`).map(describePiece)).toEqual(["1:2 broken"])
    // An element too long to keep is still the one record of the cut, without its text.
    const long = split(`[${JSON.stringify("x".repeat(50))}`, [], 10)
    expect(long.map(describePiece)).toEqual(["1:54 broken"])
    expect(long[0]).not.toHaveProperty("element")
  })

  it("cut at any byte: one record per element slot begun (a comma begins the next), exactly one break, where the cut is", () => {
    fc.assert(fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), fc.nat({ max: 3 }), fc.nat(), fc.array(fc.nat({ max: 400 }), { maxLength: 4 }),
      (values, indent, at, chunks) => {
        // The array written out by hand, so the offsets of its own commas are known.
        const sep = indent > 0 ? `\n${" ".repeat(indent)}` : ""
        const texts = values.map((v) => JSON.stringify(v, null, indent).replaceAll("\n", sep))
        let text = "["
        const commas: Array<number> = []
        texts.forEach((t, i) => {
          if (i > 0) {
            commas.push(text.length)
            text += ","
          }
          text += `${sep}${t}`
        })
        text += `${indent > 0 ? "\n" : ""}]`
        const cut = 1 + (at % (text.length - 1)) // after `[`, before `]`
        const prefix = text.slice(0, cut)
        const pieces = split(prefix, chunks)
        const slots = 1 + commas.filter((c) => c < cut).length
        expect(pieces).toHaveLength(slots)
        expect(pieces.slice(0, -1).every((p) => p.kind === "value")).toBe(true)
        const last = pieces.at(-1)!
        expect(last.kind).toBe("broken")
        const lines = prefix.split("\n")
        expect([last.line, last.column]).toEqual([lines.length, [...lines.at(-1)!].length + 1])
        // The elements before the cut are read whole; the one the file ends in (if begun) is kept as it was.
        expect(pieces.slice(0, -1).map((p) => JSON.parse(Buffer.from((p as { bytes: Uint8Array }).bytes).toString()) as unknown)).toEqual(
          texts.slice(0, slots - 1).map((t) => JSON.parse(t) as unknown)
        )
        const begun = prefix.slice((commas.filter((c) => c < cut).at(-1) ?? 0) + 1).trimStart()
        const element = last.kind === "broken" ? last.element : undefined
        expect(element === undefined ? undefined : Buffer.from(element).toString()).toBe(begun === "" ? undefined : Buffer.from(begun).toString())
      }), { numRuns: 500, seed: 7 })
  })

  it("does not hold a value larger than the maximum", () => {
    const pieces = split(`[${JSON.stringify("x".repeat(5000))}, 1]`, [100, 2000, 4000], 1000)
    expect(pieces.map((p) => p.kind)).toEqual(["overlong", "value"])
  })

  it("ignores brackets and commas inside strings, escaped quotes included", () => {
    expect(split(`["a,]\\"}", {"k": "[,"}]`).map(describePiece)).toEqual([`1:2 "a,]\\"}"`, `1:12 {"k": "[,"}`])
  })
})
