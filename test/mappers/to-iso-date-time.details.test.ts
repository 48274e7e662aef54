/**
 * What each refusal of `toIsoDateTime` says: a person fixing an export acts on the detail, so each one
 * names the value, the zone and what to do. The clock changes are Berlin's (tz database): 2024-03-31
 * 02:00 → 03:00 (+01:00 → +02:00), 2024-10-27 03:00 → 02:00 (+02:00 → +01:00).
 */
import { describe, expect, it } from "vitest"
import { toIsoDateTime } from "../../src/mappers/to-iso-date-time.js"

describe("toIsoDateTime: the details of its refusals", () => {
  it("names the wall time skipped by the spring change, and the zone", () => {
    expect(toIsoDateTime("31.03.2024 02:30", { format: "dd.MM.yyyy HH:mm" })).toEqual({
      ok: false,
      error: { code: "nonexistent_time", detail: "2024-03-31 02:30:00 does not exist in Europe/Berlin (skipped by a clock change)" }
    })
    // The same instant with output "utc" goes the general way.
    expect(toIsoDateTime("31.03.2024 02:30", { format: "dd.MM.yyyy HH:mm", output: "utc" })).toMatchObject({ ok: false, error: { code: "nonexistent_time" } })
  })

  it("names both offsets of the repeated autumn hour, earlier first, and the options that choose", () => {
    expect(toIsoDateTime("27.10.2024 02:30", { format: "dd.MM.yyyy HH:mm" })).toEqual({
      ok: false,
      error: { code: "ambiguous_time", detail: '2024-10-27 02:30:00 occurs twice in Europe/Berlin (+02:00 and +01:00); set ambiguous to "earlier" or "later"' }
    })
    expect(toIsoDateTime("27.10.2024 02:30", { format: "dd.MM.yyyy HH:mm", ambiguous: "earlier" })).toEqual({ ok: true, value: "2024-10-27T02:30:00+02:00" })
    expect(toIsoDateTime("27.10.2024 02:30", { format: "dd.MM.yyyy HH:mm", ambiguous: "later" })).toEqual({ ok: true, value: "2024-10-27T02:30:00+01:00" })
    expect(toIsoDateTime("27.10.2024 02:30", { format: "dd.MM.yyyy HH:mm", ambiguous: "later", output: "utc" })).toEqual({ ok: true, value: "2024-10-27T01:30:00Z" })
  })

  it("says what the text should have looked like, and which part is wrong", () => {
    expect(toIsoDateTime("gestern", { format: "dd.MM.yyyy HH:mm" })).toEqual({ ok: false, error: { code: "invalid", detail: '"gestern" does not match the configured format dd.MM.yyyy HH:mm (formats a datetime field accepts: dd.MM.yyyy HH:mm, dd.MM.yyyy HH:mm:ss, yyyy-MM-dd HH:mm:ss, yyyy-MM-ddTHH:mm:ss, yyyyMMddHHmmss; date-only dd.MM.yyyy, yyyyMMdd, yyyy-MM-dd with the option time)' } })
    expect(toIsoDateTime("gestern")).toEqual({ ok: false, error: { code: "invalid", detail: '"gestern" is in no date-time format this field accepts (no format configured; accepted: dd.MM.yyyy HH:mm, dd.MM.yyyy HH:mm:ss, yyyy-MM-dd HH:mm:ss, yyyy-MM-ddTHH:mm:ss, yyyyMMddHHmmss; date-only dd.MM.yyyy, yyyyMMdd, yyyy-MM-dd with the option time)' } })
    expect(toIsoDateTime("01.02.2024 24:00", { format: "dd.MM.yyyy HH:mm" })).toEqual({ ok: false, error: { code: "invalid", detail: '"01.02.2024 24:00" is not a time of day' } })
    expect(toIsoDateTime("30.02.2024 10:00", { format: "dd.MM.yyyy HH:mm" })).toEqual({ ok: false, error: { code: "invalid_date", detail: '"30.02.2024 10:00" is not a day of the calendar' } })
  })

  it("refuses an invalid Date and unknown options by name", () => {
    expect(toIsoDateTime(new Date(Number.NaN))).toEqual({ ok: false, error: { code: "invalid", detail: "invalid Date" } })
    expect(toIsoDateTime("01.02.2024 10:00", { format: "dd/MM" as never })).toEqual({ ok: false, error: { code: "invalid_option", detail: 'unknown format "dd/MM"' } })
    expect(toIsoDateTime("01.02.2024 10:00", { ambiguous: "both" as never })).toEqual({ ok: false, error: { code: "invalid_option", detail: 'unknown ambiguous mode "both"' } })
    expect(toIsoDateTime("01.02.2024 10:00", { output: "local" as never })).toEqual({ ok: false, error: { code: "invalid_option", detail: 'unknown output "local"' } })
    expect(toIsoDateTime("01.02.2024 10:00", { timeZone: "Europe/Nowhere" })).toEqual({ ok: false, error: { code: "invalid_time_zone", detail: 'unknown time zone "Europe/Nowhere"' } })
    expect(toIsoDateTime("01.02.2024 10:00", { timeZone: 5 as never })).toEqual({ ok: false, error: { code: "invalid_time_zone", detail: "unknown time zone 5" } })
  })

  it("refuses a result outside the years 0001-9999, and a time zone that is not a string", () => {
    // 01.01.0001 00:30 in Berlin is 23:30 UTC of the year 0; 9999-12-31 23:30 UTC is already 10000 in
    // Berlin; 31.12.9999 23:30 in Berlin is 22:30 UTC, still in 9999.
    expect(toIsoDateTime("01.01.0001 00:30", { format: "dd.MM.yyyy HH:mm", output: "utc" })).toEqual({
      ok: false,
      error: { code: "out_of_range", detail: "the result lies outside the years 0001-9999" }
    })
    expect(toIsoDateTime(new Date(Date.UTC(9999, 11, 31, 23, 30)))).toEqual({
      ok: false,
      error: { code: "out_of_range", detail: "the result lies outside the years 0001-9999" }
    })
    expect(toIsoDateTime("31.12.9999 23:30", { format: "dd.MM.yyyy HH:mm", output: "utc" })).toEqual({ ok: true, value: "9999-12-31T22:30:00Z" })
    const berlinAsObject = { toString: () => "Europe/Berlin" }
    expect(toIsoDateTime("01.02.2024 10:00", { timeZone: berlinAsObject as never })).toMatchObject({ ok: false, error: { code: "invalid_time_zone" } })
  })

  it("says that Berlin's local mean time cannot be written as an offset, and that UTC can", () => {
    expect(toIsoDateTime("01.01.1890 12:00", { format: "dd.MM.yyyy HH:mm" })).toEqual({
      ok: false,
      error: { code: "unsupported_offset", detail: 'Europe/Berlin used a sub-minute offset then; use output "utc"' }
    })
    // +00:53:28: 12:00 local was 11:06:32 UTC.
    expect(toIsoDateTime("01.01.1890 12:00", { format: "dd.MM.yyyy HH:mm", output: "utc" })).toEqual({ ok: true, value: "1890-01-01T11:06:32Z" })
  })
})

describe("toIsoDateTime with a format", () => {
  it("writes UTC when asked, not the wall time with its offset", () => {
    expect(toIsoDateTime("01.07.2024 12:00", { format: "dd.MM.yyyy HH:mm", output: "utc" })).toEqual({ ok: true, value: "2024-07-01T10:00:00Z" })
    expect(toIsoDateTime("2024-01-15 08:30:09", { format: "yyyy-MM-dd HH:mm:ss", timeZone: "America/New_York", output: "utc" })).toEqual({ ok: true, value: "2024-01-15T13:30:09Z" })
  })

  it("takes the separators of the format only, and digits only where the format has them", () => {
    for (const text of ["01/07/2024 12:00", "01.07.2024T12:00", "01.07.2024 12.00", "01.07.2024 2 :00", "01.07.2024 /5:00", "01.07.2024 12:5 "]) {
      expect(toIsoDateTime(text, { format: "dd.MM.yyyy HH:mm" }), text).toEqual({ ok: false, error: { code: "invalid", detail: `"${text}" does not match the configured format dd.MM.yyyy HH:mm (formats a datetime field accepts: dd.MM.yyyy HH:mm, dd.MM.yyyy HH:mm:ss, yyyy-MM-dd HH:mm:ss, yyyy-MM-ddTHH:mm:ss, yyyyMMddHHmmss; date-only dd.MM.yyyy, yyyyMMdd, yyyy-MM-dd with the option time)` } })
    }
  })

  it("reads the last minute and second of a day", () => {
    expect(toIsoDateTime("31.12.2024 23:59:59", { format: "dd.MM.yyyy HH:mm:ss" })).toEqual({ ok: true, value: "2024-12-31T23:59:59+01:00" })
    expect(toIsoDateTime("30.06.2024 23:59", { format: "dd.MM.yyyy HH:mm" })).toEqual({ ok: true, value: "2024-06-30T23:59:00+02:00" })
  })
})
