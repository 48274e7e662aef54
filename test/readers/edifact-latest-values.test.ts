/**
 * The held state of a run's versions (src/readers/edifact/held-texts.ts, latest-values.ts): texts read
 * back exactly as added, whatever their characters, across blocks; each key's entry found again, with
 * the place and raw text of its latest version.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { HeldTexts } from "../../src/readers/edifact/held-texts.js"
import { LatestValues } from "../../src/readers/edifact/latest-values.js"

describe("HeldTexts", () => {
  it("gives back every text exactly, lone surrogates and long texts included", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom("\uD800", "\uDC00", "a", "ü") })), { maxLength: 60 }), (texts) => {
        const held = new HeldTexts()
        const numbers = texts.map((t) => held.add(t))
        expect(numbers).toEqual(texts.map((_, i) => i))
        expect(numbers.map((n) => held.get(n))).toEqual(texts)
      })
    )
  })

  it("keeps texts across many blocks, and one longer than a block", () => {
    const held = new HeldTexts()
    const long = "QTY+220:1,5'".repeat(200_000)
    const texts = Array.from({ length: 30_000 }, (_, i) => `QTY+220:${i},${i % 7}'DTM+163:2024${i}:303'`)
    const numbers = texts.map((t) => held.add(t))
    const longNumber = held.add(long)
    const after = held.add("after")
    expect(held.get(longNumber)).toBe(long)
    expect(held.get(after)).toBe("after")
    expect(numbers.every((n, i) => held.get(n) === texts[i])).toBe(true)
  })
})

describe("LatestValues", () => {
  it("finds each key's entry, holding the place and raw text of the version it was last given", () => {
    const version = fc.record({ key: fc.string({ maxLength: 6 }), file: fc.nat(5), message: fc.nat(1000), segment: fc.nat(10 ** 6), raw: fc.string({ unit: "grapheme" }) })
    fc.assert(
      fc.property(fc.array(version, { maxLength: 300 }), (versions) => {
        const values = new LatestValues()
        const expected = new Map<string, { readonly entry: number; file: number; message: number; segment: number; header: number; raw: string }>()
        versions.forEach((v, header) => {
          const place = { file: v.file, message: v.message, segment: v.segment, header }
          const entry = values.find(v.key)
          const known = expected.get(v.key)
          expect(entry).toBe(known?.entry ?? -1)
          if (known === undefined) expected.set(v.key, { entry: values.add(v.key, place, v.raw), ...place, raw: v.raw })
          else {
            values.replace(entry, place, v.raw)
            Object.assign(known, place, { raw: v.raw })
          }
        })
        expect(values.size).toBe(expected.size)
        for (const [key, e] of expected) {
          expect(values.find(key)).toBe(e.entry)
          expect(values.key(e.entry)).toBe(key)
          expect(values.raw(e.entry)).toBe(e.raw)
          expect(values.place(e.entry)).toEqual({ file: e.file, message: e.message, segment: e.segment, header: e.header })
        }
        // Entries are numbered in the order their keys first came; without keys kept, each is found the same.
        const keyless = new LatestValues(false)
        for (const [key, e] of expected) expect(keyless.add(key, e, e.entry % 2 === 0 ? e.raw : undefined)).toBe(e.entry)
        for (const [key, e] of expected) expect(keyless.find(key)).toBe(e.entry)
        if (expected.size > 0) expect(() => keyless.key(0)).toThrow("not kept")
        // A raw text given later (kept when another version names it) is held as one given at once.
        for (const e of expected.values()) {
          expect(keyless.holdsRaw(e.entry)).toBe(e.entry % 2 === 0)
          if (e.entry % 2 === 1) {
            expect(() => keyless.raw(e.entry)).toThrow("not kept")
            keyless.keepRaw(e.entry, e.raw)
          }
        }
        for (const e of expected.values()) expect(keyless.raw(e.entry)).toBe(e.raw)
        expect([...expected.values()].map((e) => e.entry)).toEqual([...expected.keys()].map((_, i) => i))
      })
    )
  })

  it("holds the place, raw text and key of each of 20,000 entries, every one replaced once", () => {
    const values = new LatestValues()
    const keyOf = (i: number): string => `["5123869678${i % 10}","2024-01-01T00:00:00+01:00",${i}]`
    const n = 20_000
    for (let i = 0; i < n; i++) expect(values.add(keyOf(i), { file: i % 3, message: i, segment: 2 * i, header: i % 11 }, i % 2 === 0 ? `QTY+220:${i}'` : undefined)).toBe(i)
    // Replaced from the last to the first, so that every entry is written after many others were added.
    for (let i = n - 1; i >= 0; i -= 3) values.replace(values.find(keyOf(i)), { file: 7, message: -i, segment: i, header: 1 }, `QTY+67:${i}'`)
    expect(values.size).toBe(n)
    for (let i = 0; i < n; i++) {
      const replaced = (n - 1 - i) % 3 === 0
      expect(values.find(keyOf(i))).toBe(i)
      expect(values.key(i)).toBe(keyOf(i))
      expect(values.place(i)).toEqual(replaced ? { file: 7, message: -i, segment: i, header: 1 } : { file: i % 3, message: i, segment: 2 * i, header: i % 11 })
      expect(values.holdsRaw(i)).toBe(replaced || i % 2 === 0)
      if (values.holdsRaw(i)) expect(values.raw(i)).toBe(replaced ? `QTY+67:${i}'` : `QTY+220:${i}'`)
    }
  })
})
