/**
 * `map` in this thread, for a mapping with groups (which need the rows in order):
 * rows are mapped as they stream by.
 *
 * @module
 */
import { type Mapping, type MappingEvent, mapRecords } from "../../index.js"
import { itemRowsOf } from "../../mappers/failing-items.js"
import type { SourceItem, SourceRow } from "../source-rows.js"
import type { MapSource } from "./map-source.js"
import { type MapOutcomes, rejectOf } from "./map-outcomes.js"

/**
 * Maps the rows of `input` in order, each outcome to `outcomes`.
 */
export const mapInOrder = async (mapping: Mapping, input: MapSource, outcomes: MapOutcomes): Promise<void> => {
  const { early, source } = input
  const pending = new Map<number, SourceRow>()
  let index = 0
  const rowOf = (item: SourceItem): Record<string, unknown> | undefined => {
    const row = outcomes.take(item)
    if (row === undefined) return undefined
    pending.set(index++, row)
    return row.record
  }
  // The source read directly (not through one generator of early and source items): every generator
  // between reader and mapper costs per row.
  const records = async function*(): AsyncGenerator<Record<string, unknown>> {
    for (const item of early) {
      const record = rowOf(item)
      if (record !== undefined) yield record
    }
    for await (const item of source) {
      const record = rowOf(item)
      if (record !== undefined) yield record
    }
  }
  const settle = (indexes: ReadonlyArray<number>): Array<SourceRow> =>
    indexes.flatMap((i) => {
      const row = pending.get(i)
      pending.delete(i)
      return row === undefined ? [] : [row]
    })
  // A detail that points at another row (the row that broke a document) names its line in the file: the
  // rows of the group being mapped are all still pending.
  const rowName = (i: number): string => {
    const row = pending.get(i)
    return row === undefined ? `row ${i + 1}` : `line ${row.lines[0]!}`
  }
  for await (const event of mapRecords(mapping, records(), { rowName }) as AsyncGenerator<MappingEvent>) {
    // The rows of each item of the payload (for the lineage of each of its records), while they are pending.
    const items = event.kind === "payload" ? itemRowsOf(event.payload)?.map((item) => ({ attr: item.attr, rows: item.rows.flatMap((i) => pending.get(i) ?? []) })) : undefined
    const rows = settle(event.sourceRows)
    if (event.kind === "payload") outcomes.payload(JSON.stringify(event.payload), event.payload, rows, event.warnings, items)
    else outcomes.reject(rejectOf(rows, event.errors), rows.length)
    if (outcomes.held.length > 0) {
      const oldest = pending.values().next()
      outcomes.releaseRejects(oldest.done === true ? Number.POSITIVE_INFINITY : oldest.value.lines[0]!)
    }
    if (outcomes.full()) await outcomes.backpressure()
  }
}
