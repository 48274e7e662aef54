/**
 * `map`'s reading of BO4E JSON, for a mapping with `"source": "bo4e"`: the reader's options come from
 * the file the mapping names in `"reader"` (relative to the mapping), the account of each location from
 * the table that file names. The input is read whole (one object, an array of objects, or NDJSON; see
 * src/readers/bo4e/documents.ts); each record becomes a row, each reject a refused "line". The "line" of
 * a BO4E row or reject is its number among the records and rejects, in order (a document may give many
 * records); a reject names the file, the document, its line and the JSON path. A record the reader file's
 * `skip` leaves out is an excluded row, counted by its reason. The account table's `location` may name
 * several cells (the shapes of BO4E put a location in different places): the one not blank is looked up.
 *
 * @module
 */
import type { Mapping } from "../../mappers/define-mapping.js"
import { mappingColumns } from "../../mappers/compile-mapping.js"
import { type Bo4eExclusion, type Bo4eLocation, type Bo4eRecordItem, type Bo4eRecordOptions, readBo4eRecords } from "./records.js"
import { type AccountLookup, accountColumns, accountLookupProblems, type LookupItem, withAccounts } from "../lookup/accounts.js"
import { readAccountPeriods, readReaderFile } from "../edifact/edifact-source.js"
import type { SourceItem } from "../rows/source-rows.js"

interface ReaderFile extends Omit<Bo4eRecordOptions, "columns"> {
  readonly zone?: string
  /** `location` may name several cells: the location is the one of them that is not blank (shapes differ). */
  readonly accounts?: Omit<AccountLookup, "location"> & { readonly table: string; readonly location: string | ReadonlyArray<string> }
}

/** The cell the account lookup reads when `accounts.location` names several. */
const LOCATION = "@location"

/**
 * Records with the cell {@link LOCATION}: the one of `cells` that is not blank. Two that differ reject the
 * record (`conflicting_cells`), as a mapping's `either` does: which location is meant is not known.
 */
function* withLocation(items: Iterable<Bo4eRecordItem>, cells: ReadonlyArray<string>): Generator<Bo4eRecordItem> {
  for (const item of items) {
    if (item.kind !== "record") {
      yield item
      continue
    }
    const found = [...new Set(cells.flatMap((cell) => {
      const value = Object.hasOwn(item.record, cell) ? String(item.record[cell] ?? "").trim() : ""
      return value === "" ? [] : [value]
    }))]
    if (found.length > 1) {
      const detail = `the location is written twice, differently (${cells.filter((c) => Object.hasOwn(item.record, c)).map((c) => `${c} ${JSON.stringify(String(item.record[c]))}`).join(", ")}): which one is meant is not known`
      yield { kind: "reject", code: "conflicting_cells", detail, at: item.at, raw: item.raw }
    } else yield { ...item, record: { ...item.record, [LOCATION]: found[0] ?? "" } }
  }
}

const isStrings = (v: unknown, empty: boolean): boolean => Array.isArray(v) && (empty || v.length > 0) && v.every((s) => typeof s === "string")

/** A records path: lists of dotted keys, each ending in `[]` (`energieverbrauch[]`, `preispositionen[].preisstaffeln[]`). */
const RECORDS_PATH = /^[^.[\]]+(\.[^.[\]]+)*\[\](\.[^.[\]]+(\.[^.[\]]+)*\[\])*$/u

const isRecordsPath = (v: unknown): boolean => typeof v === "string" && RECORDS_PATH.test(v)

/** Whether a reader file's `accounts` names a list of location cells (`location: ["a", "b"]`). */
const isLocationList = (accounts: unknown): boolean =>
  typeof accounts === "object" && accounts !== null && isStrings((accounts as Record<string, unknown>)["location"], false)

/** The problems of a reader file, one a line. */
const readerProblems = (spec: Record<string, unknown>): Array<string> => {
  const known = ["$schema", "source", "types", "objects", "records", "context", "skip", "zone", "accounts"]
  return [
    ...Object.keys(spec).filter((k) => !known.includes(k)).map((k) => `unknown key ${JSON.stringify(k)} (known: ${known.join(", ")})`),
    ...(spec["source"] !== "bo4e" ? ["source: must be \"bo4e\""] : []),
    ...(spec["types"] !== undefined && !isStrings(spec["types"], false) ? ["types: the BO types to read ([\"ENERGIEMENGE\"])"] : []),
    ...(spec["objects"] !== undefined && !isStrings(spec["objects"], false) ? ["objects: where the BOs are in a document ([\"\", \"stammdaten[]\"])"] : []),
    ...(spec["records"] !== undefined && !isRecordsPath(spec["records"]) && !(isStrings(spec["records"], false) && (spec["records"] as Array<unknown>).every(isRecordsPath))
      ? ["records: the list (or lists) whose elements are the records, each ending in [] (\"energieverbrauch[]\", \"preispositionen[].preisstaffeln[]\")"]
      : []),
    ...(spec["context"] !== undefined && !isStrings(spec["context"], false) ? ["context: paths of the document whose cells every record gets ([\"transaktionsdaten\"])"] : []),
    ...(spec["zone"] !== undefined && typeof spec["zone"] !== "string" ? ["zone: a time zone name (Europe/Berlin)"] : []),
    ...(spec["skip"] !== undefined && !(Array.isArray(spec["skip"]) && (spec["skip"] as Array<unknown>).every((s) =>
      typeof s === "object" && s !== null && Object.keys(s).every((k) => k === "cell" || k === "values") &&
      typeof (s as Record<string, unknown>)["cell"] === "string" && isStrings((s as Record<string, unknown>)["values"], false)))
      ? ["skip: records to leave out, counted ([{ \"cell\": \"energieverbrauch[].messwertstatus\", \"values\": [\"PROGNOSEWERT\"] }])"]
      : []),
    // A list of location cells (the one not blank is read) is checked as one cell would be.
    ...accountLookupProblems(isLocationList(spec["accounts"]) ? { ...(spec["accounts"] as Record<string, unknown>), location: "" } : spec["accounts"])
  ]
}

const place = (at: Bo4eLocation): string => `document ${at.document}${at.line !== undefined ? ` (line ${at.line})` : ""}, ${at.path}`

const where = (file: string, at: Bo4eLocation): string => `${file}: ${place(at)}`

/** The rows of a BO4E input as `map` reads them; warnings go to `warn`. */
export const openBo4eRows = async (
  input: string,
  chunks: AsyncIterable<Uint8Array>,
  mapping: Mapping,
  mappingPath: string,
  warn: (line: string) => void
): Promise<AsyncGenerator<SourceItem>> => {
  const { path: readerPath, spec } = await readReaderFile(mapping, mappingPath, readerProblems)
  const { accounts, zone, ...options } = spec as unknown as ReaderFile
  const periods = accounts !== undefined ? await readAccountPeriods(readerPath, accounts.table, zone) : undefined
  const parts: Array<Uint8Array> = []
  for await (const chunk of chunks) parts.push(chunk)
  const bytes = Buffer.concat(parts)
  let text: string
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    text = ""
  }
  const locations = accounts === undefined ? [] : typeof accounts.location === "string" ? [accounts.location] : accounts.location
  // The location cells, then the lookup's other cells (its time, the period's end).
  const columns = [...mappingColumns(mapping), ...locations, ...(accounts !== undefined ? accountColumns({ ...accounts, location: "" }).slice(1) : [])]
  const read: Array<Bo4eRecordItem> = text === "" && bytes.length > 0
    ? [{ kind: "reject" as const, code: "not_utf8", detail: "the file is not UTF-8 text", at: { document: 1, line: undefined, path: "$" }, raw: "" }]
    : readBo4eRecords(text, { ...options, columns })
  const items: AsyncIterable<LookupItem<Bo4eLocation, Bo4eExclusion>> | Iterable<LookupItem<Bo4eLocation, Bo4eExclusion>> = accounts === undefined
    ? read
    : typeof accounts.location === "string"
    ? withAccounts(read, periods!, { ...accounts, location: accounts.location }, zone)
    : withAccounts(withLocation(read, accounts.location), periods!, { ...accounts, location: LOCATION }, zone)
  return (async function*(): AsyncGenerator<SourceItem> {
    let number = 0
    for await (const item of items) {
      if (item.kind === "record") yield { kind: "row", lines: [++number], record: item.record, raw: item.raw }
      else if (item.kind === "exclusion") yield { kind: "excluded", lines: [++number], outcome: item.code, reason: item.reason, detail: `${where(input, item.at)}: ${item.detail}`, raw: item.raw }
      else if (item.kind === "reject") yield { kind: "refused", line: ++number, code: "invalid", detail: `${where(input, item.at)}: ${item.code}: ${item.detail}`, raw: item.raw }
      else {
        warn(`warning: ${where(input, item.at)}: ${item.code}: ${item.detail}`)
        yield { kind: "warning", line: number, code: item.code, detail: `${place(item.at)}: ${item.detail}`, raw: item.raw }
      }
    }
  })()
}
