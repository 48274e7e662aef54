/**
 * `send`'s report: what the run did with every record it read (by disposition, and the outcomes of
 * those it sent, with the causes of blocked and rejected ones), what the ledger holds in doubt and in
 * conflict, what to do next, and the `--results` file (one line per record the run wrote).
 *
 * @module
 */
import { relative } from "node:path"
import { type Ledger, type LedgerRecord, OPTION_DECISIONS, type SendSummary } from "../../index.js"
import { EXIT, type ExitCode, openOutput, Output } from "../../readers/index.js"
import { keyTexts } from "../../report/index.js"
import { formatCount, plural, stylesFor, useColour } from "../terminal.js"

/** What the report depends on among `send`'s options. */
export interface ReportOptions {
  readonly journal: string
  readonly format: "text" | "json"
  readonly results?: string | undefined
}

const LISTED = 20
/** Outcomes listed by record in the text report: someone has to act on them. */
const PROBLEMS = ["invalid", "rejected", "blocked", "failed"] as const

const where = (file: string | null, line: number | null): string => (file === null ? "?" : `${relative(process.cwd(), file)}:${line ?? "?"}`)

const resultLine = (r: LedgerRecord): string =>
  JSON.stringify({
    file: r.file,
    line: r.line,
    endpoint: r.endpoint,
    key: JSON.parse(r.key) as unknown,
    state: r.state,
    outcome: r.outcome,
    cause: r.cause,
    http_status: r.httpStatus,
    attempts: r.attempts,
    detail: r.detail === null ? null : (JSON.parse(r.detail) as unknown)
  })

/** Rows of the text report: label and count, indented by level. */
const rowsOf = (summary: SendSummary): Array<readonly [string, number, number]> => {
  const d = summary.dispositions
  const o = summary.outcomes
  // A stopped run did not send all it meant to: the rows below say how many went and how many did not.
  const sentLabel = summary.dryRun || d.unsent > 0 ? "to send" : "sent"
  const rows: Array<readonly [string, number, number]> = [[sentLabel, d.send, 1]]
  if (!summary.dryRun) {
    for (const k of ["created", "already_existed", "moved", "blocked", "rejected", "in_doubt", "failed"] as const) rows.push([k, o[k], 2])
    if (d.unsent > 0) rows.push(["not sent (stopped)", d.unsent, 2])
  }
  for (const k of ["settled_before", "rejected_before", "duplicate", "conflict", "kept_in_doubt", "invalid"] as const) rows.push([k, d[k], 1])
  return rows
}

/** The command to run again, as the user gave it. */
const resumeHint = (names: ReadonlyArray<string>): string => `run the same command again (data-import send … ${names.join(" ")}) to resume`

/** Writes the report of a run and returns the exit code: 0 when every record read is stored or settled. */
export const report = async (summary: SendSummary, ledger: Ledger, options: ReportOptions, names: ReadonlyArray<string>): Promise<ExitCode> => {
  if (options.results !== undefined && !summary.dryRun) {
    const results = await openOutput(options.results)
    for (const record of ledger.runRecords(summary.run)) {
      results.write(`${resultLine(record)}\n`)
      if (results.full) await results.drained()
    }
    await results.close()
  }
  const problems: Array<LedgerRecord> = []
  for (const outcome of PROBLEMS) {
    if (summary.dryRun || problems.length >= LISTED) break
    problems.push(...ledger.records({ outcome, run: summary.run, limit: LISTED - problems.length }))
  }
  const inDoubt = ledger.records({ outcome: "in_doubt", limit: LISTED })
  const conflicts = ledger.conflicts(LISTED)
  const unidentified = summary.dryRun ? [] : ledger.unidentifiedLines(summary.run, LISTED)
  const d = summary.dispositions
  const o = summary.outcomes
  const open = d.invalid + d.conflict + d.kept_in_doubt + d.rejected_before + d.unsent + o.blocked + o.rejected + o.in_doubt + o.failed
  const stdout = new Output(process.stdout, "stdout")
  if (options.format === "json") {
    stdout.write(`${JSON.stringify({
      run: summary.run,
      dry_run: summary.dryRun,
      stopped: summary.stopped,
      lines: summary.lines,
      records: summary.records,
      dispositions: summary.dispositions,
      outcomes: summary.outcomes,
      causes: summary.causes,
      warnings: summary.warnings,
      first_warnings: summary.firstWarnings,
      decisions: summary.decisions,
      resent_in_doubt: summary.resentInDoubt,
      by_endpoint: summary.byEndpoint,
      services: ledger.services(),
      in_doubt: inDoubt.map((r) => ({ file: r.file, line: r.line, endpoint: r.endpoint, key: JSON.parse(r.key) as unknown, cause: r.cause })),
      conflicts: conflicts.map((c) => ({ endpoint: c.endpoint, key: JSON.parse(c.key) as unknown, known: c.known, other: c.other })),
      unidentified
    })}\n`)
  } else {
    const s = stylesFor(useColour(process.stdout))
    const title = `${plural(summary.records, "record")} in ${plural(summary.lines, "line")}${summary.dryRun ? " (dry run: nothing sent)" : ""}`
    stdout.write(`${s.bold(title)} (ledger ${options.journal})\n`)
    for (const [label, n, level] of rowsOf(summary)) {
      stdout.write(`${"  ".repeat(level)}${label.replace(/_/gu, " ").padEnd(22 - 2 * level)}${formatCount(n).padStart(9)}\n`)
    }
    const causes = Object.entries(summary.causes).sort((a, b) => b[1] - a[1])
    if (causes.length > 0) stdout.write(`causes: ${causes.map(([k, n]) => `${k.replace(":", " ")} ${formatCount(n)}`).join(", ")}\n`)
    const warned = Object.entries(summary.warnings).sort((a, b) => b[1] - a[1])
    if (warned.length > 0) {
      stdout.write(`warnings: ${warned.map(([code, n]) => `${code} ${formatCount(n)}`).join(", ")}\n`)
      for (const w of summary.firstWarnings) stdout.write(`  ${where(w.file, w.line)} ${w.attr} ${w.code}: ${w.detail}\n`)
    }
    if (summary.unauthorized) stdout.write(s.red("The service refused the credentials (401): the records not sent are failed; send again with a valid token.\n"))
    // The count of lines read, not a line beyond which nothing was read: the input may have been read to its end.
    if (summary.stopped) stdout.write(s.yellow(`Stopped after ${plural(summary.lines, "line")} read: ${plural(d.unsent, "record")} not sent; ${resumeHint(names)}.\n`))
    if (o.blocked > 0) stdout.write(`${formatCount(o.blocked)} blocked: the supplier or account cannot take data yet, or the market participant or network operator they name is not imported; they are sent again by every run, so run again once it can.\n`)
    if (o.failed > 0 && !summary.unauthorized) stdout.write(`${formatCount(o.failed)} failed: nothing is known to be stored; ${resumeHint(names)}.\n`)
    if (o.rejected + d.rejected_before + d.invalid > 0) stdout.write("rejected and invalid records are sent again once fixed: fix the source, map it again, send with the same ledger (see --results).\n")
    for (const decision of OPTION_DECISIONS) {
      const { waiting = 0, taken = 0 } = summary.decisions[decision.flag] ?? {}
      if (taken > 0) stdout.write(`${plural(taken, "record")} sent again with ${decision.flag} (${decision.outcome.replace(/_/gu, " ")} before, when sent without it).\n`)
      if (waiting > 0) stdout.write(`${plural(waiting, "record")} ${decision.outcome.replace(/_/gu, " ")}${decision.cause === null ? "" : ` (${decision.cause})`} would be sent again with ${decision.flag}: ${decision.advice}.\n`)
    }
    for (const u of unidentified) stdout.write(`  invalid ${where(u.file, u.line)}: ${u.detail}\n`)
    for (const p of problems) stdout.write(`  ${p.outcome} ${where(p.file, p.line)} ${p.endpoint}: ${p.cause ?? ""}\n`)
    if (problems.length >= LISTED) stdout.write("  … (every record of the run: --results FILE)\n")
    if (conflicts.length > 0) {
      stdout.write(s.yellow("conflicts: records met with other content than the version the service has (never sent):\n"))
      for (const c of conflicts) stdout.write(`  ${c.endpoint} ${c.key}: ${c.known.outcome ?? "in flight"} from ${where(c.known.file, c.known.line)}, other at ${where(c.other.file, c.other.line)}\n`)
    }
    if (inDoubt.length > 0) {
      stdout.write(s.yellow("in doubt in the ledger (may or may not be stored; a repeat could store them twice):\n"))
      for (const r of inDoubt) stdout.write(`  ${where(r.file, r.line)}  ${r.endpoint} ${keyTexts(r.key).wall}\n`)
      stdout.write(
        `Settle them with the service's operators: data-import report --journal ${options.journal} --in-doubt in-doubt.csv lists them ` +
          `(natural keys in wall time and UTC); data-import resolve --journal ${options.journal} --stored FILE --not-stored FILE records their answer, ` +
          "and the next run sends those not stored. --resend-in-doubt sends them all again instead: each one stored before is then stored twice.\n"
      )
    }
    const services = ledger.services()
    if (services.length > 1) stdout.write(`the ledger has sent to: ${services.join(", ")}\n`)
  }
  await stdout.close()
  const resent = summary.resentInDoubt
  if (resent.sent > 0) {
    // On stderr in either format: a warning, not part of the report.
    process.stderr.write(summary.dryRun
      ? `data-import: warning: --resend-in-doubt would send ${plural(resent.sent, "record")} in doubt again whose repeat is not harmless: each one the service stored before would be stored twice\n`
      : `data-import: warning: --resend-in-doubt sent ${plural(resent.sent, "record")} in doubt again whose repeat is not harmless; ` +
        `the service stored ${formatCount(resent.stored)} of them now: up to ${plural(resent.stored, "possible duplicate")} (each one the earlier request stored too is stored twice)\n`)
  }
  return open === 0 ? EXIT.ok : EXIT.invalid
}
