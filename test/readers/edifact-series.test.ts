/**
 * The series check of EDIFACT records (src/readers/edifact/series.ts): examples of each warning and
 * reject, and a property: over generated regular series with irregularities injected at random places,
 * exactly the injected ones are named, at their segments, and nothing of the next message is compared
 * with the message before.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { EdifactRecordItem } from "../../src/readers/edifact/records.js"
import { intervalLength, SeriesCheck } from "../../src/readers/edifact/series.js"

const MINUTE = 60_000

/** An instant as the reader writes a DTM in UTC ("…Z" is read like an offset). */
const iso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}+00:00`

const record = (message: number, segment: number, from: number, to: number, quantity: string, product = "1-1:1.29.0"): EdifactRecordItem => ({
  kind: "record",
  at: { offset: segment * 20, segment, message, messageReference: String(message) },
  raw: `QTY+220:${quantity}'`,
  record: { "DTM+163": iso(from), "DTM+164": iso(to), "LOC+172.2.1": "51238696781", "PIA+5.2.1": product, "QTY.1.2": quantity, "QTY.1.1": "220" }
})

const checked = (items: ReadonlyArray<EdifactRecordItem>, pieces = 1, records = true): Array<EdifactRecordItem> => {
  const check = new SeriesCheck("UTC", records)
  const out: Array<EdifactRecordItem> = []
  const size = Math.max(1, Math.ceil(items.length / pieces))
  for (let i = 0; i < items.length; i += size) out.push(...check.check(items.slice(i, i + size)))
  out.push(...check.end())
  return out
}

const found = (items: ReadonlyArray<EdifactRecordItem>): Array<string> =>
  items.filter((i) => i.kind === "warning" || i.kind === "reject").map((i) => `${(i as { code: string }).code} ${i.at.segment}`).sort()

describe("intervalLength", () => {
  it("counts minutes by the instants, days and months by the wall time", () => {
    expect(intervalLength("2024-10-27T02:45:00+02:00", "2024-10-27T02:00:00+01:00", 0, 15 * MINUTE)).toBe("15 minutes")
    expect(intervalLength("2024-10-27T00:00:00+02:00", "2024-10-28T00:00:00+01:00", 0, 25 * 60 * MINUTE)).toBe("1 day")
    expect(intervalLength("2024-03-31T00:00:00+01:00", "2024-04-01T00:00:00+02:00", 0, 23 * 60 * MINUTE)).toBe("1 day")
    expect(intervalLength("2022-02-01T00:00:00+01:00", "2022-03-01T00:00:00+01:00", 0, 28 * 24 * 60 * MINUTE)).toBe("1 month")
    expect(intervalLength("2024-06-10T06:00:00+02:00", "2024-06-11T06:00:00+02:00", 0, 24 * 60 * MINUTE)).toBe("1 day")
    expect(intervalLength("2024-06-10T06:00:00+02:00", "2024-06-10T06:00:30+02:00", 0, 30_000)).toBe("30 seconds")
  })
})

describe("SeriesCheck", () => {
  const t0 = Date.UTC(2024, 5, 10)
  const qh = (k: number): [number, number] => [t0 + k * 15 * MINUTE, t0 + (k + 1) * 15 * MINUTE]

  it("names the same interval twice with the same value not at all, with another qualifier as a repeat", () => {
    const same = [record(1, 10, ...qh(0), "1.50"), record(1, 13, ...qh(0), "1.5"), record(1, 16, ...qh(1), "2")]
    expect(found(checked(same))).toEqual([])
    const other = record(1, 13, ...qh(0), "1.5")
    const qualifier = { ...other, record: { ...(other as { record: Record<string, string> }).record, "QTY.1.1": "67" } } as EdifactRecordItem
    expect(found(checked([same[0]!, qualifier, same[2]!]))).toEqual(["repeated_interval 13"])
  })

  it("keeps series of other products and locations apart, and compares no interval with the message before", () => {
    const m1 = [0, 1, 2, 3].map((k) => record(1, 10 + 3 * k, ...qh(k), String(k)))
    const feedIn = [0, 1, 2, 3].map((k) => record(1, 30 + 3 * k, ...qh(k), String(k), "1-1:2.29.0"))
    // Message 2 sends the same quarter-hours again with other values, and one of them is 30 minutes long.
    const m2 = [record(2, 60, ...qh(0), "9"), record(2, 63, qh(1)[0], qh(2)[1], "9"), record(2, 66, ...qh(3), "9"), record(2, 69, ...qh(4), "9")]
    const out = checked([...m1, ...feedIn, ...m2], 5)
    expect(found(out)).toEqual(["irregular_interval 63"])
    expect(out.filter((i) => i.kind === "record")).toHaveLength(12)
  })

  it("gives a message's warnings before the next message's first item: its intervals are no longer held", () => {
    const m1 = [record(1, 10, ...qh(0), "1"), record(1, 13, ...qh(2), "2")]
    const out = checked([...m1, record(2, 20, ...qh(0), "3")])
    expect(out.map((i) => `${i.kind} ${i.at.segment}`)).toEqual(["record 10", "record 13", "warning 13", "record 20"])
  })

  it("compares intervals by start, then end, whatever order they are sent in", () => {
    // A quarter-hour sent after the one it precedes is neither an overlap nor a gap.
    expect(found(checked([record(1, 10, ...qh(1), "1"), record(1, 13, ...qh(0), "2"), record(1, 16, ...qh(2), "3")]))).toEqual([])
    // A half-hour, a quarter-hour of the same start, the half-hour again with another value: the quarter-hour
    // overlaps the half-hour, and the half-hour's repeat is named as one, though the quarter-hour came between.
    const halfHour: [number, number] = [qh(0)[0], qh(1)[1]]
    const sent = [record(1, 10, ...halfHour, "1"), record(1, 13, ...qh(0), "2"), record(1, 16, ...halfHour, "3"), record(1, 19, ...qh(2), "4")]
    expect(found(checked(sent))).toEqual(["interval_overlap 13", "irregular_interval 10", "irregular_interval 16", "repeated_interval 16"])
  })

  it("takes no gap where a QTY between the two ended otherwise (rejected or left out)", () => {
    const reject: EdifactRecordItem = { kind: "reject", code: "invalid_number", detail: "", at: { offset: 0, segment: 13, message: 1 }, raw: "" }
    expect(found(checked([record(1, 10, ...qh(0), "1"), reject, record(1, 16, ...qh(2), "3")]))).toEqual(["invalid_number 13"])
    expect(found(checked([record(1, 10, ...qh(0), "1"), record(1, 16, ...qh(2), "3")]))).toEqual(["series_gap 16"])
  })

  it("names exactly the irregularities injected into a regular series (property)", () => {
    type Kind = "gap" | "repeat" | "overlap" | "split" | "merge" | "backwards" | "empty"
    const kinds: ReadonlyArray<Kind> = ["gap", "repeat", "overlap", "split", "merge", "backwards", "empty"]
    const arbitrary = fc.record({
      resolution: fc.constantFrom(5, 15, 60),
      length: fc.integer({ min: 24, max: 96 }),
      start: fc.integer({ min: 0, max: 10_000 }).map((n) => Date.UTC(2024, 0, 1) + n * 15 * MINUTE),
      injections: fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom(...kinds), minutes: fc.nat() }), { maxLength: 4 }),
      pieces: fc.integer({ min: 1, max: 7 }),
      second: fc.boolean()
    })
    fc.assert(fc.property(arbitrary, ({ resolution, length, start, injections, pieces, second }) => {
      // Injections at distinct places 4 intervals apart, none at either end: each one's neighbours are regular.
      const places = new Map<number, { kind: Kind; minutes: number }>()
      for (const i of injections) {
        const at = 2 + 4 * (i.at % Math.floor((length - 4) / 4))
        if (!places.has(at)) places.set(at, i)
      }
      const items: Array<EdifactRecordItem> = []
      const expected: Array<string> = []
      let segment = 10
      let value = 0
      const r = resolution * MINUTE
      const push = (from: number, to: number): number => {
        items.push(record(1, segment, from, to, String(value++)))
        segment += 3
        return segment - 3
      }
      let pendingGap = false
      let pendingOverlap = false
      for (let k = 0; k < length; k++) {
        const from = start + k * r
        const to = from + r
        const injected = places.get(k)
        if (injected === undefined || (injected.kind === "merge" && k === length - 1)) {
          const s = push(from, to)
          if (pendingGap) expected.push(`series_gap ${s}`)
          if (pendingOverlap) expected.push(`interval_overlap ${s}`)
          pendingGap = false
          pendingOverlap = false
          continue
        }
        const d = (1 + (injected.minutes % (resolution - 1))) * MINUTE
        switch (injected.kind) {
          case "gap":
            pendingGap = true
            break
          case "repeat":
            push(from, to)
            value += 1
            expected.push(`repeated_interval ${push(from, to)}`)
            break
          case "overlap":
            push(from, to)
            expected.push(`interval_overlap ${push(from + d, to + d)}`)
            pendingOverlap = true
            break
          case "split":
            expected.push(`irregular_interval ${push(from, from + d)}`, `irregular_interval ${push(from + d, to)}`)
            break
          case "merge":
            expected.push(`irregular_interval ${push(from, to + r)}`)
            k++
            break
          case "backwards":
            expected.push(`interval_backwards ${push(to, from)}`)
            break
          case "empty":
            push(from, to)
            expected.push(`interval_empty ${push(to, to)}`)
            break
        }
      }
      // The same series again in a second message, other values: nothing to name.
      if (second) for (let k = 0; k < length; k++) items.push(record(2, segment + 3 * k, start + k * r, start + (k + 1) * r, "7"))
      const out = checked(items, pieces)
      expect(found(out)).toEqual(expected.sort())
      // Every record ends as itself or as one reject; warnings come besides.
      expect(out.filter((i) => i.kind !== "warning")).toHaveLength(items.length)
      // Each warning keeps its record, unless the check keeps none (no journal files warnings by account):
      // then the same items, in the same order, each warning without it.
      expect(out.filter((i) => i.kind === "warning").every((w) => (w as { record?: object }).record !== undefined)).toBe(true)
      const bare = checked(items, pieces, false)
      expect(bare).toEqual(out.map((i) => {
        if (i.kind !== "warning") return i
        const { record: _record, ...rest } = i as typeof i & { record?: object }
        return rest
      }))
      expect(bare.filter((i) => i.kind === "warning").some((w) => "record" in w)).toBe(false)
    }), { numRuns: 300 })
  })
})
