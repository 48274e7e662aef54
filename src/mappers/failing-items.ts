/**
 * A payload of many rows that fails validation inside some of its items: a failing record (a note, a
 * transaction, a historical statement, a price sheet) costs its own rows and the payload goes out
 * without it; a failing part of a document costs the whole document, its other rows told which rows
 * broke it; an error outside every item costs every row.
 *
 * @module
 */
import { buildPayload, type Entry, type ItemRows } from "./build-payload.js"
import type { CompiledNode } from "./compile-mapping.js"
import type { Mapping } from "./define-mapping.js"
import type { MappedPayload, MappingError, MappingEvent, RejectedRows } from "./mapping-result.js"
import { payloadEvent } from "./map-row.js"
import { type DocumentRule, documentIncomplete, isDocumentPart } from "./whole-documents.js"

/** A payload built and not yet validated: its value, the rows it used, and the rows of each of its top-level items. */
export interface BuiltPayload {
  readonly value: Record<string, unknown>
  readonly used: ReadonlyArray<number>
  readonly itemRows: ReadonlyArray<ItemRows>
}

/** The item an error is inside (`notes.1.body` is inside `notes.1`), if any. */
const itemOf = (error: MappingError, itemRows: ReadonlyArray<ItemRows>): ItemRows | undefined =>
  error.attr === undefined ? undefined : itemRows.find((i) => error.attr === i.attr || error.attr!.startsWith(`${i.attr}.`))

/**
 * A payload rejected by validation: an error inside an item of a list (`notes.1.body`) names the rows that
 * item was built from, so that a payload of many rows says which of them to fix.
 */
const withItemRows = (event: MappingEvent & { readonly kind: "rejected" }, itemRows: ReadonlyArray<ItemRows>, rowName: (index: number) => string): MappingEvent => {
  if (itemRows.length === 0 || event.sourceRows.length < 2) return event
  const errors = event.errors.map((e) => {
    const item = itemOf(e, itemRows)
    return item === undefined ? e : { ...e, detail: `${e.detail} (${item.attr}: ${item.rows.map(rowName).join(", ")})` }
  })
  return { ...event, errors }
}

/**
 * The rows lost to the failing items, each with its reasons: a row of a failing item with that item's
 * errors (of every failing item it is in), then, when `spread` and until nothing changes, a row of another
 * item that shares a row with a lost one with `rejected_with_row` (an item goes out whole or not at all).
 * Rows with the same reasons are rejected together, in order of their first row.
 */
const lostRows = (failing: ReadonlyMap<ItemRows, Array<MappingError>>, itemRows: ReadonlyArray<ItemRows>, spread: boolean, rowName: (index: number) => string): Array<RejectedRows> => {
  const reasons = new Map<number, Array<MappingError>>()
  for (const [item, errors] of failing) for (const row of item.rows) reasons.set(row, [...(reasons.get(row) ?? []), ...errors])
  for (let changed = spread; changed;) {
    changed = false
    for (const item of itemRows) {
      const lost = item.rows.filter((row) => reasons.has(row))
      if (lost.length === 0 || lost.length === item.rows.length) continue
      const error = { attr: item.attr, code: "rejected_with_row", detail: `A row of this item (${lost.map(rowName).join(", ")}) was rejected in another item.` }
      for (const row of item.rows) if (!reasons.has(row)) reasons.set(row, [error])
      changed = true
    }
  }
  const byReasons = new Map<Array<MappingError>, Array<number>>()
  for (const row of [...reasons.keys()].sort((a, b) => a - b)) {
    const errors = reasons.get(row)!
    const same = [...byReasons.keys()].find((other) => JSON.stringify(other) === JSON.stringify(errors))
    if (same === undefined) byReasons.set(errors, [row])
    else byReasons.get(same)!.push(row)
  }
  return [...byReasons].map(([errors, sourceRows]) => ({ sourceRows, errors }))
}

/**
 * The rows of each top-level item of a payload that went out, by the payload: a side table, so that the
 * payload events keep their shape ({@link MappedPayload}) while `map --journal` can tell each record of a
 * payload of many rows (a transaction, a note) its own legacy lines.
 */
const ITEM_ROWS = new WeakMap<object, ReadonlyArray<ItemRows>>()

/**
 * The rows each top-level item of a mapped payload was built from (`attr` `transactions.3`, its rows as
 * 0-based indexes of the input), when the payload came from a group of rows with collections; else `undefined`.
 */
export const itemRowsOf = (payload: unknown): ReadonlyArray<ItemRows> | undefined =>
  typeof payload === "object" && payload !== null ? ITEM_ROWS.get(payload) : undefined

const rejection = (r: RejectedRows): MappingEvent => ({ kind: "rejected", sourceRows: r.sourceRows, errors: r.errors })

/**
 * The events of a built payload once validated. Valid: the payload. Invalid with an error outside every
 * item: every row rejected with all the errors. Invalid only inside items: the rows of the failing items
 * rejected with their items' errors; then, when a failing item is a part of the document, every other row
 * is rejected as `document_incomplete` naming them, and when every failing item is a record of its own,
 * the payload is built again from the other rows (without the failing items) and validated again.
 */
export const validatedEvents = (
  mapping: Mapping,
  root: CompiledNode,
  entries: ReadonlyArray<Entry>,
  built: BuiltPayload,
  document: DocumentRule
): Array<MappingEvent> => {
  const events: Array<MappingEvent> = []
  for (let current = built; ;) {
    const event = payloadEvent(mapping, current.value, current.used)
    if (event.kind === "payload") {
      if (current.itemRows.length > 0) ITEM_ROWS.set(event.payload as object, current.itemRows)
      return [...events, event]
    }
    const failing = new Map<ItemRows, Array<MappingError>>()
    const outside = event.errors.some((e) => {
      const item = itemOf(e, current.itemRows)
      if (item !== undefined) failing.set(item, [...(failing.get(item) ?? []), e])
      return item === undefined
    })
    if (outside) return [...events, withItemRows(event, current.itemRows, document.rowName)]
    const whole = [...failing.keys()].some((item) => isDocumentPart(mapping.endpoint, item.attr))
    // A document's other rows are all rejected below: only the failing items' rows are its causes.
    const lost = lostRows(failing, current.itemRows, !whole, document.rowName)
    const lostSet = new Set(lost.flatMap((r) => r.sourceRows))
    const rest = current.used.filter((row) => !lostSet.has(row))
    events.push(...lost.map(rejection))
    if (whole) {
      if (rest.length > 0) events.push({ kind: "rejected", sourceRows: rest, errors: [documentIncomplete(document, lost)] })
      return events
    }
    if (rest.length === 0) return events
    const restSet = new Set(rest)
    const itemRows: Array<ItemRows> = []
    const again = buildPayload(root, entries.filter((e) => restSet.has(e.row.index)), document, itemRows)
    events.push(...again.rejected.map(rejection))
    // Stryker disable next-line ConditionalExpression: equivalent, buildPayload has a value whenever it used a row (the test is for the type)
    if (again.value === undefined || again.used.length === 0) return events
    current = { value: again.value, used: again.used, itemRows }
  }
}
