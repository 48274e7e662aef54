/**
 * EDIFACT record items as short lines of JSON, for a run's spool (`ItemSpool`). A run with versions holds
 * every item of its inputs until the last is read; as JSON objects, each record's cell names (a dozen of
 * them, the same in every record of a message) were most of what was held, and of what was written and
 * read back. So a record is written as an array of its values, after the number of its shape: the names
 * of its place's fields and of its cells, in their order, kept once by the codec. Any other item, and a
 * record with a value that is not a text or a plain number, is written as its JSON object. A text a record
 * shares with the record written just before it (of the same shape) is written as `null`: the location,
 * the OBIS code, the message's references repeat in every record of a message. A text the record before
 * held in the next cell is written as `false`: an interval of a series starts (`DTM+163`) where the one
 * before it ended (`DTM+164`). A cell that is its place's field of the same name as text (`@segment`,
 * `@offset`) is written as `true`. A record's values are texts and numbers, so these three stand for
 * nothing else.
 *
 * @module
 */
import type { EdifactRecordItem } from "./records.js"

interface Shape {
  readonly at: ReadonlyArray<string>
  readonly record: ReadonlyArray<string>
  /** For each cell, the line index of the place's field it may repeat as text (`@segment`: `segment`), or -1. */
  readonly placeOf: ReadonlyArray<number>
  /** Makes the item of a line's values: an object literal of the shape's names, compiled once. */
  readonly make: (values: ReadonlyArray<unknown>) => EdifactRecordItem
}

/**
 * The maker of a shape's items. Compiled, as a record of a dozen cells built name by name cost more
 * than the JSON object it replaces; the names go in as JSON literals, so no name can be code.
 */
const makerOf = (at: ReadonlyArray<string>, record: ReadonlyArray<string>): Shape["make"] => {
  let i = 2
  const fields = (names: ReadonlyArray<string>): string => names.map((name) => `${JSON.stringify(name)}: v[${i++}]`).join(", ")
  const atFields = fields(at)
  const recordFields = fields(record)
  return new Function("v", `return { kind: "record", record: { ${recordFields} }, at: { ${atFields} }, raw: v[1] }`) as Shape["make"]
}

// `for…in` gives an object's own enumerable keys first, in the order of `Object.keys`, then inherited
// ones: where the last key it gave is the object's own, so is every key before it. So the two checks
// below make no list of keys, and look one key up.

/** Whether `item`'s own enumerable keys are `kind`, `record`, `at` and `raw` (in any order), and no other is enumerable. */
const hasItemKeys = (item: object): boolean => {
  let count = 0
  let last = ""
  for (const key in item) {
    if (key !== "kind" && key !== "record" && key !== "at" && key !== "raw") return false
    count++
    last = key
  }
  return count === 4 && Object.hasOwn(item, last)
}

/** Whether `object`'s own enumerable keys are `keys`, in their order, and no other is enumerable. */
const hasKeys = (object: object, keys: ReadonlyArray<string>): boolean => {
  let i = 0
  for (const key in object) if (key !== keys[i++]) return false
  return i === keys.length && (i === 0 || Object.hasOwn(object, keys[i - 1]!))
}

const sameKeys = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Whether `text` is `String(value)`: without making that text where `value` is a whole number from 0 to
 * 2^31 - 1 (a segment, an offset), as it is for two cells of every record.
 */
const isTextOf = (text: string, value: string | number): boolean => {
  if (typeof value !== "number" || !(value >= 0 && value <= 0x7fffffff) || !Number.isInteger(value)) return text === String(value)
  let rest = value
  for (let i = text.length - 1; i >= 0; i--) {
    const digit = text.charCodeAt(i) - 48
    if (digit !== rest % 10) return false
    rest = (rest - digit) / 10
    if (rest === 0) return i === 0
  }
  return false
}

/** A value an array of JSON gives back as it was: a text, or a finite number other than -0. */
const plain = (value: unknown): value is string | number =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0))

/**
 * Writes and reads EDIFACT record items as lines; one codec writes and reads one spool (it holds the shapes).
 *
 * @example
 * const lines = new EdifactItemLines()
 * const item = { kind: "record", record: { "LOC+172.2.1": "51238696781", "QTY.1.2": "1,5" }, at: { offset: 40, segment: 9, message: 1 }, raw: "QTY+220:1,5'" } as const
 * const line = lines.encode(item)
 * line // => '[0,"QTY+220:1,5\'",40,9,1,"51238696781","1,5"]'
 * lines.decode(line) // => { kind: "record", record: { "LOC+172.2.1": "51238696781", "QTY.1.2": "1,5" }, at: { offset: 40, segment: 9, message: 1 }, raw: "QTY+220:1,5'" }
 */
export class EdifactItemLines {
  private readonly shapes: Array<Shape> = []
  private readonly numbers = new Map<string, number>()
  /** The shape of the record before: a message's records share one, and are compared with it first. */
  private last = -1

  /** A line of JSON for `item`. */
  encode(item: EdifactRecordItem): string {
    if (item.kind !== "record") return JSON.stringify(item)
    // A record with anything beside its four fields keeps it, as its JSON object.
    if (!hasItemKeys(item)) return JSON.stringify(item)
    const { at, record, raw } = item
    if (typeof raw !== "string") return JSON.stringify(item)
    // Most records have the names of the record before: compared in place, no list of them is made.
    const last = this.shapes[this.last]
    const again = last !== undefined && hasKeys(at, last.at) && hasKeys(record, last.record)
    const atKeys = again ? last.at : Object.keys(at)
    const recordKeys = again ? last.record : Object.keys(record)
    const shape = again ? this.last : this.shapeOf(atKeys, recordKeys)
    if (shape === undefined) return JSON.stringify(item)
    // The values go into an array of the line's length kept from the record before last (the record
    // before's is compared with), and the line into one kept too: most records fill arrays of one length.
    const size = 2 + atKeys.length + recordKeys.length
    let values = this.spare
    if (values === undefined || values.length !== size) values = new Array<string | number>(size).fill(0)
    values[0] = shape
    values[1] = raw
    let k = 2
    const atValues = at as unknown as Readonly<Record<string, unknown>>
    for (const key of atKeys) {
      const value = atValues[key]
      if (!plain(value)) return JSON.stringify(item)
      values[k++] = value
    }
    for (const key of recordKeys) {
      const value = record[key]
      if (!plain(value)) return JSON.stringify(item)
      values[k++] = value
    }
    const before = this.written
    this.written = values
    this.spare = before
    const same = before !== undefined && before[0] === shape
    const { placeOf } = this.shapes[shape]!
    const first = 2 + atKeys.length
    let line = this.line
    if (line.length !== size) line = this.line = new Array<string | number | boolean | null>(size).fill(0)
    line[0] = shape
    for (let i = 1; i < size; i++) {
      const value = values[i]!
      if (typeof value !== "string") line[i] = value
      // `null` is shorter than any text of three characters or more, `false` than any of four or more.
      else if (same && value.length > 2 && value === before[i]) line[i] = null
      else if (i >= first && placeOf[i - first]! >= 0 && isTextOf(value, values[placeOf[i - first]!]!)) line[i] = true
      else if (same && i >= first && value.length > 3 && value === before[i + 1]) line[i] = false
      else line[i] = value
    }
    return JSON.stringify(line)
  }

  /** The item of a line {@link encode} wrote; lines are read back in the order they were written. */
  decode(line: string): EdifactRecordItem {
    const parsed = JSON.parse(line) as unknown
    if (!Array.isArray(parsed)) return parsed as EdifactRecordItem
    // A value left out is that of the line before, which had the same shape (and none left out of the first
    // line), at the same index or the next; or the place's field it repeats as text.
    const before = this.read
    const shape = this.shapes[parsed[0] as number]!
    const first = 2 + shape.at.length
    for (let i = 1; i < parsed.length; i++) {
      const value: unknown = parsed[i]
      if (value === null) parsed[i] = before![i]
      else if (value === false) parsed[i] = before![i + 1]
      else if (value === true) parsed[i] = String(parsed[shape.placeOf[i - first]!])
    }
    this.read = parsed
    return shape.make(parsed)
  }

  /** The values of the last record written as an array, and of the last read back. */
  private written: Array<string | number> | undefined
  /** The array of the record written before the last, to be filled again; and the array of a line. */
  private spare: Array<string | number> | undefined
  private line: Array<string | number | boolean | null> = []
  private read: Array<unknown> | undefined

  /** The number of a shape, numbered as it first comes; `undefined` for names an object literal would not give back. */
  private shapeOf(at: ReadonlyArray<string>, record: ReadonlyArray<string>): number | undefined {
    const last = this.shapes[this.last]
    if (last !== undefined && sameKeys(last.at, at) && sameKeys(last.record, record)) return this.last
    // "__proto__" in an object literal sets its prototype rather than a cell.
    if (at.includes("__proto__") || record.includes("__proto__")) return undefined
    const name = JSON.stringify([at, record])
    let number = this.numbers.get(name)
    if (number === undefined) {
      number = this.shapes.length
      // A cell "@segment" may repeat the place's "segment" (index 2 + its place among the fields).
      const placeOf = record.map((name) => (name.startsWith("@") ? at.indexOf(name.slice(1)) : -1)).map((k) => (k < 0 ? -1 : 2 + k))
      this.shapes.push({ at, record, placeOf, make: makerOf(at, record) })
      this.numbers.set(name, number)
    }
    this.last = number
    return number
  }
}
