/**
 * List columns: a column name with `[*]` where a record's cells carry an index, as readers name the
 * elements of a list (`statuszusatzinformationen[0].status`, `statuszusatzinformationen[1].status`): the
 * column `statuszusatzinformationen[*].status` reads the cell of every element, in index order. With
 * `where`, only the elements whose fields (named from the element: `art`) have one of the given values
 * are read, so that one list whose elements say what they are (`{ art, status }`) fills several fields.
 * Any source whose cells are so named has list columns: BO4E records, NDJSON or CSV columns such as
 * `sts[0].art`.
 *
 * @module
 */
/** A flat record, as readers give it: cell name → cell. */
type Cells = Readonly<Record<string, unknown>>

/** What stands for the index in a list column. */
export const EVERY_INDEX = "[*]"

/** Which elements a list column reads: field of the element → the value (or one of the values) it must have. */
export type ItemFilter = Readonly<Record<string, string | ReadonlyArray<string>>>

/** One element's cell read by a list column: the cell's own name (`a[1].status`) and its trimmed text. */
export interface ListItem {
  readonly column: string
  readonly text: string
}

/**
 * Whether `column` is a list column (holds `[*]`).
 *
 * @example
 * [isListColumn("sts[*].status"), isListColumn("sts[0].status")] // => [true, false]
 */
export const isListColumn = (column: string): boolean => column.includes(EVERY_INDEX)

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")

/** The pattern of the cell names a list column stands for (`a[*].b`: `a[0].b`, `a[12].b`), the index captured. */
const patternOf = (column: string): RegExp => {
  const at = column.indexOf(EVERY_INDEX)
  return new RegExp(`^${escaped(column.slice(0, at))}\\[(0|[1-9][0-9]*)\\]${escaped(column.slice(at + EVERY_INDEX.length))}$`, "u")
}

/** The cell name of a list column's element `index`: `a[*].b`, 2 → `a[2].b`. */
const cellAt = (column: string, index: string): string => column.replace(EVERY_INDEX, `[${index}]`)

/**
 * The column of an element's field, named from the element.
 *
 * @example
 * siblingColumn("e[].sts[*].status", "art") // => "e[].sts[*].art"
 */
export const siblingColumn = (column: string, field: string): string => `${column.slice(0, column.indexOf(EVERY_INDEX) + EVERY_INDEX.length)}.${field}`

/**
 * The columns a list column reads: itself and the fields its `where` names, each a list column too.
 *
 * @example
 * listColumns("sts[*].status", { art: "Z33" }) // => ["sts[*].status", "sts[*].art"]
 */
export const listColumns = (column: string, where: ItemFilter | undefined): Array<string> =>
  [column, ...Object.keys(where ?? {}).map((field) => siblingColumn(column, field))]

const textOf = (cell: unknown): string => (cell === undefined || cell === null ? "" : String(cell).trim())

/**
 * The cells a list column reads from `record`, in index order, blanks left out: of every element, or of
 * those whose fields have the values `where` says (compared trimmed, as `when` compares them).
 *
 * @example
 * const record = { "sts[0].art": "Z33", "sts[0].status": "Z84", "sts[1].art": "Z32", "sts[1].status": "Z92", "sts[2].art": "Z33", "sts[2].status": "Z87" }
 * listItems(record, "sts[*].status", { art: "Z33" }).map((item) => item.text) // => ["Z84", "Z87"]
 * listItems(record, "sts[*].status", { art: "Z33" })[1]?.column // => "sts[2].status"
 */
export const listItems = (record: Cells, column: string, where?: ItemFilter): Array<ListItem> => {
  const pattern = patternOf(column)
  const found: Array<{ readonly index: number; readonly item: ListItem }> = []
  for (const [name, cell] of Object.entries(record)) {
    const m = pattern.exec(name)
    if (m === null) continue
    const text = textOf(cell)
    if (text === "") continue
    const chosen = Object.entries(where ?? {}).every(([field, wanted]) => {
      const sibling = cellAt(siblingColumn(column, field), m[1]!)
      const value = textOf(Object.hasOwn(record, sibling) ? record[sibling] : undefined)
      return typeof wanted === "string" ? wanted.trim() === value : wanted.some((w) => w.trim() === value)
    })
    if (chosen) found.push({ index: Number(m[1]), item: { column: name, text } })
  }
  return found.sort((a, b) => a.index - b.index).map(({ item }) => item)
}

/**
 * A test of cell names against columns, list columns standing for every cell they read: what a reader
 * gives of its cells when told the columns a mapping reads.
 *
 * @example
 * const cells = ["lokationsId", "sts[3].status", "sts[3].art", "sts[*].status"]
 * cells.map(columnMatcher(["lokationsId", "sts[*].status"])) // => [true, true, false, true]
 */
export const columnMatcher = (columns: ReadonlyArray<string>): ((name: string) => boolean) => {
  const names = new Set(columns)
  const patterns = columns.filter(isListColumn).map(patternOf)
  if (patterns.length === 0) return (name) => names.has(name)
  return (name) => names.has(name) || patterns.some((p) => p.test(name))
}
