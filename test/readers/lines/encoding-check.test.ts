import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { utf8ReadAsSingleByte } from "../../../src/readers/lines/encoding-check.js"

const european = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.integer({ min: 0x2010, max: 0x20ac }))
const nonAscii = fc.string({ unit: european.map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 12 }).filter((s) => /[^\u0000-\u007f]/u.test(s))
const german = fc.string({ unit: fc.constantFrom(..."aeKMnrstuz 0123456789;.,-äöüÄÖÜßéèçñ°§€„“”–"), minLength: 1, maxLength: 20 })

describe("utf8ReadAsSingleByte", () => {
  it("gives back the text when UTF-8 was read as latin1 or windows-1252", () => {
    fc.assert(
      fc.property(nonAscii, fc.constantFrom("latin1", "windows-1252", "ISO-8859-1"), (text, encoding) => {
        const misread = new TextDecoder(encoding).decode(new TextEncoder().encode(text))
        expect(utf8ReadAsSingleByte(misread, encoding)).toBe(text)
      }),
      { numRuns: 500 }
    )
  })

  it("leaves German text in latin1 or windows-1252 alone, and every text in a multi-byte encoding", () => {
    fc.assert(
      fc.property(german, (text) => {
        expect(utf8ReadAsSingleByte(text, "windows-1252")).toBeUndefined()
        if (!text.includes("€")) expect(utf8ReadAsSingleByte(text, "latin1")).toBeUndefined()
        expect(utf8ReadAsSingleByte(text, "utf-8")).toBeUndefined()
        expect(utf8ReadAsSingleByte(text, "utf-16le")).toBeUndefined()
      }),
      { numRuns: 500 }
    )
    expect(utf8ReadAsSingleByte("MÃ¼ller;StraÃŸe", "windows-1252")).toBe("Müller;Straße")
    expect(utf8ReadAsSingleByte("plain ASCII", "latin1")).toBeUndefined()
    // Valid UTF-8 by chance, but not of European letters: ß“ and Ö€ make U+07D3 and U+0580.
    expect(utf8ReadAsSingleByte("„Straße“", "windows-1252")).toBeUndefined()
    expect(utf8ReadAsSingleByte("Ö€", "windows-1252")).toBeUndefined()
    expect(utf8ReadAsSingleByte("Ä„", "windows-1252")).toBeUndefined()
  })
})
