/**
 * A mapping checked against the header of an export before any row is read: every column it reads must
 * be there, exactly once.
 *
 * @module
 */
import { mappingColumns } from "../../mappers/compile-mapping.js"
import { columnMatcher, isListColumn } from "../../mappers/list-column.js"
import type { Mapping, MappingProblem } from "../../mappers/define-mapping.js"
import { nearestName } from "../../mappers/mapping-schema.js"
import { withoutBom } from "../byte-order-mark.js"

const clean = (name: string): string => withoutBom(name).trim()

/** The most header names a problem quotes; the others are counted. A header is read, not printed again. */
export const LISTED_HEADER_NAMES = 10

/** The first {@link LISTED_HEADER_NAMES} names, quoted, then how many more there are. */
const listed = (names: ReadonlyArray<string>): string =>
  names.slice(0, LISTED_HEADER_NAMES).map((n) => JSON.stringify(n)).join(", ") +
  (names.length > LISTED_HEADER_NAMES ? ` … and ${names.length - LISTED_HEADER_NAMES} more` : "")

/**
 * The problems of a mapping against an export's header: a column the mapping reads (in a field,
 * `columns`, an `offsetColumn`, `groupBy` or `when`) that the header does not have — with the nearest
 * name and the header's first {@link LISTED_HEADER_NAMES} names — or that the header names twice. Names are compared after dropping a byte
 * order mark and surrounding spaces.
 *
 * @example
 * const notes = defineMapping({
 *   endpoint: "notes",
 *   groupBy: ["Kundennummer"],
 *   fields: { import_supplier: { value: "SW" }, external_account_number: "Kundennummer" },
 *   collections: [{ path: "notes", fields: { body: "Notiz" } }]
 * })
 * headerProblems(notes, ["Kundennummer", "Notitz"])
 * // => [{ at: "", code: "missing_column", detail: 'column "Notiz" is not in the header (did you mean "Notitz"?); the header has "Kundennummer", "Notitz"' }]
 *
 * @since 0.1.0
 */
export const headerProblems = (mapping: Mapping, header: ReadonlyArray<string>): Array<MappingProblem> => {
  const names = header.map(clean)
  const problems: Array<MappingProblem> = []
  for (const wanted of mappingColumns(mapping)) {
    const column = clean(wanted)
    // A list column (`sts[*].status`) is the header's columns of its elements (`sts[0].status`, …).
    const isColumn = isListColumn(column) ? columnMatcher([column]) : (name: string) => name === column
    const positions = names.flatMap((name, i) => (isColumn(name) ? [i + 1] : []))
    if (positions.length === 0) {
      const nearest = nearestName(column, names)
      problems.push({
        at: "",
        code: "missing_column",
        detail: `column ${JSON.stringify(column)} is not in the header${nearest !== undefined ? ` (did you mean ${JSON.stringify(nearest)}?)` : ""}; the header has ${listed(names)}`
      })
    } else {
      // Each name once: a list column's elements are several names, each of which must be once too.
      for (const name of new Set(positions.map((p) => names[p - 1]!))) {
        const at = positions.filter((p) => names[p - 1] === name)
        if (at.length === 1) continue
        problems.push({
          at: "",
          code: "duplicate_column",
          detail: `column ${JSON.stringify(name)} appears ${at.length} times in the header (columns ${at.join(", ")}): which one is meant cannot be told`
        })
      }
    }
  }
  return problems
}
