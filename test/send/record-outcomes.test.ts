/**
 * recordOutcomes on a 400 that names the records it refuses: a price sheet whose market participant the
 * service does not have yet is blocked (sent again by every run), not rejected (never sent again
 * unchanged), and the other sheets of the request are sent again at once without it.
 */
import { describe, expect, it } from "vitest"
import type { KeyedRecord } from "../../src/schemas/endpoints/natural-key.js"
import { recordOutcomes } from "../../src/send/record-outcomes.js"

const sheet = (index: number): KeyedRecord => ({ index, key: `k${index}`, identity: `i${index}`, content: `c${index}`, supplier: null, account: null })
const refused = (errors: ReadonlyArray<{ code: string; attr: string }>) =>
  ({ kind: "rejected", status: 400, body: { code: errors[0]!.code, errors }, errors: errors.map((e) => ({ ...e, detail: e.code })), warnings: [], attempts: 1 }) as const

describe("recordOutcomes: a participant not imported yet", () => {
  it("blocks the price sheet that names it; the others go again at once", () => {
    const records = [sheet(0), sheet(1), sheet(2)]
    const out = recordOutcomes("market-participant-fees", {}, records, refused([{ code: "market_participant_does_not_exist", attr: "price_sheets.1.market_participant_code" }]))
    expect(out.settled.map(([r, o]) => [r.index, o.outcome, o.cause])).toEqual([[1, "blocked", "market_participant_not_imported"]])
    expect(out.again.map((r) => r.index)).toEqual([0, 2])
  })

  it("rejects a sheet that has another error beside it: its content needs fixing as well", () => {
    const records = [sheet(0), sheet(1)]
    const out = recordOutcomes("market-participant-fees", {}, records, refused([
      { code: "market_participant_does_not_exist", attr: "price_sheets.0.market_participant_code" },
      { code: "invalid", attr: "price_sheets.0.valid_from" }
    ]))
    expect(out.settled.map(([r, o]) => [r.index, o.outcome])).toEqual([[0, "rejected"]])
    expect(out.settled[0]![1].cause).toContain("market_participant_does_not_exist")
  })

  it("blocks time definitions whose network operator is not imported", () => {
    const out = recordOutcomes("market-participant-definitions", {}, [{ ...sheet(0), index: null }], refused([{ code: "network_operator_does_not_exist", attr: "network_operator_code" }]))
    expect(out.settled.map(([, o]) => [o.outcome, o.cause])).toEqual([["blocked", "network_operator_not_imported"]])
  })
})
