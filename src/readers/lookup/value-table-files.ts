/**
 * Value tables kept in files beside a mapping (`"values": { "file": "codes/buchungsart.csv" }`), read
 * into the mapping before it is used. The reading itself is the caller's (a function from the path as
 * written to the text), so the mappers stay free of I/O.
 *
 * A CSV table has a header line and two columns: what the export says, and the field's value (as text);
 * `;`, `,` or a tab separates them (the header tells which), a cell may be quoted (`"a;b"`, `""` for a
 * quote), blank lines are skipped. A JSON table is one object: what the export says → the field's value
 * (any JSON value; `null` leaves the field out); a code written twice is refused in both, and so are keys
 * no cell can meet as written (`valueTableKeysProblem`: space around a cell, one text in two Unicode
 * spellings), naming the file and the keys.
 *
 * @module
 */
import { csvTable } from "../csv/csv-record.js"
import { placeOf, type MappingProblem } from "../../mappers/define-mapping.js"
import { isValueTableFile, type ValueTable, valueTableKeysProblem } from "../../mappers/value-table.js"
import { isRecord } from "../../schemas/is-record.js"
import { withoutBom } from "../byte-order-mark.js"
import { repeatedJsonKeys } from "../json/repeated-json-keys.js"

/** Reads the file a mapping names (its path as written, relative to the mapping). */
export type ReadTableFile = (file: string) => string | Promise<string>

/** A table read, or why not (the message names the file and, where it lies in one, the physical line). */
type Parsed = { readonly ok: true; readonly table: ValueTable } | { readonly ok: false; readonly code: string; readonly detail: string }

const bad = (detail: string): Parsed => ({ ok: false, code: "invalid_value_table", detail })

/**
 * A CSV value table: a header line, then `from<delimiter>to` lines.
 *
 * @example
 * parseCsvTable("codes.csv", "Buchungsart;type\nZAHL;PAYMENT\nFORD;CHARGE\n") // => { ok: true, table: { ZAHL: "PAYMENT", FORD: "CHARGE" } }
 */
export const parseCsvTable = (file: string, text: string): Parsed => {
  const { delimiter, rows } = csvTable(text)
  if (delimiter === undefined) return bad(`${file}:1: the header needs two columns separated by ; , or a tab (such as from;to)`)
  const table: Record<string, string> = {}
  const lineOf = new Map<string, number>()
  for (const row of rows) {
    const n = row.line
    if ("error" in row) return bad(`${file}:${n}: a quote is not closed, or text follows its closing quote`)
    const cells = row.cells
    if (cells.length !== 2) return bad(`${file}:${n}: ${cells.length} cells; a value table has two columns (${n === 1 ? "from" : "value"}${delimiter}${n === 1 ? "to" : "result"})`)
    if (n === 1) continue
    const [from, to] = cells.map((c) => c.trim()) as [string, string]
    if (to === "") return bad(`${file}:${n}: ${JSON.stringify(from)} has an empty value (to leave a field out, use a JSON table with null)`)
    const earlier = lineOf.get(from)
    if (earlier !== undefined) return bad(`${file}:${n}: ${JSON.stringify(from)} is already in the table (line ${earlier})`)
    lineOf.set(from, n)
    table[from] = to
  }
  return { ok: true, table }
}

/** A JSON value table: one object. */
const parseJsonTable = (file: string, text: string): Parsed => {
  let parsed: unknown
  try {
    parsed = JSON.parse(withoutBom(text))
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause)
    const position = /position (\d+)/u.exec(message)
    const line = position === null ? "" : `:${text.slice(0, Number(position[1])).split("\n").length}`
    return bad(`${file}${line}: not valid JSON (${message})`)
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return bad(`${file}:1: a JSON value table is one object (what the export says → the value)`)
  // JSON.parse keeps the last value of a code written twice: the table would translate it to the one
  // value of the two that nobody chose, as a CSV table refuses to.
  const repeated = repeatedJsonKeys(withoutBom(text))[0]
  if (repeated !== undefined) return bad(`${file}: ${JSON.stringify(repeated.key)} is written twice in one object (JSON would keep the last value without a word)`)
  return { ok: true, table: parsed as ValueTable }
}

const readTable = async (file: string, read: ReadTableFile): Promise<Parsed> => {
  const lower = file.toLowerCase()
  if (!lower.endsWith(".csv") && !lower.endsWith(".json")) return bad(`${file}: a value table file is .csv or .json`)
  let text: string
  try {
    text = await read(file)
  } catch (cause) {
    return { ok: false, code: "unreadable_value_table", detail: `cannot read ${file}: ${cause instanceof Error ? cause.message : String(cause)}` }
  }
  return lower.endsWith(".csv") ? parseCsvTable(file, text) : parseJsonTable(file, text)
}


/**
 * A JSON mapping with every `{ "file": … }` value table (alone, or in a list of tables in turn) read (through `read`) into the table itself, and
 * the problems of the files that could not be read or parsed. Anything else of the spec is left as it is
 * (check it with `mappingProblems`). Each file is read once, however many fields name it.
 *
 * @example
 * const files: Record<string, string> = { "codes/art.csv": "from;to\nZAHL;PAYMENT\n" }
 * const { spec } = await resolveValueTables({ endpoint: "transactions", fields: { type: { column: "Art", values: { file: "codes/art.csv" } } } }, (f) => files[f]!)
 * spec // => { endpoint: "transactions", fields: { type: { column: "Art", values: { ZAHL: "PAYMENT" } } } }
 */
export const resolveValueTables = async (spec: unknown, read: ReadTableFile): Promise<{ readonly spec: unknown; readonly problems: ReadonlyArray<MappingProblem> }> => {
  const problems: Array<MappingProblem> = []
  const tables = new Map<string, Promise<Parsed>>()
  const level = async (node: Record<string, unknown>, at: ReadonlyArray<string>): Promise<Record<string, unknown>> => {
    const out: Record<string, unknown> = { ...node }
    if (isRecord(node["fields"])) {
      const fields: Record<string, unknown> = { ...node["fields"] }
      for (const [path, source] of Object.entries(fields)) {
        if (!isRecord(source)) continue
        const values = source["values"]
        // Tables in turn: each element may be a file of its own; only the first looks up the cells of `columns`.
        const chain = Array.isArray(values)
        const given: ReadonlyArray<unknown> = chain ? values : [values]
        if (!given.some(isValueTableFile)) continue
        const resolved: Array<unknown> = []
        let usable = true
        for (const [i, table] of given.entries()) {
          if (!isValueTableFile(table)) {
            resolved.push(table)
            continue
          }
          const file = table.file
          if (!tables.has(file)) tables.set(file, readTable(file, read))
          const parsed = await tables.get(file)!
          // Whether a key can be met depends on the field too: a table of several columns has a cell each side of `|`.
          const keys = parsed.ok ? valueTableKeysProblem(Object.keys(parsed.table), i === 0 && Array.isArray(source["columns"]) && source["lookup"] !== "converted") : undefined
          if (parsed.ok && keys === undefined) resolved.push(parsed.table)
          else {
            usable = false
            const problem = parsed.ok ? { code: "invalid_value_table", detail: `${file}: ${keys}` } : parsed
            problems.push({ at: placeOf([...at, "fields", path, "values", ...(chain ? [String(i)] : [])]), code: problem.code, detail: problem.detail })
          }
        }
        if (usable) fields[path] = { ...source, values: chain ? resolved : resolved[0] }
      }
      out["fields"] = fields
    }
    if (Array.isArray(node["collections"])) {
      const collections: Array<unknown> = []
      for (const [i, c] of node["collections"].entries()) collections.push(isRecord(c) ? await level(c, [...at, "collections", String(i)]) : c)
      out["collections"] = collections
    }
    return out
  }
  return { spec: isRecord(spec) ? await level(spec, []) : spec, problems }
}
