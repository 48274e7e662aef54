/**
 * Parallel mapping of a mapping without `groupBy`: batches mapped apart, the `by-order` date-time state
 * carried from one batch to the next.
 *
 * @module
 */
import { compileMapping } from "./compile-mapping.js"
import type { Mapping } from "./define-mapping.js"
import { mapList } from "./map-list.js"
import type { MappingResult } from "./mapping-result.js"
import type { WallTimeRun } from "./resolve-wall-time.js"

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
