/**
 * The one-pass reader of the usual date-time must give toIsoDateTime's general answer whenever it
 * answers at all, and answer for the usual wall time. Its answers are checked against the general path
 * as it writes UTC (the reader only writes offsets), with the offset worked out here from the wall time
 * and the instant.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toIsoDateTime } from "../../src/index.js"
import { offsetText, usualDateTimeReader } from "../../src/mappers/usual-date-time.js"
import { offsetFormatFor } from "../../src/schemas/zone-offsets.js"

const LAYOUTS = ["dd.MM.yyyy HH:mm", "dd.MM.yyyy HH:mm:ss", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-ddTHH:mm:ss", "yyyyMMddHHmmss"] as const
type Layout = (typeof LAYOUTS)[number]

// Clock changes, half-hour and 45-minute offsets, a skipped day (Samoa, 30.12.2011), sub-minute local
// mean time (Dublin before 1916, Berlin before 1893), and a zone without summer time.
const ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kathmandu", "Pacific/Apia", "Europe/Dublin", "UTC"]

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

interface Wall {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
}

/** The wall time written in `layout` (a layout without seconds drops them). */
const textOf = (w: Wall, layout: Layout): string => {
  const date = { dd: pad(w.day), MM: pad(w.month), yyyy: pad(w.year, 4) }
  switch (layout) {
    case "dd.MM.yyyy HH:mm":
      return `${date.dd}.${date.MM}.${date.yyyy} ${pad(w.hour)}:${pad(w.minute)}`
    case "dd.MM.yyyy HH:mm:ss":
      return `${date.dd}.${date.MM}.${date.yyyy} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`
    case "yyyy-MM-dd HH:mm:ss":
      return `${date.yyyy}-${date.MM}-${date.dd} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`
    case "yyyy-MM-ddTHH:mm:ss":
      return `${date.yyyy}-${date.MM}-${date.dd}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`
    case "yyyyMMddHHmmss":
      return `${date.yyyy}${date.MM}${date.dd}${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`
  }
}

/** What the reader must give for `text`: the general path's instant, written as the wall time with its offset. */
const generalAnswer = (text: string, layout: Layout, timeZone: string): string | undefined => {
  const utc = toIsoDateTime(text, { format: layout, timeZone, output: "utc" })
  if (!utc.ok) return undefined
  const fields = (layout.startsWith("dd") ? [text.slice(6, 10), text.slice(3, 5), text.slice(0, 2), text.slice(11, 13), text.slice(14, 16), text.slice(17, 19) || "00"]
    : layout === "yyyyMMddHHmmss" ? [text.slice(0, 4), text.slice(4, 6), text.slice(6, 8), text.slice(8, 10), text.slice(10, 12), text.slice(12, 14)]
    : [text.slice(0, 4), text.slice(5, 7), text.slice(8, 10), text.slice(11, 13), text.slice(14, 16), text.slice(17, 19)]).map(Number)
  const [year, month, day, hour, minute, second] = fields as [number, number, number, number, number, number]
  const wallMs = new Date(0).setUTCFullYear(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000
  const offsetSeconds = (wallMs - Date.parse(utc.value)) / 1000
  if (offsetSeconds % 60 !== 0) return undefined
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${offsetText(offsetSeconds)}`
}

const readerFor = (layout: Layout, timeZone: string) => usualDateTimeReader(layout, offsetFormatFor(timeZone)!)

const anyWall = fc.record({
  year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1880, max: 2040 })),
  month: fc.integer({ min: 0, max: 13 }),
  day: fc.integer({ min: 0, max: 32 }),
  hour: fc.integer({ min: 0, max: 25 }),
  minute: fc.integer({ min: 0, max: 61 }),
  second: fc.integer({ min: 0, max: 61 })
})

describe("usualDateTimeReader", () => {
  it("gives the general answer whenever it answers, for any wall time, layout and zone", () => {
    let answered = 0
    let runs = 0
    fc.assert(
      fc.property(anyWall, fc.constantFrom(...LAYOUTS), fc.constantFrom(...ZONES), (wall, layout, zone) => {
        runs++
        const text = textOf(wall, layout)
        const read = readerFor(layout, zone)(text)
        if (read === undefined) return
        answered++
        expect(read, `${text} ${zone}`).toBe(generalAnswer(text, layout, zone))
      }),
      { numRuns: 3000, seed: 7 }
    )
    // A reader that never answered would pass the property above. (Most generated walls do not exist:
    // about 8 % of them are answered.)
    expect(answered / runs).toBeGreaterThan(0.03)
  })

  it("answers for every quarter hour of a summer and a winter day in Berlin", () => {
    for (const date of ["01.07.2024", "15.01.2024"]) {
      const read = readerFor("dd.MM.yyyy HH:mm", "Europe/Berlin")
      for (let quarter = 0; quarter < 96; quarter++) {
        const text = `${date} ${pad(Math.floor(quarter / 4))}:${pad((quarter % 4) * 15)}`
        expect(read(text), text).toBe(generalAnswer(text, "dd.MM.yyyy HH:mm", "Europe/Berlin"))
      }
    }
    expect(readerFor("dd.MM.yyyy HH:mm", "Europe/Berlin")("01.07.2024 12:00")).toBe("2024-07-01T12:00:00+02:00")
    expect(readerFor("yyyyMMddHHmmss", "America/New_York")("20240115083009")).toBe("2024-01-15T08:30:09-05:00")
    // The last minute and second of a day.
    expect(readerFor("dd.MM.yyyy HH:mm:ss", "Europe/Berlin")("31.12.2024 23:59:59")).toBe("2024-12-31T23:59:59+01:00")
    expect(readerFor("yyyy-MM-dd HH:mm:ss", "Europe/Berlin")("2024-06-30 23:59:59")).toBe("2024-06-30T23:59:59+02:00")
  })

  it("leaves to the general path what it must not answer", () => {
    const berlin = readerFor("dd.MM.yyyy HH:mm", "Europe/Berlin")
    // Other shapes, times and days that do not exist.
    for (const text of ["1.07.2024 12:00", "01.07.2024 12:00:00", "01/07/2024 12:00", "01.07.2024 24:00", "01.07.2024 12:60", "31.04.2024 12:00", "29.02.2023 12:00", "00.01.2024 12:00", "01.00.2024 12:00", "01.07.0000 12:00", "01.07.2O24 12:00", "01.07.2024 2 :00", "01.07.2024 /5:00", "01.07.2024 12:5 "]) {
      expect(berlin(text), text).toBeUndefined()
    }
    expect(readerFor("dd.MM.yyyy HH:mm:ss", "Europe/Berlin")("01.07.2024 12:00:60")).toBeUndefined()
    // The half days around a clock change: the skipped and the repeated hour are the general path's.
    expect(berlin("31.03.2024 02:30")).toBeUndefined()
    expect(berlin("27.10.2024 02:30")).toBeUndefined()
    // A half day is answered once no clock change is near it: the morning after the change of 27.10.2024
    // is still the general path's, the afternoon no longer.
    expect(berlin("28.10.2024 11:45")).toBeUndefined()
    expect(berlin("28.10.2024 12:00")).toBe("2024-10-28T12:00:00+01:00")
    // Local mean time: Dublin was 25 minutes 21 seconds behind UTC in 1900.
    expect(readerFor("dd.MM.yyyy HH:mm", "Europe/Dublin")("01.07.1900 12:00")).toBeUndefined()
  })
})

describe("offsetText", () => {
  it("writes whole-minute offsets as ±HH:MM", () => {
    expect(offsetText(0)).toBe("+00:00")
    expect(offsetText(7200)).toBe("+02:00")
    expect(offsetText(-12_600)).toBe("-03:30")
    expect(offsetText(45_900)).toBe("+12:45")
  })
})
