/**
 * Turns flat legacy records into validated payloads, conserving every row: each input row ends up in
 * exactly one payload's `sourceRows` or in `rejected`, with its reasons.
 *
 * @module
 */
import { endpoints } from "../endpoints/catalogue.js"
import type { PostEndpointId, RequestOf } from "../endpoints/endpoint-id.js"
import { compileValidator } from "../validation/compile-validator.js"
import { compact } from "./compact.js"
import { defineData } from "./define-data.js"
import type { CollectionMapping, Mapping } from "./define-mapping.js"
import { type LegacyRecord, readField } from "./field-source.js"

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

interface Row {
  readonly index: number
  readonly record: LegacyRecord
}

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
  const steps = path.split(".")
  let node: Record<string, unknown> = target
  for (const step of steps.slice(0, -1)) {
    if (!isRecord(node[step])) setAt(node, step, {})
    node = node[step] as Record<string, unknown>
  }
  const last = steps[steps.length - 1]!
  if (!Array.isArray(node[last])) setAt(node, last, [])
  return node[last] as Array<unknown>
}

const keyOf = (record: LegacyRecord, columns: ReadonlyArray<string> | undefined): string =>
  JSON.stringify((columns ?? []).map((c) => (Object.hasOwn(record, c) ? record[c] ?? null : null)))

const groupRows = (rows: ReadonlyArray<Row>, columns: ReadonlyArray<string> | undefined): Array<Array<Row>> => {
  if (columns === undefined) return rows.map((r) => [r])
  const groups = new Map<string, Array<Row>>()
  for (const row of rows) {
    const key = keyOf(row.record, columns)
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [row])
    else group.push(row)
  }
  return [...groups.values()]
}

const matches = (collection: CollectionMapping, record: LegacyRecord): boolean => {
  if (collection.when === undefined) return true
  const cell = Object.hasOwn(record, collection.when.column) ? record[collection.when.column] : undefined
  const wanted = typeof collection.when.equals === "string" ? [collection.when.equals] : collection.when.equals
  return wanted.includes(String(cell ?? "").trim())
}

interface Built {
  readonly value: Record<string, unknown>
  /** Rows whose cells could not be converted, with the reasons, keyed by row index. */
  readonly failed: Map<number, Array<MappingError>>
}

const buildNode = (
  rows: ReadonlyArray<Row>,
  fields: CollectionMapping["fields"],
  collections: ReadonlyArray<CollectionMapping> | undefined,
  at: string,
  failed: Map<number, Array<MappingError>>
): Record<string, unknown> | undefined => {
  const value: Record<string, unknown> = {}
  const first = rows[0]
  if (first === undefined) return undefined
  let ok = true
  for (const [path, source] of Object.entries(fields)) {
    const outcome = readField(source, first.record)
    if (outcome.ok) {
      if (outcome.value !== undefined) setAt(value, path, outcome.value)
      continue
    }
    ok = false
    // A field read from the item's first row fails the whole item: all of its rows go with it.
    for (const row of rows) {
      const errors = failed.get(row.index) ?? []
      errors.push({
        ...(outcome.column !== undefined ? { column: outcome.column } : {}),
        attr: `${at}${path}`,
        code: outcome.code,
        detail: outcome.detail
      })
      failed.set(row.index, errors)
    }
  }
  if (!ok) return undefined
  for (const collection of collections ?? []) {
    const list = getOrCreateList(value, collection.path)
    for (const itemRows of groupRows(rows.filter((r) => matches(collection, r.record)), collection.groupBy)) {
      const item = buildNode(itemRows, collection.fields, collection.collections, `${at}${collection.path}.${list.length}.`, failed)
      if (item !== undefined) list.push(item)
    }
  }
  return value
}

const mapGroup = (mapping: Mapping, rows: ReadonlyArray<Row>): Array<MappingEvent> => {
  const failed = new Map<number, Array<MappingError>>()
  const built = buildNode(rows, mapping.fields, mapping.collections, "", failed)
  const events: Array<MappingEvent> = []
  const rejectedIndexes = new Set(failed.keys())
  for (const [index, errors] of failed) events.push({ kind: "rejected", sourceRows: [index], errors })
  const used = rows.map((r) => r.index).filter((i) => !rejectedIndexes.has(i))
  if (built === undefined || used.length === 0) return events
  const payload = compact(endpoints[mapping.endpoint].request, built)
  // The compiled validator gives validatePayload's answer, faster for the (usual) valid payload.
  const result = compileValidator(mapping.endpoint)(payload)
  events.push(
    result.ok
      ? { kind: "payload", payload, sourceRows: used }
      : { kind: "rejected", sourceRows: used, errors: result.error.errors.map((e) => ({ attr: e.attr, code: e.code, detail: e.detail })) }
  )
  return events
}

const batches = (mapping: Mapping, rows: ReadonlyArray<Row>): Array<ReadonlyArray<Row>> => {
  const size = mapping.batchSize ?? Number.POSITIVE_INFINITY
  if (rows.length <= size) return [rows]
  const out: Array<ReadonlyArray<Row>> = []
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size))
  return out
}

const asRecord = (value: unknown): LegacyRecord | undefined => (isRecord(value) ? (value as LegacyRecord) : undefined)

const notARecord = (index: number): MappingEvent => ({
  kind: "rejected",
  sourceRows: [index],
  errors: [{ code: "invalid", detail: "A record must be an object of column → value." }]
})

function mapList(mapping: Mapping, records: Iterable<unknown>): MappingResult {
  const rows: Array<Row> = []
  const events: Array<MappingEvent> = []
  let index = 0
  for (const value of records) {
    const record = asRecord(value)
    if (record === undefined) events.push(notARecord(index))
    else rows.push({ index, record })
    index++
  }
  for (const group of groupRows(rows, mapping.groupBy)) {
    for (const batch of batches(mapping, group)) events.push(...mapGroup(mapping, batch))
  }
  return {
    payloads: events.flatMap((e) => (e.kind === "payload" ? [{ payload: e.payload, sourceRows: e.sourceRows }] : [])),
    rejected: events.flatMap((e) => (e.kind === "rejected" ? [{ sourceRows: e.sourceRows, errors: e.errors }] : []))
  }
}

async function* mapStream(mapping: Mapping, records: AsyncIterable<unknown>): AsyncGenerator<MappingEvent> {
  const closed = new Set<string>()
  let current: Array<Row> = []
  let currentKey: string | undefined
  const flush = function*(): Generator<MappingEvent> {
    if (currentKey !== undefined) closed.add(currentKey)
    for (const batch of batches(mapping, current)) yield* mapGroup(mapping, batch)
    current = []
  }
  let index = 0
  for await (const value of records) {
    const record = asRecord(value)
    if (record === undefined) {
      yield notARecord(index++)
      continue
    }
    const key = mapping.groupBy === undefined ? String(index) : keyOf(record, mapping.groupBy)
    if (key !== currentKey) {
      yield* flush()
      if (closed.has(key)) {
        yield {
          kind: "rejected",
          sourceRows: [index++],
          errors: [{
            code: "group_not_contiguous",
            detail: `The rows of group ${key} are not contiguous: this row comes after another group; sort the input by ${(mapping.groupBy ?? []).join(", ")}.`
          }]
        }
        currentKey = undefined
        continue
      }
      currentKey = key
    }
    current.push({ index: index++, record })
    // A full batch can go out at once: bounded memory even for one huge group.
    if (mapping.batchSize !== undefined && current.length >= mapping.batchSize) {
      yield* mapGroup(mapping, current)
      current = []
    }
  }
  yield* flush()
}

/**
 * Maps flat records to payloads of the mapping's endpoint. Every payload is compacted and passes
 * `validatePayload`; a row whose cells cannot be converted, or whose payload fails validation, is
 * rejected with its reasons; every row ends up in exactly one of the two.
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
