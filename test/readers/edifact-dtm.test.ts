/** DTM values as ISO text in a zone: what is read, and what is refused rather than read wrong. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { dtmToIso } from "../../src/readers/edifact/dtm.js"

describe("dtmToIso", () => {
  it("reads the offset of a 303/304 value, hours and minutes", () => {
    expect(dtmToIso("202201012300+00", "303", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-01-02T00:00:00+01:00" })
    expect(dtmToIso("202201012300+0130", "303", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-01-01T22:30:00+01:00" })
    expect(dtmToIso("202201012300-05", "303", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-01-02T05:00:00+01:00" })
    expect(dtmToIso("20220101230000+14", "304", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-01-01T10:00:00+01:00" })
  })

  it.each([["+99"], ["-15"], ["+0160"], ["+0199"]])("refuses the offset %s, which no clock has, instead of shifting the instant", (offset) => {
    const result = dtmToIso(`202201012300${offset}`, "303", "Europe/Berlin")
    expect(result.ok).toBe(false)
    expect(result.ok ? "" : result.detail).toContain("offset")
  })
})

describe("dtmToIso of years before 100", () => {
  it("keeps a year below 100 as written instead of moving it to the 1900s", () => {
    // Date.UTC reads the years 0-99 as 1900-1999: "0050" must not become 1950.
    expect(dtmToIso("00500101", "102", "UTC")).toEqual({ ok: true, iso: "0050-01-01T00:00:00+00:00" })
    expect(dtmToIso("002203270100+00", "303", "UTC")).toEqual({ ok: true, iso: "0022-03-27T01:00:00+00:00" })
  })

  it("gives every calendar date of format 102 back as written, whatever its year", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
      const date = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`
      const result = dtmToIso(date.replaceAll("-", ""), "102", "Europe/Berlin")
      expect(result.ok && result.iso.slice(0, 10)).toBe(date)
    }), { numRuns: 300 })
  })
})

describe("dtmToIso of 24:00", () => {
  it("reads 24:00 as the end of its day, 00:00 of the next; refuses 24:01 and a day that does not exist", () => {
    expect(dtmToIso("202212312400", "203", "Europe/Berlin")).toEqual({ ok: true, iso: "2023-01-01T00:00:00+01:00" })
    // The night the clocks go forward: 24:00 on 26 March is 00:00 on the 27th, still winter time.
    expect(dtmToIso("202203262400", "203", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-03-27T00:00:00+01:00" })
    expect(dtmToIso("202210302400+00", "303", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-10-31T01:00:00+01:00" })
    expect(dtmToIso("20221030240000+01", "304", "Europe/Berlin")).toEqual({ ok: true, iso: "2022-10-31T00:00:00+01:00" })
    for (const [value, format] of [["202212312401", "203"], ["20221231240001+00", "304"], ["202202292400", "203"], ["202212312500", "203"]] as const) {
      expect(dtmToIso(value, format, "Europe/Berlin").ok).toBe(false)
    }
  })

  it("gives 24:00 of any day the instant of 00:00 of the day after, in every format that has a time", () => {
    fc.assert(fc.property(fc.date({ min: new Date("1950-01-01T00:00:00Z"), max: new Date("2099-12-30T00:00:00Z"), noInvalidDate: true }), fc.constantFrom("203", "303", "304"), (date, format) => {
      const day = date.toISOString().slice(0, 10).replaceAll("-", "")
      const next = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)).toISOString().slice(0, 10).replaceAll("-", "")
      const [end, zero] = format === "203" ? [`${day}2400`, `${next}0000`] : format === "303" ? [`${day}2400+00`, `${next}0000+00`] : [`${day}240000+00`, `${next}000000+00`]
      expect(dtmToIso(end, format, "Europe/Berlin")).toEqual(dtmToIso(zero, format, "Europe/Berlin"))
    }), { numRuns: 300 })
  })
})
