/**
 * The record reader takes its input in chunks of any size (src/readers/edifact/records.ts): a file read a
 * megabyte at a time is decoded 64 KB at a time, and a segment, a message or an escape (`?'`) across a
 * piece's end reads as it does whole.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactRecordItem, readEdifactRecords } from "../../src/readers/edifact/records.js"
import { fixtureBytes } from "./edifact-fixtures.js"

const OPTIONS = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }

const read = async (chunks: ReadonlyArray<Uint8Array | string>): Promise<Array<EdifactRecordItem>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords(chunks, OPTIONS)) items.push(item)
  return items
}

describe("chunks of an EDIFACT input", () => {
  // A real 2024 MSCONS of 5,944 QTYs (about 400 KB), whose DTMs write "?+00": release characters fall
  // across chunk and piece ends too.
  const bytes = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz")

  it("reads the same records from bytes in chunks of any size, a megabyte included, as from the text whole", async () => {
    const whole = await read([bytes.toString("latin1")])
    expect(whole.filter((i) => i.kind === "record").length).toBe(5944)
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 6 }), async (sizes) => {
        const chunks: Array<Uint8Array> = []
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = sizes[i % sizes.length]!
          chunks.push(bytes.subarray(at, at + size))
          at += size
        }
        expect(await read(chunks)).toEqual(whole)
      }),
      { numRuns: 6 }
    )
    // The whole file as one chunk (seven pieces of 64 KB), as map reads it.
    expect(await read([bytes])).toEqual(whole)
  })
})
