import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { readSegments, type SegmentItem, SegmentScanner } from "../../src/readers/edifact/segments.js"
import { EDIFACT_FIXTURES, fixtureBytes } from "./edifact-fixtures.js"
import { oracleSegments } from "./edifact-oracle.js"

const collect = async (chunks: Iterable<Uint8Array | string>): Promise<Array<SegmentItem>> => {
  const out: Array<SegmentItem> = []
  for await (const item of readSegments(chunks)) out.push(item)
  return out
}

const chunked = (bytes: Uint8Array, size: number): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size))
  return out
}

/** Our segments as the oracle writes them: tag and elements, UNA left out (the oracle does not report it). */
const asOracle = (items: ReadonlyArray<SegmentItem>) =>
  items.filter((i) => i.kind === "segment" && i.tag !== "UNA").map((i) => (i.kind === "segment" ? { tag: i.tag, elements: i.elements } : undefined))

describe("readSegments against npm edifact", () => {
  it.each(EDIFACT_FIXTURES)("reads the same segments and elements as edifact in %s", async (name) => {
    const bytes = fixtureBytes(name)
    const ours = await collect([bytes])
    expect(ours.filter((i) => i.kind === "problem")).toEqual([])
    const theirs = oracleSegments(bytes.toString("latin1"))
    expect(theirs.length).toBeGreaterThan(5)
    expect(asOracle(ours)).toEqual(theirs)
  })

  it.each(EDIFACT_FIXTURES)("reads %s the same in chunks of any size, with the same offsets", async (name) => {
    const bytes = fixtureBytes(name)
    const whole = await collect([bytes])
    // Every segment's raw text is at its offset in the input.
    for (const item of whole) expect(bytes.subarray(item.offset, item.offset + item.length).toString("latin1")).toBe(item.raw)
    for (const size of [1, 7, 997]) expect(await collect(chunked(bytes, size))).toEqual(whole)
  })
})

// Not ^ [ ] \: edifact builds a regular expression character class from the separators without escaping them.
const SERVICE = [":", "+", "?", "'", "*", "|", "!", "~", "#", "@", "%", "&", "="]
const separatorsArb = fc.shuffledSubarray(SERVICE, { minLength: 4, maxLength: 4 }).chain((picked) =>
  fc.constantFrom(".", ",").map((decimal) => ({ component: picked[0]!, element: picked[1]!, release: picked[2]!, terminator: picked[3]!, decimal })))
const valueChar = fc.constantFrom(..."ABCxyz0129 .,-/é üßÄ", ...SERVICE)
const valueArb = fc.array(valueChar, { maxLength: 8 }).map((cs) => cs.join(""))
const tagArb = fc.tuple(...[0, 1, 2].map(() => fc.constantFrom(..."ABCDLMNOPQRSTXYZ"))).map((cs) => cs.join("")).filter((t) => !t.startsWith("UN"))
const segmentArb = fc.record({ tag: tagArb, elements: fc.array(fc.array(valueArb, { minLength: 1, maxLength: 3 }), { maxLength: 4 }) })

const write = (s: { component: string; element: string; release: string; terminator: string; decimal: string }, segments: ReadonlyArray<{ tag: string; elements: ReadonlyArray<ReadonlyArray<string>> }>, breaks: boolean): string => {
  const escape = (v: string) => [...v].map((c) => ([s.component, s.element, s.release, s.terminator].includes(c) ? s.release + c : c)).join("")
  return `UNA${s.component}${s.element}${s.decimal}${s.release} ${s.terminator}${breaks ? "\r\n" : ""}` +
    segments.map((seg) => seg.tag + seg.elements.map((e) => s.element + e.map(escape).join(s.component)).join("") + s.terminator + (breaks ? "\n" : "")).join("")
}

describe("readSegments on generated interchanges", () => {
  it("reads what was written, as edifact does, with any separators, escapes and chunking", async () => {
    await fc.assert(
      fc.asyncProperty(separatorsArb, fc.array(segmentArb, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.integer({ min: 1, max: 40 }), async (s, segments, breaks, size) => {
        const text = write(s, segments, breaks)
        const bytes = Buffer.from(text, "latin1")
        const ours = await collect(chunked(bytes, size))
        expect(ours.filter((i) => i.kind === "problem")).toEqual([])
        expect(asOracle(ours)).toEqual(segments)
        // The oracle reads the whole text at once: edifact drops a release character that ends a chunk ("AAA+?" then "+'" reads two elements).
        expect(asOracle(ours)).toEqual(oracleSegments(text))
        // Every segment is numbered in order, UNA first.
        expect(ours.map((i) => i.number)).toEqual(ours.map((_, i) => i + 1))
        for (const item of ours) if (item.kind === "segment") expect(item.decimal).toBe(s.decimal)
      }),
      { numRuns: 300 }
    )
  })
})

describe("readSegments with blanks between segments", () => {
  it("skips spaces and tabs between segments as it skips line breaks, offsets pointing at each segment", async () => {
    const text = "UNA:+.? ' \r\nUNH+1+MSCONS:D:04B:UN:2.4c'\r\n  QTY+220:1'\tQTY+220:2' \n"
    const items = await collect([text])
    expect(items.map((i) => (i.kind === "segment" ? i.raw : i.code))).toEqual(["UNA:+.? '", "UNH+1+MSCONS:D:04B:UN:2.4c'", "QTY+220:1'", "QTY+220:2'"])
    for (const item of items) expect(text.slice(item.offset, item.offset + item.length)).toBe(item.raw)
  })

  it("keeps a space that is a service character: a UNA may make it the terminator", async () => {
    const items = await collect(["UNA:+.?* QTY+220:1 QTY+220:2 "])
    expect(items.map((i) => (i.kind === "segment" ? i.elements : i.code))).toEqual([[[":+.?* "]], [["220", "1"]], [["220", "2"]]])
  })

  it("reads the same segments whatever blanks stand between them, in any chunking", async () => {
    const blanksArb = fc.array(fc.constantFrom(" ", "\t", "\r", "\n"), { maxLength: 4 }).map((cs) => cs.join(""))
    await fc.assert(
      fc.asyncProperty(separatorsArb, fc.array(fc.tuple(segmentArb, blanksArb), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 40 }), async (s, pairs, size) => {
        const segments = pairs.map(([segment]) => segment)
        const plain = write(s, segments, false)
        const una = plain.slice(0, 9)
        const parts = segments.map((segment) => write(s, [segment], false).slice(9))
        const text = una + parts.map((part, i) => pairs[i]![1] + part).join("")
        const bytes = Buffer.from(text, "latin1")
        const items = await collect(chunked(bytes, size))
        expect(items.filter((i) => i.kind === "problem")).toEqual([])
        expect(asOracle(items)).toEqual(segments)
        for (const item of items) expect(bytes.subarray(item.offset, item.offset + item.length).toString("latin1")).toBe(item.raw)
      }),
      { numRuns: 200 }
    )
  })
})

describe("readSegments of a file wrapped at a fixed width", () => {
  /** The text with a line break after every `width` characters, the UNA left whole. */
  const wrap = (text: string, width: number, eol = "\r\n"): string => {
    const lines: Array<string> = []
    for (let i = 9; i < text.length; i += width) lines.push(text.slice(i, i + width))
    return text.slice(0, 9) + eol + lines.join(eol)
  }

  it("reads the real German sample wrapped at 80 columns as the sample itself: line breaks are not data", async () => {
    const bytes = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz")
    // One line (a line break after its last segment).
    const text = bytes.toString("latin1").trimEnd()
    expect(text.includes("\n")).toBe(false)
    const wrapped = Buffer.from(wrap(text, 80), "latin1")
    const items = await collect(chunked(wrapped, 997))
    expect(items.filter((i) => i.kind === "problem")).toEqual([])
    expect(asOracle(items)).toEqual(asOracle(await collect([bytes])))
    // Each segment's raw text is where it says, line breaks included.
    for (const item of items) expect(wrapped.subarray(item.offset, item.offset + item.length).toString("latin1")).toBe(item.raw)
  })

  it("reads generated interchanges with line breaks anywhere after the UNA as without them, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(separatorsArb, fc.array(segmentArb, { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 30 }), fc.constantFrom("\n", "\r\n", "\r"), fc.integer({ min: 1, max: 40 }), async (s, segments, width, eol, size) => {
        const text = wrap(write(s, segments, false), width, eol)
        const items = await collect(chunked(Buffer.from(text, "latin1"), size))
        expect(items.filter((i) => i.kind === "problem")).toEqual([])
        expect(asOracle(items)).toEqual(segments)
      }),
      { numRuns: 300 }
    )
  })
})

describe("readSegments of files put one after the other", () => {
  it("skips the byte order mark of each file, so the UNA after it applies", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf])
    const bytes = Buffer.concat([bom, Buffer.from("UNA:+.? 'QTY+220:1.5'\r\n"), bom, Buffer.from("UNA|*,? 'QTY*220|2,5'")])
    for (const size of [1, 2, 3, 4, 1000]) {
      const items = await collect(chunked(bytes, size))
      expect(items.map((i) => (i.kind === "segment" ? [i.tag, i.elements, i.decimal] : i.code))).toEqual([
        ["UNA", [[":+.? '"]], "."], ["QTY", [["220", "1.5"]], "."], ["UNA", [["|*,? '"]], ","], ["QTY", [["220", "2,5"]], ","]
      ])
      for (const item of items) expect(bytes.subarray(item.offset, item.offset + item.length).toString("latin1")).toBe(item.raw)
    }
  })

  it("reads interchanges put one after the other, each with its BOM and UNA, as each alone", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(separatorsArb, fc.array(segmentArb, { minLength: 1, maxLength: 5 }), fc.boolean()), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 40 }), async (files, size) => {
        const texts = files.map(([s, segments, bom]) => (bom ? "\u00ef\u00bb\u00bf" : "") + write(s, segments, true))
        const items = await collect(chunked(Buffer.from(texts.join(""), "latin1"), size))
        expect(items.filter((i) => i.kind === "problem")).toEqual([])
        expect(asOracle(items)).toEqual(files.flatMap(([, segments]) => segments))
      }),
      { numRuns: 200 }
    )
  })

  it("notes the DOS end-of-file mark or NUL padding of a file followed by another, and applies the next UNA", async () => {
    const paddingArb = fc.array(fc.constantFrom("\u001a", "\u0000", "\r\n"), { minLength: 1, maxLength: 4 }).map((cs) => cs.join("")).filter((p) => /[\u0000\u001a]/u.test(p))
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(separatorsArb, fc.array(segmentArb, { minLength: 1, maxLength: 5 }), paddingArb), { minLength: 2, maxLength: 3 }), fc.integer({ min: 1, max: 40 }), async (files, size) => {
        const texts = files.map(([s, segments, padding]) => write(s, segments, false) + padding)
        const bytes = Buffer.from(texts.join(""), "latin1")
        const items = await collect(chunked(bytes, size))
        expect(asOracle(items)).toEqual(files.flatMap(([, segments]) => segments))
        // One note for each file's padding, where it is: the last one's at the end of the input.
        const notes = items.filter((i) => i.kind === "problem")
        expect(notes.map((i) => (i.kind === "problem" ? i.code : ""))).toEqual(files.map((_, i) => (i === files.length - 1 ? "trailing_padding" : "padding")))
        let end = 0
        notes.forEach((note, i) => {
          end += texts[i]!.length
          const padding = files[i]![2]
          const first = padding.search(/[\u0000\u001a]/u)
          expect(note.offset).toBe(end - padding.length + first)
          expect(bytes.subarray(note.offset, note.offset + note.length).toString("latin1").trimEnd()).toBe(padding.slice(first).trimEnd())
        })
      }),
      { numRuns: 200 }
    )
  })
})

describe("readSegments on damaged input", () => {
  it("reports a cut-off last segment as truncated, with its offset", async () => {
    const text = "UNB+UNOC:3+A+B+240101:0000+1'UNH+1+MSCONS:D:04B:UN:2.4c'QTY+220:1"
    const items = await collect([text])
    expect(items.map((i) => i.kind)).toEqual(["segment", "segment", "problem"])
    expect(items[2]).toMatchObject({ code: "truncated", offset: text.indexOf("QTY"), number: 3 })
  })

  it("reports a release character before an ordinary character, and reads on", async () => {
    const items = await collect(["PIA+5+1-1?x1.29.0:SRW'QTY+220:1'"])
    expect(items[0]).toMatchObject({ kind: "problem", code: "invalid_release", number: 1 })
    expect(items[1]).toMatchObject({ kind: "segment", tag: "QTY", number: 2, offset: "PIA+5+1-1?x1.29.0:SRW'".length })
  })

  it("names the byte of a bad release character in a segment re-encoded as UTF-8, as in a Latin-1 one", async () => {
    const valueArb = fc.array(fc.constantFrom(..."AZ09 äöüßé€"), { maxLength: 6 }).map((cs) => cs.join(""))
    await fc.assert(fc.asyncProperty(valueArb, valueArb, fc.constantFrom<BufferEncoding>("utf8", "latin1"), async (before, after, encoding) => {
      // "€" has no Latin-1 byte: only in UTF-8.
      const text = encoding === "latin1" ? `${before}?x${after}`.replaceAll("€", "E") : `${before}?x${after}`
      const bytes = Buffer.concat([Buffer.from("QTY+220:1'"), Buffer.from(`NAD+DP+++${text}'`, encoding)])
      const items = await collect([bytes])
      const problem = items[1]!
      expect(problem).toMatchObject({ kind: "problem", code: "invalid_release" })
      const at = Number(/at byte (\d+)/u.exec(problem.kind === "problem" ? problem.detail : "")![1])
      expect(bytes.subarray(at, at + 2).toString("latin1")).toBe("?x")
    }), { numRuns: 200 })
  })

  it("reports a segment without a tag, and a UNA that names one character twice", async () => {
    const items = await collect(["UNA::.? 'qty+1'QTY+2'"])
    expect(items.map((i) => (i.kind === "problem" ? i.code : i.tag))).toEqual(["invalid_una", "invalid_segment", "QTY"])
  })

  it("skips a byte order mark and reads a UTF-8 re-encoded segment as UTF-8, a Latin-1 one as Latin-1", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("NAD+DP+Müller'", "utf8"), Buffer.from("NAD+DP+Müller'", "latin1")])
    const items = await collect([bytes])
    expect(items.map((i) => (i.kind === "segment" ? i.elements[1]![0] : i.code))).toEqual(["Müller", "Müller"])
    expect(items[0]!.offset).toBe(3)
  })

  it("reads a random cut of any fixture without throwing, ending in a located problem or whole segments", async () => {
    const bytes = fixtureBytes("ch-2019-loadprofile-2.2e-pid13008.edi")
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: bytes.length }), async (cut) => {
      const items = await collect([bytes.subarray(0, cut)])
      const last = items[items.length - 1]
      if (last !== undefined && last.kind === "problem") expect(last.code).toBe("truncated")
      // Nothing is lost: the segments and the problem cover every non-blank byte of the cut.
      const covered = items.reduce((n, i) => n + i.length, 0)
      expect(covered).toBe(bytes.subarray(0, cut).toString("latin1").replace(/[\r\n]/gu, "").length)
    }), { numRuns: 100 })
  })
})

const scan = (scanner: SegmentScanner, chunks: Iterable<Uint8Array | string>): Array<SegmentItem> => {
  const out: Array<SegmentItem> = []
  for (const chunk of chunks) scanner.push(chunk, out)
  scanner.end(out)
  return out
}

/** Damage at character `at`: a release character before an ordinary one, a bad tag, or a cut. */
const damage = (text: string, at: number, how: number, release: string): string =>
  how === 0 ? `${text.slice(0, at)}${release}Z${text.slice(at)}` : how === 1 ? `${text.slice(0, at)}'x1+2'${text.slice(at)}` : text.slice(0, at)

describe("SegmentScanner", () => {
  it("read lightly, finds the same segments and problems, splitting only service segments", async () => {
    await fc.assert(
      fc.asyncProperty(separatorsArb, fc.array(segmentArb, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.integer({ min: 1, max: 40 }), fc.nat(), fc.integer({ min: 0, max: 3 }), async (s, segments, breaks, size, at, how) => {
        const written = write(s, segments, breaks)
        const text = how === 3 ? written : damage(written, 9 + (at % (written.length - 8)), how, s.release)
        const bytes = Buffer.from(text, "latin1")
        const full = await collect(chunked(bytes, size))
        const light = scan(new SegmentScanner({ light: true }), chunked(bytes, size))
        expect(light).toEqual(full.map((i) => (i.kind === "segment" && !i.tag.startsWith("UN") ? { ...i, elements: [] } : i)))
      }),
      { numRuns: 300 }
    )
  })

  it("reads from the middle of an input as from its start, given the separators, offset and number there", async () => {
    for (const name of EDIFACT_FIXTURES) {
      const bytes = fixtureBytes(name)
      const whole = scan(new SegmentScanner(), [bytes])
      const scanner = new SegmentScanner()
      scan(scanner, chunked(bytes, 4096))
      for (const from of whole.filter((_, i) => i % 50 === 7)) {
        const rest = scan(new SegmentScanner({ separators: scanner.separatorsAt(from.offset), offset: from.offset, number: from.number - 1 }), chunked(bytes.subarray(from.offset), 1000))
        expect(rest).toEqual(whole.filter((i) => i.offset >= from.offset))
      }
    }
  })
})
