import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bytesDigest, DIGEST_LENGTH, keyDigest, SeenKeys } from "../../src/readers/lookup/seen-keys.js"

/** A digest given byte by byte (a character per byte, as keyDigest writes it). */
const digestOf = (bytes: ReadonlyArray<number>): string => String.fromCharCode(...bytes)

describe("SeenKeys", () => {
  it("remembers the first place of every key, as a Map does, through many doublings of its table", () => {
    // A lookup, a record, or both in a row (as map does): a record right after a lookup of the same key reuses its probe.
    const step = fc.constantFrom("lookup", "record", "both")
    // The table starts at 1,024 slots and doubles past half full: runs of up to 4,000 steps (size "max",
    // or fast-check keeps arrays to a few dozen) make it double up to three times.
    let most = 0
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.nat(), step), { minLength: 1, maxLength: 4000, size: "max" }), (steps) => {
        const seen = new SeenKeys()
        const model = new Map<string, number>()
        for (const [key, line, kind] of steps) {
          if (kind !== "record") expect(seen.lookup(key)).toBe(model.get(key))
          if (kind === "lookup") continue
          seen.record(key, line)
          if (!model.has(key)) model.set(key, line)
        }
        expect(seen.size).toBe(model.size)
        for (const [key, line] of model) expect(seen.lookup(key)).toBe(line)
        most = Math.max(most, model.size)
      }),
      { numRuns: 60 }
    )
    expect(most).toBeGreaterThan(1024)
  })

  it("holds 100,000 distinct keys and finds each at its own line", () => {
    const seen = new SeenKeys()
    for (let i = 0; i < 100_000; i++) seen.record(`key-${i}`, i + 1)
    expect(seen.size).toBe(100_000)
    for (let i = 0; i < 100_000; i += 997) expect(seen.lookup(`key-${i}`)).toBe(i + 1)
    expect(seen.lookup("key-100000")).toBeUndefined()
  })

  it("tells apart digests that differ in any single byte, even when they share the bytes that place them", () => {
    const base = Array.from({ length: DIGEST_LENGTH }, (_, b) => (b * 37 + 11) % 256)
    const seen = new SeenKeys()
    seen.recordDigest(digestOf(base), 1)
    for (let b = 0; b < DIGEST_LENGTH; b++) {
      const other = [...base]
      other[b] = (other[b]! + 1) % 256
      expect(seen.lookupDigest(digestOf(other))).toBeUndefined()
      seen.recordDigest(digestOf(other), b + 2)
    }
    expect(seen.lookupDigest(digestOf(base))).toBe(1)
    expect(seen.size).toBe(DIGEST_LENGTH + 1)
  })

  it("reads a digest at its place in a string of many, as a worker sends a batch's digests", () => {
    const keys = ["a", "b", "c", "a"]
    const joined = keys.map(keyDigest).join("")
    const seen = new SeenKeys()
    keys.forEach((_, i) => {
      if (seen.lookupDigest(joined, i * DIGEST_LENGTH) === undefined) seen.recordDigest(joined, i + 10, i * DIGEST_LENGTH)
    })
    expect([seen.lookup("a"), seen.lookup("b"), seen.lookup("c")]).toEqual([10, 11, 12])
    expect(seen.size).toBe(3)
  })

  it("keeps a key's first place when it is recorded again", () => {
    const seen = new SeenKeys<{ readonly file: string }>()
    seen.record("k", { file: "a" })
    seen.record("k", { file: "b" })
    expect(seen.lookup("k")).toEqual({ file: "a" })
  })

  it("digests a key as its SHA-1, one character per byte", () => {
    // SHA-1 of "abc" (FIPS 180-1, appendix A).
    const hex = [...keyDigest("abc")].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("")
    expect(hex).toBe("a9993e364706816aba3e25717850c26c9cd0d89d")
  })

  it("digests a key's UTF-8 bytes as it digests the key, lone surrogates and all", () => {
    const encoder = new TextEncoder()
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom("\uD800", "\uDC00", "a", "ü", "€") })), (key) => {
        const bytes = encoder.encode(`x${key}`)
        // A view inside a larger buffer, as a batch's payload lines are.
        const larger = new Uint8Array(bytes.length + 7)
        larger.set(bytes, 3)
        expect(bytesDigest(larger.subarray(4, 3 + bytes.length))).toBe(keyDigest(key))
      })
    )
  })
})
