/**
 * BO4E business objects as flat records for the mapping engine. A business object (BO) is a JSON object
 * with a type marker, in either flavour found in the field:
 *
 * - legacy (Hochfrequenz, conuti, BOneyComb): `boTyp` (case varies: `ENERGIEMENGE`, `Energiemenge`), `versionStruktur`;
 * - official (bo4e/BO4E-Schemas): `_typ`, `_version`.
 *
 * A cell is named by its path in the BO: `lokationsId`, `partneradresse.ort`, `statuszusatzinformationen[0].art`.
 * With `records: "energieverbrauch[]"` each element of that list is one record, its cells named
 * `energieverbrauch[].wert`, with the BO's other cells as context; without it, each BO is one record.
 * A record list may lie in another (`preispositionen[].preisstaffeln[]`: one record per Preisstaffel,
 * with the cells of its Preisposition, `preispositionen[].artikelId`, as context), and there may be several
 * (`["rechnungspositionen[]", "steuerbetraege[]"]`: the elements of each, in that order; a mapping tells
 * them apart by `@list`). No record carries the cells of a record list (its own or another's) as context.
 * With `context: ["transaktionsdaten"]` every record also has the cells found at those paths of its
 * document, named from the document's root with `$.`: `$.transaktionsdaten.absender`,
 * `$.stammdaten[0].marktlokationsId` (the BOneyComb data around a BO).
 * Numbers are the text written in the document (`10000.0` stays `10000.0`; an exponent is written out,
 * `1E+3` is `1000`), `null` is no cell.
 * Lineage cells: `@document` (1-based), `@path` (JSON path in the document), `@object` (the path of the
 * record's BO, `$` for the document itself), `@list` (the record list, as `records` names it),
 * `@typ`, `@flavour`, `@version`.
 *
 * With `skip: [{ cell: "energieverbrauch[].messwertstatus", values: ["PROGNOSEWERT"] }]` a record whose cell
 * has one of the values is an exclusion (`skipped`, counted as `messwertstatus PROGNOSEWERT`), left out on
 * purpose: neither a record nor a reject.
 *
 * Every document ends in records, located rejects, exclusions or located warnings: a document that is not JSON or
 * holds no BO where the reader looks is rejected; a BO of another type is a warning (a BOneyComb mixes
 * types); a BO without elements in any of its record lists, an element of an outer list without elements
 * in its inner one (`a[].b[]`), and an element that is not an object are rejected, as is a document nested
 * more than {@link MAX_DEPTH} levels deep (`too_deep`) and a BO, element or
 * document context where two different values get one cell name (`{"a.b":1,"a":{"b":2}}`: `repeated_cell`).
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import { columnMatcher } from "../../mappers/list-column.js"
import { bo4eDocuments, MAX_DEPTH } from "./documents.js"
import { type ExactJson, isJsonObject, JsonNumberText, plainNumberText } from "./exact-json.js"

/** How documents become records. */
export interface Bo4eRecordOptions {
  /** Accepted BO types (`boTyp` or `_typ`, compared without case): `["ENERGIEMENGE"]`; every type when absent. */
  readonly types?: ReadonlyArray<string>
  /** Where BOs are in a document: `""` the document itself, `input`, `stammdaten[]` (every element). Default `[""]`. */
  readonly objects?: ReadonlyArray<string>
  /**
   * The list of a BO whose elements are the records: `energieverbrauch[]`, or a list inside the elements of
   * another (`preispositionen[].preisstaffeln[]`), or several such lists; each BO is a record when absent.
   */
  readonly records?: string | ReadonlyArray<string>
  /** Paths of the document (as `objects`) whose cells every record of the document gets, named `$.` and their path. */
  readonly context?: ReadonlyArray<string>
  /**
   * The cells to give (e.g. `mappingColumns(mapping)`; a list column `a[*].b` gives `a[0].b`, `a[1].b`, …);
   * every cell when absent. Lineage cells are always given.
   */
  readonly columns?: ReadonlyArray<string>
  /**
   * Records left out on purpose: one whose cell (any cell of the record, context included) has one of the
   * values is a `skipped` exclusion, counted by the cell's last name and the value (`messwertstatus
   * PROGNOSEWERT`), never a record nor a reject.
   */
  readonly skip?: ReadonlyArray<Bo4eSkip>
}

/** Which records to leave out: `energieverbrauch[].messwertstatus` is one of `["PROGNOSEWERT", "FEHLT"]`. */
export interface Bo4eSkip {
  readonly cell: string
  readonly values: ReadonlyArray<string>
}

/** Where an item is: the document (1-based), its line (NDJSON; line 1 of a single document) and the JSON path in it. */
export interface Bo4eLocation {
  readonly document: number
  readonly line: number | undefined
  readonly path: string
}

/**
 * A record left out on purpose (`skipped`: a value of {@link Bo4eRecordOptions.skip}), with what groups
 * it in counts (`messwertstatus PROGNOSEWERT`) and why.
 */
export interface Bo4eExclusion {
  readonly kind: "exclusion"
  readonly code: "skipped"
  readonly reason: string
  readonly detail: string
  readonly at: Bo4eLocation
  readonly raw: string
}

export type Bo4eRecordItem =
  | { readonly kind: "record"; readonly record: LegacyRecord; readonly at: Bo4eLocation; readonly raw: string }
  | { readonly kind: "reject" | "warning"; readonly code: string; readonly detail: string; readonly at: Bo4eLocation; readonly raw: string }
  | Bo4eExclusion

/** Compact JSON text of a value, numbers as written. */
export const jsonText = (value: ExactJson): string => {
  if (value instanceof JsonNumberText) return value.text
  if (Array.isArray(value)) return `[${(value as ReadonlyArray<ExactJson>).map(jsonText).join(",")}]`
  if (isJsonObject(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(",")}}`
  return JSON.stringify(value)
}

const join = (prefix: string, key: string): string => (prefix === "" ? key : `${prefix}.${key}`)

/**
 * Adds the cells of `value` under `prefix` to `out`, leaving out the paths in `skip`; returns the first
 * name that already had another value (`undefined` when none). Keys are not escaped, so a key with a dot or
 * brackets (`"a.b"`, `"x[0]"`) can name the same cell as the path to another value: which one is meant is
 * not known, and keeping the last would lose the other without a word.
 */
const flatten = (value: ExactJson, prefix: string, out: Record<string, string | boolean>, skip: ReadonlySet<string>): string | undefined => {
  if (skip.has(prefix) || value === null) return undefined
  if (value instanceof JsonNumberText || typeof value === "string" || typeof value === "boolean") {
    const cell = value instanceof JsonNumberText ? plainNumberText(value.text) : value
    // The same value twice (overlapping context paths) is one cell.
    if (Object.hasOwn(out, prefix)) return out[prefix] === cell ? undefined : prefix
    // Defined, not assigned: a key `__proto__` is a cell like any other, not the object's prototype.
    Object.defineProperty(out, prefix, { value: cell, enumerable: true, writable: true, configurable: true })
    return undefined
  }
  if (Array.isArray(value)) {
    const list = value as ReadonlyArray<ExactJson>
    for (let i = 0; i < list.length; i++) {
      const repeated = flatten(list[i]!, `${prefix}[${i}]`, out, skip)
      if (repeated !== undefined) return repeated
    }
  } else {
    for (const [k, v] of Object.entries(value)) {
      const repeated = flatten(v, join(prefix, k), out, skip)
      if (repeated !== undefined) return repeated
    }
  }
  return undefined
}

/** The detail of a `repeated_cell` reject. */
const repeatedCell = (name: string, where: string): string =>
  `two values are named ${JSON.stringify(name)} in ${where} (a key with a dot or brackets in its name): which one is meant is not known`

const NOTHING: ReadonlySet<string> = new Set()


/** Whether `value` nests objects and lists more than `limit` levels deep (walked without recursion). */
const deeperThan = (value: ExactJson, limit: number): boolean => {
  const pending: Array<readonly [ExactJson, number]> = [[value, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [at, depth] = next
    if (at === null || typeof at !== "object" || at instanceof JsonNumberText) continue
    if (depth >= limit) return true
    for (const child of Array.isArray(at) ? (at as ReadonlyArray<ExactJson>) : Object.values(at)) pending.push([child, depth + 1])
  }
  return false
}

/** The lists of a records path, outermost first: `a.b[].c[]` is `["a.b", "c"]`. */
const listsOf = (records: string): Array<string> => records.slice(0, -2).split("[].")

/** The cell names of a records path's lists, as flattening an element names them: `a.b[].c[]` gives `a.b` and `a.b[].c`. */
const listCells = (records: string): Array<string> =>
  listsOf(records).map((_, i, lists) => lists.slice(0, i + 1).join("[]."))

/** The values at `path` in `root` (`a.b[]` gives every element of `a.b`), each with its JSON path. */
const resolve = (root: ExactJson, path: string): Array<{ readonly path: string; readonly value: ExactJson }> => {
  let found = [{ path: "", value: root }]
  for (const step of path === "" ? [] : path.split(".")) {
    const every = step.endsWith("[]")
    const key = every ? step.slice(0, -2) : step
    found = found.flatMap(({ path: at, value }) => {
      if (!isJsonObject(value) || !Object.hasOwn(value, key)) return []
      const next = value[key]!
      const here = join(at, key)
      if (!every) return [{ path: here, value: next }]
      return Array.isArray(next) ? (next as ReadonlyArray<ExactJson>).map((v, i) => ({ path: `${here}[${i}]`, value: v })) : []
    })
  }
  return found
}

/** The type, flavour and version of a BO, or undefined when `value` is none. */
const boOf = (value: ExactJson): { readonly typ: string; readonly flavour: string; readonly version: string | undefined } | undefined => {
  if (!isJsonObject(value)) return undefined
  const text = (v: ExactJson | undefined): string | undefined =>
    typeof v === "string" ? v : v instanceof JsonNumberText ? v.text : undefined
  if (typeof value["_typ"] === "string") return { typ: value["_typ"], flavour: "official", version: text(value["_version"]) }
  if (typeof value["boTyp"] === "string") return { typ: value["boTyp"], flavour: "legacy", version: text(value["versionStruktur"]) }
  return undefined
}

/** The cells of a record that `wanted` (from the options' `columns`; list columns such as `a[*].b` included) keeps, lineage always. */
const picked = (cells: Record<string, string | boolean>, wanted: ((name: string) => boolean) | undefined): LegacyRecord =>
  wanted === undefined ? cells : Object.fromEntries(Object.entries(cells).filter(([k]) => k.startsWith("@") || wanted(k)))

/** The name a skip is counted by: the cell's last step (`energieverbrauch[].messwertstatus` → `messwertstatus`). */
const skipName = (cell: string): string => cell.split(".").at(-1)!.replace(/\[\d*\]$/u, "")

/** The exclusion of a record whose cells meet a skip, or `undefined`. */
const skipOf = (cells: Cells, skips: ReadonlyArray<Bo4eSkip>): { readonly reason: string; readonly detail: string } | undefined => {
  for (const { cell, values } of skips) {
    const value = Object.hasOwn(cells, cell) ? cells[cell] : undefined
    const text = value === undefined ? undefined : String(value).trim()
    if (text !== undefined && values.includes(text)) {
      return { reason: `${skipName(cell)} ${text}`, detail: `${cell} is ${JSON.stringify(text)}, which the reader file skips` }
    }
  }
  return undefined
}

type Cells = Record<string, string | boolean>

/**
 * The records of one records path in one BO (the elements of its innermost list, each with the cells of
 * the elements around it), and the rejects of elements that are no objects or hold no inner elements.
 * `found` is false when the BO itself has no element in the outermost list.
 */
const elementsOf = (
  bo: ExactJson,
  records: string,
  skip: ReadonlySet<string>,
  context: Cells
): { readonly found: boolean; readonly items: Array<{ readonly ok: true; readonly path: string; readonly cells: Cells; readonly value: ExactJson } | { readonly ok: false; readonly path: string; readonly code: string; readonly detail: string; readonly value: ExactJson }> } => {
  const lists = listsOf(records)
  const items: Array<{ readonly ok: true; readonly path: string; readonly cells: Cells; readonly value: ExactJson } | { readonly ok: false; readonly path: string; readonly code: string; readonly detail: string; readonly value: ExactJson }> = []
  const walk = (value: ExactJson, at: string, depth: number, cells: Cells): boolean => {
    const prefix = lists.slice(0, depth).map((l) => `${l}[]`).join(".")
    const elements = resolve(value, `${lists[depth]}[]`)
    if (elements.length === 0) return false
    for (const element of elements) {
      const path = join(at, element.path)
      if (!isJsonObject(element.value)) {
        items.push({ ok: false, path, code: "not_an_object", detail: `an element of ${join(prefix, lists[depth]!)}[] is not an object`, value: element.value })
        continue
      }
      const here: Cells = { ...cells }
      const repeated = flatten(element.value, join(prefix, `${lists[depth]}[]`), here, skip) ?? Object.keys(here).find((name) => Object.hasOwn(context, name) && context[name] !== here[name])
      if (repeated !== undefined) {
        items.push({ ok: false, path, code: "repeated_cell", detail: repeatedCell(repeated, "this element and the BO around it"), value: element.value })
        continue
      }
      if (depth === lists.length - 1) items.push({ ok: true, path, cells: here, value: element.value })
      else if (!walk(element.value, path, depth + 1, here)) {
        const inner = `${join(prefix, `${lists[depth]}[]`)}.${lists[depth + 1]}[]`
        items.push({ ok: false, path, code: "no_records", detail: `no elements in ${inner} (absent, empty or not a list)`, value: element.value })
      }
    }
    return true
  }
  return { found: walk(bo, "", 0, {}), items }
}

/**
 * The records, rejects and warnings of a BO4E JSON file's text, in document order.
 *
 * @example
 * const text = `{"boTyp":"RECHNUNG","rechnungsnummer":"R1","rechnungspositionen":[{"positionsnummer":1,"einzelpreis":{"wert":0.0003}}],"steuerbetraege":[{"steuerwert":9.5}]}`
 * readBo4eRecords(text, { records: ["rechnungspositionen[]", "steuerbetraege[]"], columns: ["rechnungsnummer", "rechnungspositionen[].einzelpreis.wert", "steuerbetraege[].steuerwert"] })
 *   .map((item) => item.kind === "record" ? item.record : item.code)
 * // => [{ "rechnungsnummer": "R1", "rechnungspositionen[].einzelpreis.wert": "0.0003", "@document": "1", "@typ": "RECHNUNG", "@flavour": "legacy", "@object": "$", "@list": "rechnungspositionen[]", "@path": "rechnungspositionen[0]" }, { "rechnungsnummer": "R1", "steuerbetraege[].steuerwert": "9.5", "@document": "1", "@typ": "RECHNUNG", "@flavour": "legacy", "@object": "$", "@list": "steuerbetraege[]", "@path": "steuerbetraege[0]" }]
 */
export const readBo4eRecords = (text: string, options: Bo4eRecordOptions = {}): Array<Bo4eRecordItem> => {
  // A path named twice would read its BOs (or elements) twice: each is read once.
  const objects = [...new Set(options.objects ?? [""])]
  const types = options.types?.map((t) => t.toUpperCase())
  const lists = [...new Set(options.records === undefined ? [] : typeof options.records === "string" ? [options.records] : options.records)]
  const skip: ReadonlySet<string> = new Set(lists.flatMap(listCells))
  const skips = options.skip ?? []
  const wanted = options.columns === undefined ? undefined : columnMatcher(options.columns)
  const items: Array<Bo4eRecordItem> = []
  for (const doc of bo4eDocuments(text).documents) {
    const where = (path: string): Bo4eLocation => ({ document: doc.document, line: doc.line, path: path === "" ? "$" : path })
    if (doc.kind === "not_json") {
      items.push({ kind: "reject", code: "not_json", detail: `not JSON: ${doc.message}`, at: where(""), raw: doc.raw })
      continue
    }
    if (doc.kind === "too_deep" || deeperThan(doc.value, MAX_DEPTH)) {
      // Its text is not written again from the value: that would recurse as deep.
      items.push({ kind: "reject", code: "too_deep", detail: `objects and lists nest more than ${MAX_DEPTH} levels deep in this document: no BO does`, at: where(""), raw: doc.raw ?? "" })
      continue
    }
    const raw = doc.raw ?? jsonText(doc.value)
    if (doc.repeatedKey !== undefined) {
      const detail = `the key ${JSON.stringify(doc.repeatedKey)} appears twice in one object of this document: which value is meant is not known (parsing keeps the last)`
      items.push({ kind: "reject", code: "repeated_key", detail, at: where(""), raw })
      continue
    }
    const bos = objects.flatMap((path) => resolve(doc.value, path)).filter(({ value }) => boOf(value) !== undefined)
    if (bos.length === 0) {
      const places = objects.map((p) => (p === "" ? "the document itself" : p)).join(", ")
      items.push({ kind: "reject", code: "not_bo4e", detail: `no BO4E object (an object with "boTyp" or "_typ") at ${places}`, at: where(""), raw })
      continue
    }
    const around: Cells = {}
    const aroundRepeated = (options.context ?? []).flatMap((path) => resolve(doc.value, path)).reduce<string | undefined>((repeated, found) => repeated ?? flatten(found.value, `$.${found.path}`, around, NOTHING), undefined)
    if (aroundRepeated !== undefined) {
      items.push({ kind: "reject", code: "repeated_cell", detail: repeatedCell(aroundRepeated, "the context of this document"), at: where(""), raw })
      continue
    }
    for (const { path, value } of bos) {
      const bo = boOf(value)!
      if (types !== undefined && !types.includes(bo.typ.toUpperCase())) {
        items.push({ kind: "warning", code: "other_type", detail: `a ${bo.typ}, not ${options.types!.join(" or ")}: not read`, at: where(path), raw: jsonText(value) })
        continue
      }
      const lineage = {
        "@document": String(doc.document),
        "@typ": bo.typ,
        "@flavour": bo.flavour,
        ...(bo.version !== undefined ? { "@version": bo.version } : {}),
        "@object": where(path).path
      }
      const context: Cells = { ...around }
      const repeated = flatten(value, "", context, skip)
      if (repeated !== undefined) {
        items.push({ kind: "reject", code: "repeated_cell", detail: repeatedCell(repeated, "this BO"), at: where(path), raw: jsonText(value) })
        continue
      }
      if (lists.length === 0) {
        const skipped = skipOf(context, skips)
        if (skipped !== undefined) items.push({ kind: "exclusion", code: "skipped", ...skipped, at: where(path), raw: jsonText(value) })
        else items.push({ kind: "record", record: picked({ ...context, ...lineage, "@path": where(path).path }, wanted), at: where(path), raw: jsonText(value) })
        continue
      }
      const read = lists.map((list) => ({ list, ...elementsOf(value, list, skip, context) }))
      if (read.every((r) => !r.found)) {
        const names = lists.map((l) => `${listsOf(l)[0]!}[]`).join(" or ")
        items.push({ kind: "reject", code: "no_records", detail: `no elements in ${names} (absent, empty or not a list)`, at: where(path), raw: jsonText(value) })
        continue
      }
      for (const { list, items: elements } of read) {
        for (const element of elements) {
          const at = where(join(path, element.path))
          if (!element.ok) {
            items.push({ kind: "reject", code: element.code, detail: element.detail, at, raw: jsonText(element.value) })
            continue
          }
          const skipped = skipOf({ ...context, ...element.cells }, skips)
          if (skipped !== undefined) items.push({ kind: "exclusion", code: "skipped", ...skipped, at, raw: jsonText(element.value) })
          else items.push({ kind: "record", record: picked({ ...context, ...element.cells, ...lineage, "@list": list, "@path": at.path }, wanted), at, raw: jsonText(element.value) })
        }
      }
    }
  }
  return items
}
