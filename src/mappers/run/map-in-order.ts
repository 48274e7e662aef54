/**
 * `map` in this thread, for a mapping with groups (which need a group's rows together): every row is
 * read first and held in group order (`GroupOrder`: on disk beyond a few megabytes), then mapped group by
 * group. A group's rows may be anywhere in the input; the payloads are those of the export sorted by its
 * groups, in the order of each group's first row.
 *
 * @module
 */
import { type Mapping } from "../define-mapping.js"
import { type MappingEvent } from "../mapping-result.js"
import { mapRecords } from "../map-records.js"
import { groupKey } from "../compile-mapping.js"
import { itemRowsOf } from "../failing-items.js"
import type { LegacyRecord } from "../field-source.js"
import type { SourceItem, SourceRow } from "../../readers/rows/source-rows.js"
import { GroupOrder, type HeldItem } from "./group-order.js"
import { isRun, type MapSource } from "./map-source.js"
import { type MapOutcomes, rejectOf } from "./map-outcomes.js"

/**
 * Maps the rows of `input` in group order, each outcome to `outcomes`.
 */
export const mapInOrder = async (mapping: Mapping, input: MapSource, outcomes: MapOutcomes, runBytes?: number): Promise<void> => {
  const { early, source } = input
  const groupBy = mapping.groupBy ?? []
  const order = new GroupOrder(input.header, runBytes)
  try {
    // Rows are counted (and checked for exact repeats) as they are read, in input order; a line that could
    // not be read is settled in its place among the groups, so that rejects are written in input order.
    const hold = (item: SourceItem): void => {
      if (item.kind === "refused") order.add(item, undefined)
      else if (item.kind === "row") {
        const row = outcomes.take(item)
        if (row !== undefined) order.add(row, groupKey(row.record as LegacyRecord, groupBy))
      } else outcomes.take(item)
    }
    for (const item of early) hold(item)
    for await (const got of source) {
      if (isRun(got)) for (const item of got) hold(item)
      else hold(got)
    }
    await mapHeld(mapping, order.items(), outcomes)
  } finally {
    order.close()
  }
}

/** Maps items already in group order. */
const mapHeld = async (mapping: Mapping, items: Iterable<HeldItem>, outcomes: MapOutcomes): Promise<void> => {
  const pending = new Map<number, HeldItem<SourceRow>>()
  let index = 0
  const records = function*(): Generator<Record<string, unknown>> {
    for (const held of items) {
      if (held.item.kind === "refused") {
        outcomes.take(held.item)
        continue
      }
      pending.set(index++, held as HeldItem<SourceRow>)
      yield held.item.record
    }
  }
  const settle = (indexes: ReadonlyArray<number>): Array<SourceRow> =>
    indexes.flatMap((i) => {
      const held = pending.get(i)
      pending.delete(i)
      return held === undefined ? [] : [held.item]
    })
  // A detail that points at another row (the row that broke a document) names its line in the file: the
  // rows of the group being mapped are all still pending.
  const rowName = (i: number): string => {
    const row = pending.get(i)
    return row === undefined ? `row ${i + 1}` : `line ${row.item.lines[0]!}`
  }
  const stream = async function*(): AsyncGenerator<Record<string, unknown>> {
    yield* records()
  }
  for await (const event of mapRecords(mapping, stream(), { rowName }) as AsyncGenerator<MappingEvent>) {
    // The rows of each item of the payload (for the lineage of each of its records), while they are pending.
    const items = event.kind === "payload"
      ? itemRowsOf(event.payload)?.map((item) => ({ attr: item.attr, rows: item.rows.flatMap((i) => pending.get(i)?.item ?? []) }))
      : undefined
    const rows = settle(event.sourceRows)
    if (event.kind === "payload") outcomes.payload(JSON.stringify(event.payload), event.payload, rows, event.warnings, items)
    else outcomes.reject(rejectOf(rows, event.errors), rows.length)
    // Every row not yet settled has a line at or after the first line of the oldest pending row's group
    // (the group being mapped, or the next one): the rejects above that line can be written.
    if (outcomes.held.length > 0) {
      const oldest = pending.values().next()
      outcomes.releaseRejects(oldest.done === true ? Number.POSITIVE_INFINITY : oldest.value.group)
    }
    if (outcomes.full()) await outcomes.backpressure()
  }
}
