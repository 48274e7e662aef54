/**
 * One payload from a batch of rows: each field read from the rows that state it, items grouped and built
 * all or nothing, and every row either used or rejected with its reasons.
 *
 * @module
 */
import { isRecord } from "../validation/path.js"
import { type CompiledNode, groupKey, type ReadRow } from "./compile-mapping.js"
import { defineData } from "./define-data.js"
import { isListColumn, listItems } from "./list-column.js"
import { setAtSteps, stepsOf } from "./path-steps.js"
import type { MappingError, RejectedRows } from "./mapping-result.js"
import { type DocumentRule, documentIncomplete, rowNumber } from "./whole-documents.js"

/** How a row is named in a detail that speaks of another row. */
type RowName = (index: number) => string

/** The rows an item of a payload-level list was built from, by the item's attr (`notes.1`). */
export interface ItemRows {
  readonly attr: string
  readonly rows: ReadonlyArray<number>
}

/** Sets `value` at a dot path of `target`, creating the objects (or lists, before a numeric step) on the way. */
const setAt = (target: Record<string, unknown>, path: string, value: unknown): void => setAtSteps(target, stepsOf(path), value)

/**
 * The list at a dot path of `target`, created where missing. The objects on the way are made as
 * `setAtSteps` makes them (a list before a numeric step), so a list below one (`price_sheets.0.article_prices`)
 * goes into the list the fields made, not into an object that replaces it.
 */
const getOrCreateList = (target: Record<string, unknown>, path: string): Array<unknown> => {
  const steps = stepsOf(path)
  let node: Record<string, unknown> = target
  for (const { key, nextIsIndex } of steps.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined
    if (nextIsIndex ? !Array.isArray(next) : !isRecord(next)) defineData(node, key, nextIsIndex ? [] : {})
    node = node[key] as Record<string, unknown>
  }
  const last = steps[steps.length - 1]!.key
  if (!Array.isArray(node[last])) defineData(node, last, [])
  return node[last] as Array<unknown>
}

/** Rows grouped by their key in these columns, in order of first appearance; every row alone without columns. */
export const groupRows = <R extends { readonly row: ReadRow }>(rows: ReadonlyArray<R>, columns: ReadonlyArray<string> | undefined): Array<Array<R>> => {
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
export interface Entry {
  readonly row: ReadRow
  readonly read: ReadRow["read"]
}

type Built =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly errors: ReadonlyArray<MappingError> }

const show = (value: unknown): string => JSON.stringify(value) ?? String(value)

/**
 * The fields of one node (payload or item) from its rows: each field's value is the first stated one,
 * and a row stating another value is a conflict (`inconsistent_group` / `inconsistent_item`).
 */
const buildFields = (node: CompiledNode, entries: ReadonlyArray<Entry>, at: string, conflict: string, errors: Array<MappingError>, rowName: RowName): Record<string, unknown> => {
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
          detail: `${show(outcome.value)} in ${rowName(row.index)} differs from ${show(chosen.value)} in ${rowName(chosen.index)} of the same ${conflict === "inconsistent_group" ? "payload" : "item"}`
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
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a shortcut: without collections no column is the collections' alone
  node.collections.length > 0 &&
  entry.read.children.every((c) => c === undefined) &&
  node.collectionOnlyColumns.some((column) => {
    if (isListColumn(column)) return listItems(entry.row.record, column).length > 0
    const cell = Object.hasOwn(entry.row.record, column) ? entry.row.record[column] : undefined
    return cell !== undefined && cell !== null && String(cell).trim() !== ""
  })

const unmatchedError = (node: CompiledNode): MappingError => {
  // Every collection has a filter here: one without takes every row, so no row would be unmatched.
  const filters = node.collections.map((c) => `${c.when!.column} = ${show(c.when!.equals)}`)
  return {
    code: "unmatched_row",
    detail: `This row carries data for a list but matches none of them (${filters.join(", ")}): its data would be lost.`
  }
}

/** Builds one item: all or nothing (a failing nested item or an unmatched row fails the whole item). */
const buildItem = (node: CompiledNode, entries: ReadonlyArray<Entry>, at: string, rowName: RowName): Built => {
  const errors: Array<MappingError> = []
  const value = buildFields(node, entries, at, "inconsistent_item", errors, rowName)
  for (const entry of entries) if (isUnmatched(node, entry)) errors.push({ ...unmatchedError(node), attr: at.replace(/\.$/u, "") })
  node.collections.forEach((collection, ci) => {
    const list = getOrCreateList(value, collection.path)
    const matched = entries.flatMap((e) => (e.read.children[ci] !== undefined ? [{ row: e.row, read: e.read.children[ci]! }] : []))
    for (const item of groupRows(matched, collection.groupBy)) {
      const built = buildItem(collection, item, `${at}${collection.path}.${list.length}.`, rowName)
      if (built.ok) list.push(built.value)
      else errors.push(...built.errors)
    }
  })
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value }
}

/**
 * Whether a batch's document lost a part: an item of a list of parts failed (for any reason, its rows
 * rejected in another item too), or a row was rejected for matching no list where a list holds parts
 * (it may be a part whose filter value is misspelt).
 */
const breaksDocument = (document: DocumentRule, unmatched: boolean, items: ReadonlyArray<{ readonly ci: number; readonly built: Built }>): boolean =>
  items.some((item) => !item.built.ok && document.parts[item.ci] === true) || (unmatched && document.parts.some((part) => part))

// Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: equivalent, entries come in input order (the sort keeps the promise of ascending rows should that change)
const indexesOf = (entries: ReadonlyArray<Entry>): Array<number> => [...new Set(entries.map((e) => e.row.index))].sort((a, b) => a - b)

/**
 * Builds one payload from a batch of rows: payload fields all or nothing, each top-level item that is a
 * record of its own on its own. Under a `document` rule, a failing part of the document (an item of a
 * list of parts, or a row that matches no list where some list holds parts) rejects the whole batch: its
 * failing rows with their own reasons, every other row with `document_incomplete` naming them. The rows
 * of each top-level item of the payload go to `itemRows` when given.
 */
export const buildPayload = (
  root: CompiledNode,
  entries: ReadonlyArray<Entry>,
  document?: DocumentRule,
  itemRows?: Array<ItemRows>
): { readonly value?: Record<string, unknown>; readonly used: Array<number>; readonly rejected: Array<RejectedRows> } => {
  const rowName = document?.rowName ?? rowNumber
  const fieldErrors: Array<MappingError> = []
  const value = buildFields(root, entries, "", "inconsistent_group", fieldErrors, rowName)
  if (fieldErrors.length > 0) return { used: [], rejected: [{ sourceRows: indexesOf(entries), errors: fieldErrors }] }
  const rejected: Array<RejectedRows> = []
  const rejectedRows = new Set<number>()
  for (const entry of entries) {
    if (!isUnmatched(root, entry)) continue
    rejected.push({ sourceRows: [entry.row.index], errors: [unmatchedError(root)] })
    rejectedRows.add(entry.row.index)
  }
  const unmatched = rejected.length > 0
  // Items first, then the fixpoint: an item sharing a row with a failed item fails too, so that no row is
  // both rejected and (partly) in the payload.
  const items: Array<{ readonly ci: number; readonly entries: ReadonlyArray<Entry>; built: Built }> = []
  root.collections.forEach((collection, ci) => {
    const matched = entries.flatMap((e) => (e.read.children[ci] !== undefined && !rejectedRows.has(e.row.index) ? [{ row: e.row, read: e.read.children[ci]! }] : []))
    groupRows(matched, collection.groupBy).forEach((item, n) => {
      items.push({ ci, entries: item, built: buildItem(collection, item, `${collection.path}.${n}.`, rowName) })
    })
  })
  for (let changed = true; changed;) {
    changed = false
    for (const item of items) {
      if (item.built.ok && item.entries.some((e) => rejectedRows.has(e.row.index))) {
        const lost = indexesOf(item.entries.filter((e) => rejectedRows.has(e.row.index))).map(rowName).join(", ")
        item.built = { ok: false, errors: [{ code: "rejected_with_row", detail: `A row of this item (${lost}) was rejected in another item.` }] }
      }
      if (item.built.ok) continue
      const fresh = item.entries.filter((e) => !rejectedRows.has(e.row.index))
      if (fresh.length > 0) {
        rejected.push({ sourceRows: indexesOf(fresh), errors: item.built.errors })
        for (const e of fresh) rejectedRows.add(e.row.index)
        changed = true
      }
    }
  }
  const used = indexesOf(entries).filter((i) => !rejectedRows.has(i))
  if (document !== undefined && breaksDocument(document, unmatched, items)) {
    // The failing rows keep their own reasons; the rest of the document goes with them, told why.
    if (used.length > 0) rejected.push({ sourceRows: used, errors: [documentIncomplete(document, rejected)] })
    return { used: [], rejected }
  }
  for (const item of items) {
    if (!item.built.ok) continue
    const path = root.collections[item.ci]!.path
    const list = getOrCreateList(value, path)
    itemRows?.push({ attr: `${path}.${list.length}`, rows: indexesOf(item.entries) })
    list.push(item.built.value)
  }
  return { value, used, rejected }
}
