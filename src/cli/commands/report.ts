/**
 * `data-import report`: the report of a campaign from its ledger (see docs/report.md), in one of five
 * formats, on stdout or in a file. The ledger is opened read-only; the figures come from SQL aggregates.
 *
 * @module
 */
import { existsSync, statSync } from "node:fs"
import { campaignReport, csvHeader, csvRow, exclusionCsvRow, exclusionRows, inDoubtCsvHeader, inDoubtCsvRow, inDoubtRows, problemRows, renderHtml, renderMarkdown, renderText } from "../../report/index.js"
import { damagedLedgerAdvice, LedgerDamagedError, ledgerFilesOf, LedgerMismatchError, openReportSource, type ReportSource } from "../../ledger/index.js"
import { EXIT, type ExitCode, ioError, openOutput, Output } from "../../readers/index.js"
import { refuseOverwritingInputs } from "../output-paths.js"

export const REPORT_COMMAND_FORMATS = ["text", "markdown", "json", "csv", "html"] as const

/** Options of `report`, as parsed. */
export interface ReportCommandOptions {
  readonly journal: string
  readonly format: (typeof REPORT_COMMAND_FORMATS)[number]
  readonly out?: string | undefined
  readonly limit?: number | undefined
  /** Also write the records in doubt there, as CSV (the operators' list, which `resolve` takes back). */
  readonly inDoubt?: string | undefined
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** SQLite's words for a ledger it cannot read whole: a damaged file, or a disk that fails. */
const DAMAGED = /malformed|corrupt|not a database|disk I\/O error/iu

/**
 * What a ledger that cannot be read ends the report with: exit 3, as `send` ends on it; a damaged one
 * pointed to its recovery. Other errors are the report's own (exit 70).
 */
const readError = (path: string, error: unknown): unknown => {
  if (error instanceof LedgerMismatchError || error instanceof LedgerDamagedError) return ioError(error.message)
  if (DAMAGED.test(describe(error))) return ioError(`the ledger ${path} cannot be read: ${describe(error)}; ${damagedLedgerAdvice(path)}`)
  return error
}

const open = (path: string): ReportSource => {
  if (!existsSync(path)) throw ioError(`the ledger ${path} does not exist`)
  if (!statSync(path).isFile()) throw ioError(`the ledger ${path} is not a file`)
  try {
    return openReportSource(path)
  } catch (error) {
    const read = readError(path, error)
    throw read === error ? ioError(`cannot read the ledger ${path}: ${describe(error)}`) : read
  }
}

/** Runs `report`: exit 0 when every record is stored and nothing is left to fix, 1 otherwise. */
export const runReport = async (options: ReportCommandOptions): Promise<ExitCode> => {
  // Opening --out empties it: were it the ledger (by any name) or a file SQLite keeps beside it, the campaign would be lost.
  refuseOverwritingInputs([{ flag: "--out", path: options.out }, { flag: "--in-doubt", path: options.inDoubt }], ledgerFilesOf(options.journal))
  const source = open(options.journal)
  try {
    let report
    try {
      report = campaignReport(source, { limit: options.limit })
    } catch (error) {
      // A ledger this version cannot report in full (outcomes it does not know), or a damaged one, is not read half.
      throw readError(options.journal, error)
    }
    const out = options.out === undefined ? new Output(process.stdout, "stdout") : await openOutput(options.out)
    switch (options.format) {
      case "text":
        out.write(renderText(report))
        break
      case "markdown":
        out.write(renderMarkdown(report))
        break
      case "json":
        out.write(`${JSON.stringify(report)}\n`)
        break
      case "html":
        out.write(renderHtml(report))
        break
      case "csv":
        out.write(csvHeader())
        try {
          for (const problem of problemRows(source.db, source.tables, { running: source.running })) {
            out.write(csvRow(problem))
            if (out.full) await out.drained()
          }
          // After the problems, the rows left out on purpose: listed, each saying there is nothing to fix.
          for (const excluded of exclusionRows(source.db, source.tables)) {
            out.write(exclusionCsvRow(excluded))
            if (out.full) await out.drained()
          }
        } catch (error) {
          throw readError(options.journal, error)
        }
        break
    }
    await out.close()
    if (options.inDoubt !== undefined) {
      const list = await openOutput(options.inDoubt)
      list.write(inDoubtCsvHeader())
      for (const row of inDoubtRows(source.db, source.tables, source.running)) {
        list.write(inDoubtCsvRow(row))
        if (list.full) await list.drained()
      }
      await list.close()
    }
    return report.complete ? EXIT.ok : EXIT.invalid
  } finally {
    source.close()
  }
}
