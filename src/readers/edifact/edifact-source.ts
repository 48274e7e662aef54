/**
 * `map`'s reading of an EDIFACT interchange, for a mapping with `"source": "edifact"`: the reader's
 * options come from the file the mapping names in `"reader"` (relative to the mapping), the account of
 * each location from the table that file names; each record (an MSCONS `QTY` with its groups) becomes a
 * row, each reject a refused "line". Lines of EDIFACT rows are segment numbers (UNA included); a reject
 * names the file, the message (UNH reference and number), the segment and its byte offset. The records
 * pass the series check (`SeriesCheck`) before the account lookup; warnings go to stderr and on as items
 * that `map` counts.
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import { dirname, resolve } from "node:path"
import type { Mapping } from "../../mappers/define-mapping.js"
import { mappingColumns } from "../../mappers/compile-mapping.js"
import { offsetFormatFor } from "../../schemas/zone-offsets.js"
import type { EdifactLocation, EdifactMessage } from "./messages.js"
import { AMBIGUOUS } from "./dtm.js"
import { type EdifactExclusion, type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecordRuns } from "./records.js"
import { type QuantityUnits, quantityUnitFinder, quantityUnitsProblems, unitColumns } from "./quantity-units.js"
import { type InputVersions, type VersionOptions, versionOptionProblems } from "./versions.js"
import { type EdifactSelection, recordSelection, selectionColumns, SELECTION_KEYS, selectionOf, selectionProblems } from "./selection.js"
import { SERIES_COLUMNS, SeriesCheck, type SeriesWarning } from "./series.js"
import { WholeMessages } from "./whole-messages.js"
import { CellDeriver, derivedCellsProblems, derivedColumns, type DerivedCells } from "./derived-cells.js"
import { type AccountLookup, accountColumns, accountFinder, accountLookupProblems, type AccountPeriod, DEFAULT_ZONE, readAccountTable } from "../lookup/accounts.js"
import { usageError } from "../exit-codes.js"
import { readJsonFile } from "../json/read-json-file.js"
import type { SourceItem } from "../rows/source-rows.js"

/** The reader file: options of {@link readEdifactRecords}, the selection and the account table. */
interface ReaderFile extends EdifactRecordOptions, EdifactSelection {
  readonly accounts?: AccountLookup & { readonly table: string }
  readonly units?: QuantityUnits
  /** The cells that name one value across messages: its versions, corrections and cancellations (see versions.ts). */
  readonly versions?: VersionOptions
  /** Each message is one document: a record rejected or left out takes the rest of its message with it (see whole-messages.ts). */
  readonly wholeMessages?: boolean
  /** Cells derived from a record's cells or from the record after it (see derived-cells.ts). */
  readonly cells?: DerivedCells
}

const isStrings = (v: unknown): v is Array<string> => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === "string" && s !== "")

/** The problems of a reader file, one a line. */
const readerProblems = (spec: Record<string, unknown>): Array<string> => {
  const known = ["$schema", "source", "record", "groups", "detail", "onlyWhenEmpty", "messages", "zone", "ambiguous", "segmentCount", "accounts", "units", "versions", "wholeMessages", "cells", ...SELECTION_KEYS]
  return [
    ...Object.keys(spec).filter((k) => !known.includes(k)).map((k) => `unknown key ${JSON.stringify(k)} (known: ${known.join(", ")})`),
    ...(spec["source"] !== undefined && spec["source"] !== "edifact" ? ["source: must be \"edifact\""] : []),
    ...((typeof spec["record"] !== "string" || spec["record"] === "") && !isStrings(spec["record"])
      ? ["record: the tag of the segments that start a record (\"QTY\"), or a list of tags ([\"LIN\", \"TAX\"])"]
      : []),
    ...(spec["detail"] !== undefined && spec["detail"] !== "UNS" && spec["detail"] !== "UNH"
      ? ["detail: where groups open: \"UNS\" (after the UNS, as MSCONS) or \"UNH\" (from the message's start; a UNS closes every group)"]
      : []),
    ...(spec["onlyWhenEmpty"] !== undefined && (!isStrings(spec["onlyWhenEmpty"]) || !spec["onlyWhenEmpty"].every((tag) => (Array.isArray(spec["record"]) ? spec["record"] : [spec["record"]]).includes(tag)))
      ? ["onlyWhenEmpty: record tags whose segment starts a record only when its group holds no other record ([\"IDE\"]), each one of \"record\""]
      : []),
    ...(!isStrings(spec["groups"]) ? ["groups: tags that open the groups, outermost first ([\"NAD\", \"LOC\", \"LIN\", \"QTY\"])"] : []),
    ...(!isStrings(spec["messages"]) ? ["messages: accepted messages as TYPE:VERSION:RELEASE ([\"MSCONS:D:04B\"])"] : []),
    ...(spec["zone"] !== undefined && typeof spec["zone"] !== "string" ? ["zone: a time zone name (Europe/Berlin)"] : []),
    // Checked here, not only by the account table: an unknown zone would leave every DTM unread, and every
    // QTY rejected for a date-time that is not the interchange's fault.
    ...(typeof spec["zone"] === "string" && offsetFormatFor(spec["zone"]) === undefined ? [`zone: the time zone ${JSON.stringify(spec["zone"])} is not known`] : []),
    ...(spec["segmentCount"] !== undefined && spec["segmentCount"] !== "check" && spec["segmentCount"] !== "warn" ? ["segmentCount: \"check\" or \"warn\""] : []),
    ...(spec["wholeMessages"] !== undefined && typeof spec["wholeMessages"] !== "boolean" ? ["wholeMessages: true (each message is one document) or false"] : []),
    ...(spec["ambiguous"] !== undefined && !(AMBIGUOUS as ReadonlyArray<unknown>).includes(spec["ambiguous"])
      ? [`ambiguous: which instant a DTM of format 203 in the hour the autumn clock change repeats means: ${AMBIGUOUS.map((a) => JSON.stringify(a)).join(", ")}`]
      : []),
    ...accountLookupProblems(spec["accounts"]),
    ...(spec["units"] !== undefined ? quantityUnitsProblems(spec["units"]) : []),
    ...(spec["versions"] !== undefined ? versionOptionProblems(spec["versions"]) : []),
    ...(spec["cells"] !== undefined ? derivedCellsProblems(spec["cells"]) : []),
    ...selectionProblems(spec)
  ]
}

/**
 * The reader file a mapping of a non-CSV source names (`"reader"`, relative to the mapping), read and
 * checked by `problemsOf`: a usage error (exit 2) when it is missing, not a JSON object, or not usable.
 */
export const readReaderFile = (
  mapping: Mapping,
  mappingPath: string,
  problemsOf: (spec: Record<string, unknown>) => ReadonlyArray<string>
): Promise<{ readonly path: string; readonly spec: Record<string, unknown> }> =>
  readOncePerMapping(mapping, `reader ${mappingPath}`, () => readReaderFileNow(mapping, mappingPath, problemsOf))

/**
 * What a run reads of the files its mapping names (reader file, account table) and the account index made
 * of them, read and made once for all the inputs of the run: an archive of thousands of files would read
 * and index them again for every file. Keyed by the mapping as loaded, which is one run's.
 */
const readOnce = new WeakMap<Mapping, Map<string, unknown>>()
const readOncePerMapping = <A>(mapping: Mapping, key: string, read: () => A): A => {
  let reads = readOnce.get(mapping)
  if (reads === undefined) readOnce.set(mapping, reads = new Map())
  if (!reads.has(key)) reads.set(key, read())
  return reads.get(key) as A
}

const readReaderFileNow = async (
  mapping: Mapping,
  mappingPath: string,
  problemsOf: (spec: Record<string, unknown>) => ReadonlyArray<string>
): Promise<{ readonly path: string; readonly spec: Record<string, unknown> }> => {
  if (mapping.reader === undefined) {
    throw usageError(`the mapping ${mappingPath} has "source": "${mapping.source ?? "csv"}" but no "reader" (a JSON file with the reader's options)`)
  }
  const path = resolve(dirname(mappingPath), mapping.reader)
  const spec = await readJsonFile(path, "the reader")
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) throw usageError(`the reader ${path} is not a JSON object`)
  const problems = problemsOf(spec as Record<string, unknown>)
  if (problems.length > 0) throw usageError(`the reader ${path} is not usable:\n${problems.map((p) => `  ${p}`).join("\n")}`)
  return { path, spec: spec as Record<string, unknown> }
}

/** The periods of the account table `table` (relative to the reader file at `readerPath`); a usage error when it is not usable. */
export const readAccountPeriods = async (readerPath: string, table: string, zone: string | undefined): Promise<ReadonlyArray<AccountPeriod>> => {
  const tablePath = resolve(dirname(readerPath), table)
  let text: string
  try {
    text = await readFile(tablePath, "utf8")
  } catch (cause) {
    throw usageError(`the account table ${tablePath} cannot be read: ${(cause as Error).message}`)
  }
  const read = readAccountTable(text, zone)
  if (read.problems.length > 0) throw usageError(`the account table ${tablePath} is not usable:\n${read.problems.map((p) => `  ${p}`).join("\n")}`)
  return read.periods
}

/** The EDIFACT reader file a mapping names, read and checked (a usage error when it is not usable). */
export const readEdifactReaderFile = async (mapping: Mapping, mappingPath: string): Promise<{ readonly path: string; readonly options: ReaderFile }> => {
  const { path, spec } = await readReaderFile(mapping, mappingPath, readerProblems)
  return { path, options: spec as unknown as ReaderFile }
}

/** Where something is in an EDIFACT input, as rejects and warnings name it: file, message, segment, byte. */
export const edifactPlace = (file: string, at: EdifactLocation): string => `${file}: ${place(at)}`

/** Where something is in an EDIFACT input, without the file: message, segment, byte. */
const place = (at: EdifactLocation): string =>
  `${at.message !== undefined ? `message ${JSON.stringify(at.messageReference ?? "")} (#${at.message}), ` : ""}segment ${at.segment} at byte ${at.offset}`

/**
 * The options of the record reader (`readEdifactRecordRuns`) as `map` reads an EDIFACT input: the reader
 * file's, without what `map` does after the reader (units, versions, accounts, selection, derived cells,
 * whole messages), with the columns the mapping and those steps read. Also what bench/ measures the
 * reader alone with.
 *
 * @example
 * const mapping = { endpoint: "energy-amount", source: "edifact", reader: "r.json", fields: { "energy_amount.quantity": "QTY.1.2" } } as const
 * const readerFile = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"], qualifiers: ["220"] }
 * const options = edifactReadingOptions(mapping as unknown as Mapping, readerFile)
 * options.columns.includes("QTY.1.1") // => true
 * "qualifiers" in options // => false
 */
export const edifactReadingOptions = (mapping: Mapping, readerFile: ReaderFile): EdifactRecordOptions & { readonly columns: ReadonlyArray<string> } => {
  const { accounts: _accounts, units: _units, versions: _versions, pids: _pids, documentTypes: _documentTypes, qualifiers: _qualifiers, skip: _skip, wholeMessages: _whole, cells: _cells, ...options } = readerFile
  return { ...options, columns: readingColumns(mapping, readerFile) }
}

/** The columns the reading of an EDIFACT input gives its records: what the mapping and the reader file read. */
const readingColumns = (mapping: Mapping, readerFile: ReaderFile): Array<string> => {
  const { accounts, units, versions: versionKey, cells } = readerFile
  return [
    ...mappingColumns(mapping),
    ...SERIES_COLUMNS,
    ...(accounts !== undefined ? accountColumns(accounts) : []),
    ...(units !== undefined ? unitColumns(units) : []),
    ...(versionKey?.key ?? []),
    ...(versionKey?.documents ?? []),
    ...selectionColumns(selectionOf(readerFile)),
    ...(cells !== undefined ? derivedColumns(cells) : [])
  ]
}

/**
 * The items of an EDIFACT input as far as they do not depend on other inputs: records selected by the
 * reader file's PIDs and qualifiers, cells derived, series checked; in runs. Each message that checks out
 * is told to `onMessage` before its records. What remains ({@link openEdifactRows}): units, versions,
 * accounts, whole messages. `warningRecords`: whether a series warning keeps its record (a journal files
 * it under the record's account).
 */
export const readEdifactItems = async (
  chunks: AsyncIterable<Uint8Array>,
  mapping: Mapping,
  mappingPath: string,
  onMessage?: (message: EdifactMessage) => void,
  warningRecords = true
): Promise<AsyncGenerator<ReadonlyArray<EdifactRecordItem>>> => {
  const { options: readerFile } = await readEdifactReaderFile(mapping, mappingPath)
  const { cells } = readerFile
  // Records outside the reader file's PIDs and qualifiers are left out first, each counted and listed
  // (selection.ts): a forecast is skipped as one, whatever its unit, version or account.
  const select = recordSelection(selectionOf(readerFile))
  // The reader's items in runs: each record steps through one async generator (this one), not two.
  const runs = readEdifactRecordRuns(chunks, { ...edifactReadingOptions(mapping, readerFile), ...(onMessage !== undefined ? { onMessage } : {}) })
  // The series of each message checked as its records pass (src/readers/edifact/series.ts).
  const series = new SeriesCheck(readerFile.zone ?? DEFAULT_ZONE, warningRecords)
  // Cells derived from a record's or from the next record's cells, before anything reads them.
  const derive = cells !== undefined ? new CellDeriver(cells) : undefined
  return (async function*(): AsyncGenerator<ReadonlyArray<EdifactRecordItem>> {
    for await (const run of runs) {
      // Records outside the selection are left out before the series check: a forecast beside a true
      // value of the same quarter-hour is no repeat of it.
      const selected = select === undefined ? run : run.map((made) => (made.kind === "record" ? select(made) ?? made : made))
      yield series.check(derive === undefined ? selected : derive.take(selected))
    }
    if (derive !== undefined) yield series.check(derive.end())
    yield series.end()
  })()
}

/**
 * The rows of an EDIFACT input as `map` reads them, in runs; notices of the interchange go to `warn`. The input is
 * read from `chunks`, unless its run read it already (`versions.read`). `warningRecords`: as
 * {@link readEdifactItems} takes it.
 */
export const openEdifactRows = async (
  input: string,
  chunks: AsyncIterable<Uint8Array> | undefined,
  mapping: Mapping,
  mappingPath: string,
  warn: (line: string) => void,
  versions?: InputVersions,
  warningRecords = true
): Promise<AsyncGenerator<Array<SourceItem>>> => {
  const { path: readerPath, options: readerFile } = await readEdifactReaderFile(mapping, mappingPath)
  const { accounts, units, versions: versionKey, wholeMessages, ...options } = readerFile
  const periods = accounts !== undefined
    ? await readOncePerMapping(mapping, `accounts ${readerPath}`, () => readAccountPeriods(readerPath, accounts.table, options.zone))
    : undefined
  // Versions are asked after the unit (a value that is no amount is refused as such, whichever its
  // version) and before the account: a value superseded or cancelled needs none.
  const verdictOf = versionKey !== undefined ? versions?.verdictOf.bind(versions) : undefined
  // The account is looked up as each record passes (no generator of its own between reader and mapper),
  // written into the record the reader has just made.
  const find = accounts !== undefined
    ? readOncePerMapping(mapping, `finder ${readerPath}`, () => accountFinder<EdifactLocation, EdifactExclusion>(periods!, accounts, { inPlace: true, zone: options.zone }))
    : undefined
  // The unit of each quantity, before its account: a quantity that cannot be sent is refused for that.
  const unitOf = units !== undefined ? quantityUnitFinder<EdifactLocation, EdifactExclusion>(units, { inPlace: true }) : undefined
  const items = versions?.read?.() ?? (chunks !== undefined ? await readEdifactItems(chunks, mapping, mappingPath, undefined, warningRecords) : [])
  const settle = (read: EdifactRecordItem): EdifactRecordItem => {
    const measured = unitOf !== undefined && read.kind === "record" ? unitOf(read) : read
    const decided = verdictOf !== undefined && measured.kind === "record" ? verdictOf(measured) ?? measured : measured
    return find !== undefined && decided.kind === "record" ? find(decided) : decided
  }
  // With "wholeMessages", a message's items are settled together once its last has passed.
  const whole = wholeMessages === true ? new WholeMessages() : undefined
  const settled = (read: EdifactRecordItem): Array<EdifactRecordItem> => (whole === undefined ? [settle(read)] : whole.add(settle(read)))
  const sourceItem = (item: EdifactRecordItem): SourceItem => {
    if (item.kind === "record") return { kind: "row", lines: [item.at.segment], record: item.record, raw: item.raw }
    if (item.kind === "exclusion") {
      // Filed under its account where the table knows it; a record left out is no reject for want of one.
      if (find !== undefined && item.record !== undefined) find({ kind: "record", record: item.record, at: item.at, raw: item.raw })
      return { kind: "excluded", lines: [item.at.segment], outcome: item.code, reason: item.reason, detail: `${edifactPlace(input, item.at)}: ${item.detail}`, raw: item.raw, record: item.record }
    }
    if (item.kind === "reject") return { kind: "refused", line: item.at.segment, code: "invalid", detail: `${edifactPlace(input, item.at)}: ${item.code}: ${item.detail}`, raw: item.raw }
    warn(`warning: ${edifactPlace(input, item.at)}: ${item.code}: ${item.detail}`)
    // A warning on a record files under its account: the record's own (the same object) has it, a copy
    // read back from the run's spool is looked up.
    const record = (item as Partial<SeriesWarning>).record
    if (find !== undefined && record !== undefined && record[accounts!.into] === undefined) find({ kind: "record", record, at: item.at, raw: item.raw })
    return { kind: "warning", line: item.at.segment, code: item.code, detail: `${place(item.at)}: ${item.detail}`, raw: item.raw, record }
  }
  // A run of items a step: a step of an async generator an item cost more than some of the mapping.
  return (async function*(): AsyncGenerator<Array<SourceItem>> {
    for await (const run of items) {
      const out: Array<SourceItem> = []
      for (const read of run) for (const item of settled(read)) out.push(sourceItem(item))
      if (out.length > 0) yield out
    }
    const rest = (whole?.end() ?? []).map(sourceItem)
    if (rest.length > 0) yield rest
  })()
}
