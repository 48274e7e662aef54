/**
 * Turns flat legacy records into validated payloads, conserving every row: each input row ends up in
 * exactly one payload's `sourceRows` or in one rejection, with its reasons — never in both, never in
 * neither, and never merged into a payload whose other rows say something else.
 *
 * @module
 */
import type { PostEndpointId, RequestOf } from "../schemas/endpoints/endpoint-id.js"
import { isRecord } from "../validation/path.js"
import { compileMapping, groupKey, type ReadRow, readRow } from "./compile-mapping.js"
import type { Mapping } from "./define-mapping.js"
import type { LegacyRecord } from "./field-source.js"
import { mapAlone, mapGroup, mapList, notARecord } from "./map-list.js"
import type { MappingEvent, MappingResult, MapRecordsOptions } from "./mapping-result.js"
import { rowNumber } from "./whole-documents.js"

async function* mapStream(mapping: Mapping, records: AsyncIterable<unknown>, rowName: (index: number) => string): AsyncGenerator<MappingEvent> {
  const root = compileMapping(mapping)
  const closed = new Set<string>()
  let current: Array<ReadRow> = []
  let currentKey: string | undefined
  const flush = function*(): Generator<MappingEvent> {
    // Stryker disable next-line ConditionalExpression: equivalent, no group has the key undefined
    if (currentKey !== undefined) closed.add(currentKey)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a group of no rows gives no event (a payload needs rows)
    if (current.length > 0) yield* mapGroup(mapping, root, current, rowName)
    current = []
  }
  let index = 0
  for await (const value of records) {
    if (mapping.groupBy === undefined) {
      yield* mapAlone(mapping, root, index++, value)
      continue
    }
    if (!isRecord(value)) {
      yield notARecord(index++)
      continue
    }
    const row = readRow(root, index++, value as LegacyRecord)
    const key = groupKey(row.record, mapping.groupBy)
    if (key !== currentKey) {
      yield* flush()
      if (closed.has(key)) {
        yield {
          kind: "rejected",
          sourceRows: [row.index],
          errors: [{
            code: "group_not_contiguous",
            detail: `The rows of group ${key} are not contiguous: this row comes after another group; sort the input by ${mapping.groupBy.join(", ")}.`
          }]
        }
        currentKey = undefined
        continue
      }
      currentKey = key
    }
    current.push(row)
  }
  yield* flush()
}

/**
 * Maps flat records to payloads of the mapping's endpoint. Every payload is compacted and passes
 * `validatePayload`; every row ends up in exactly one payload's `sourceRows` or in one rejection:
 *
 * - a cell that cannot be converted rejects its item (or, for a payload-level field, its group);
 * - rows of one group (item) that state different values for a payload (item) field are rejected as
 *   `inconsistent_group` (`inconsistent_item`), never silently read from the first row;
 * - a row that matches no collection although it carries data for one is `unmatched_row`;
 * - a payload that fails validation outside its items (at its own fields, or at a list as a whole) is
 *   rejected with all of its rows and the API's errors; an error inside an item (`notes.1.unpin_at`)
 *   rejects that item's rows, and the payload is built again without it and validated again when the
 *   item is a record of its own (below), or rejects the whole document when it is a part of one;
 * - a payload is a whole document or nothing: when a part of it fails (an amount of a delivery note, a
 *   line item or tax amount of an invoice, an article price of a price sheet, any item of a set of time
 *   definitions), its failing rows keep their reasons and every other row of it is rejected as
 *   `document_incomplete`, naming the failing rows (`options.rowName`, `row N` by default). Notes,
 *   transactions, historical statements and price sheets are records of their own: one that fails
 *   leaves the others of its payload to go out;
 * - `batchSize` cuts a group into payloads between items, never inside one.
 *
 * Group keys compare cells trimmed (a BOM or a trailing space does not split an account). Rows are read
 * in input order, so `ambiguous: "by-order"` date-times see the rows before them.
 *
 * - A list (any sync iterable) is grouped by `groupBy` wherever its rows are (buffered), and the result
 *   comes back at once.
 * - An async iterable is mapped as it streams, with memory bounded by the largest group: the rows of a
 *   group must be contiguous, and a row of a group that was already emitted is rejected with
 *   `group_not_contiguous` (never silently split into a second payload).
 *
 * @example
 * const { payloads, rejected } = mapRecords(mapping, rows)
 * payloads.map((p) => p.payload.external_account_number) // => ["KD-1", "KD-2"]
 * rejected // => []
 * for await (const event of mapRecords(mapping, streamOfRows)) console.log(event.kind, event.sourceRows)
 * // payload [0]
 * // payload [1]
 *
 * @since 0.1.0
 */
export function mapRecords<E extends PostEndpointId>(mapping: Mapping<E>, records: Iterable<unknown>, options?: MapRecordsOptions): MappingResult<RequestOf<E>>
export function mapRecords<E extends PostEndpointId>(mapping: Mapping<E>, records: AsyncIterable<unknown>, options?: MapRecordsOptions): AsyncGenerator<MappingEvent<RequestOf<E>>>
export function mapRecords(
  mapping: Mapping,
  records: Iterable<unknown> | AsyncIterable<unknown>,
  options: MapRecordsOptions = {}
): MappingResult | AsyncGenerator<MappingEvent> {
  const rowName = options.rowName ?? rowNumber
  return Symbol.asyncIterator in records
    ? mapStream(mapping, records as AsyncIterable<unknown>, rowName)
    : mapList(mapping, records as Iterable<unknown>, undefined, rowName)
}
