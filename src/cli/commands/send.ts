/**
 * `data-import send`: validates every record of NDJSON files and sends the valid ones to the service,
 * with a journal (`--journal FILE`) that makes the run resumable: a record whose outcome is known is
 * never sent again, and a record whose outcome is unknown (in flight when a run died, or its connection
 * broke after sending) is sent again only where a repeat is harmless by the service's rules.
 *
 * @module
 */
import { createHash, hash } from "node:crypto"
import { createReadStream } from "node:fs"
import { relative, resolve } from "node:path"
import { createInterface } from "node:readline"
import {
  type Client,
  compileValidator,
  createClient,
  endpoints,
  ENDPOINT_IDS,
  type EndpointId,
  InsecureBaseUrlError,
  isEndpointId,
  isRepeatHarmless,
  type PayloadValidator,
  type SendOutcome
} from "../../index.js"
import {
  type Journal,
  JournalMismatchError,
  openJournal,
  RECORD_STATUSES,
  type RecordResult,
  type RecordStatus,
  SETTLED_STATUSES
} from "../../client/journal.js"
import { isHeaderSafe } from "../../client/build-request.js"
import { describeError, EXIT, type ExitCode, ioError, usageError } from "../exit-codes.js"
import { inferEndpoint } from "../../index.js"
import { journaledWorkers } from "../journaled-workers.js"
import { openOutput, Output, validateInputKind } from "../io.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { startProgress } from "../progress.js"
import { formatCount, stylesFor, useColour } from "../terminal.js"

/** Options of `send`, as parsed. */
export interface SendCommandOptions {
  readonly baseUrl: string
  readonly journal: string
  readonly concurrency: number
  readonly rate?: number | undefined
  readonly format: "text" | "json"
  readonly results?: string | undefined
  readonly dryRun?: boolean | undefined
  readonly resendInDoubt?: boolean | undefined
  readonly allowInsecureHttp?: boolean | undefined
  readonly endpoint?: string | undefined
  readonly maxAttempts: number
}

/** The environment variable that holds the token (never an argument: arguments are visible to every user of the machine). */
export const TOKEN_VARIABLE = "DATA_IMPORT_TOKEN"

/** The report's totals: records = the sum of the others. */
type Totals = { records: number } & Record<RecordStatus, number>

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

/** The sha256 and size of a file, read as a stream. */
const digestOf = (path: string): Promise<{ sha256: string; size: number }> =>
  new Promise((done, fail) => {
    const hash = createHash("sha256")
    let size = 0
    createReadStream(path)
      .on("data", (chunk) => {
        hash.update(chunk as Buffer)
        size += (chunk as Buffer).length
      })
      .on("error", fail)
      .on("end", () => done({ sha256: hash.digest("hex"), size }))
  })

// One call per record (no Hash object): the same sha256, at a fraction of the cost for short lines.
const hashOf = (text: string): string => hash("sha256", text, "hex").slice(0, 32)

/** The non-blank lines of an NDJSON file with their physical line numbers (CRLF and a BOM are accepted). */
async function* linesOf(path: string): AsyncGenerator<{ readonly line: number; readonly text: string }> {
  const reader = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity })
  let line = 0
  for await (const raw of reader) {
    line++
    const text = line === 1 ? raw.replace(/^\uFEFF/u, "") : raw
    if (text.trim() !== "") yield { line, text }
  }
}

/** A record ready to send. */
interface Job {
  readonly file: string
  readonly line: number
  readonly hash: string
  readonly endpoint: EndpointId
  readonly payload: unknown
}

/** Decides what to do with one line: a settled record is skipped; an invalid one is journaled; else a job. */
type Plan =
  | { readonly kind: "skip" }
  | { readonly kind: "invalid"; readonly endpoint: string | null; readonly errors: ReadonlyArray<unknown> }
  | { readonly kind: "keep_in_doubt"; readonly endpoint: string | null }
  | { readonly kind: "send"; readonly job: Job }

interface Planner {
  plan(file: string, line: number, text: string): Plan
}

const makePlanner = (journal: Journal | undefined, options: SendCommandOptions, newFiles: ReadonlySet<string>): Planner => {
  const validators = new Map<EndpointId, PayloadValidator<EndpointId>>()
  const validatorOf = (id: EndpointId): PayloadValidator<EndpointId> => {
    let v = validators.get(id)
    if (v === undefined) {
      // Every record comes straight from JSON.parse: no getters or prototypes to look for.
      v = compileValidator(id, { input: "json" })
      validators.set(id, v)
    }
    return v
  }
  return {
    plan: (file, line, text) => {
      const hash = hashOf(text)
      const entry = newFiles.has(file) ? undefined : journal?.entry(file, line)
      if (entry !== undefined && entry.hash !== hash) {
        throw new JournalMismatchError(`${file}:${line} is not the record the journal has for that line: use another journal`)
      }
      if (entry?.status != null && entry.state === "done" && SETTLED_STATUSES.has(entry.status)) return { kind: "skip" }
      let payload: unknown
      try {
        payload = JSON.parse(text)
      } catch (cause) {
        return { kind: "invalid", endpoint: null, errors: [{ detail: `Not JSON: ${describeError(cause)}`, code: "unparseable", attr: "non_field_errors" }] }
      }
      const inferred = options.endpoint !== undefined
        ? { ok: true as const, endpoint: options.endpoint as EndpointId }
        : inferEndpoint(payload)
      if (!inferred.ok) return { kind: "invalid", endpoint: null, errors: [{ detail: inferred.detail, code: inferred.code, attr: "non_field_errors" }] }
      const endpoint = inferred.endpoint
      if (endpoints[endpoint].method !== "POST") {
        return { kind: "invalid", endpoint, errors: [{ detail: `${endpoint} is a status query, not data to send.`, code: "unknown_endpoint", attr: "non_field_errors" }] }
      }
      const result = validatorOf(endpoint)(payload)
      if (!result.ok) return { kind: "invalid", endpoint, errors: result.error.errors }
      // Unknown outcome from an earlier run: sent again only where a repeat is harmless, or when asked.
      const unknown = entry !== undefined && (entry.state === "in_flight" || entry.status === "in_doubt")
      if (unknown && options.resendInDoubt !== true && !isRepeatHarmless(endpoint, payload)) {
        return entry.state === "done" ? { kind: "skip" } : { kind: "keep_in_doubt", endpoint }
      }
      return { kind: "send", job: { file, line, hash, endpoint, payload } }
    }
  }
}

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
/** Records planned ahead of the senders, and journaled as pending together. */
const PENDING_BATCH = 256
/** Longest time an answer waits for its journal commit when no request loop commits it sooner. */
const FLUSH_MS = 20

/** Runs `send` and returns its exit code. */
export const runSend = async (names: ReadonlyArray<string>, options: SendCommandOptions): Promise<ExitCode> => {
  if (options.endpoint !== undefined && !isEndpointId(options.endpoint)) {
    throw usageError(`unknown endpoint ${options.endpoint}: use one of ${ENDPOINT_IDS.join(", ")}`)
  }
  if (names.includes("-")) throw usageError("send reads files, not stdin: a resumable run needs an input it can read again")
  const notNdjson = names.find((name) => validateInputKind(name) !== "ndjson")
  if (notNdjson !== undefined) throw usageError(`${notNdjson}: send reads NDJSON files (.ndjson, .jsonl), one payload per line, as map writes them`)
  const files = names.map((name) => resolve(name))
  const twice = files.find((file, i) => files.indexOf(file) !== i)
  if (twice !== undefined) throw usageError(`${twice} is given twice: each record must be sent once`)
  refuseOverwritingInputs([{ flag: "--journal", path: options.journal }, { flag: "--results", path: options.results }], names)
  const token = process.env[TOKEN_VARIABLE] ?? ""
  if (options.dryRun !== true && token === "") throw usageError(`the token comes from the environment variable ${TOKEN_VARIABLE}, which is not set`)
  if (options.dryRun !== true && !isHeaderSafe(token)) throw usageError(`${TOKEN_VARIABLE} holds characters a header cannot carry (spaces, line breaks, non-ASCII)`)

  let client: Client | undefined
  try {
    client = options.dryRun === true ? undefined : createClient({
      baseUrl: options.baseUrl,
      token,
      allowInsecureHttp: options.allowInsecureHttp === true,
      retry: { maxAttempts: options.maxAttempts },
      ...(options.rate === undefined ? {} : { requestsPerSecond: options.rate })
    })
  } catch (error) {
    if (error instanceof InsecureBaseUrlError) throw usageError(`${error.message} (--allow-insecure-http)`)
    if (error instanceof TypeError) throw usageError(`--base-url: ${error.message.replace(token, "…")}`)
    throw error
  }

  const digests = []
  for (const file of files) {
    try {
      digests.push({ file, ...(await digestOf(file)) })
    } catch (cause) {
      throw ioError(`cannot read ${file}: ${describeError(cause)}`)
    }
  }

  let journal: Journal | undefined
  // A file the journal has never seen has no entries: its records need no look-up.
  const newFiles = new Set<string>()
  if (options.dryRun !== true) {
    try {
      journal = openJournal(options.journal, { service: new URL(options.baseUrl).href })
      for (const d of digests) if (journal.checkFile(d.file, d.sha256, d.size) === "new") newFiles.add(d.file)
    } catch (error) {
      journal?.close()
      if (error instanceof JournalMismatchError) throw usageError(error.message)
      throw ioError(`cannot open the journal ${options.journal}: ${describeError(error)}`)
    }
  }

  try {
    return await sendAll(files, options, client, journal, newFiles, digests.reduce((n, d) => n + d.size, 0))
  } catch (error) {
    if (error instanceof JournalMismatchError) throw usageError(error.message)
    throw error
  } finally {
    journal?.close()
  }
}

const sendAll = async (
  files: ReadonlyArray<string>,
  options: SendCommandOptions,
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

  if (journal === undefined) {
    const report = { dry_run: true, totals: { records: dryRun.invalid + dryRun.toSend + dryRun.settled, invalid: dryRun.invalid, to_send: dryRun.toSend, settled_before: dryRun.settled } }
    if (options.format === "json") process.stdout.write(`${JSON.stringify(report)}\n`)
    else process.stdout.write(`dry run: ${formatCount(report.totals.records)} records, ${formatCount(dryRun.invalid)} invalid, ${formatCount(dryRun.toSend)} to send, ${formatCount(dryRun.settled)} settled by an earlier run\n`)
    return dryRun.invalid === 0 ? EXIT.ok : EXIT.invalid
  }
  return report(files, options, journal, refusedToken)
}

const report = async (files: ReadonlyArray<string>, options: SendCommandOptions, journal: Journal, refusedToken: boolean): Promise<ExitCode> => {
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
