import { TZDate } from "@date-fns/tz"
import { format } from "date-fns"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toIsoDateTime } from "../../src/mappers/to-iso-date-time.js"
import { expectOwnAnswer } from "../support/conversions.js"

const failsWith = (code: string) => ({ ok: false, error: { code } })

const BERLIN = "Europe/Berlin"
const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS

const pad = (value: number, width = 2): string => String(value).padStart(width, "0")

/** Formats an instant as wall time in a zone, via @date-fns/tz (an oracle independent of the converter). */
const wallIn = (instant: string | number, pattern: string, timeZone = BERLIN): string =>
  format(new TZDate(new Date(instant).getTime(), timeZone), pattern)

/** `toISOString` without milliseconds, as the converter writes UTC. */
const utcText = (epochMs: number): string => new Date(epochMs).toISOString().replace(".000Z", "Z")

/** EU rule since 1996: clocks change on the last Sunday of March/October at 01:00 UTC. */
const lastSundayAt0100Utc = (year: number, monthIndex: number): number => {
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0, 1))
  return lastDay.getTime() - lastDay.getUTCDay() * 24 * HOUR_MS
}

/** A wall time as fields read off a UTC date, so that tests can step through wall minutes with plain arithmetic. */
const wallText = (wallAsUtcMs: number, pattern: "dd.MM.yyyy HH:mm" | "yyyy-MM-dd HH:mm:ss"): string => {
  const d = new Date(wallAsUtcMs)
  const date = `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCFullYear(), 4)}`
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  return pattern === "dd.MM.yyyy HH:mm"
    ? `${date} ${time}`
    : `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${time}:${pad(d.getUTCSeconds())}`
}

const isoWall = (wallAsUtcMs: number): string => new Date(wallAsUtcMs).toISOString().slice(0, 19)

describe("toIsoDateTime: Europe/Berlin clock changes", () => {
  it("resolves the repeated hour of 27.10.2024 only when told which one", () => {
    const input = "27.10.2024 02:30"
    expect(toIsoDateTime(input, { ambiguous: "earlier" })).toEqual({ ok: true, value: "2024-10-27T02:30:00+02:00" })
    expect(toIsoDateTime(input, { ambiguous: "later" })).toEqual({ ok: true, value: "2024-10-27T02:30:00+01:00" })
    expect(toIsoDateTime(input, { ambiguous: "earlier", output: "utc" })).toEqual({ ok: true, value: "2024-10-27T00:30:00Z" })
    expect(toIsoDateTime(input, { ambiguous: "later", output: "utc" })).toEqual({ ok: true, value: "2024-10-27T01:30:00Z" })
    expect(toIsoDateTime(input, { ambiguous: "reject" })).toMatchObject(failsWith("ambiguous_time"))
    expect(toIsoDateTime(input)).toMatchObject(failsWith("ambiguous_time"))
  })

  it("bounds the repeated hour exactly", () => {
    expect(toIsoDateTime("27.10.2024 01:59")).toEqual({ ok: true, value: "2024-10-27T01:59:00+02:00" })
    expect(toIsoDateTime("27.10.2024 02:00")).toMatchObject(failsWith("ambiguous_time"))
    expect(toIsoDateTime("27.10.2024 02:59:59")).toMatchObject(failsWith("ambiguous_time"))
    expect(toIsoDateTime("27.10.2024 03:00")).toEqual({ ok: true, value: "2024-10-27T03:00:00+01:00" })
  })

  it("refuses the skipped hour of 31.03.2024 in every mode", () => {
    for (const ambiguous of ["earlier", "later", "reject"] as const) {
      for (const output of ["offset", "utc"] as const) {
        expect(toIsoDateTime("31.03.2024 02:30", { ambiguous, output })).toMatchObject(failsWith("nonexistent_time"))
      }
    }
    expect(toIsoDateTime("31.03.2024 02:00")).toMatchObject(failsWith("nonexistent_time"))
    expect(toIsoDateTime("31.03.2024 01:59:59", { format: "dd.MM.yyyy HH:mm:ss" })).toEqual({
      ok: true,
      value: "2024-03-31T01:59:59+01:00"
    })
    expect(toIsoDateTime("31.03.2024 03:00")).toEqual({ ok: true, value: "2024-03-31T03:00:00+02:00" })
  })

  it("uses the offset in force in summer and winter", () => {
    expect(toIsoDateTime("01.07.2024 12:00")).toEqual({ ok: true, value: "2024-07-01T12:00:00+02:00" })
    expect(toIsoDateTime("01.07.2024 12:00", { output: "utc" })).toEqual({ ok: true, value: "2024-07-01T10:00:00Z" })
    expect(toIsoDateTime("01.01.2024 00:30", { output: "utc" })).toEqual({ ok: true, value: "2023-12-31T23:30:00Z" })
  })
})

describe("toIsoDateTime: formats", () => {
  it.each([
    ["15.01.2024 08:05", "dd.MM.yyyy HH:mm", "2024-01-15T08:05:00+01:00"],
    ["15.01.2024 08:05:09", "dd.MM.yyyy HH:mm:ss", "2024-01-15T08:05:09+01:00"],
    ["2024-01-15 08:05:09", "yyyy-MM-dd HH:mm:ss", "2024-01-15T08:05:09+01:00"],
    ["2024-01-15T08:05:09", "yyyy-MM-ddTHH:mm:ss", "2024-01-15T08:05:09+01:00"],
    ["20240115080509", "yyyyMMddHHmmss", "2024-01-15T08:05:09+01:00"]
  ] as const)("%s (%s)", (input, layout, expected) => {
    expect(toIsoDateTime(input)).toEqual({ ok: true, value: expected })
    expect(toIsoDateTime(` ${input} `, { format: layout })).toEqual({ ok: true, value: expected })
  })

  it("accepts only the requested format when one is given", () => {
    expect(toIsoDateTime("2024-01-15 08:05:09", { format: "dd.MM.yyyy HH:mm" })).toMatchObject(failsWith("invalid"))
    expect(toIsoDateTime("15.01.2024 08:05", { format: "dd.MM.yyyy HH:mm:ss" })).toMatchObject(failsWith("invalid"))
    expect(toIsoDateTime("15.01.2024 08:05", { format: "HH:mm" as "dd.MM.yyyy HH:mm" })).toMatchObject(
      failsWith("invalid_option")
    )
  })

  it.each([
    "2024-01-15T08:05:09Z",
    "2024-01-15T08:05:09+01:00",
    "15.01.2024",
    "15.01.2024 8:05",
    "15.1.2024 08:05",
    "15.01.2024  08:05",
    "2024-01-15 08:05",
    "2024011508050",
    "15.01.2024 24:00",
    "15.01.2024 12:60",
    "15.01.2024 12:00:60",
    "later"
  ])("refuses %j as invalid", (input) => {
    expect(toIsoDateTime(input)).toMatchObject(failsWith("invalid"))
  })

  it("separates impossible days and blanks", () => {
    expect(toIsoDateTime("31.02.2024 10:00")).toMatchObject(failsWith("invalid_date"))
    expect(toIsoDateTime("2023-02-29 10:00:00")).toMatchObject(failsWith("invalid_date"))
    expect(toIsoDateTime("")).toMatchObject(failsWith("blank"))
    expect(toIsoDateTime(" \t")).toMatchObject(failsWith("blank"))
  })
})

describe("toIsoDateTime: which texts have the shape of a format", () => {
  // The formats as the regular expressions they mean (ASCII digits only), the reference for the reader.
  const SHAPES = {
    "dd.MM.yyyy HH:mm": /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/,
    "dd.MM.yyyy HH:mm:ss": /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/,
    "yyyy-MM-dd HH:mm:ss": /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    "yyyy-MM-ddTHH:mm:ss": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/,
    "yyyyMMddHHmmss": /^\d{14}$/
  } as const
  const formats = Object.keys(SHAPES) as Array<keyof typeof SHAPES>
  const samples = ["15.07.2024 12:30", "15.07.2024 12:30:45", "2024-07-15 12:30:45", "2024-07-15T12:30:45", "20240715123045"]
  // A sample with some characters replaced by look-alikes: other separators, letters, non-ASCII digits.
  const text = fc.tuple(fc.constantFrom(...samples), fc.array(fc.tuple(fc.nat(), fc.constantFrom("0", "9", ".", ":", "-", " ", "T", "/", "a", "\u0663", "\uFF10", "")), { maxLength: 3 }))
    .map(([sample, edits]) => edits.reduce((t, [at, c]) => t.slice(0, at % t.length) + c + t.slice((at % t.length) + 1), sample))

  it("reads a text as a wall time exactly when it has the shape of the format (of one of them, when none is given)", () => {
    let shaped = 0
    let misshapen = 0
    fc.assert(
      fc.property(text, fc.constantFrom(undefined, ...formats), (value, format) => {
        const looks = format !== undefined ? SHAPES[format].test(value) : formats.some((f) => SHAPES[f].test(value))
        const result = toIsoDateTime(value, { ...(format !== undefined ? { format } : {}), ambiguous: "earlier" })
        const readAsWallTime = result.ok || !/does not match the configured format|is in no date-time format/u.test(result.error.detail)
        expect(readAsWallTime).toBe(looks)
        if (looks) shaped++
        else misshapen++
      }),
      { numRuns: 2000 }
    )
    // Both kinds are drawn often: each in more than one text of twenty (100 of the 2,000 inputs; relative,
    // as a mutation run tries fewer inputs).
    expect(shaped).toBeGreaterThan((shaped + misshapen) / 20)
    expect(misshapen).toBeGreaterThan((shaped + misshapen) / 20)
  })
})

describe("toIsoDateTime: other zones", () => {
  it("writes UTC as +00:00 in offset mode", () => {
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "UTC" })).toEqual({ ok: true, value: "2024-01-15T08:05:00+00:00" })
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "UTC", output: "utc" })).toEqual({
      ok: true,
      value: "2024-01-15T08:05:00Z"
    })
  })

  it("handles negative and half-hour offsets", () => {
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "America/St_Johns" })).toEqual({
      ok: true,
      value: "2024-01-15T08:05:00-03:30"
    })
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "Asia/Kolkata", output: "utc" })).toEqual({
      ok: true,
      value: "2024-01-15T02:35:00Z"
    })
  })

  it("knows the US clock changes of 2024", () => {
    const ny = { timeZone: "America/New_York" }
    expect(toIsoDateTime("10.03.2024 02:30", ny)).toMatchObject(failsWith("nonexistent_time"))
    expect(toIsoDateTime("03.11.2024 01:30", { ...ny, ambiguous: "earlier" })).toEqual({
      ok: true,
      value: "2024-11-03T01:30:00-04:00"
    })
    expect(toIsoDateTime("03.11.2024 01:30", { ...ny, ambiguous: "later" })).toEqual({
      ok: true,
      value: "2024-11-03T01:30:00-05:00"
    })
  })

  it("refuses a whole skipped day (Samoa crossed the date line on 30.12.2011)", () => {
    expect(toIsoDateTime("30.12.2011 12:00", { timeZone: "Pacific/Apia" })).toMatchObject(failsWith("nonexistent_time"))
    expect(toIsoDateTime("29.12.2011 12:00", { timeZone: "Pacific/Apia" })).toEqual({
      ok: true,
      value: "2011-12-29T12:00:00-10:00"
    })
    expect(toIsoDateTime("31.12.2011 12:00", { timeZone: "Pacific/Apia" })).toEqual({
      ok: true,
      value: "2011-12-31T12:00:00+14:00"
    })
  })

  it("keeps the sign of sub-hour negative offsets (Dublin Mean Time was -00:25:21)", () => {
    const dublin = { timeZone: "Europe/Dublin" }
    expect(toIsoDateTime("01.01.1900 12:00", { ...dublin, output: "utc" })).toEqual({ ok: true, value: "1900-01-01T12:25:21Z" })
    expect(toIsoDateTime("01.01.1900 12:00", dublin)).toMatchObject(failsWith("unsupported_offset"))
  })

  it("refuses unknown time zones", () => {
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "Europe/Bonn" })).toMatchObject(failsWith("invalid_time_zone"))
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "" })).toMatchObject(failsWith("invalid_time_zone"))
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: "Foo+01" })).toMatchObject(failsWith("invalid_time_zone"))
    expect(toIsoDateTime("15.01.2024 08:05", { timeZone: 1 as unknown as string })).toMatchObject(
      failsWith("invalid_time_zone")
    )
  })

  it("handles years below 100 without the Date.UTC 1900 shift", () => {
    expect(toIsoDateTime("01.06.0050 12:00", { timeZone: "UTC" })).toEqual({ ok: true, value: "0050-06-01T12:00:00+00:00" })
  })
})

describe("toIsoDateTime: Date objects", () => {
  it("renders the instant in the zone", () => {
    expect(toIsoDateTime(new Date("2024-10-27T00:30:00Z"))).toEqual({ ok: true, value: "2024-10-27T02:30:00+02:00" })
    expect(toIsoDateTime(new Date("2024-10-27T01:30:00Z"))).toEqual({ ok: true, value: "2024-10-27T02:30:00+01:00" })
    expect(toIsoDateTime(new Date("2024-10-27T01:30:00Z"), { output: "utc" })).toEqual({
      ok: true,
      value: "2024-10-27T01:30:00Z"
    })
    expect(toIsoDateTime(new Date("2024-01-15T08:05:00Z"), { timeZone: "America/New_York" })).toEqual({
      ok: true,
      value: "2024-01-15T03:05:00-05:00"
    })
  })

  it("refuses milliseconds and invalid Dates", () => {
    expect(toIsoDateTime(new Date("2024-01-15T08:05:00.001Z"))).toMatchObject(failsWith("fraction_lost"))
    expect(toIsoDateTime(new Date(Number.NaN))).toMatchObject(failsWith("invalid"))
    expect(toIsoDateTime(Date.UTC(2024, 0, 15))).toMatchObject(failsWith("invalid"))
  })
})

describe("toIsoDateTime: properties", () => {
  const years = Array.from({ length: 11 }, (_, i) => 2020 + i)

  it("gets every minute within three hours of each Berlin clock change 2020-2030 right", () => {
    for (const year of years) {
      for (const [monthIndex, kind] of [
        [2, "spring"],
        [9, "autumn"]
      ] as const) {
        const change = lastSundayAt0100Utc(year, monthIndex)
        // At the change the wall clock reads 02:00 (spring, CET) or 03:00 (autumn, CEST);
        // the affected hour is [02:00, 03:00) of that day in both cases.
        const hourStart = change + HOUR_MS
        const before = kind === "spring" ? "+01:00" : "+02:00"
        const after = kind === "spring" ? "+02:00" : "+01:00"
        for (let wall = hourStart - 3 * HOUR_MS; wall <= hourStart + 4 * HOUR_MS; wall += MINUTE_MS) {
          const input = wallText(wall, "dd.MM.yyyy HH:mm")
          const inAffectedHour = wall >= hourStart && wall < hourStart + HOUR_MS
          if (inAffectedHour && kind === "spring") {
            for (const ambiguous of ["earlier", "later", "reject"] as const) {
              expect(toIsoDateTime(input, { ambiguous })).toMatchObject(failsWith("nonexistent_time"))
            }
            continue
          }
          if (inAffectedHour) {
            expect(toIsoDateTime(input)).toMatchObject(failsWith("ambiguous_time"))
            const earlier = toIsoDateTime(input, { ambiguous: "earlier" })
            const later = toIsoDateTime(input, { ambiguous: "later" })
            expect(earlier).toEqual({ ok: true, value: `${isoWall(wall)}+02:00` })
            expect(later).toEqual({ ok: true, value: `${isoWall(wall)}+01:00` })
            if (!earlier.ok || !later.ok) continue
            expect(new Date(later.value).getTime() - new Date(earlier.value).getTime()).toBe(HOUR_MS)
            for (const [mode, value] of [
              ["earlier", earlier.value],
              ["later", later.value]
            ] as const) {
              expect(wallIn(value, "dd.MM.yyyy HH:mm")).toBe(input)
              expect(toIsoDateTime(input, { ambiguous: mode, output: "utc" })).toEqual({
                ok: true,
                value: utcText(new Date(value).getTime())
              })
            }
            continue
          }
          const expectedOffset = wall < hourStart ? before : after
          const result = toIsoDateTime(input)
          expect(result).toEqual({ ok: true, value: `${isoWall(wall)}${expectedOffset}` })
          if (!result.ok) continue
          expect(wallIn(result.value, "dd.MM.yyyy HH:mm")).toBe(input)
          expect(toIsoDateTime(input, { output: "utc" })).toEqual({ ok: true, value: utcText(new Date(result.value).getTime()) })
        }
      }
    }
  })

  it("round-trips random Berlin wall times of 2020-2030", () => {
    const wallArb = fc
      .integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2030, 11, 31, 23, 59, 59) / 1000 })
      .map((seconds) => seconds * 1000)
    fc.assert(
      fc.property(wallArb, fc.constantFrom("earlier" as const, "later" as const), (wall, ambiguous) => {
        const input = wallText(wall, "yyyy-MM-dd HH:mm:ss")
        const year = new Date(wall).getUTCFullYear()
        const springHour = lastSundayAt0100Utc(year, 2) + HOUR_MS
        const autumnHour = lastSundayAt0100Utc(year, 9) + HOUR_MS
        const result = toIsoDateTime(input, { ambiguous })
        if (wall >= springHour && wall < springHour + HOUR_MS) {
          expect(result).toMatchObject(failsWith("nonexistent_time"))
          return
        }
        const repeated = wall >= autumnHour && wall < autumnHour + HOUR_MS
        expect(toIsoDateTime(input, { ambiguous: "reject" }).ok).toBe(!repeated)
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(result.value.slice(0, 19)).toBe(isoWall(wall))
        expect(wallIn(result.value, "yyyy-MM-dd HH:mm:ss")).toBe(input)
        expect(result.value.slice(19)).toBe(wallIn(result.value, "xxx"))
        if (repeated) expect(result.value.slice(19)).toBe(ambiguous === "earlier" ? "+02:00" : "+01:00")
        const utc = toIsoDateTime(input, { ambiguous, output: "utc" })
        expect(utc).toEqual({ ok: true, value: utcText(new Date(result.value).getTime()) })
      }),
      { seed: 2030, numRuns: 2000 }
    )
  })

  it("round-trips random instants given as Dates, in any zone", () => {
    const zones = Intl.supportedValuesOf("timeZone")
    const instantArb = fc
      .integer({ min: Date.UTC(1975, 0, 1) / 1000, max: Date.UTC(2035, 0, 1) / 1000 })
      .map((seconds) => new Date(seconds * 1000))
    fc.assert(
      fc.property(instantArb, fc.constantFrom(...zones), (instant, timeZone) => {
        const result = toIsoDateTime(instant, { timeZone })
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(new Date(result.value).getTime()).toBe(instant.getTime())
        expect(result.value.slice(0, 19)).toBe(wallIn(instant.getTime(), "yyyy-MM-dd'T'HH:mm:ss", timeZone))
        // Reading the wall time back must find this instant among its candidates.
        const wall = result.value.slice(0, 19)
        const earlier = toIsoDateTime(wall, { timeZone, ambiguous: "earlier" })
        const later = toIsoDateTime(wall, { timeZone, ambiguous: "later" })
        expect([earlier, later]).toContainEqual({ ok: true, value: result.value })
      }),
      { seed: 1975, numRuns: 1000 }
    )
  })

  it("never throws, whatever the input and options", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withNullPrototype: true, withBoxedValues: true }), fc.anything(), (value, options) => {
        const isIsoDateTime = (text: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/u.test(text)
        const codes = ["blank", "invalid", "invalid_date", "nonexistent_time", "ambiguous_time", "invalid_time_zone", "fraction_lost", "out_of_range", "unsupported_offset"]
        expectOwnAnswer(toIsoDateTime(value), codes, isIsoDateTime)
        expectOwnAnswer(toIsoDateTime(value, options as never), [...codes, "invalid_option"], isIsoDateTime)
      }),
      { seed: 9, numRuns: 10_000 }
    )
  })
})
