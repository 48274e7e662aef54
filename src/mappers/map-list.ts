/**
 * Mapping a list of rows: rows grouped by the mapping's `groupBy`, groups cut into batches, each batch
 * built into one payload and validated.
 *
 * @module
 */
import { isRecord } from "../validation/path.js"
import { buildPayload, groupRows, type ItemRows } from "./build-payload.js"
import { type CompiledNode, compileMapping, groupKey, type ReadRow, readRow } from "./compile-mapping.js"
import type { Mapping } from "./define-mapping.js"
import type { LegacyRecord } from "./field-source.js"
import type { MappingEvent, MappingResult, MapRecordsOptions } from "./mapping-result.js"
import { validatedEvents } from "./failing-items.js"
import { isRowPerPayload, mapRow } from "./map-row.js"
import { documentRule, rowNumber } from "./whole-documents.js"

/**
 * Cuts a group into batches of at most `batchSize` items of the first collection, always between items
 * (the rows of one item stay together, wherever they are in the group).
 */
const batchesOf = (mapping: Mapping, root: CompiledNode, group: ReadonlyArray<ReadRow>): Array<Array<ReadRow>> => {
  const size = mapping.batchSize
  const first = root.collections[0]
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, a shortcut: without a size no second batch is started, without a collection every row joins the last batch
  if (size === undefined || first === undefined) return [[...group]]
  const batches: Array<Array<ReadRow>> = [[]]
  const batchOfItem = new Map<string, number>()
  let itemsInLast = 0
  for (const row of group) {
    if (row.read.children[0] === undefined) {
      batches[batches.length - 1]!.push(row)
      continue
    }
    const key = first.groupBy === undefined ? `#${row.index}` : groupKey(row.record, first.groupBy)
    let batch = batchOfItem.get(key)
    if (batch === undefined) {
      if (itemsInLast >= size) {
        batches.push([])
        itemsInLast = 0
      }
      batch = batches.length - 1
      batchOfItem.set(key, batch)
      itemsInLast++
    }
    batches[batch]!.push(row)
  }
  // No batch is empty: a new one is started only for the item that goes into it (batchSize > 0).
  return batches
}

const mapBatch = (mapping: Mapping, root: CompiledNode, rows: ReadonlyArray<ReadRow>, rowName: RowName): Array<MappingEvent> => {
  const document = documentRule(mapping.endpoint, root.collections.map((c) => c.path), rowName)
  const entries = rows.map((row) => ({ row, read: row.read }))
  const itemRows: Array<ItemRows> = []
  const { value, used, rejected } = buildPayload(root, entries, document, itemRows)
  const events: Array<MappingEvent> = rejected.map((r) => ({ kind: "rejected", ...r }))
  // Stryker disable next-line ConditionalExpression: equivalent, buildPayload has a value whenever it used a row (the test is for the type)
  if (value !== undefined && used.length > 0) events.push(...validatedEvents(mapping, root, entries, { value, used, itemRows }, document))
  return events.sort((a, b) => (a.sourceRows[0] ?? 0) - (b.sourceRows[0] ?? 0))
}

/** How a row is named in the details of errors that speak of another row. */
type RowName = NonNullable<MapRecordsOptions["rowName"]>

/** The events of one group of rows: each batch of it one payload (a whole document) or rejected. */
export const mapGroup = (mapping: Mapping, root: CompiledNode, group: ReadonlyArray<ReadRow>, rowName: RowName = rowNumber): Array<MappingEvent> =>
  batchesOf(mapping, root, group).flatMap((batch) => mapBatch(mapping, root, batch, rowName))

export const notARecord = (index: number): MappingEvent => ({
  kind: "rejected",
  sourceRows: [index],
  errors: [{ code: "invalid", detail: "A record must be an object of column → value." }]
})

/**
 * The events of row `index` of a mapping without `groupBy`, mapped on its own through `root` (call in
 * input order): a value that is no record is refused, a row of a mapping without collections takes the
 * straight path, any other row is a group of one.
 */
export const mapAlone = (mapping: Mapping, root: CompiledNode, index: number, value: unknown): ReadonlyArray<MappingEvent> => {
  if (!isRecord(value)) return [notARecord(index)]
  return isRowPerPayload(mapping) ? [mapRow(mapping, root, index, value as LegacyRecord)] : mapGroup(mapping, root, [readRow(root, index, value as LegacyRecord)])
}

export function mapList(mapping: Mapping, records: Iterable<unknown>, root: CompiledNode = compileMapping(mapping), rowName: RowName = rowNumber): MappingResult {
  const rows: Array<ReadRow> = []
  // Stryker disable next-line ArrayDeclaration: equivalent, a stray value here is neither a payload nor a rejection, so neither list below takes it
  const events: Array<MappingEvent> = []
  const rowPerPayload = isRowPerPayload(mapping)
  // Rows mapped as they are read still come after the records refused above (the order of the general path).
  // Stryker disable next-line ArrayDeclaration: equivalent, as for events above
  const mapped: Array<MappingEvent> = []
  let index = -1
  for (const value of records) {
    index++
    if (!isRecord(value)) {
      events.push(notARecord(index))
      continue
    }
    // Stryker disable next-line ConditionalExpression: equivalent, the general path gives a row per payload the same events (map-row.properties.test.ts)
    if (rowPerPayload) mapped.push(mapRow(mapping, root, index, value as LegacyRecord))
    else rows.push(readRow(root, index, value as LegacyRecord))
  }
  const groups = groupRows(rows.map((row) => ({ row, read: row.read })), mapping.groupBy).map((g) => g.map((e) => e.row))
  for (const group of groups) events.push(...mapGroup(mapping, root, group, rowName))
  for (const event of mapped) events.push(event)
  return {
    payloads: events.flatMap((e) => (e.kind === "payload" ? [{ payload: e.payload, sourceRows: e.sourceRows, ...(e.warnings !== undefined ? { warnings: e.warnings } : {}) }] : [])),
    rejected: events.flatMap((e) => (e.kind === "rejected" ? [{ sourceRows: e.sourceRows, errors: e.errors }] : []))
  }
}
