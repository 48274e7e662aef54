/**
 * The offsets of a zone as the tz database records them (facts of the database, not of this code):
 * - Pacific/Apia left summer time on 2012-04-01 at 04:00 (+14:00 → +13:00): 03:00-04:00 came twice.
 * - America/Adak entered summer time on 2024-03-10 at 02:00 (-10:00 → -09:00), at 12:00 UTC.
 * - Europe/Berlin: 2024-03-31 02:00 → 03:00 (+01:00 → +02:00), 2024-10-27 03:00 → 02:00.
 * - Local mean time: Berlin +00:53:28 until 1893, Dublin -00:25:21 until 1916; Kolkata +05:30.
 */
import { describe, expect, it } from "vitest"
import { cachedOffsetSecondsAt, instantsFor, offsetFormatFor, soleOffsetAt } from "../../src/schemas/zone-offsets.js"

const zone = (name: string): Intl.DateTimeFormat => {
  const format = offsetFormatFor(name)
  if (format === undefined) throw new Error(`the runtime does not know ${name}`)
  return format
}

const HOUR = 3_600_000

describe("offsetFormatFor", () => {
  it("gives one formatter per zone, and none for a zone the runtime does not know", () => {
    expect(offsetFormatFor("Europe/Berlin")).toBe(offsetFormatFor("Europe/Berlin"))
    expect(offsetFormatFor("Europe/Berlin")).not.toBe(offsetFormatFor("Asia/Kolkata"))
    expect(offsetFormatFor("Europe/Nowhere")).toBeUndefined()
    expect(offsetFormatFor("")).toBeUndefined()
  })
})

describe("cachedOffsetSecondsAt", () => {
  it("reads whole, half-hour, zero and sub-minute offsets of either sign", () => {
    expect(cachedOffsetSecondsAt(zone("Europe/Berlin"), Date.UTC(2024, 6, 1, 12))).toBe(7200)
    expect(cachedOffsetSecondsAt(zone("Asia/Kolkata"), Date.UTC(2024, 6, 1, 12))).toBe(5 * 3600 + 30 * 60)
    expect(cachedOffsetSecondsAt(zone("America/New_York"), Date.UTC(2024, 0, 15, 12))).toBe(-5 * 3600)
    expect(cachedOffsetSecondsAt(zone("Europe/London"), Date.UTC(2024, 0, 15, 12))).toBe(0)
    expect(cachedOffsetSecondsAt(zone("Europe/Berlin"), Date.UTC(1890, 0, 1))).toBe(53 * 60 + 28)
    expect(cachedOffsetSecondsAt(zone("Europe/Dublin"), Date.UTC(1900, 0, 1))).toBe(-(25 * 60 + 21))
  })

  it("gives each side of a clock change its own offset, to the millisecond", () => {
    const adak = zone("America/Adak")
    const change = Date.UTC(2024, 2, 10, 12)
    expect(cachedOffsetSecondsAt(adak, change - 1)).toBe(-10 * 3600)
    expect(cachedOffsetSecondsAt(adak, change)).toBe(-9 * 3600)
  })
})

describe("instantsFor", () => {
  it("finds no instant in a skipped hour, one in an ordinary one, two (earlier first) in a repeated one", () => {
    const berlin = zone("Europe/Berlin")
    expect(instantsFor(berlin, Date.UTC(2024, 2, 31, 2, 30))).toEqual([])
    expect(instantsFor(berlin, Date.UTC(2024, 6, 1, 12))).toEqual([Date.UTC(2024, 6, 1, 10)])
    expect(instantsFor(berlin, Date.UTC(2024, 9, 27, 2, 30))).toEqual([Date.UTC(2024, 9, 27, 0, 30), Date.UTC(2024, 9, 27, 1, 30)])
  })

  it("finds the +14:00 of Apia's repeated hour, which ended 13½ hours before the wall time read as UTC (the sample 12 hours back misses it)", () => {
    // 2012-04-01 03:30 was 2012-03-31 13:30 UTC (+14:00) and 14:30 UTC (+13:00).
    expect(instantsFor(zone("Pacific/Apia"), Date.UTC(2012, 3, 1, 3, 30))).toEqual([Date.UTC(2012, 2, 31, 13, 30), Date.UTC(2012, 2, 31, 14, 30)])
  })
})

describe("soleOffsetAt", () => {
  it("gives the one offset of wall times far from a clock change", () => {
    expect(soleOffsetAt(zone("Europe/Berlin"), Date.UTC(2024, 6, 1, 12))).toBe(7200)
    expect(soleOffsetAt(zone("Asia/Kolkata"), Date.UTC(2024, 6, 1, 12))).toBe(19_800)
  })

  it("gives none near a clock change, before it as after it", () => {
    const adak = zone("America/Adak")
    // 03:30 on the day of the change is read as 03:30 UTC, half a day before the change's 12:00 UTC, and
    // is -09:00 (12:30 UTC): the offset of its own window (-10:00) is not its offset.
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 10, 3, 30))).toBeNull()
    expect(instantsFor(adak, Date.UTC(2024, 2, 10, 3, 30))).toEqual([Date.UTC(2024, 2, 10, 12, 30)])
    // Its windows and the two on each side (12 hours each, from midnight UTC) must agree: 12:30 on the day
    // before reaches the window from 12:00 UTC of the change, 23:30 on the day reaches the one before it.
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 9, 12, 30))).toBeNull()
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 10, 23, 30))).toBeNull()
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 9, 3, 30))).toBe(-10 * 3600)
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 11, 12, 30))).toBe(-9 * 3600)
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 7, 12))).toBe(-10 * 3600)
    expect(soleOffsetAt(adak, Date.UTC(2024, 2, 14, 12))).toBe(-9 * 3600)
  })

  it("gives the same answer asked again, from any window", () => {
    const berlin = zone("Europe/Berlin")
    let soles = 0
    for (let hours = -72; hours <= 72; hours += 6) {
      const wall = Date.UTC(2024, 9, 27, 2, 30) + hours * HOUR
      const first = soleOffsetAt(berlin, wall)
      expect(soleOffsetAt(berlin, wall)).toBe(first)
      const instants = instantsFor(berlin, wall)
      // A sole offset is the offset of the wall time's one instant.
      if (first !== null) {
        soles++
        expect(instants).toEqual([wall - first * 1000])
      }
    }
    // Three days either side of the change: the days away from it have a sole offset, the change's not.
    expect(soles).toBeGreaterThan(10)
    expect(soles).toBeLessThan(25)
  })
})
