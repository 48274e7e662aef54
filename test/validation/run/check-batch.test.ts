/**
 * A validation worker decodes a batch of NDJSON lines piece by piece. Cutting it into pieces must not
 * change what it finds: a batch checked whole gives what its lines give checked one batch each.
 */
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type BatchSummary, emptySummary } from "../../../src/validation/run/batch.js"
import { BatchChecker, pieceEnd } from "../../../src/validation/run/check-batch.js"

const PIECE = 1 << 16
const encoder = new TextEncoder()

const valid = JSON.stringify(JSON.parse(readFileSync(new URL("../../../examples/payloads/energy-amount.json", import.meta.url), "utf8")))
/** Valid but for its quantity. */
const invalid = valid.replace(/"quantity":"[^"]*"/u, "\"quantity\":\"12,5\"")

/** Lines of every kind a batch holds, some long enough to span a piece or more. */
const line = fc.oneof(
  fc.constant(valid),
  fc.constant(invalid),
  fc.constant("{\"import_supplier\": "),
  fc.constant(""),
  fc.constant("   "),
  fc.constant(`${valid.slice(0, -1)}\r`),
  fc.constant(`{"note":"Zähler ${"ü".repeat(40)}"}`),
  fc.integer({ min: PIECE - 40, max: 2 * PIECE + 40 }).map((n) => JSON.stringify({ padding: "x".repeat(n) }))
)

const checker = (): BatchChecker => new BatchChecker({ role: "validate", endpoint: undefined, now: "2026-01-01T00:00:00Z", keepRaw: true, maxLineBytes: 1 << 24 })

const check = (text: string, atStreamStart = false): BatchSummary =>
  checker().checkNdjson({ type: "ndjson", seq: 0, bytes: encoder.encode(text), atStreamStart })

/** What the lines give checked one batch each, as one summary (line numbers counted across them). */
const lineByLine = (lines: ReadonlyArray<string>): BatchSummary => {
  const whole = emptySummary(0)
  const c = checker()
  lines.forEach((text, at) => {
    const one = c.checkNdjson({ type: "ndjson", seq: 0, bytes: encoder.encode(`${text}\n`), atStreamStart: false })
    whole.lines += one.lines
    for (const key of ["records", "valid", "invalid", "unparseable", "errors", "warnings", "warnedValid"] as const) whole[key] += one[key]
    whole.problems.push(...one.problems.map((p) => ({ ...p, line: p.line + at })))
    whole.warned.push(...one.warned.map((w) => ({ ...w, line: w.line + at })))
  })
  return whole
}

const counts = (s: BatchSummary) => ({
  lines: s.lines,
  records: s.records,
  valid: s.valid,
  invalid: s.invalid,
  unparseable: s.unparseable,
  errors: s.errors,
  warnings: s.warnings,
  problems: s.problems.map((p) => [p.line, p.kind, p.raw]),
  warned: s.warned.map((w) => w.line)
})

describe("pieceEnd", () => {
  it("cuts bytes into pieces that end at line ends, each within the piece size or one line long", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(200), fc.integer({ min: PIECE - 2, max: PIECE + 2 }), fc.nat(3 * PIECE)), { maxLength: 12 }), fc.boolean(), (lengths, endsWithNewline) => {
        const text = lengths.map((n) => "a".repeat(n)).join("\n") + (endsWithNewline ? "\n" : "")
        const bytes = encoder.encode(text)
        const pieces: Array<Uint8Array> = []
        for (let from = 0; from < bytes.length;) {
          const to = pieceEnd(bytes, from)
          expect(to).toBeGreaterThan(from)
          pieces.push(bytes.subarray(from, to))
          from = to
        }
        expect(Buffer.concat(pieces).equals(Buffer.from(bytes))).toBe(true)
        pieces.forEach((piece, i) => {
          if (i < pieces.length - 1) expect(piece[piece.length - 1]).toBe(10)
          const newlines = piece.filter((b) => b === 10).length
          // A piece is within the size, or it is one line (with its line end) that is longer.
          const oneLine = newlines === 0 || (newlines === 1 && piece[piece.length - 1] === 10)
          expect(piece.length <= PIECE || oneLine, `piece ${i} of ${piece.length} bytes, ${newlines} line ends`).toBe(true)
        })
      }),
      { numRuns: 200 }
    )
  })

  it("ends a piece at the last line end within the piece size, never one byte past it", () => {
    const bytes = encoder.encode(`a\n${"b".repeat(PIECE - 2)}\nc`)
    expect(bytes[PIECE]).toBe(10)
    expect(pieceEnd(bytes, 0)).toBe(2)
    expect(pieceEnd(bytes, 2)).toBe(bytes.length)
  })
})

describe("BatchChecker.checkNdjson", () => {
  it("finds in a batch of many pieces what its lines give one by one", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 400, size: "max" }), (lines) => {
        const summary = check(`${lines.join("\n")}\n`)
        expect(counts(summary)).toEqual(counts(lineByLine(lines)))
      }),
      { numRuns: 60 }
    )
  })

  it("reads a batch of many pieces to its last line, blank lines counted", () => {
    const lines = Array.from({ length: 600 }, (_, i) => (i % 7 === 0 ? "" : i % 5 === 0 ? invalid : valid))
    const summary = check(`${lines.join("\n")}\n`)
    expect(encoder.encode(lines.join("\n")).length).toBeGreaterThan(3 * PIECE)
    expect(summary.lines).toBe(600)
    expect(summary.records).toBe(lines.filter((l) => l !== "").length)
    expect(summary.problems.map((p) => p.line)).toEqual(lines.flatMap((l, i) => (l === invalid ? [i] : [])))
  })

  it("drops a byte order mark at the start of the stream only", () => {
    const text = `\uFEFF${valid}\n${valid}\n`
    expect(check(text, true).valid).toBe(2)
    expect(check(text, false).unparseable).toBe(1)
  })
})
