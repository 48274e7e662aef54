/**
 * `map`'s reading of its input: the mapping, the format of the export, and its rows, with the CSV header
 * checked against the mapping before anything is opened for writing.
 *
 * @module
 */
import { defineMapping, formatMappingProblem, type Mapping, type MappingProblem, type MappingSpec, mappingProblems } from "../define-mapping.js"
import { headerProblems } from "../../readers/csv/header-problems.js"
import { mappingColumns } from "../compile-mapping.js"
import { columnMatcher } from "../list-column.js"
import type { MapBatch } from "../../validation/run/batch.js"
import { ioError, usageError } from "../../readers/exit-codes.js"
import { openInput, readChunks, UnreadableInput } from "../../readers/io.js"
import { readJsonFile } from "../../readers/json/read-json-file.js"
import { withValueTables } from "./mapping-value-tables.js"
import { checkEncodingFromStart } from "../../readers/lines/encoding-check.js"
import { physicalLines } from "../../readers/lines/physical-lines.js"
import { DEFAULT_MAX_LINE_BYTES } from "../../readers/rows/record-errors.js"
import { csvRows, detectDelimiter, HeaderTooLong, MAX_HEADER_LENGTH, ndjsonRows, type SourceItem } from "../../readers/rows/source-rows.js"
import { openEdifactRows } from "../../readers/edifact/edifact-source.js"
import { openBo4eRows } from "../../readers/bo4e/bo4e-source.js"
import type { RunVersions } from "./run-versions.js"

/** How to read `map`'s input: its format, and what of `map`'s options the reader takes. */
export interface MapSourceOptions {
  readonly format: "csv" | "ndjson"
  readonly delimiter: string | undefined
  readonly encoding: string
  readonly skipLines?: number | undefined
  readonly maxRecordLines?: number | undefined
  /** The longest line read (`--max-line-length`): a longer one is rejected unread; {@link DEFAULT_MAX_LINE_BYTES} when absent. */
  readonly maxLineBytes?: number | undefined
  /** The versions of the values of the run's EDIFACT inputs, which each input's reading consults. */
  readonly versions?: RunVersions | undefined
  /** Whether a reader's warning keeps its record (a journal files it under the record's account); kept when absent. */
  readonly warningRecords?: boolean | undefined
}

/**
 * The rows of a legacy export, opened: the items read before the header (`early`), the rest still to
 * read (`source`), and the CSV header with its line.
 */
export interface MapSource {
  readonly early: ReadonlyArray<SourceItem>
  /** An item at a time, or a run of items (a reader that reads in runs gives them so: {@link isRun}). */
  readonly source: AsyncIterable<SourceItem | ReadonlyArray<SourceItem>>
  readonly header: MapBatch["csv"]
  readonly headerLine: number | undefined
  /** Bytes read so far, for the progress line. */
  readonly bytesRead: () => number
  readonly size: number | undefined
}

/**
 * Whether `got`, from a {@link MapSource}'s `source`, is a run of items rather than one: EDIFACT gives
 * runs, since a step of an async generator an item cost more than some of the mapping.
 */
export const isRun = (got: SourceItem | ReadonlyArray<SourceItem>): got is ReadonlyArray<SourceItem> => Array.isArray(got)

/** A mapping's problems, one an indented line. */
const problemLines = (problems: ReadonlyArray<MappingProblem>): string => problems.map((p) => `  ${formatMappingProblem(p)}`).join("\n")

/** A mapping's problems as the text of a usage error, one problem a line. */
const problemsText = (path: string, what: string, problems: ReadonlyArray<MappingProblem>): string =>
  `${what} ${path} is not usable:\n${problemLines(problems)}`

/**
 * Reads and checks the JSON mapping at `path`.
 */
export const loadMapping = async (path: string): Promise<Mapping> => {
  const spec = await withValueTables(await readJsonFile(path, "the mapping"), path)
  const problems = mappingProblems(spec)
  if (problems.length > 0) throw usageError(problemsText(path, "the mapping", problems))
  return defineMapping(spec as MappingSpec)
}

/**
 * The format of `input`: the one given, or the one its name tells (`-` is CSV).
 *
 * @example
 * inputFormatOf("meters.jsonl", undefined) // "ndjson"
 */
export const inputFormatOf = (input: string, given: "csv" | "ndjson" | undefined): "csv" | "ndjson" => {
  if (given !== undefined) return given
  const lower = input.toLowerCase()
  if (input === "-" || lower.endsWith(".csv") || lower.endsWith(".tsv") || lower.endsWith(".txt")) return "csv"
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl")) return "ndjson"
  throw usageError(`cannot tell the format of ${input}: use .csv, .ndjson or .jsonl, or --input-format`)
}

/**
 * The CSV delimiter of `--delimiter`: one character, `\\t` for tab, or undefined to detect it.
 *
 * @example
 * delimiterOf("\\t") // "\t"
 */
export const delimiterOf = (given: string | undefined): string | undefined => {
  const delimiter = given === "\\t" ? "\t" : given
  if (delimiter !== undefined && delimiter.length !== 1) throw usageError("--delimiter needs one character")
  return delimiter
}

/**
 * Opens `input` (a file or `-`) as CSV or NDJSON rows and reads up to its CSV header, which must fit
 * `mapping` (read from `mappingPath`): a bad mapping leaves no output behind.
 */
export const openMapSource = async (
  input: string,
  options: MapSourceOptions,
  mapping: Mapping,
  mappingPath: string
): Promise<MapSource> => {
  if (mapping.source === "edifact" && options.versions?.spooled === true) {
    // The run has read the input already (for the versions of its values): its items wait in a spool.
    const warn = (line: string): boolean => process.stderr.write(`${line}\n`)
    const source = await openEdifactRows(input, undefined, mapping, mappingPath, warn, options.versions.forInput(input), options.warningRecords)
    return { early: [], source, header: undefined, headerLine: undefined, bytesRead: () => 0, size: undefined }
  }
  let opened
  try {
    opened = await openInput(input)
  } catch (cause) {
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  let bytesRead = 0
  let bom = false
  const counted = async function*(): AsyncGenerator<Uint8Array> {
    for await (const chunk of readChunks(input, opened.chunks)) {
      if (bytesRead === 0) bom = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf && /^utf-?8$/iu.test(options.encoding.trim())
      bytesRead += chunk.length
      yield chunk
    }
  }
  if (mapping.source === "edifact" || mapping.source === "bo4e") {
    const warn = (line: string): boolean => process.stderr.write(`${line}\n`)
    const source = mapping.source === "edifact"
      ? await openEdifactRows(input, counted(), mapping, mappingPath, warn, options.versions?.forInput(input), options.warningRecords)
      : await openBo4eRows(input, counted(), mapping, mappingPath, warn)
    return { early: [], source, header: undefined, headerLine: undefined, bytesRead: () => bytesRead, size: opened.size }
  }
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  let lines
  try {
    lines = await checkEncodingFromStart(physicalLines(counted(), options.encoding, maxLineBytes), input, options.encoding, () => bom)
  } catch (cause) {
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  const source: AsyncGenerator<SourceItem> = options.format === "csv"
    ? csvRows(lines, { delimiter: options.delimiter, skipLines: options.skipLines, maxRecordLines: options.maxRecordLines, maxLineBytes })
    : ndjsonRows(lines, maxLineBytes)

  const early: Array<SourceItem> = []
  let headerLine: number | undefined
  let header: MapBatch["csv"]
  try {
    if (options.format === "csv") {
      for (let next = await source.next(); next.done !== true; next = await source.next()) {
        if (next.value.kind !== "header") {
          early.push(next.value)
          continue
        }
        headerLine = next.value.line
        header = { columns: next.value.names, delimiter: next.value.delimiter }
        const problems = headerProblems(mapping, next.value.names)
        if (problems.length > 0) {
          // Lines ended by CR alone (old Mac exports) are one line here: the header then holds the rows.
          const crOnly = next.value.names.some((name) => name.includes("\r"))
            ? "\n  the header line holds carriage returns: the file's lines seem to end in CR alone; convert them to LF or CRLF"
            : ""
          // A wrong --delimiter leaves the whole header line in one column: name the one it holds.
          const names = next.value.names
          const held = names.length === 1 && options.delimiter !== undefined ? detectDelimiter(names[0]!) : undefined
          const shown = (d: string): string => (d === "\t" ? "tab" : JSON.stringify(d))
          const wrongDelimiter = held !== undefined && held !== options.delimiter && names[0]!.includes(held)
            ? `\n  the header is one column: its names are separated by ${shown(held)}, not ${shown(options.delimiter!)}; run again with --delimiter ${held === "\t" ? "'\\t'" : `'${held}'`} or without it`
            : ""
          throw usageError(`the mapping ${mappingPath} does not fit the header (line ${headerLine}) of ${input}:\n${problemLines(problems)}${crOnly}${wrongDelimiter}`)
        }
        break
      }
    } else {
      // NDJSON has no header: a first record that has none of the mapping's columns is the wrong file
      // (map's own payloads, say), which would otherwise cost every row a reject with the fields' errors.
      const columns = mappingColumns(mapping)
      for (let next = await source.next(); next.done !== true; next = await source.next()) {
        early.push(next.value)
        if (next.value.kind !== "row") continue
        const keys = Object.keys(next.value.record)
        const hasColumn = columnMatcher(columns)
        if (columns.length > 0 && !keys.some(hasColumn)) {
          const list = (names: ReadonlyArray<string>): string => names.slice(0, 10).map((n) => JSON.stringify(n)).join(", ") + (names.length > 10 ? ", …" : "")
          throw usageError(
            `the mapping ${mappingPath} does not fit ${input}: its first record (line ${next.value.lines[0]}) has none of the columns the mapping reads ` +
              `(${list(columns)}); its keys are ${list(keys)}. Is it the legacy export the mapping is for?`
          )
        }
        break
      }
    }
  } catch (cause) {
    if (cause instanceof HeaderTooLong) {
      throw usageError(
        `the header (line ${cause.line}) of ${input} is longer than the ${MAX_HEADER_LENGTH} characters a header line may have: ` +
          (cause.carriageReturns
            ? "it holds carriage returns, so the file's lines seem to end in CR alone; convert them to LF or CRLF"
            : "it holds no line break; is it a CSV export (not a binary or another format given by mistake)?") +
          ". Nothing was written."
      )
    }
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  return { early, source, header, headerLine, bytesRead: () => bytesRead, size: opened.size }
}
