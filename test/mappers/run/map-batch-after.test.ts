/**
 * `map` maps batches of rows in parallel, each from no `by-order` state, and maps a batch again after the
 * one before it when it read the run of repeated wall times it started with. Cut anywhere, the batches
 * must give what one pass over all rows gives.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { mapRecords } from "../../../src/index.js"
import { batchRowMapper, mapBatchAfter, mustMapAgain, type OrderState, orderStateAfter } from "../../../src/mappers/run/map-batch-after.js"
import { byOrderMapping } from "../by-order-mapping.js"

const mapping = byOrderMapping

// Wall times of Berlin's repeated hour on 27.10.2024 (02:00-02:59 happen twice), around it, blank and broken.
const WALLS = ["27.10.2024 01:45", "27.10.2024 02:00", "27.10.2024 02:15", "27.10.2024 02:30", "27.10.2024 02:45", "27.10.2024 03:00", "", "27.10.2024 02:7"]

const row = fc.record({ Von: fc.constantFrom(...WALLS), Bis: fc.constantFrom(...WALLS), Menge: fc.constantFrom("1.5", "2", "x") })

/** Maps `rows` cut before each index of `cuts`, as `map` does: each batch from no state, again when needed. */
const inBatches = (rows: ReadonlyArray<Record<string, string>>, cuts: ReadonlyArray<number>) => {
  const bounds = [...new Set([0, ...cuts.map((c) => c % (rows.length + 1)), rows.length])].sort((a, b) => a - b)
  let state: OrderState = []
  let again = 0
  const payloads: Array<unknown> = []
  const rejected: Array<unknown> = []
  for (let b = 0; b + 1 < bounds.length; b++) {
    const from = bounds[b]!
    const batch = rows.slice(from, bounds[b + 1])
    let result = mapBatchAfter(mapping, batch)
    if (mustMapAgain(state, result)) {
      again++
      result = mapBatchAfter(mapping, batch, state)
    }
    state = orderStateAfter(state, result)
    for (const p of result.payloads) payloads.push({ payload: p.payload, sourceRows: p.sourceRows.map((i) => i + from) })
    for (const r of result.rejected) rejected.push({ errors: r.errors, sourceRows: r.sourceRows.map((i) => i + from) })
  }
  return { payloads, rejected, again }
}

describe("mapBatchAfter", () => {
  it("gives for rows cut into batches anywhere what one pass over all rows gives", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (cells, cuts) => {
        const rows = cells.map((c, i) => ({ ...c, Konto: `KD-${i}` }))
        const whole = mapRecords(mapping, rows)
        const batched = inBatches(rows, cuts)
        expect(batched.payloads).toEqual(whole.payloads)
        expect(batched.rejected).toEqual(whole.rejected)
      }),
      { numRuns: 300 }
    )
  })

  it("maps a batch again only when it starts inside a run of repeated wall times", () => {
    const rows = ["27.10.2024 02:00", "27.10.2024 02:30", "27.10.2024 02:00", "27.10.2024 02:30", "27.10.2024 03:00", "27.10.2024 03:30"]
      .map((von, i) => ({ Konto: `KD-${i}`, Von: von, Bis: "27.10.2024 04:00", Menge: "1" }))
    const starts = (r: ReturnType<typeof inBatches>) => r.payloads.map((p) => (p as { payload: { energy_amount: { period_start_at: string } } }).payload.energy_amount.period_start_at)
    const expected = ["2024-10-27T02:00:00+02:00", "2024-10-27T02:30:00+02:00", "2024-10-27T02:00:00+01:00", "2024-10-27T02:30:00+01:00", "2024-10-27T03:00:00+01:00", "2024-10-27T03:30:00+01:00"]
    // Cut inside the run: the second batch read the run it started with.
    const inside = inBatches(rows, [2])
    expect(starts(inside)).toEqual(expected)
    expect(inside.again).toBe(1)
    // Cut after the run ended: nothing to map again.
    const after = inBatches(rows, [5])
    expect(starts(after)).toEqual(expected)
    expect(after.again).toBe(0)
  })
})

describe("batchRowMapper", () => {
  it("gives, row by row, the events and end state mapBatchAfter gives for the batch, from any state", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(row, row, fc.constantFrom(null, "text", 7)), { maxLength: 30 }), fc.array(row, { maxLength: 8 }), (batch, before) => {
        const records = batch.map((c, i) => (typeof c === "object" && c !== null ? { ...c, Konto: `KD-${i}` } : c))
        // The state the rows before left: a run of repeated wall times in progress, or none.
        const state = mapBatchAfter(mapping, before.map((c, i) => ({ ...c, Konto: `KD-B${i}` }))).endRuns.map((r) => r ?? [])
        const whole = mapBatchAfter(mapping, records, state)
        const rows = batchRowMapper(mapping, state)
        const events = records.flatMap((r) => rows.next(r))
        const byFirstRow = (list: ReadonlyArray<{ readonly sourceRows: ReadonlyArray<number> }>) => [...list].sort((a, b) => a.sourceRows[0]! - b.sourceRows[0]!)
        expect(events.flatMap((e) => (e.kind === "payload" ? [{ payload: e.payload, sourceRows: e.sourceRows }] : []))).toEqual(whole.payloads)
        expect(byFirstRow(events.flatMap((e) => (e.kind === "rejected" ? [{ sourceRows: e.sourceRows, errors: e.errors }] : [])))).toEqual(byFirstRow(whole.rejected))
        expect(rows.end()).toEqual({ readStart: whole.readStart, endRuns: whole.endRuns })
        expect(events.map((e) => e.sourceRows[0])).toEqual(records.map((_, i) => i))
      }),
      { numRuns: 300 }
    )
  })

  it("starts from no state when given none: the first 02:30 of the repeated hour is the summer one", () => {
    const rows = batchRowMapper(mapping)
    const starts = ["27.10.2024 02:30", "27.10.2024 02:45", "27.10.2024 02:30"].map((von, i) => {
      const [event] = rows.next({ Konto: `KD-${i}`, Von: von, Bis: von, Menge: "1" })
      return event?.kind === "payload" ? (event.payload as { energy_amount: { period_start_at: string } }).energy_amount.period_start_at : event?.kind
    })
    // A wall time's first occurrence in the run is the summer one, its repeat the winter one.
    expect(starts).toEqual(["2024-10-27T02:30:00+02:00", "2024-10-27T02:45:00+02:00", "2024-10-27T02:30:00+01:00"])
    expect(rows.end().readStart).toEqual([true, true])
  })

  it("refuses a mapping with groupBy, whose rows are mapped together", () => {
    expect(() => batchRowMapper({ ...mapping, groupBy: ["Konto"] })).toThrow(/without groupBy/)
  })
})
