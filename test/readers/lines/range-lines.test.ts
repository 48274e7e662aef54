/** A worker's own byte range of an NDJSON file: every line read by exactly one range, whatever the range size. */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, appendFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type RangeLines, readRangeLines } from "../../../src/readers/lines/range-lines.js"

const dir = mkdtempSync(join(tmpdir(), "range-lines-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
const withFile = <A>(bytes: Buffer, use: (fd: number) => A): A => {
  const path = join(dir, `f${files++}.ndjson`)
  writeFileSync(path, bytes)
  const fd = openSync(path, "r")
  try {
    return use(fd)
  } finally {
    closeSync(fd)
  }
}

/** The lines one range stands for: the text of each, then `<N>` for an overlong last line. */
const linesOf = (read: RangeLines): Array<string> => {
  const text = Buffer.from(read.bytes).toString("latin1")
  const lines = text === "" ? [] : text.split("\n")
  if (text.endsWith("\n")) lines.pop()
  return read.overlong === undefined ? lines : [...lines, `<${read.overlong}>`]
}

/** Every range of a file, as the validate command hands them out. */
const allRanges = (fd: number, size: number, rangeBytes: number, max: number): Array<{ lines: Array<string>; atFileStart: boolean }> => {
  const out = []
  for (let start = 0; start < size; start += rangeBytes) {
    const end = Math.min(start + rangeBytes, size)
    const read = readRangeLines(fd, start, end, end === size, max)
    out.push({ lines: linesOf(read), atFileStart: read.atFileStart })
  }
  return out
}

describe("readRangeLines", () => {
  it("reads every line once over all ranges, with lines longer than the maximum that cross a range's end only measured", () => {
    const line = fc.string({ unit: fc.constantFrom("a", "b", "{", "\r"), maxLength: 14 })
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.boolean(), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 12 }), (lines, newlineAtEnd, rangeBytes, max) => {
        const text = lines.join("\n") + (newlineAtEnd && lines.length > 0 ? "\n" : "")
        const expected = text === "" ? [] : text.replace(/\n$/u, "").split("\n")
        const ranges = withFile(Buffer.from(text, "latin1"), (fd) => allRanges(fd, text.length, rangeBytes, max))
        const got = ranges.flatMap((r) => r.lines)
        expect(got.length).toBe(expected.length)
        got.forEach((l, i) => {
          // A measured line stands for the line of that length (without a CR at its end, as the workers
          // count it), which is longer than the maximum.
          if (/^<\d+>$/u.test(l) && !/^<\d+>$/u.test(expected[i]!)) {
            const measured = expected[i]!.length - (expected[i]!.endsWith("\r") ? 1 : 0)
            expect(Number(l.slice(1, -1))).toBe(measured)
            expect(measured).toBeGreaterThan(max)
          } else {
            expect(l).toBe(expected[i])
          }
        })
        // Only the range at byte 0 says so (a byte order mark can only be there).
        ranges.forEach((r, i) => expect(r.atFileStart).toBe(i === 0))
      }),
      { numRuns: 400, seed: 7 }
    )
  })

  it("gives a range inside one long line nothing, and the range the line starts in its full length", () => {
    const text = `ab\n${"x".repeat(100)}\ncd`
    const ranges = withFile(Buffer.from(text), (fd) => allRanges(fd, text.length, 10, 50))
    expect(ranges.map((r) => r.lines)).toEqual([["ab", "<100>"], [], [], [], [], [], [], [], [], [], ["cd"]])
  })

  it("keeps a line up to the maximum whole when it crosses the range's end", () => {
    const text = `${"y".repeat(30)}\nz\n`
    const ranges = withFile(Buffer.from(text), (fd) => allRanges(fd, text.length, 8, 30))
    expect(ranges.flatMap((r) => r.lines)).toEqual(["y".repeat(30), "z"])
    expect(ranges[0]!.lines).toEqual(["y".repeat(30)])
  })

  it("measures the line that crosses the range's end without the CR of its CRLF", () => {
    const line = `{"a":"${"x".repeat(20)}"}`
    const bytes = Buffer.from(`${line}\r\n${line}\r\n${line}\r\n`)
    withFile(bytes, (fd) => {
      const read = readRangeLines(fd, 0, line.length + 10, false, line.length)
      expect(read.overlong).toBeUndefined()
      expect(linesOf(read)).toEqual([`${line}\r`, `${line}\r`])
      const tooLong = readRangeLines(fd, 0, line.length + 10, false, line.length - 1)
      expect(tooLong.overlong).toBe(line.length)
    })
  })

  it("reads the last range on to the end of the file, past the size it had when the ranges were cut", () => {
    const path = join(dir, "growing.ndjson")
    writeFileSync(path, "one\ntwo\n")
    const fd = openSync(path, "r")
    try {
      appendFileSync(path, "three\nfour")
      expect(linesOf(readRangeLines(fd, 4, 8, true, 100))).toEqual(["two", "three", "four"])
      expect(linesOf(readRangeLines(fd, 4, 8, false, 100))).toEqual(["two"])
    } finally {
      closeSync(fd)
    }
  })
})
