/**
 * `printable`: what the text and markdown reports show of a value from the ledger. No character a terminal
 * acts on gets through, and text without such characters is shown as it is.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { printable } from "../../src/report/render-text.js"

// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u
const active = fc.constantFrom("\u001b", "\r", "\n", "\t", "\u0007", "\u0000", "\u007f", "\u0085", "\u009b", "\u2028", "\u2029", "\u202e", "\u2067")

describe("printable", () => {
  it("property: no control, separator or bidirectional character is left, and nothing else changes", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "grapheme" }), active)), (parts) => {
        const text = parts.join("")
        const shown = printable(text)
        expect(shown).not.toMatch(ACTIVE)
        // Every active character became an escape of its own; the rest is the text as it was.
        expect(shown.replace(/\\u[0-9a-f]{4}|\\[rnt]/gu, "")).toBe(text.replace(new RegExp(ACTIVE.source, "gu"), "").replace(/\\u[0-9a-f]{4}|\\[rnt]/gu, ""))
      })
    )
  })

  it("examples: an escape sequence, a carriage return, a right-to-left override", () => {
    expect(printable("a\u001b[2Jb")).toBe("a\\u001b[2Jb")
    expect(printable("1,5\rOK")).toBe("1,5\\rOK")
    expect(printable("KD-\u202e1")).toBe("KD-\\u202e1")
    expect(printable("Müller & Söhne <KD-1> \"x\"")).toBe("Müller & Söhne <KD-1> \"x\"")
  })
})
