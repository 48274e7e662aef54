/**
 * `send`'s report: totals per status and per endpoint from the journal, the `--results` lines, and the
 * records in doubt.
 *
 * @module
 */
import { relative } from "node:path"
import { type Journal, RECORD_STATUSES, type RecordStatus } from "../../client/journal.js"
import { EXIT, type ExitCode } from "../exit-codes.js"
import { openOutput, Output } from "../io.js"
import { formatCount, stylesFor, useColour } from "../terminal.js"

/** What the report depends on among `send`'s options. */
export interface ReportOptions {
  readonly journal: string
  readonly format: "text" | "json"
  readonly results?: string | undefined
}

/** The report's totals: records = the sum of the others. */
type Totals = { records: number } & Record<RecordStatus, number>
const emptyTotals = (): Totals => ({ records: 0, ...Object.fromEntries(RECORD_STATUSES.map((s) => [s, 0])) } as Totals)

/** One line of `--results`, and one element of the report's `in_doubt` list. */
interface ResultLine {
  readonly file: string
  readonly line: number
  readonly endpoint: string | null
  readonly status: RecordStatus
  readonly http_status: number | null
  readonly outcome: string | null
  readonly attempts: number
  readonly errors: ReadonlyArray<unknown>
}

const LISTED_IN_DOUBT = 20
/** What a dry run found: records invalid, to send, and settled by an earlier run. */
export interface DryRunCounts {
  readonly invalid: number
  readonly toSend: number
  readonly settled: number
}

/** Writes the report of a dry run (no journal) and returns the exit code. */
export const reportDryRun = (dryRun: DryRunCounts, options: Pick<ReportOptions, "format">): ExitCode => {
  const report = { dry_run: true, totals: { records: dryRun.invalid + dryRun.toSend + dryRun.settled, invalid: dryRun.invalid, to_send: dryRun.toSend, settled_before: dryRun.settled } }
  if (options.format === "json") process.stdout.write(`${JSON.stringify(report)}\n`)
  else process.stdout.write(`dry run: ${formatCount(report.totals.records)} records, ${formatCount(dryRun.invalid)} invalid, ${formatCount(dryRun.toSend)} to send, ${formatCount(dryRun.settled)} settled by an earlier run\n`)
  return dryRun.invalid === 0 ? EXIT.ok : EXIT.invalid
}

/** Writes the report of a run from its journal and returns the exit code. */
export const report = async (files: ReadonlyArray<string>, options: ReportOptions, journal: Journal, refusedToken: boolean): Promise<ExitCode> => {
  const totals = emptyTotals()
  const byEndpoint: Record<string, Partial<Record<RecordStatus, number>>> = {}
  const inDoubt: Array<ResultLine> = []
  const results = options.results === undefined ? undefined : await openOutput(options.results)
  for (const entry of journal.entries(files)) {
    // A record still pending or in flight here was not reached (the run stopped early): nothing is known.
    const status: RecordStatus = entry.state === "done" && entry.status !== null ? entry.status : "failed"
    totals.records++
    totals[status]++
    const endpoint = entry.endpoint ?? "(none)"
    const counts = (byEndpoint[endpoint] ??= {})
    counts[status] = (counts[status] ?? 0) + 1
    const line: ResultLine = {
      file: entry.file,
      line: entry.line,
      endpoint: entry.endpoint,
      status,
      http_status: entry.httpStatus,
      outcome: entry.outcome,
      attempts: entry.attempts,
      errors: entry.errors === null ? [] : (JSON.parse(entry.errors) as ReadonlyArray<unknown>)
    }
    if (status === "in_doubt") inDoubt.push(line)
    if (results !== undefined) {
      results.write(`${JSON.stringify(line)}\n`)
      if (results.full) await results.drained()
    }
  }
  await results?.close()
  const stdout = new Output(process.stdout, "stdout")
  if (options.format === "json") {
    stdout.write(`${JSON.stringify({ totals, byEndpoint, in_doubt: inDoubt })}\n`)
  } else {
    const s = stylesFor(useColour(process.stdout))
    const width = Math.max(...RECORD_STATUSES.map((k) => k.length))
    const rows = RECORD_STATUSES.map((k) => `  ${k.replace(/_/gu, " ").padEnd(width)}  ${formatCount(totals[k]).padStart(9)}`)
    stdout.write(`${s.bold(`${formatCount(totals.records)} records`)} (journal ${options.journal})\n${rows.join("\n")}\n`)
    if (refusedToken) stdout.write(s.red("The service refused the token (401): the records not sent are counted as failed; send again with a valid token.\n"))
    if (totals.failed > 0 && !refusedToken) stdout.write(`${formatCount(totals.failed)} failed: nothing is known to be stored; run the same command again to send them.\n`)
    if (inDoubt.length > 0) {
      stdout.write(s.yellow(`${formatCount(inDoubt.length)} in doubt: they may or may not be stored, and sending them again could store them twice.\n`))
      for (const d of inDoubt.slice(0, LISTED_IN_DOUBT)) stdout.write(`  ${relative(process.cwd(), d.file)}:${d.line}  ${d.endpoint ?? ""}\n`)
      if (inDoubt.length > LISTED_IN_DOUBT) stdout.write(`  … and ${formatCount(inDoubt.length - LISTED_IN_DOUBT)} more (see --results or --format json)\n`)
      stdout.write("Check them in the service; to send them again anyway, run the same command with --resend-in-doubt.\n")
    }
  }
  await stdout.close()
  return totals.created + totals.already_existed === totals.records ? EXIT.ok : EXIT.invalid
}
