/**
 * The keys the versions index tells apart without hashing (src/readers/edifact/ordered-keys.ts): date-times
 * packed into exact numbers, and series that keep the keys that came in order.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { OrderedKeys, packDateTime } from "../../src/readers/edifact/ordered-keys.js"
import { isoDateTime, isoDateTimePair } from "../../src/testing/arbitrary-dates.js"

/** A zoned date-time of the testing kit; those written as the reader writes them (no `Z`, no fraction) have a number. */
const canonical = (text: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/u.test(text)

/** A date-time and another that differs from it in one character, often still a date-time. */
const nearPair = fc.tuple(isoDateTime, fc.nat(24), fc.constantFrom(..."0123456789+-")).map(([text, at, char]) => [text, `${text.slice(0, at)}${char}${text.slice(at + 1)}`] as const)

describe("packDateTime", () => {
  it("gives two date-times the same number exactly when they are the same text, in the texts' order", () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(isoDateTime, isoDateTime), isoDateTimePair, nearPair), ([a, b]) => {
        const x = packDateTime(a)
        const y = packDateTime(b)
        expect(Number.isNaN(x)).toBe(!canonical(a))
        if (Number.isNaN(x) || Number.isNaN(y)) return
        expect(Number.isSafeInteger(x) && Number.isSafeInteger(y)).toBe(true)
        expect(x === y).toBe(a === b)
        expect(Math.sign(x - y)).toBe(a === b ? 0 : a < b ? -1 : 1)
      }),
      { numRuns: 2000 }
    )
  })

  it("keeps every field apart at the ends of its range", () => {
    // The largest and smallest of each field, in the texts' order: a field that spilled into the next would tie two or turn the order.
    const texts = ["0000-01-01T00:00:00+00:00", "0000-01-01T00:00:00-00:00", "0000-01-01T00:00:00+00:01", "0000-01-01T00:00:01+00:00", "0000-01-01T00:00:59+99:59", "0000-01-01T00:01:00+00:00", "0000-01-01T23:59:59-99:59", "0000-01-02T00:00:00+00:00", "0000-01-31T23:59:59-99:59", "0000-02-01T00:00:00+00:00", "0000-12-31T23:59:59-99:59", "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59-99:59"].sort()
    const numbers = texts.map(packDateTime)
    for (const n of numbers) expect(Number.isSafeInteger(n)).toBe(true)
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]!, texts[i]).toBeGreaterThan(numbers[i - 1]!)
  })

  it("gives NaN for any other text", () => {
    for (const text of ["2024-10-27T02:00:00Z", "2024-10-27T02:00:00.000+02:00", "2024-10-27", "2024-10", "2024-13-01T00:00:00+01:00", "2024-10-32T00:00:00+01:00", "2024-10-27T24:00:00+01:00", "2024-10-27T02:60:00+01:00", "2024-10-27T02:00:60+01:00", "2024-10-27T02:00:00+01:60", "2024-10-27T02:00:00 01:00", "2024-10-27 02:00:00+01:00", "2024/10/27T02:00:00+01:00", "2024-1a-27T02:00:00+01:00", "202410270200+01:00"]) {
      expect(packDateTime(text), text).toBeNaN()
    }
    expect(packDateTime("0000-00-00T00:00:00+00:00")).toBe(0)
  })
})

describe("OrderedKeys", () => {
  it("finds every key it was given, as a Map does, whatever the order the keys come in", () => {
    // As the versions index uses it: a key that comes after every key of its series is appended; one that
    // comes out of order is held elsewhere (a Map here, the digest table there), and its series counts it.
    const key = fc.record({ series: fc.constantFrom(["a"], ["b"], ["a", "b"], ["a\u0000"]), start: fc.integer({ min: 0, max: 6 }), end: fc.integer({ min: 0, max: 2 }) })
    fc.assert(
      fc.property(fc.array(key, { maxLength: 200 }), (keys) => {
        const ordered = new OrderedKeys()
        const model = new Map<string, number>()
        const elsewhere = new Map<string, number>()
        for (const k of keys) {
          const name = JSON.stringify([k.series, k.start, k.end])
          const series = ordered.seriesOf([...k.series])
          let entry = series.find(k.start, k.end)
          if (entry < 0 && !series.appends && series.scattered > 0) entry = elsewhere.get(name) ?? -1
          expect(entry).toBe(model.get(name) ?? -1)
          if (entry >= 0) continue
          const added = model.size
          model.set(name, added)
          if (series.appends) series.append(k.start, k.end, added)
          else {
            elsewhere.set(name, added)
            series.scattered++
          }
        }
        // Keys in order are never held elsewhere.
        const sorted = [...keys].sort((x, y) => x.start - y.start || x.end - y.end)
        const again = new OrderedKeys()
        for (const [i, k] of sorted.entries()) {
          const series = again.seriesOf([...k.series])
          if (series.find(k.start, k.end) >= 0) continue
          expect(series.appends).toBe(true)
          series.append(k.start, k.end, i)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("holds 100,000 keys of a series that come in order, each found again", () => {
    const keys = new OrderedKeys()
    const series = keys.seriesOf(["51238696781", "1-1:1.29.0"])
    for (let i = 0; i < 100_000; i++) {
      expect(series.find(i, i + 1)).toBe(-1)
      expect(series.appends).toBe(true)
      series.append(i, i + 1, i)
    }
    for (let i = 0; i < 100_000; i += 7) expect(keys.seriesOf(["51238696781", "1-1:1.29.0"]).find(i, i + 1)).toBe(i)
    expect(series.find(5, 7)).toBe(-1)
    expect(series.appends).toBe(false)
  })
})
