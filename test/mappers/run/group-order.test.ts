import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { GroupOrder } from "../../../src/mappers/run/group-order.js"
import { type CsvHeader, CsvRow, type RefusedLine, type SourceRow } from "../../../src/readers/rows/source-rows.js"

type Spec = { readonly key: string | undefined; readonly span: number; readonly record: Record<string, unknown> }

/** The items of `specs`, one after the other from line 2, a refused line where the key is undefined. */
const itemsOf = (specs: ReadonlyArray<Spec>): Array<{ key: string | undefined; item: SourceRow | RefusedLine }> => {
  let line = 2
  return specs.map((s) => {
    const lines = Array.from({ length: s.span }, (_, k) => line + k)
    line += s.span
    const raw = JSON.stringify(s.record)
    return s.key === undefined
      ? { key: undefined, item: { kind: "refused", line: lines[0]!, code: "invalid_json", detail: "not JSON.", raw } }
      : { key: s.key, item: { kind: "row", lines, record: s.record, raw } }
  })
}

describe("GroupOrder", () => {
  it("gives the items in the order of a stable sort by each group's first row, through runs spilled to disk", () => {
    const spec = fc.record({
      key: fc.option(fc.constantFrom("A", "B", "C", "Ä 1", "\"q\"", ""), { nil: undefined, freq: 8 }),
      span: fc.integer({ min: 1, max: 3 }),
      record: fc.dictionary(fc.constantFrom("Konto", "Betrag", "Notiz"), fc.string({ maxLength: 8 }))
    })
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 60 }), fc.integer({ min: 1, max: 400 }), (specs, runBytes) => {
        const items = itemsOf(specs)
        const order = new GroupOrder(undefined, runBytes)
        for (const { key, item } of items) order.add(item, key)
        const got = [...order.items()]
        order.close()
        // The model: each item's group is the position of its key's first item (a refused line its own).
        const first = new Map<string, number>()
        const model = items.map((x, at) => {
          if (x.key !== undefined && !first.has(x.key)) first.set(x.key, at)
          return { at, group: x.key === undefined ? at : first.get(x.key)!, item: x.item }
        }).sort((x, y) => x.group - y.group || x.at - y.at)
        expect(got.map((g) => g.item)).toEqual(model.map((m) => m.item))
        expect(got.map((g) => g.group)).toEqual(model.map((m) => (items[m.group]!.item.kind === "row" ? (items[m.group]!.item as SourceRow).lines[0] : (items[m.group]!.item as RefusedLine).line)))
        // Regrouped: a row whose key differs from the row before it (lines not read skipped) and was seen before.
        const seen = new Set<string>()
        let previous: string | undefined
        let regrouped = false
        for (const { key } of items) {
          if (key === undefined) continue
          if (key !== previous && seen.has(key)) regrouped = true
          seen.add(key)
          previous = key
        }
        expect(order.regrouped).toBe(regrouped)
      }),
      { numRuns: 200 }
    )
  })

  it("reads CSV rows back with their cells, quoted or not", () => {
    // Rows as csvRows makes them: a line without quotes is cut at the delimiter when read.
    const header: CsvHeader = { kind: "header", line: 1, names: ["Konto", "Notiz"], delimiter: ";" }
    const order = new GroupOrder({ columns: header.names, delimiter: ";" }, 1)
    order.add(new CsvRow([2], "KD-1;eins", header, undefined), "K1")
    order.add(new CsvRow([3], "KD-2;zwei", header, undefined), "K2")
    order.add(new CsvRow([4, 5], "KD-1;\"drei\nvier\"", header, ["KD-1", "drei\nvier"]), "K1")
    const got = [...order.items()]
    order.close()
    expect(got).toEqual([
      { group: 2, item: { kind: "row", lines: [2], raw: "KD-1;eins", record: { Konto: "KD-1", Notiz: "eins" } } },
      { group: 2, item: { kind: "row", lines: [4, 5], raw: "KD-1;\"drei\nvier\"", record: { Konto: "KD-1", Notiz: "drei\nvier" } } },
      { group: 3, item: { kind: "row", lines: [3], raw: "KD-2;zwei", record: { Konto: "KD-2", Notiz: "zwei" } } }
    ])
    expect(order.regrouped).toBe(true)
  })
})
