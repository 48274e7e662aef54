/** The reader file's derived `day` cell (src/readers/edifact/derived-cells.ts) on the texts a DTM can leave. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CellDeriver } from "../../src/readers/edifact/derived-cells.js"
import type { EdifactRecordItem } from "../../src/readers/edifact/records.js"

const at = { offset: 100, segment: 9, message: 1, messageReference: "M1" }
const dayOf = (text: string): EdifactRecordItem =>
  new CellDeriver({ "@valid_from": { day: "DTM+157" } }).take([{ kind: "record", record: { "DTM+157": text }, at, raw: "IDE+24+VG-1'" }])[0]!

describe("derived day", () => {
  it("is the date of a day's start in any offset, and of a date (format 102)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1990-01-01"), max: new Date("2090-12-31"), noInvalidDate: true }), fc.constantFrom("+01:00", "+02:00", "Z"), fc.boolean(), (d, offset, dateOnly) => {
        const date = d.toISOString().slice(0, 10)
        const item = dayOf(dateOnly ? date : `${date}T00:00:00${offset}`)
        expect(item.kind === "record" ? item.record["@valid_from"] : item.kind).toBe(date)
      })
    )
  })

  it("refuses another time of day as not_a_day_start, and a DTM the reader left as written as unreadable_time", () => {
    const afternoon = dayOf("2025-03-31T14:00:00+02:00")
    expect(afternoon).toMatchObject({ kind: "reject", code: "not_a_day_start", at })
    // UTILTS's DTM+157 in format 303 with seconds: 14 digits where 303 has 12, left as written by the reader.
    const unread = dayOf("20250401120000+00")
    expect(unread).toEqual({
      kind: "reject",
      code: "unreadable_time",
      detail: 'DTM+157 "20250401120000+00" is not a date-time the reader could read (its DTM\'s value does not fit its format), so its day (@valid_from) is not told',
      at,
      raw: "IDE+24+VG-1'"
    })
  })
})
