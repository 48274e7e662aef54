/**
 * `data-import map`: streams a legacy export (CSV or NDJSON records) through a JSON mapping and the
 * library's `mapRecords`. Payloads come out as NDJSON; rejected rows with their lines, raw text and
 * reasons; `--lineage` ties each payload to its source lines; `--journal` records the run, its rejects and
 * the lineage in the campaign's ledger. Before it exits, `map` checks that every
 * data line is in exactly one payload or one rejection (exit 70 otherwise).
 *
 * @module
 */
import { availableParallelism } from "node:os"
import { AtomicOutputs, delimiterOf, discardOnSignal, inputFormatOf, loadMapping, mapInOrder, mapInParallel, mapInputs, type MapJournalRun, MapOutcomes, MapRunWorkers, type MapSource, type MapSourceOptions, openMapJournalRun, openMapSource, RunVersions, SharedOutcomes } from "../../mappers/run/index.js"
import { EXIT, type ExitCode, ioError, Output, UnreadableInput, usageError } from "../../readers/index.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { checkLedgerPath } from "../ledger-path.js"
import { startProgress } from "../progress.js"
import { stylesFor, useColour } from "../terminal.js"
import { printReject, reportMap } from "./map-report.js"


/** Options of `map`, as parsed from the command line. */
export interface MapOptions {
  readonly mapping: string
  readonly out?: string | undefined
  readonly rejects?: string | undefined
  readonly lineage?: string | undefined
  /** Where the records left out on purpose are listed (NDJSON). */
  readonly excluded?: string | undefined
  /** The campaign's ledger, as given to `send --journal`. */
  readonly journal?: string | undefined
  /** Create the ledger when it does not exist: a new campaign. */
  readonly newLedger?: boolean | undefined
  readonly delimiter?: string | undefined
  readonly encoding: string
  readonly inputFormat?: "csv" | "ndjson" | undefined
  readonly jobs?: number | undefined
  readonly skipLines?: number | undefined
  readonly maxRecordLines?: number | undefined
  /** `--max-line-length`: a longer line is rejected unread. */
  readonly maxLineLength?: number | undefined
  readonly format?: "text" | "json" | undefined
  readonly allowDuplicates?: boolean | undefined
  readonly allowEmpty?: boolean | undefined
  readonly failOnWarnings?: boolean | undefined
  /** `--files-from LIST`: more inputs, one path a line (`-`: stdin). */
  readonly filesFrom?: string | undefined
}

/**
 * Runs `map` and returns its exit code. Several inputs (for a mapping of EDIFACT or BO4E records: files,
 * folders of files, a list of them) are mapped one after the other into one output, each reported on its
 * own; the exit code is the worst.
 */
export const runMap = async (inputs: string | ReadonlyArray<string>, options: MapOptions, workerScript: URL): Promise<ExitCode> => {
  // Folders and --files-from become the files they name: the run's one list of inputs.
  const all = await mapInputs(typeof inputs === "string" ? [inputs] : inputs, options.filesFrom)
  const input = all[0]!
  const mapping = await loadMapping(options.mapping)
  const readerSource = mapping.source === "edifact" || mapping.source === "bo4e"
  if (all.length > 1) {
    if (!readerSource) throw usageError(`map reads several inputs for a mapping of EDIFACT or BO4E records ("source"); a ${mapping.source ?? "csv"} export is one input`)
    if (options.journal !== undefined) throw usageError("--journal records the run of one input: map each file in a run of its own")
    if (options.format === "json") throw usageError("--format json prints the summary of one input: map each file in a run of its own, or use --format text")
  }
  // A mapping of EDIFACT or BO4E records reads its input with the reader it names; CSV and NDJSON as before.
  const format = readerSource ? "csv" : inputFormatOf(input, options.inputFormat ?? mapping.source)
  const report = options.format ?? "text"
  if (report === "json" && options.out === undefined) throw usageError("--format json prints the summary on stdout, which carries the payloads: add --out FILE")
  const delimiter = delimiterOf(options.delimiter)
  refuseOverwritingInputs(
    [{ flag: "--out", path: options.out }, { flag: "--rejects", path: options.rejects }, { flag: "--lineage", path: options.lineage }, { flag: "--excluded", path: options.excluded }, { flag: "--journal", path: options.journal }],
    [...all, options.mapping]
  )
  if (options.journal !== undefined) checkLedgerPath(options.journal, { create: true, newLedger: options.newLedger === true })
  // The versions of values across all inputs are read before any is mapped (EDIFACT with "versions").
  const versions = mapping.source === "edifact" ? new RunVersions(all) : undefined
  const sourceOptions: MapSourceOptions = { format, delimiter, encoding: options.encoding, skipLines: options.skipLines, maxRecordLines: options.maxRecordLines, maxLineBytes: options.maxLineLength, versions, warningRecords: options.journal !== undefined }
  await versions?.read(mapping, options.mapping, options.journal !== undefined)
  const source = await openMapSource(input, sourceOptions, mapping, options.mapping)

  // The ledger is opened once the mapping fits the input: a bad mapping records no run.
  const journal = options.journal === undefined
    ? undefined
    : openMapJournalRun(options.journal, { input, out: options.out, mappingPath: options.mapping, mapping, options: journalOptions(options) })
  // Payloads, rejects and lineage appear whole or not at all: written beside their targets and renamed
  // at the end; an error or a signal on the way removes them (the ledger keeps the run, ended so).
  const files = new AtomicOutputs()
  let outcomes: MapOutcomes | undefined
  const ended = (how: "completed" | "interrupted" | "failed"): void => journal?.end(how, outcomes)
  const stopWatching = discardOnSignal(files, "map", () => ended("interrupted"))
  try {
    versions?.settle(journal?.versions, (line) => process.stderr.write(`${line}\n`))
    const code = await mapInto(all, options, { mapping, source, sourceOptions, files, report, workerScript, journal, started: (o) => (outcomes = o) })
    if (code === EXIT.internal) files.discard()
    else await files.commit()
    ended(code === EXIT.internal ? "failed" : "completed")
    return code
  } catch (cause) {
    files.discard()
    ended("failed")
    throw cause
  } finally {
    stopWatching()
    versions?.close()
  }
}

/** The options a run records in the ledger: what shapes its outcomes (paths are recorded apart). */
const journalOptions = (options: MapOptions): Record<string, unknown> => {
  const { journal: _journal, newLedger: _newLedger, ...rest } = options
  return rest
}

/** What {@link mapInto} maps and where. */
interface MapRun {
  readonly mapping: Awaited<ReturnType<typeof loadMapping>>
  /** The first input, opened. */
  readonly source: Awaited<ReturnType<typeof openMapSource>>
  readonly sourceOptions: MapSourceOptions
  readonly files: AtomicOutputs
  readonly report: "text" | "json"
  readonly workerScript: URL
  readonly journal: MapJournalRun | undefined
  /** Told the outcomes once they exist (the journal's totals, should the run stop). */
  readonly started: (outcomes: MapOutcomes) => void
}

/** Maps the inputs, one after the other, into outputs opened through `files` and reports; the caller commits them. */
const mapInto = async (inputs: ReadonlyArray<string>, options: MapOptions, run: MapRun): Promise<ExitCode> => {
  const { mapping, files, report, workerScript } = run
  const out = options.out !== undefined ? await files.open(options.out) : new Output(process.stdout, "stdout")
  const rejectsOut = options.rejects !== undefined ? await files.open(options.rejects) : undefined
  const lineageOut = options.lineage !== undefined ? await files.open(options.lineage) : undefined
  const excludedOut = options.excluded !== undefined ? await files.open(options.excluded) : undefined
  const styles = stylesFor(useColour(process.stderr))
  const allowDuplicates = options.allowDuplicates === true
  const failOnWarnings = options.failOnWarnings === true
  const shared = inputs.length > 1 ? new SharedOutcomes() : undefined
  const done: Array<{ readonly input: string; readonly outcomes: MapOutcomes; readonly source: MapSource }> = []
  // One set of workers for the whole run, whatever the number of inputs: never a worker per file.
  // A run that read its inputs into the versions' spool maps them in this thread, whatever --jobs: this
  // thread reads every record back and settles its unit, version and account before a worker could map
  // it, so it stays the bottleneck, and workers only added their start and the cloning of every record
  // (--jobs 2 took 0.08 to 0.69 s longer than --jobs 1 over 118,880 values, nine runs each, bench/README.md).
  const spooled = run.sourceOptions.versions?.spooled === true
  const workers = new MapRunWorkers({
    jobs: spooled ? 1 : Math.max(1, options.jobs ?? availableParallelism()),
    workerScript,
    mapping,
    digests: !allowDuplicates,
    always: process.env["DATA_IMPORT_MAP_WORKERS"] === "always"
  })
  try {
    for (const input of inputs) {
      const source = done.length === 0 ? run.source : await openMapSource(input, run.sourceOptions, mapping, options.mapping)
      shared?.begin(input)
      const progress = startProgress(process.stderr, () => ({ records: outcomes.rowsRead, bytesRead: source.bytesRead(), totalBytes: source.size }))
      const outcomes = new MapOutcomes({ input, mapping, allowDuplicates, failOnWarnings, out, rejectsOut, lineageOut, excludedOut, journal: run.journal, shared,
        printReject: (r) => {
          progress.clear()
          printReject(input, r, styles)
        } })
      run.started(outcomes)

      try {
        // A mapping with groups needs its rows in order, as they stream by; without, rows are mapped in batches
        // (in this thread for one job: a single worker would add the cost of cloning every row and a second heap).
        if (mapping.groupBy === undefined) await mapInParallel(mapping, source, outcomes, { workers, allowDuplicates })
        else await mapInOrder(mapping, source, outcomes)
        outcomes.releaseRejects(Number.POSITIVE_INFINITY)
      } catch (cause) {
        progress.stop()
        throw cause instanceof UnreadableInput ? ioError(cause.message) : cause
      }
      progress.stop()
      shared?.end(outcomes)
      done.push({ input, outcomes, source })
    }
  } finally {
    await workers.close()
  }
  await out.close()
  await rejectsOut?.close()
  await lineageOut?.close()
  await excludedOut?.close()

  let code: ExitCode = EXIT.ok
  for (const { input, outcomes, source } of done) {
    const reported = await reportMap(outcomes, {
      input,
      endpoint: mapping.endpoint,
      headerLine: source.headerLine,
      format: report,
      allowEmpty: options.allowEmpty === true || run.sourceOptions.versions?.holdsCancellations(input) === true,
      excludedListed: excludedOut !== undefined || run.journal !== undefined,
      styles
    })
    // The worst of the inputs' codes: an internal error before a usage error before rejected rows.
    if (reported === EXIT.internal || code === EXIT.internal) code = EXIT.internal
    else code = Math.max(code, reported) as ExitCode
  }
  return code
}
