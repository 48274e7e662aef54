/**
 * The helpers the generated validators call, each on its own: the paths and `covers` they write, the
 * success of a node's decode, a rule that needs the clock, and the code point count of a length check.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { EnergyAmountRequest } from "../../src/schemas/index.js"
import { countCodePointsUpTo, decodeAt, ruleHolds } from "../../src/validation/generated-runtime.js"
import type { PathError } from "../../src/validation/issue-to-errors.js"

const reading = {
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-1",
  energy_amount: {
    malo_number: "51238696781",
    period_start_at: "2024-02-01T00:00:00+01:00",
    period_end_at: "2024-01-01T00:00:00+01:00",
    product_identifier: "1-1:1.8.0",
    product_identifier_type: "SRW",
    quantity: "12.5",
    quantity_unit: "KWH"
  }
}

describe("countCodePointsUpTo", () => {
  it("counts code points, not UTF-16 units, and stops at the limit", () => {
    expect(countCodePointsUpTo("", 5)).toBe(0)
    expect(countCodePointsUpTo("a😀b", 10)).toBe(3)
    expect(countCodePointsUpTo("abcdef", 3)).toBe(3)
    expect(countCodePointsUpTo("abcdef", 6)).toBe(6)
    expect(countCodePointsUpTo("abcdef", 7)).toBe(6)
  })
})

describe("decodeAt", () => {
  it("answers true and writes nothing for a value its node accepts", () => {
    const out: Array<PathError> = []
    expect(decodeAt(Schema.String.ast, "x", ["a"], out)).toBe(true)
    expect(out).toEqual([])
  })

  it("writes an error under the node's path, and the fields a rule covers under it too", () => {
    const out: Array<PathError> = []
    expect(decodeAt(EnergyAmountRequest.ast, reading, ["at"], out)).toBe(false)
    expect(out).toEqual([
      {
        path: ["at", "energy_amount", "period_end_at"],
        code: "start_date_later_than_end_date",
        detail: expect.any(String),
        covers: [["at", "energy_amount", "period_start_at"], ["at", "energy_amount", "period_end_at"]]
      }
    ])
  })
})

describe("ruleHolds", () => {
  const later = {
    name: "later",
    fields: ["from", "to"],
    check: (v: { readonly from: string; readonly to: string }) => (v.from > v.to ? [{ path: ["to"], code: "start_date_later_than_end_date", detail: "to must not be earlier than from." }] : [])
  }

  it("writes each finding under the path, covering the rule's fields there", () => {
    const out: Array<PathError> = []
    expect(ruleHolds(later as never, { from: "2024-02-01", to: "2024-01-31" }, ["period"], out)).toBe(false)
    expect(out).toEqual([{ path: ["period", "to"], code: "start_date_later_than_end_date", detail: "to must not be earlier than from.", covers: [["period", "from"], ["period", "to"]] }])
    expect(ruleHolds(later as never, { from: "2024-01-01", to: "2024-01-31" }, ["period"], out)).toBe(true)
    expect(out).toHaveLength(1)
  })

  it("passes a rule that needs the clock, which the check has not got", () => {
    const out: Array<PathError> = []
    const future = { ...later, clock: true, check: () => [{ path: ["to"], code: "in_the_future", detail: "later than now" }] }
    expect(ruleHolds(future as never, { from: "x", to: "y" }, [], out)).toBe(true)
    expect(out).toEqual([])
  })
})
