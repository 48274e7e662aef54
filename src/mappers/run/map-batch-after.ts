/**
 * Parallel mapping of a mapping without `groupBy`: batches mapped apart, the `by-order` date-time state
 * carried from one batch to the next.
 *
 * @module
 */
import { compileMapping, type CompiledMapping } from "../compile-mapping.js"
import type { Mapping } from "../define-mapping.js"
import { mapAlone, mapList } from "../map-list.js"
import type { MappingEvent, MappingResult } from "../mapping-result.js"
import type { WallTimeRun } from "../field-source.js"

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
  const root = startedAt(mapping, state)
  const result = mapList(mapping, records, root)
  return { ...result, ...endOf(root) }
}

const startedAt = (mapping: Mapping, state: OrderState): CompiledMapping => {
  const root = compileMapping(mapping)
  root.resolvers.forEach((resolver, i) => resolver.start(state[i] ?? []))
  return root
}

const endOf = (root: CompiledMapping): Pick<BatchMapping, "readStart" | "endRuns"> => {
  const ends = root.resolvers.map((resolver) => resolver.end())
  return { readStart: ends.map((e) => e.readStart), endRuns: ends.map((e) => e.run) }
}

/** The rows of one batch mapped one at a time (see {@link batchRowMapper}). */
export interface BatchRowMapper {
  /** Maps the batch's next row: its events (one, for a mapping without collections), with its index in the batch. */
  readonly next: (record: unknown) => ReadonlyArray<MappingEvent>
  /** Where the batch leaves its `by-order` date-times, as {@link mapBatchAfter} tells it; call after the last row. */
  readonly end: () => Pick<BatchMapping, "readStart" | "endRuns">
}

/**
 * {@link mapBatchAfter} a row at a time, for a caller that keeps only what it needs of each row's events
 * (a worker turning payloads into text): the same events for the same rows, and the same end state. Every
 * row of a mapping without `groupBy` is mapped on its own.
 *
 * @example
 * const notes = defineMapping({ endpoint: "notes", fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" }, collections: [{ path: "notes", fields: { body: "Notiz" } }] })
 * const batch = batchRowMapper(notes)
 * batch.next({ Konto: "KD-1", Notiz: "Rückruf erbeten" }).map((e) => e.kind) // => ["payload"]
 * batch.next("not a record").map((e) => e.kind) // => ["rejected"]
 * batch.end() // => { readStart: [], endRuns: [] }
 */
export const batchRowMapper = (mapping: Mapping, state: OrderState = []): BatchRowMapper => {
  if (mapping.groupBy !== undefined) throw new Error("batchRowMapper needs a mapping without groupBy: a group's rows are mapped together")
  const root = startedAt(mapping, state)
  let index = 0
  return {
    next: (record) => mapAlone(mapping, root, index++, record),
    end: () => endOf(root)
  }
}

/** Whether a batch mapped from no state must be mapped again after rows that left `before`. */
export const mustMapAgain = (before: OrderState, batch: Pick<BatchMapping, "readStart">): boolean =>
  batch.readStart.some((read, i) => read && (before[i]?.length ?? 0) > 0)

/** The state after a batch mapped from `before`: each run as the batch left it. */
export const orderStateAfter = (before: OrderState, batch: Pick<BatchMapping, "endRuns">): OrderState =>
  Array.from({ length: Math.max(before.length, batch.endRuns.length) }, (_, i) => batch.endRuns[i] ?? before[i] ?? [])
