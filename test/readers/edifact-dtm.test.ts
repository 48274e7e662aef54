/** DTM values as ISO text in a zone: what is read, and what is refused rather than read wrong. */
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
