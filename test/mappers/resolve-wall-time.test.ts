/**
 * The repeated hour of an autumn clock change resolved from evidence: a column that states the offset
 * or the season, or the order of the rows (`by-order`). Expected instants are worked out from the zones'
 * rules: Berlin turns 03:00 CEST back to 02:00 CET on 27.10.2024, Sydney 03:00 AEDT back to 02:00 AEST
 * on 07.04.2024, New York 02:00 EDT back to 01:00 EST on 03.11.2024.
 */
import { describe, expect, it } from "vitest"
import { resolveWallTime } from "../../src/mappers/field-source.js"

const FORMAT = { format: "dd.MM.yyyy HH:mm" }
const REPEATED = "27.10.2024 02:30"

const withOffset = (options: Record<string, unknown> = {}) =>
  resolveWallTime({ ...FORMAT, offsetColumn: "Off", ...options })

describe("an offset column", () => {
  it.each([
    ["+02:00", "2024-10-27T02:30:00+02:00"],
    ["+01:00", "2024-10-27T02:30:00+01:00"],
    ["+0100", "2024-10-27T02:30:00+01:00"],
    ["+02", "2024-10-27T02:30:00+02:00"],
    [" +01:00 ", "2024-10-27T02:30:00+01:00"]
  ])("an offset %j picks that instant of the repeated hour", (offset, expected) => {
    expect(withOffset().convert(REPEATED, { Off: offset })).toEqual({ ok: true, value: expected })
  })

  it.each(["s", "so", "sommer", "summer", "sz", "mesz", "cest", "dst", "MESZ", " Cest "])("%j says summer time: the earlier instant", (season) => {
    expect(withOffset().convert(REPEATED, { Off: season })).toEqual({ ok: true, value: "2024-10-27T02:30:00+02:00" })
  })

  it.each(["w", "wi", "winter", "wz", "mez", "cet", "std", "MEZ", "W"])("%j says standard time: the later instant", (season) => {
    expect(withOffset().convert(REPEATED, { Off: season })).toEqual({ ok: true, value: "2024-10-27T02:30:00+01:00" })
  })

  it("writes the picked instant in UTC when asked", () => {
    expect(withOffset({ output: "utc" }).convert(REPEATED, { Off: "W" })).toEqual({ ok: true, value: "2024-10-27T01:30:00Z" })
    expect(withOffset({ output: "utc" }).convert("01.10.2024 12:00", { Off: "S" })).toEqual({ ok: true, value: "2024-10-01T10:00:00Z" })
  })

  it("refuses a cell that is neither an offset nor a season, naming the column and the cell", () => {
    expect(withOffset().convert(REPEATED, { Off: "Sonntag" })).toEqual({
      ok: false,
      error: { code: "invalid_offset", detail: 'Off "Sonntag" is neither an offset (+02:00) nor a season (S/W, MESZ/MEZ, CEST/CET)' }
    })
  })

  it("refuses an offset that the wall time does not have, unambiguous or repeated", () => {
    expect(withOffset().convert("01.10.2024 12:00", { Off: "+01:00" })).toEqual({
      ok: false,
      error: { code: "offset_mismatch", detail: '01.10.2024 12:00 has the offset +02:00 in Europe/Berlin, but Off says "+01:00"' }
    })
    expect(withOffset().convert(REPEATED, { Off: "+03:00" })).toEqual({
      ok: false,
      error: { code: "offset_mismatch", detail: '27.10.2024 02:30 has the offset +02:00 or +01:00 in Europe/Berlin, but Off says "+03:00"' }
    })
    // January is standard time in Berlin: a summer mark there contradicts it.
    expect(withOffset().convert("15.01.2024 12:00", { Off: "S" })).toMatchObject({ ok: false, error: { code: "offset_mismatch" } })
    expect(withOffset().convert("15.01.2024 12:00", { Off: "W" })).toEqual({ ok: true, value: "2024-01-15T12:00:00+01:00" })
  })

  it("leaves a repeated wall time to `ambiguous` when the offset cell is blank or missing", () => {
    expect(withOffset().convert(REPEATED, { Off: "  " })).toMatchObject({ ok: false, error: { code: "ambiguous_time" } })
    expect(withOffset().convert(REPEATED, {})).toMatchObject({ ok: false, error: { code: "ambiguous_time" } })
    expect(withOffset().convert(REPEATED, { Off: null } as never)).toMatchObject({ ok: false, error: { code: "ambiguous_time" } })
    expect(withOffset({ ambiguous: "later" }).convert(REPEATED, {})).toEqual({ ok: true, value: "2024-10-27T02:30:00+01:00" })
    expect(withOffset().convert("01.10.2024 12:00", {})).toEqual({ ok: true, value: "2024-10-01T12:00:00+02:00" })
  })

  it("knows summer from standard time south of the equator and west of Greenwich", () => {
    const sydney = withOffset({ timeZone: "Australia/Sydney" })
    expect(sydney.convert("07.04.2024 02:30", { Off: "S" })).toEqual({ ok: true, value: "2024-04-07T02:30:00+11:00" })
    expect(sydney.convert("07.04.2024 02:30", { Off: "W" })).toEqual({ ok: true, value: "2024-04-07T02:30:00+10:00" })
    const newYork = withOffset({ timeZone: "America/New_York" })
    expect(newYork.convert("03.11.2024 01:30", { Off: "S" })).toEqual({ ok: true, value: "2024-11-03T01:30:00-04:00" })
    expect(newYork.convert("03.11.2024 01:30", { Off: "W" })).toEqual({ ok: true, value: "2024-11-03T01:30:00-05:00" })
    expect(newYork.convert("03.11.2024 01:30", { Off: "-0500" })).toEqual({ ok: true, value: "2024-11-03T01:30:00-05:00" })
  })

  it("takes either season in a zone without summer time", () => {
    const tokyo = withOffset({ timeZone: "Asia/Tokyo" })
    expect(tokyo.convert("01.07.2024 12:00", { Off: "S" })).toEqual({ ok: true, value: "2024-07-01T12:00:00+09:00" })
    expect(tokyo.convert("01.07.2024 12:00", { Off: "W" })).toEqual({ ok: true, value: "2024-07-01T12:00:00+09:00" })
  })
})

describe("ambiguous without an offset column", () => {
  it("earlier, later or refused", () => {
    expect(resolveWallTime({ ...FORMAT, ambiguous: "earlier" }).convert(REPEATED, {})).toEqual({ ok: true, value: "2024-10-27T02:30:00+02:00" })
    expect(resolveWallTime({ ...FORMAT, ambiguous: "later" }).convert(REPEATED, {})).toEqual({ ok: true, value: "2024-10-27T02:30:00+01:00" })
    expect(resolveWallTime({ ...FORMAT, ambiguous: "later", output: "utc" }).convert(REPEATED, {})).toEqual({ ok: true, value: "2024-10-27T01:30:00Z" })
    expect(resolveWallTime(FORMAT).convert(REPEATED, {})).toMatchObject({ ok: false, error: { code: "ambiguous_time" } })
    expect(resolveWallTime(FORMAT).convert("31.03.2024 02:30", {})).toMatchObject({ ok: false, error: { code: "nonexistent_time" } })
  })
})

describe("by-order", () => {
  const byOrder = (options: Record<string, unknown> = {}) => resolveWallTime({ ...FORMAT, ambiguous: "by-order", ...options })
  const offsets = (resolver: ReturnType<typeof byOrder>, cells: ReadonlyArray<string | undefined>) =>
    cells.map((cell) => {
      if (cell === undefined) {
        resolver.blank()
        return "blank"
      }
      const result = resolver.convert(cell, {})
      return result.ok ? result.value.slice(-6) : result.error.code
    })

  it("takes a wall time's first occurrence in a run as summer time and its repeat as standard time", () => {
    expect(offsets(byOrder(), ["27.10.2024 02:00", "27.10.2024 02:30", "27.10.2024 02:00", "27.10.2024 02:30"]))
      .toEqual(["+02:00", "+02:00", "+01:00", "+01:00"])
  })

  it("starts a new run at a third occurrence, at an unambiguous wall time and at a blank cell", () => {
    expect(offsets(byOrder(), [REPEATED, REPEATED, REPEATED])).toEqual(["+02:00", "+01:00", "+02:00"])
    expect(offsets(byOrder(), [REPEATED, "27.10.2024 03:00", REPEATED])).toEqual(["+02:00", "+01:00", "+02:00"])
    expect(offsets(byOrder(), [REPEATED, undefined, REPEATED])).toEqual(["+02:00", "blank", "+02:00"])
  })

  it("compares wall times trimmed, and writes UTC when asked", () => {
    expect(offsets(byOrder(), [REPEATED, ` ${REPEATED} `])).toEqual(["+02:00", "+01:00"])
    expect(byOrder({ output: "utc" }).convert(REPEATED, {})).toEqual({ ok: true, value: "2024-10-27T00:30:00Z" })
  })

  it("goes on from the run a batch starts with, and tells whether it read that run and where it left it", () => {
    const resolver = byOrder()
    resolver.start([[REPEATED, "earlier"]])
    expect(resolver.end()).toEqual({ readStart: false, run: undefined })
    expect(offsets(resolver, [REPEATED, "27.10.2024 02:45"])).toEqual(["+01:00", "+02:00"])
    expect(resolver.end()).toEqual({ readStart: true, run: [[REPEATED, "later"], ["27.10.2024 02:45", "earlier"]] })

    resolver.start([[REPEATED, "earlier"]])
    expect(offsets(resolver, ["01.10.2024 12:00"])).toEqual(["+02:00"])
    expect(resolver.end()).toEqual({ readStart: false, run: [] })
  })
})

describe("edges of the resolver", () => {
  const byOrder = (options: Record<string, unknown> = {}) => resolveWallTime({ ...FORMAT, ambiguous: "by-order", ...options })
  const offsetsOf = (resolver: ReturnType<typeof byOrder>, rows: ReadonlyArray<readonly [string, Record<string, string>]>) =>
    rows.map(([cell, row]) => {
      const result = resolver.convert(cell, row)
      return result.ok ? result.value.slice(-6) : result.error.code
    })

  it("refuses an offset cell with more around the offset", () => {
    for (const cell of ["UTC+01:00", "+01:00 Uhr"]) expect(withOffset().convert(REPEATED, { Off: cell })).toMatchObject({ ok: false, error: { code: "invalid_offset" } })
  })

  it("tells summer from standard time where they differ by half an hour (Lord Howe: +11:00 and +10:30)", () => {
    const lordHowe = withOffset({ timeZone: "Australia/Lord_Howe" })
    expect(lordHowe.convert("07.04.2024 01:45", { Off: "S" })).toEqual({ ok: true, value: "2024-04-07T01:45:00+11:00" })
    expect(lordHowe.convert("07.04.2024 01:45", { Off: "W" })).toEqual({ ok: true, value: "2024-04-07T01:45:00+10:30" })
  })

  it("writes an unambiguous wall time in UTC when asked, by order too", () => {
    expect(byOrder({ output: "utc" }).convert("01.10.2024 12:00", {})).toEqual({ ok: true, value: "2024-10-01T10:00:00Z" })
  })

  it("ends a by-order run at an unambiguous wall time also when the offset column is blank", () => {
    const resolver = byOrder({ offsetColumn: "Off" })
    expect(offsetsOf(resolver, [[REPEATED, { Off: "" }], ["27.10.2024 03:00", { Off: "" }], [REPEATED, { Off: "" }]])).toEqual(["+02:00", "+01:00", "+02:00"])
  })

  it("forgets the whole run at a third occurrence, not only that wall time", () => {
    const b = "27.10.2024 02:45"
    expect(offsetsOf(byOrder(), [[REPEATED, {}], [b, {}], [REPEATED, {}], [REPEATED, {}], [b, {}]])).toEqual(["+02:00", "+02:00", "+01:00", "+02:00", "+02:00"])
  })

  it("has read no run before it starts, and reads the start only before the run it started with ended", () => {
    expect(byOrder().end()).toEqual({ readStart: false, run: undefined })
    const resolver = byOrder()
    resolver.start([])
    expect(offsetsOf(resolver, [["01.10.2024 12:00", {}], [REPEATED, {}]])).toEqual(["+02:00", "+02:00"])
    expect(resolver.end()).toEqual({ readStart: false, run: [[REPEATED, "earlier"]] })
  })
})
