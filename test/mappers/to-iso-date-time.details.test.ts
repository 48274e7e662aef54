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
    expect(toIsoDateTime("gestern", { format: "dd.MM.yyyy HH:mm" })).toEqual({ ok: false, error: { code: "invalid", detail: '"gestern" does not look like dd.MM.yyyy HH:mm' } })
    expect(toIsoDateTime("gestern")).toEqual({ ok: false, error: { code: "invalid", detail: '"gestern" does not look like a supported date-time format' } })
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
})
