/**
 * Value tables: a field source that translates what the export says (`ZAHL`) into what the payload needs
 * (`PAYMENT`), for one column or for a combination of columns (`ZAHL|LS`). A value the table does not
 * know rejects the row (`unknown_value`), naming it and the known ones, unless the source has a default.
 *
 * @module
 */
import type { Cell } from "./converters.js"
import { isRecord } from "../schemas/is-record.js"

/** A value table: what the export says → what goes into the payload (`null`: the field is left out). */
export type ValueTable = Readonly<Record<string, unknown>>

/** A value table kept in a file beside the mapping (`.csv` or `.json`), read before the mapping is used. */
export interface ValueTableFile {
  readonly file: string
}

/** The separator of the cells of several columns in a key of a value table: `ZAHL|LS`. */
export const KEY_SEPARATOR = "|"

/**
 * Whether `values` refers to a file (an object whose only key is `file`, a string) rather than being a
 * table itself.
 *
 * @example
 * isValueTableFile({ file: "codes/buchungsart.csv" }) // => true
 * isValueTableFile({ ZAHL: "PAYMENT" }) // => false
 */
export const isValueTableFile = (values: unknown): values is ValueTableFile =>
  isRecord(values) && Object.keys(values).length === 1 && typeof values["file"] === "string"

/** A cell as a key of a value table: trimmed text; an empty cell is `""`. */
export const keyOfCell = (cell: Cell): string => (cell === undefined || cell === null ? "" : String(cell).trim())

/** A key as messages show it: JSON text, with combining marks escaped, so that two spellings look apart. */
const shownKey = (key: string): string =>
  JSON.stringify(key).replace(/\p{M}/gu, (mark) => `\\u${mark.codePointAt(0)!.toString(16).padStart(4, "0")}`)

/**
 * Why some keys of a table can never be met as written, or `undefined`: a key with space around its cell
 * (around one of its cells, for a table of several `columns`), since cells and converted text are trimmed
 * before the look-up; or two keys that are one text in two Unicode spellings (composed and decomposed,
 * `ü` and `u` with U+0308), since a cell meets only the one spelled as it is. Either would translate some
 * rows otherwise than the table seems to say, without a word.
 *
 * @example
 * valueTableKeysProblem(["ZAHL", "ZAHL "], false) // => 'the key "ZAHL " is "ZAHL" with space around it: cells are trimmed before the look-up, so it is never found; the table has "ZAHL" too'
 * valueTableKeysProblem(["Geb\u00fchr", "Gebu\u0308hr"], false) // => 'the keys "Gebühr" and "Gebu\\u0308hr" are one text in two Unicode spellings (composed and decomposed): a cell meets only one of them; keep one spelling'
 * valueTableKeysProblem(["ZAHL|LS", "ZAHL|UE"], true) // => undefined
 */
export const valueTableKeysProblem = (keys: ReadonlyArray<string>, severalColumns: boolean): string | undefined => {
  const known = new Set(keys)
  for (const key of keys) {
    const trimmed = severalColumns ? key.split(KEY_SEPARATOR).map((cell) => cell.trim()).join(KEY_SEPARATOR) : key.trim()
    if (trimmed === key) continue
    const twin = known.has(trimmed) ? `; the table has ${shownKey(trimmed)} too` : ""
    return `the key ${shownKey(key)} is ${shownKey(trimmed)} with space around it: cells are trimmed before the look-up, so it is never found${twin}`
  }
  const spellings = new Map<string, string>()
  for (const key of keys) {
    const composed = key.normalize("NFC")
    const other = spellings.get(composed)
    if (other !== undefined) {
      return `the keys ${shownKey(other)} and ${shownKey(key)} are one text in two Unicode spellings (composed and decomposed): a cell meets only one of them; keep one spelling`
    }
    spellings.set(composed, key)
  }
  return undefined
}

/** A converted value as a key of a value table: a string as it is, anything else as its JSON text. */
export const keyOfValue = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value) ?? "")

/** The outcome of a look-up: the table's value (`null`: leave the field out), or `unknown_value`. */
export type LookUp = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly code: "unknown_value"; readonly detail: string }

const LISTED = 20

const knownText = (keys: ReadonlyArray<string>): string => {
  const sorted = [...keys].sort()
  const shown = sorted.slice(0, LISTED).map((k) => JSON.stringify(k)).join(", ")
  return sorted.length > LISTED ? `${shown} and ${sorted.length - LISTED} more` : shown === "" ? "none" : shown
}

/**
 * The look-up of a table, built once for a column (`what` names the column in messages). With
 * `hasDefault`, a value the table does not know gives `fallback`; without, it is `unknown_value`.
 *
 * @example
 * const lookUp = valueLookUp({ ZAHL: "PAYMENT", FORD: "CHARGE" }, "Buchungsart")
 * lookUp("ZAHL") // => { ok: true, value: "PAYMENT" }
 * lookUp("GUT") // => { ok: false, code: "unknown_value", detail: 'Buchungsart "GUT" is not in the value table (known: "FORD", "ZAHL")' }
 */
export const valueLookUp = (table: ValueTable, what: string, hasDefault = false, fallback: unknown = null): ((key: string) => LookUp) => {
  // A Map, so that a key such as "__proto__" or "constructor" is a key like any other.
  const entries = new Map(Object.entries(table))
  const known = knownText([...entries.keys()])
  const fallbackOutcome: LookUp = { ok: true, value: fallback }
  return (key) => {
    const value = entries.get(key)
    if (value !== undefined || entries.has(key)) return { ok: true, value }
    if (hasDefault) return fallbackOutcome
    return { ok: false, code: "unknown_value", detail: `${what} ${JSON.stringify(key)} is not in the value table (known: ${known})` }
  }
}
