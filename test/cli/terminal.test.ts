/** Colour on a terminal unless NO_COLOR, FORCE_COLOR deciding when set; the progress line only on a terminal. */
import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { progressLine, startProgress } from "../../src/cli/progress.js"
import { formatBytes, formatCount, stylesFor, useColour } from "../../src/cli/terminal.js"

describe("useColour", () => {
  it("colours a terminal unless NO_COLOR is set", () => {
    expect(useColour({ isTTY: true }, {})).toBe(true)
    expect(useColour({ isTTY: true }, { NO_COLOR: "1" })).toBe(false)
    expect(useColour({ isTTY: true }, { NO_COLOR: "" })).toBe(true)
    expect(useColour({ isTTY: false }, {})).toBe(false)
    expect(useColour({}, {})).toBe(false)
  })

  it("FORCE_COLOR decides when set, as Node reads it: 0 and false turn colour off, other values on", () => {
    for (const off of ["0", "false", "FALSE"]) {
      expect(useColour({ isTTY: true }, { FORCE_COLOR: off }), off).toBe(false)
      expect(useColour({ isTTY: false }, { FORCE_COLOR: off }), off).toBe(false)
    }
    for (const on of ["1", "2", "3", "true", ""]) {
      expect(useColour({ isTTY: false }, { FORCE_COLOR: on }), on).toBe(true)
      expect(useColour({}, { FORCE_COLOR: on, NO_COLOR: "1" }), on).toBe(true)
    }
  })

  it("styles plainly without colour", () => {
    expect(stylesFor(false).red("x")).toBe("x")
    expect(stylesFor(true).red("x")).toBe("\u001b[31mx\u001b[39m")
  })
})

describe("progress", () => {
  it("shows records, records per second and the share of bytes read", () => {
    expect(progressLine({ records: 1500, bytesRead: 512, totalBytes: 2048 }, 1000)).toBe("1,500 records  1,500 records/s  25% of 2.0 KiB")
    expect(progressLine({ records: 10, bytesRead: 3 * 1024 * 1024, totalBytes: undefined }, 2000)).toBe("10 records  5 records/s  3.0 MiB read")
  })

  it("writes nothing to a stream that is not a terminal", async () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream
    const written: Array<unknown> = []
    ;(stream as unknown as PassThrough).on("data", (chunk) => written.push(chunk))
    const progress = startProgress(stream, () => ({ records: 1, bytesRead: 1, totalBytes: 1 }))
    await new Promise((resolve) => setTimeout(resolve, 600))
    progress.stop()
    expect(written).toEqual([])
  })

  it("draws on a terminal and clears the line when stopped", async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80 }) as unknown as NodeJS.WriteStream
    const written: Array<string> = []
    ;(stream as unknown as PassThrough).on("data", (chunk: Buffer) => written.push(chunk.toString()))
    const progress = startProgress(stream, () => ({ records: 7, bytesRead: 1, totalBytes: 2 }))
    await new Promise((resolve) => setTimeout(resolve, 600))
    progress.stop()
    expect(written.some((w) => w.includes("7 records") && w.includes("50% of 2 B"))).toBe(true)
    expect(written[written.length - 1]).toBe("\r\u001b[2K")
  })
})

describe("formatting", () => {
  it("groups thousands and names byte sizes", () => {
    expect(formatCount(1234567)).toBe("1,234,567")
    expect(formatBytes(1536)).toBe("1.5 KiB")
  })
})
