/**
 * `send`'s run: each line planned, the records to send journaled as pending and handed to the senders,
 * each answer journaled as the client's outcome.
 *
 * @module
 */
import type { Client, SendOutcome } from "../../index.js"
import type { Journal, RecordResult, RecordStatus } from "../../client/journal.js"
import type { ExitCode } from "../exit-codes.js"
import { journaledWorkers } from "../journaled-workers.js"
import { startProgress } from "../progress.js"
import { hashOf, type Job, linesOf, makePlanner, type PlanOptions } from "./send-records.js"
import { report, reportDryRun, type ReportOptions } from "./send-report.js"

/** What the run depends on among `send`'s options. */
export interface RunOptions extends PlanOptions, ReportOptions {
  readonly concurrency: number
}

/** What each outcome of the client counts as. */
const STATUS_OF: Readonly<Record<SendOutcome["kind"], RecordStatus>> = {
  created: "created",
  already_exists: "already_existed",
  ok: "created",
  rejected: "rejected",
  import_error: "import_error",
  not_found: "not_found",
  // Nothing was stored: safe to send again with a valid token.
  unauthorized: "failed",
  retryable: "failed",
  failed: "failed",
  // An answer that cannot be read: whether it was stored is unknown.
  unexpected: "in_doubt",
  in_doubt: "in_doubt"
}

const resultOf = (outcome: SendOutcome): RecordResult => {
  const base = { status: STATUS_OF[outcome.kind], outcome: outcome.kind, attempts: outcome.attempts }
  switch (outcome.kind) {
    case "failed":
      return { ...base, ...(outcome.last === undefined ? {} : { httpStatus: outcome.last.status }), errors: [{ detail: outcome.reason, code: "failed" }] }
    case "in_doubt":
      return { ...base, errors: [{ detail: outcome.reason, code: "in_doubt" }] }
    case "rejected":
    case "unexpected":
      return { ...base, httpStatus: outcome.status, errors: outcome.errors }
    case "import_error":
      return { ...base, httpStatus: outcome.status, errors: [{ detail: outcome.detail, code: "import_error" }] }
    case "not_found":
      return { ...base, httpStatus: outcome.status, errors: [{ detail: detailOf(outcome.body) ?? "The account was not found.", code: "not_found" }] }
    case "unauthorized":
      return { ...base, httpStatus: outcome.status, errors: [{ detail: "The service refused the token (401).", code: "unauthorized" }] }
    default:
      return { ...base, httpStatus: outcome.status }
  }
}

const detailOf = (body: unknown): string | undefined => {
  if (typeof body !== "object" || body === null) return undefined
  const record = body as Record<string, unknown>
  const text = record["detail"] ?? record["error"]
  return typeof text === "string" ? text : undefined
}

/** Records planned ahead of the senders, and journaled as pending together. */
const PENDING_BATCH = 256
/** Longest time an answer waits for its journal commit when no request loop commits it sooner. */
const FLUSH_MS = 20

/** Sends the records of `files` (only plans them without a journal: a dry run) and reports. */
export const sendAll = async (
  files: ReadonlyArray<string>,
  options: RunOptions,
  client: Client | undefined,
  journal: Journal | undefined,
  newFiles: ReadonlySet<string>,
  totalBytes: number
): Promise<ExitCode> => {
  const planner = makePlanner(journal, options, newFiles)
  const dryRun = { invalid: 0, toSend: 0, settled: 0 }
  let handled = 0
  let refusedToken = false
  let bytesRead = 0
  const progress = startProgress(process.stderr, () => ({ records: handled, bytesRead, totalBytes }))
  const notSent: SendOutcome = { kind: "failed", reason: "Not sent: the service refused the token (401) earlier in this run.", attempts: 0 }
  const sender = journaledWorkers<Job, SendOutcome>({
    concurrency: options.concurrency,
    group: Math.max(1, options.concurrency),
    flushMs: FLUSH_MS,
    queueLimit: 2 * PENDING_BATCH
  }, {
    begin: (job) => {
      if (!refusedToken) journal?.inFlight(job.file, job.line)
    },
    send: async (job) => {
      if (refusedToken || client === undefined) return notSent
      const outcome = await client.send(job.endpoint, job.payload)
      if (outcome.kind === "unauthorized") refusedToken = true
      return outcome
    },
    end: (job, outcome) => {
      journal?.answered(job.file, job.line, resultOf(outcome))
      handled++
    },
    together: (work) => (journal === undefined ? work() : journal.batch(work))
  })


  /** Planned records are journaled as pending in one transaction per batch, then handed to the senders. */
  const flush = async (batch: ReadonlyArray<Job>): Promise<void> => {
    journal?.batch(() => {
      for (const job of batch) journal.pending(job.file, job.line, job.hash, job.endpoint)
    })
    await sender.add(batch)
  }
  for (const file of files) {
    let batch: Array<Job> = []
    for await (const { line, text } of linesOf(file)) {
      bytesRead += Buffer.byteLength(text) + 1
      const plan = planner.plan(file, line, text)
      if (journal === undefined) {
        if (plan.kind === "invalid") dryRun.invalid++
        else if (plan.kind === "send") dryRun.toSend++
        else dryRun.settled++
        continue
      }
      if (plan.kind === "skip") continue
      if (plan.kind === "send") {
        batch.push(plan.job)
        if (batch.length >= PENDING_BATCH) {
          await flush(batch)
          batch = []
        }
        continue
      }
      const hash = hashOf(text)
      if (plan.kind === "invalid") {
        journal.done(file, line, hash, plan.endpoint, { status: "invalid", outcome: "invalid", errors: plan.errors })
      } else {
        journal.done(file, line, hash, plan.endpoint, {
          status: "in_doubt",
          outcome: "in_doubt",
          errors: [{ detail: "In flight when an earlier run stopped: the outcome is unknown, and a repeat is not harmless for this endpoint. Check the service, or use --resend-in-doubt.", code: "in_doubt" }]
        })
      }
      handled++
    }
    await flush(batch)
  }
  await sender.drain()
  progress.stop()

  if (journal === undefined) return reportDryRun(dryRun, options)
  return report(files, options, journal, refusedToken)
}
