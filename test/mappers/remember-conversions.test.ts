import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { REMEMBERED_CELLS, rememberConversions } from "../../src/mappers/remember-conversions.js"
import { toIsoDateTime } from "../../src/mappers/to-iso-date-time.js"

/** Wall times around the autumn and spring clock changes of 2024 in Europe/Berlin, and some that are not. */
const cell = fc.oneof(
  fc.tuple(fc.constantFrom("27.10.2024", "31.03.2024", "01.01.2024"), fc.integer({ min: 0, max: 4 }), fc.constantFrom(0, 15, 30, 45)).map(
    ([day, hour, minute]) => `${day} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`
  ),
  fc.constantFrom("", "  ", "31.02.2024 12:00", "garbage"),
  fc.integer({ min: 0, max: 20_000 }).map((n) => `${String((n % 28) + 1).padStart(2, "0")}.01.2020 ${String(n % 24).padStart(2, "0")}:00`)
)

describe("rememberConversions", () => {
  it("answers every cell as the conversion does, repeated or not, past the bound where it starts afresh", () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (cells, times) => {
        const plain = (c: string | number | boolean) => toIsoDateTime(c, { format: "dd.MM.yyyy HH:mm", ambiguous: "reject" })
        const remembered = rememberConversions(plain)
        for (let t = 0; t < times; t++) for (const c of cells) expect(remembered(c)).toEqual(plain(c))
      }),
      { numRuns: 40 }
    )
  })

  it("converts a repeated cell once while it is remembered, and again after more distinct cells than the bound", () => {
    let calls = 0
    const remembered = rememberConversions((c) => {
      calls++
      return { ok: true, value: String(c) }
    })
    for (let i = 0; i < 3; i++) expect(remembered("01.10.2024")).toEqual({ ok: true, value: "01.10.2024" })
    expect(calls).toBe(1)
    for (let i = 0; i <= REMEMBERED_CELLS; i++) remembered(`cell ${i}`)
    remembered("01.10.2024")
    expect(calls).toBe(REMEMBERED_CELLS + 3)
  })

  it("never remembers a cell that is not text", () => {
    let calls = 0
    const remembered = rememberConversions((c) => {
      calls++
      return { ok: true, value: c }
    })
    remembered(20241001)
    remembered(20241001)
    expect(calls).toBe(2)
  })
})
