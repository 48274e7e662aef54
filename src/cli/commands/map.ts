/**
 * `data-import map`: streams a legacy export (CSV or NDJSON records) through a JSON mapping and the
 * library's `mapRecords`. Payloads come out as NDJSON; rejected rows with their lines, raw text and
 * reasons; `--lineage` ties each payload to its source lines. Before it exits, `map` checks that every
 * data line is in exactly one payload or one rejection (exit 70 otherwise).
 *
 * @module
 */
import { availableParallelism } from "node:os"
import { type ExitCode, ioError, usageError } from "../exit-codes.js"
import { openOutput, Output, UnreadableInput } from "../io.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { startProgress } from "../progress.js"
import { stylesFor, useColour } from "../terminal.js"
import { mapInOrder } from "./map-in-order.js"
import { mapInParallel } from "./map-in-parallel.js"
import { MapOutcomes } from "./map-outcomes.js"
import { reportMap } from "./map-report.js"
import { delimiterOf, inputFormatOf, loadMapping, openMapSource } from "./map-source.js"

export { DEFAULT_DELIMITERS, detectDelimiter } from "../source-rows.js"

/** Options of `map`, as parsed from the command line. */
export interface MapOptions {
  readonly mapping: string
  readonly out?: string | undefined
  readonly rejects?: string | undefined
  readonly lineage?: string | undefined
  readonly delimiter?: string | undefined
  readonly encoding: string
  readonly inputFormat?: "csv" | "ndjson" | undefined
  readonly jobs?: number | undefined
  readonly skipLines?: number | undefined
  readonly maxRecordLines?: number | undefined
  readonly format?: "text" | "json" | undefined
  readonly allowDuplicates?: boolean | undefined
  readonly allowEmpty?: boolean | undefined
}

/** Runs `map` and returns its exit code. */
export const runMap = async (input: string, options: MapOptions, workerScript: URL): Promise<ExitCode> => {
  const mapping = await loadMapping(options.mapping)
  const format = inputFormatOf(input, options.inputFormat)
  const report = options.format ?? "text"
  if (report === "json" && options.out === undefined) throw usageError("--format json prints the summary on stdout, which carries the payloads: add --out FILE")
  const delimiter = delimiterOf(options.delimiter)
  refuseOverwritingInputs(
    [{ flag: "--out", path: options.out }, { flag: "--rejects", path: options.rejects }, { flag: "--lineage", path: options.lineage }],
    [input, options.mapping]
  )
  const source = await openMapSource(
    input,
    { format, delimiter, encoding: options.encoding, skipLines: options.skipLines, maxRecordLines: options.maxRecordLines },
    mapping,
    options.mapping
  )

  const out = options.out !== undefined ? await openOutput(options.out) : new Output(process.stdout, "stdout")
  const rejectsOut = options.rejects !== undefined ? await openOutput(options.rejects) : undefined
  const lineageOut = options.lineage !== undefined ? await openOutput(options.lineage) : undefined
  const styles = stylesFor(useColour(process.stderr))
  const allowDuplicates = options.allowDuplicates === true
  const progress = startProgress(process.stderr, () => ({ records: outcomes.rowsRead, bytesRead: source.bytesRead(), totalBytes: source.size }))
  const outcomes = new MapOutcomes({ input, mapping, allowDuplicates, out, rejectsOut, lineageOut, styles, progress })

  try {
    const jobs = Math.max(1, options.jobs ?? availableParallelism())
    // A mapping with groups needs its rows in order, as they stream by; without, rows are mapped in batches
    // (in this thread for one job: a single worker would add the cost of cloning every row and a second heap).
    if (mapping.groupBy === undefined) await mapInParallel(mapping, source, outcomes, { jobs, workerScript, allowDuplicates })
    else await mapInOrder(mapping, source, outcomes)
    outcomes.releaseRejects(Number.POSITIVE_INFINITY)
  } catch (cause) {
    progress.stop()
    throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
  }
  progress.stop()
  await out.close()
  await rejectsOut?.close()
  await lineageOut?.close()

  return reportMap(outcomes, {
    input,
    endpoint: mapping.endpoint,
    headerLine: source.headerLine,
    format: report,
    allowEmpty: options.allowEmpty === true,
    styles
  })
}
