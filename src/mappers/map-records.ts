/**
 * Turns flat legacy records into validated payloads, conserving every row: each input row ends up in
 * exactly one payload's `sourceRows` or in one rejection, with its reasons — never in both, never in
 * neither, and never merged into a payload whose other rows say something else.
 *
 * @module
 */
import { endpoints } from "../endpoints/catalogue.js"
import type { PostEndpointId, RequestOf } from "../endpoints/endpoint-id.js"
import { compileValidator } from "../validation/compile-validator.js"
import { compact } from "./compact.js"
import { type CompiledNode, compileMapping, groupKey, hasFunctionSources, type ReadRow, readRow } from "./compile-mapping.js"
import { defineData } from "./define-data.js"
import type { Mapping } from "./define-mapping.js"
import type { LegacyRecord } from "./field-source.js"
import type { WallTimeRun } from "./resolve-wall-time.js"

/** Why a row (or a group of rows) was rejected: the column it came from and/or the payload attr. */
export interface MappingError {
  readonly column?: string
  readonly attr?: string
  readonly code: string
  readonly detail: string
}

/** A valid payload and the indexes (0-based, in input order) of the rows it was built from. */
export interface MappedPayload<P = unknown> {
  readonly payload: P
  readonly sourceRows: ReadonlyArray<number>
}

/** Rows that could not become (part of) a valid payload, with the reasons. */
export interface RejectedRows {
  readonly sourceRows: ReadonlyArray<number>
  readonly errors: ReadonlyArray<MappingError>
}

/** The result of mapping a list of records; `P` is the payload type (the mapping's endpoint's request). */
export interface MappingResult<P = unknown> {
  readonly payloads: ReadonlyArray<MappedPayload<P>>
  readonly rejected: ReadonlyArray<RejectedRows>
}

/** One step of a streamed mapping: a payload or a rejection, in input order of the groups. */
export type MappingEvent<P = unknown> =
  | ({ readonly kind: "payload" } & MappedPayload<P>)
  | ({ readonly kind: "rejected" } & RejectedRows)

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** A dot path split into steps, each knowing whether the next one is an array index; cached (paths repeat per row). */
const stepsOf = (() => {
  const cache = new Map<string, ReadonlyArray<{ readonly key: string; readonly nextIsIndex: boolean }>>()
  return (path: string) => {
    let steps = cache.get(path)
    if (steps === undefined) {
      const parts = path.split(".")
      steps = parts.map((key, i) => ({ key, nextIsIndex: i + 1 < parts.length && /^\d+$/u.test(parts[i + 1]!) }))
      if (cache.size >= 10_000) cache.clear()
      cache.set(path, steps)
    }
    return steps
  }
})()

const setAt = (target: Record<string, unknown>, path: string, value: unknown): void => {
  const steps = stepsOf(path)
  let node: Record<string, unknown> = target
  for (let i = 0; i < steps.length - 1; i++) {
    const { key, nextIsIndex } = steps[i]!
    if (!Object.hasOwn(node, key) || typeof node[key] !== "object" || node[key] === null) {
      defineData(node, key, nextIsIndex ? [] : {})
    }
    node = node[key] as Record<string, unknown>
  }
  defineData(node, steps[steps.length - 1]!.key, value)
}

const getOrCreateList = (target: Record<string, unknown>, path: string): Array<unknown> => {
  const steps = stepsOf(path)
  let node: Record<string, unknown> = target
  for (const { key } of steps.slice(0, -1)) {
    if (!isRecord(node[key])) defineData(node, key, {})
    node = node[key] as Record<string, unknown>
  }
  const last = steps[steps.length - 1]!.key
  if (!Array.isArray(node[last])) defineData(node, last, [])
  return node[last] as Array<unknown>
}

/** Rows grouped by their key in these columns, in order of first appearance; every row alone without columns. */
const groupRows = <R extends { readonly row: ReadRow }>(rows: ReadonlyArray<R>, columns: ReadonlyArray<string> | undefined): Array<Array<R>> => {
  if (columns === undefined) return rows.map((r) => [r])
  const groups = new Map<string, Array<R>>()
  for (const r of rows) {
    const key = groupKey(r.row.record, columns)
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [r])
    else group.push(r)
  }
  return [...groups.values()]
}

/** One row as seen at one level of the mapping: the row, and what it read at that level. */
interface Entry {
  readonly row: ReadRow
  readonly read: ReadRow["read"]
}

type Built =
  | { readonly ok: true; readonly value: Record<string, unknown>; readonly rejected: ReadonlyArray<RejectedRows> }
  | { readonly ok: false; readonly errors: ReadonlyArray<MappingError> }

const show = (value: unknown): string => JSON.stringify(value) ?? String(value)

/**
 * The fields of one node (payload or item) from its rows: each field's value is the first stated one,
 * and a row stating another value is a conflict (`inconsistent_group` / `inconsistent_item`).
 */
const buildFields = (node: CompiledNode, entries: ReadonlyArray<Entry>, at: string, conflict: string, errors: Array<MappingError>): Record<string, unknown> => {
  const value: Record<string, unknown> = {}
  node.fields.forEach((field, i) => {
    let chosen: { readonly value: unknown; readonly index: number } | undefined
    let fallback: unknown
    for (const { row, read } of entries) {
      const outcome = read.values[i]!
      if (!outcome.ok) {
        errors.push({ ...(outcome.column !== undefined ? { column: outcome.column } : {}), attr: `${at}${field.path}`, code: outcome.code, detail: outcome.detail })
        continue
      }
      if (!outcome.stated) {
        fallback ??= outcome.value
        continue
      }
      if (chosen === undefined) chosen = { value: outcome.value, index: row.index }
      else if (show(outcome.value) !== show(chosen.value)) {
        const column = field.columns.join(", ")
        errors.push({
          ...(column !== "" ? { column } : {}),
          attr: `${at}${field.path}`,
          code: conflict,
          detail: `${show(outcome.value)} in row ${row.index + 1} differs from ${show(chosen.value)} in row ${chosen.index + 1} of the same ${conflict === "inconsistent_group" ? "payload" : "item"}`
        })
      }
    }
    const final = chosen !== undefined ? chosen.value : fallback
    if (final !== undefined) setAt(value, field.path, final)
  })
  return value
}

/** Rows that match none of the node's collections although they carry data only a collection reads. */
const isUnmatched = (node: CompiledNode, entry: Entry): boolean =>
  node.collections.length > 0 &&
  entry.read.children.every((c) => c === undefined) &&
  node.collectionOnlyColumns.some((column) => {
    const cell = Object.hasOwn(entry.row.record, column) ? entry.row.record[column] : undefined
    return cell !== undefined && cell !== null && String(cell).trim() !== ""
  })

const unmatchedError = (node: CompiledNode, entry: Entry): MappingError => {
  const filters = node.collections.flatMap((c) => (c.when !== undefined ? [`${c.when.column} = ${show(c.when.equals)}`] : []))
  return {
    code: "unmatched_row",
    detail: `This row carries data for a list but matches none of them${filters.length > 0 ? ` (${filters.join(", ")})` : ""}: its data would be lost.`
  }
}

/** Builds one item: all or nothing (a failing nested item or an unmatched row fails the whole item). */
const buildItem = (node: CompiledNode, entries: ReadonlyArray<Entry>, at: string): Built => {
  const errors: Array<MappingError> = []
  const value = buildFields(node, entries, at, "inconsistent_item", errors)
  for (const entry of entries) if (isUnmatched(node, entry)) errors.push({ ...unmatchedError(node, entry), attr: at.replace(/\.$/u, "") })
  node.collections.forEach((collection, ci) => {
    const list = getOrCreateList(value, collection.path)
    const matched = entries.flatMap((e) => (e.read.children[ci] !== undefined ? [{ row: e.row, read: e.read.children[ci]! }] : []))
    for (const item of groupRows(matched, collection.groupBy)) {
      const built = buildItem(collection, item, `${at}${collection.path}.${list.length}.`)
      if (built.ok) list.push(built.value)
      else errors.push(...built.errors)
    }
  })
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value, rejected: [] }
}

const indexesOf = (entries: ReadonlyArray<Entry>): Array<number> => [...new Set(entries.map((e) => e.row.index))].sort((a, b) => a - b)

/** Builds one payload from a batch of rows: payload fields all or nothing, each top-level item on its own. */
const buildPayload = (root: CompiledNode, entries: ReadonlyArray<Entry>): { readonly value?: Record<string, unknown>; readonly used: Array<number>; readonly rejected: Array<RejectedRows> } => {
  const fieldErrors: Array<MappingError> = []
  const value = buildFields(root, entries, "", "inconsistent_group", fieldErrors)
  if (fieldErrors.length > 0) return { used: [], rejected: [{ sourceRows: indexesOf(entries), errors: fieldErrors }] }
  const rejected: Array<RejectedRows> = []
  const rejectedRows = new Set<number>()
  for (const entry of entries) {
    if (!isUnmatched(root, entry)) continue
    rejected.push({ sourceRows: [entry.row.index], errors: [unmatchedError(root, entry)] })
    rejectedRows.add(entry.row.index)
  }
  // Items first, then the fixpoint: an item sharing a row with a failed item fails too, so that no row is
  // both rejected and (partly) in the payload.
  const items: Array<{ readonly ci: number; readonly entries: ReadonlyArray<Entry>; built: Built }> = []
  root.collections.forEach((collection, ci) => {
    const matched = entries.flatMap((e) => (e.read.children[ci] !== undefined && !rejectedRows.has(e.row.index) ? [{ row: e.row, read: e.read.children[ci]! }] : []))
    groupRows(matched, collection.groupBy).forEach((item, n) => {
      items.push({ ci, entries: item, built: buildItem(collection, item, `${collection.path}.${n}.`) })
    })
  })
  for (let changed = true; changed;) {
    changed = false
    for (const item of items) {
      if (item.built.ok && item.entries.some((e) => rejectedRows.has(e.row.index))) {
        item.built = { ok: false, errors: [{ code: "rejected_with_row", detail: "A row of this item was rejected in another item." }] }
      }
      const fresh = item.built.ok ? [] : item.entries.filter((e) => !rejectedRows.has(e.row.index))
      if (!item.built.ok && fresh.length > 0) {
        rejected.push({ sourceRows: indexesOf(fresh), errors: item.built.errors })
        for (const e of fresh) rejectedRows.add(e.row.index)
        changed = true
      }
    }
  }
  for (const item of items) {
    if (item.built.ok) getOrCreateList(value, root.collections[item.ci]!.path).push(item.built.value)
  }
  const used = indexesOf(entries).filter((i) => !rejectedRows.has(i))
  return { value, used, rejected }
}

/**
 * Cuts a group into batches of at most `batchSize` items of the first collection, always between items
 * (the rows of one item stay together, wherever they are in the group).
 */
const batchesOf = (mapping: Mapping, root: CompiledNode, group: ReadonlyArray<ReadRow>): Array<Array<ReadRow>> => {
  const size = mapping.batchSize
  const first = root.collections[0]
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
  return batches.filter((b) => b.length > 0)
}

/** Payloads built from a mapping without functions are plain JSON data: the validator may skip its descriptor walk. */
const validators = new WeakMap<Mapping, ReturnType<typeof compileValidator>>()
const validatorFor = (mapping: Mapping): ReturnType<typeof compileValidator> => {
  let validator = validators.get(mapping)
  if (validator === undefined) {
    validator = compileValidator(mapping.endpoint, hasFunctionSources(mapping) ? {} : { input: "json" })
    validators.set(mapping, validator)
  }
  return validator
}

const mapBatch = (mapping: Mapping, root: CompiledNode, rows: ReadonlyArray<ReadRow>): Array<MappingEvent> => {
  const { value, used, rejected } = buildPayload(root, rows.map((row) => ({ row, read: row.read })))
  const events: Array<MappingEvent> = rejected.map((r) => ({ kind: "rejected", ...r }))
  if (value !== undefined && used.length > 0) {
    const payload = compact(endpoints[mapping.endpoint].request, value)
    // The compiled validator gives validatePayload's answer, faster for the (usual) valid payload.
    const result = validatorFor(mapping)(payload)
    events.push(
      result.ok
        ? { kind: "payload", payload, sourceRows: used }
        : { kind: "rejected", sourceRows: used, errors: result.error.errors.map((e) => ({ attr: e.attr, code: e.code, detail: e.detail })) }
    )
  }
  return events.sort((a, b) => (a.sourceRows[0] ?? 0) - (b.sourceRows[0] ?? 0))
}

const mapGroup = (mapping: Mapping, root: CompiledNode, group: ReadonlyArray<ReadRow>): Array<MappingEvent> =>
  batchesOf(mapping, root, group).flatMap((batch) => mapBatch(mapping, root, batch))

const notARecord = (index: number): MappingEvent => ({
  kind: "rejected",
  sourceRows: [index],
  errors: [{ code: "invalid", detail: "A record must be an object of column → value." }]
})

function mapList(mapping: Mapping, records: Iterable<unknown>, root: CompiledNode = compileMapping(mapping)): MappingResult {
  const rows: Array<ReadRow> = []
  const events: Array<MappingEvent> = []
  let index = 0
  for (const value of records) {
    if (isRecord(value)) rows.push(readRow(root, index, value as LegacyRecord))
    else events.push(notARecord(index))
    index++
  }
  const groups = mapping.groupBy === undefined ? rows.map((r) => [r]) : groupRows(rows.map((row) => ({ row, read: row.read })), mapping.groupBy).map((g) => g.map((e) => e.row))
  for (const group of groups) events.push(...mapGroup(mapping, root, group))
  return {
    payloads: events.flatMap((e) => (e.kind === "payload" ? [{ payload: e.payload, sourceRows: e.sourceRows }] : [])),
    rejected: events.flatMap((e) => (e.kind === "rejected" ? [{ sourceRows: e.sourceRows, errors: e.errors }] : []))
  }
}

/** Where a mapping's `by-order` date-times stand between batches of rows: one run per stateful date-time field. */
export type OrderState = ReadonlyArray<WallTimeRun>

/** A batch of rows mapped apart from the rows before it (see {@link mapBatchAfter}). */
export interface BatchMapping extends MappingResult {
  /** Per stateful date-time field: whether a `by-order` pick read the run the batch started with. */
  readonly readStart: ReadonlyArray<boolean>
  /** Per stateful date-time field: the run at the batch's end (`undefined`: the one it started with goes on). */
  readonly endRuns: ReadonlyArray<WallTimeRun | undefined>
}

/**
 * Maps one batch of rows of a mapping without `groupBy` as the rows after others that left its
 * `by-order` date-times at `state` (no run in progress when not given); row indexes count from the
 * batch's first row. Given the state the rows before really left, the result is what one pass over all
 * rows gives for these rows. Batches can therefore be mapped in parallel from no state, and the rare
 * batch that read its starting state ({@link mustMapAgain}) mapped again once the state before it is known.
 */
export const mapBatchAfter = (mapping: Mapping, records: Iterable<unknown>, state: OrderState = []): BatchMapping => {
  const root = compileMapping(mapping)
  root.resolvers.forEach((resolver, i) => resolver.start(state[i] ?? []))
  const result = mapList(mapping, records, root)
  const ends = root.resolvers.map((resolver) => resolver.end())
  return { ...result, readStart: ends.map((e) => e.readStart), endRuns: ends.map((e) => e.run) }
}

/** Whether a batch mapped from no state must be mapped again after rows that left `before`. */
export const mustMapAgain = (before: OrderState, batch: Pick<BatchMapping, "readStart">): boolean =>
  batch.readStart.some((read, i) => read && (before[i]?.length ?? 0) > 0)

/** The state after a batch mapped from `before`: each run as the batch left it. */
export const orderStateAfter = (before: OrderState, batch: Pick<BatchMapping, "endRuns">): OrderState =>
  Array.from({ length: Math.max(before.length, batch.endRuns.length) }, (_, i) => batch.endRuns[i] ?? before[i] ?? [])

async function* mapStream(mapping: Mapping, records: AsyncIterable<unknown>): AsyncGenerator<MappingEvent> {
  const root = compileMapping(mapping)
  const closed = new Set<string>()
  let current: Array<ReadRow> = []
  let currentKey: string | undefined
  const flush = function*(): Generator<MappingEvent> {
    if (currentKey !== undefined) closed.add(currentKey)
    if (current.length > 0) yield* mapGroup(mapping, root, current)
    current = []
  }
  let index = 0
  for await (const value of records) {
    if (!isRecord(value)) {
      yield notARecord(index++)
      continue
    }
    const row = readRow(root, index++, value as LegacyRecord)
    if (mapping.groupBy === undefined) {
      yield* mapGroup(mapping, root, [row])
      continue
    }
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
 * - a payload that fails validation is rejected with all of its rows and the API's errors;
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
 * for await (const event of mapRecords(mapping, streamOfRows)) console.log(event.kind, event.sourceRows)
 */
export function mapRecords<E extends PostEndpointId>(mapping: Mapping<E>, records: Iterable<unknown>): MappingResult<RequestOf<E>>
export function mapRecords<E extends PostEndpointId>(mapping: Mapping<E>, records: AsyncIterable<unknown>): AsyncGenerator<MappingEvent<RequestOf<E>>>
export function mapRecords(
  mapping: Mapping,
  records: Iterable<unknown> | AsyncIterable<unknown>
): MappingResult | AsyncGenerator<MappingEvent> {
  return Symbol.asyncIterator in records ? mapStream(mapping, records as AsyncIterable<unknown>) : mapList(mapping, records as Iterable<unknown>)
}
