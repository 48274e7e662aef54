/**
 * Date-only cells for date-time fields (`time: start | end | next-start`): exact for every day of
 * 1900–2100 in Europe/Berlin, checked against @date-fns/tz's offsets; clock changes as for any wall time.
 */
import { tzOffset } from "@date-fns/tz"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toIsoDateTime } from "../../src/index.js"
import { dayWallTime } from "../../src/mappers/day-instant.js"

const ZONE = "Europe/Berlin"
const TIMES = ["start", "end", "next-start"] as const
type Time = (typeof TIMES)[number]
const HOURS: Record<Time, readonly [number, number, number, number]> = { start: [0, 0, 0, 0], end: [0, 23, 59, 59], "next-start": [1, 0, 0, 0] }

const two = (n: number): string => String(n).padStart(2, "0")
const offsetText = (minutes: number): string => `${minutes < 0 ? "-" : "+"}${two(Math.floor(Math.abs(minutes) / 60))}:${two(Math.abs(minutes) % 60)}`

/** What the oracle says a day's `time` is in the zone: the ISO text, or the code of a wall time that does not occur once. */
const expected = (year: number, month: number, day: number, time: Time): string => {
  const [plusDays, h, m, s] = HOURS[time]
  const wall = Date.UTC(year, month - 1, day + plusDays, h, m, s)
  // The offsets around the wall time (a day either side covers any one clock change), each tried.
  const offsets = new Set([tzOffset(ZONE, new Date(wall - 86_400_000)), tzOffset(ZONE, new Date(wall + 86_400_000))])
  const valid = [...offsets].filter((o) => tzOffset(ZONE, new Date(wall - o * 60_000)) === o)
  if (valid.length === 0) return "nonexistent_time"
  if (valid.length > 1) return "ambiguous_time"
  return `${new Date(wall).toISOString().slice(0, 19)}${offsetText(valid[0]!)}`
}

const FORMATS = ["dd.MM.yyyy", "yyyyMMdd", "yyyy-MM-dd"] as const
const written = (year: number, month: number, day: number, format: (typeof FORMATS)[number]): string =>
  format === "dd.MM.yyyy" ? `${two(day)}.${two(month)}.${year}` : format === "yyyyMMdd" ? `${year}${two(month)}${two(day)}` : `${year}-${two(month)}-${two(day)}`

const actual = (cell: string, time: Time, format?: string): string => {
  const result = toIsoDateTime(cell, { timeZone: ZONE, time, ...(format !== undefined ? { format: format as never } : {}) })
  return result.ok ? result.value : result.error.code
}

describe("date-only cells for date-time fields", () => {
  it("read every day of 1900–2100 in Europe/Berlin exactly, as start, end and next start", () => {
    let checked = 0
    const notOnce: Array<string> = []
    for (let t = Date.UTC(1900, 0, 1), i = 0; t <= Date.UTC(2100, 11, 31); t += 86_400_000, i++) {
      const date = new Date(t)
      const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
      const format = FORMATS[i % 3]!
      for (const time of TIMES) {
        const want = expected(year, month, day, time)
        if (!want.includes("T")) notOnce.push(`${year}-${two(month)}-${two(day)} ${time} ${want}`)
        // Each day is read with a configured format, and without one (told apart by shape).
        const got = actual(written(year, month, day, format), time, i % 2 === 0 ? format : undefined)
        if (got !== want) expect(`${written(year, month, day, format)} ${time}: ${got}`).toBe(`${written(year, month, day, format)} ${time}: ${want}`)
        checked++
      }
    }
    expect(checked).toBe(73_414 * 3)
    // Germany's first summer time began on 30 April 1916 at 23:00 and ended on 1 October 1916 at 01:00:
    // the end of 30 April never was, and the midnight that began 1 October came twice.
    expect(notOnce).toEqual([
      "1916-04-30 end nonexistent_time",
      "1916-09-30 next-start ambiguous_time",
      "1916-10-01 start ambiguous_time"
    ])
    expect(toIsoDateTime("01.10.1916", { time: "start", ambiguous: "later" })).toEqual({ ok: true, value: "1916-10-01T00:00:00+01:00" })
  })

  it("property: agrees with the oracle for any day, time, format and output", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2100, 11, 31)), noInvalidDate: true }), fc.constantFrom(...TIMES), fc.constantFrom(...FORMATS), (date, time, format) => {
        const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
        const want = expected(year, month, day, time)
        expect(actual(written(year, month, day, format), time, format)).toBe(want)
        const utc = toIsoDateTime(written(year, month, day, format), { time, output: "utc" })
        if (want.includes("T")) expect(utc).toEqual({ ok: true, value: `${new Date(want).toISOString().slice(0, 19)}Z` })
      }),
      { numRuns: 1000 }
    )
  })

  it("gives a monthly period around both clock changes of 2024", () => {
    expect(actual("01.03.2024", "start")).toBe("2024-03-01T00:00:00+01:00")
    expect(actual("31.03.2024", "end")).toBe("2024-03-31T23:59:59+02:00")
    expect(actual("31.03.2024", "next-start")).toBe("2024-04-01T00:00:00+02:00")
    expect(actual("31.03.2024", "start")).toBe("2024-03-31T00:00:00+01:00")
    expect(actual("01.10.2024", "start")).toBe("2024-10-01T00:00:00+02:00")
    expect(actual("27.10.2024", "start")).toBe("2024-10-27T00:00:00+02:00")
    expect(actual("31.10.2024", "end")).toBe("2024-10-31T23:59:59+01:00")
    expect(actual("26.10.2024", "next-start")).toBe("2024-10-27T00:00:00+02:00")
    expect(actual("31.12.2024", "next-start")).toBe("2025-01-01T00:00:00+01:00")
  })

  it("handles a skipped or repeated midnight as any wall time: refused, or resolved by ambiguous", () => {
    // Santiago skips midnight when summer time starts (7 September 2024) and repeats 23:00 when it ends.
    expect(toIsoDateTime("2024-09-08", { timeZone: "America/Santiago", time: "start" })).toMatchObject({ ok: false, error: { code: "nonexistent_time" } })
    expect(toIsoDateTime("2024-04-06", { timeZone: "America/Santiago", time: "end" })).toMatchObject({ ok: false, error: { code: "ambiguous_time" } })
    expect(toIsoDateTime("2024-04-06", { timeZone: "America/Santiago", time: "end", ambiguous: "later" })).toEqual({ ok: true, value: "2024-04-06T23:59:59-04:00" })
  })

  it("reads a time of day as written, and refuses what is no day", () => {
    expect(toIsoDateTime("01.03.2024 10:00", { time: "end" })).toEqual({ ok: true, value: "2024-03-01T10:00:00+01:00" })
    expect(toIsoDateTime("01.03.2024 10:00", { format: "dd.MM.yyyy", time: "end" })).toMatchObject({ ok: false, error: { code: "invalid", detail: expect.stringContaining("configured format dd.MM.yyyy") } })
    expect(toIsoDateTime("29.02.2023", { time: "start" })).toMatchObject({ ok: false, error: { code: "invalid_date" } })
    expect(toIsoDateTime("31.12.9999", { time: "next-start" })).toMatchObject({ ok: false, error: { code: "out_of_range" } })
    expect(toIsoDateTime("01.03.2024", { time: "noon" as never })).toMatchObject({ ok: false, error: { code: "invalid_option" } })
    expect(dayWallTime({ year: 2024, month: 2, day: 29 }, "next-start")).toBe("2024-03-01T00:00:00")
  })

  it("lists the formats accepted and the one configured when a cell is in none, and asks for time for a date alone", () => {
    const none = toIsoDateTime("31/03/2024", { time: "start" })
    expect(none).toMatchObject({ ok: false, error: { code: "invalid" } })
    const detail = none.ok ? "" : none.error.detail
    for (const format of ["dd.MM.yyyy HH:mm", "yyyyMMddHHmmss", "yyyy-MM-dd", "no format configured"]) expect(detail).toContain(format)
    const configured = toIsoDateTime("31/03/2024", { format: "yyyyMMdd", time: "start" })
    expect(configured.ok ? "" : configured.error.detail).toContain("the configured format yyyyMMdd")
    expect(toIsoDateTime("31.03.2024")).toMatchObject({ ok: false, error: { code: "invalid", detail: expect.stringContaining("set the option time") } })
  })
})
