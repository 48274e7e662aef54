/**
 * The send engine: records in (NDJSON lines with their file and line), requests out, every record's
 * outcome in the ledger. A record whose identity the ledger holds as stored is never sent again,
 * whatever file or line it arrives on; a record met with other content than a stored version is a
 * conflict and is not sent; blocked and failed records are sent again by every run; a record refused for
 * its content is sent again only once its content changed.
 *
 * @module
 */
import type { Client } from "../client/create-client.js"
import { redactSecrets } from "../client/redact-secrets.js"
import { isRepeatHarmless } from "../client/repeat-is-harmless.js"
import type { SendOutcome } from "../client/outcome.js"
import { pathParameterProblem } from "../schemas/endpoints/build-path.js"
import { endpoints, type EndpointDefinition } from "../schemas/endpoints/catalogue.js"
import { bodyWith, type KeyedRecord } from "../schemas/endpoints/natural-key.js"
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { ApiError } from "../schemas/errors.js"
import { journaledWorkers } from "./journaled-workers.js"
import { type BlockedCause, type Ledger, type LedgerOutcome, type LedgerRecord, RECORD_OUTCOMES, type RecordState, STOPPED_IN_FLIGHT, STORED_OUTCOMES } from "../ledger/ledger-types.js"
import { planLine, type PlannedRequest } from "./plan-line.js"
import { checkAccounts, DISPOSITIONS, type SendSummary } from "./send-summary.js"
import { recordOutcomes } from "./record-outcomes.js"
import { decisionOf, reopenedBy, withDecision } from "./option-decisions.js"

/**
 * One line of input: its file, physical line and text. An undecodable line is invalid.
 *
 * @since 0.1.0
 */
export interface SourceLine {
  readonly file: string
  readonly line: number
  readonly text: string
  readonly undecodable?: boolean | undefined
}

/**
 * Options of {@link sendRecords}.
 *
 * @since 0.1.0
 */
export interface SendRecordsOptions {
  readonly ledger: Ledger
  /** The client that sends; without one the run is a dry run: planned against the ledger, nothing written or sent. */
  readonly client?: Client | undefined
  /** The service's base URL, as the ledger records it for the run. */
  readonly service?: string | undefined
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number | undefined
  /** Every line is a body of this endpoint (default: inferred from each body). */
  readonly endpoint?: PostEndpointId | undefined
  /** Send records whose earlier outcome is unknown again even where a repeat is not harmless. */
  readonly resendInDoubt?: boolean | undefined
  /** Let the service move transactions outside the open statement period into it (default `false`). */
  readonly forceAddToCurrentStatement?: boolean | undefined
  /** Records with warnings are not sent: they end `invalid`, their warnings listed (default `false`). */
  readonly failOnWarnings?: boolean | undefined
  /**
   * Errors of a body beyond its validation, each at the attr of a record (`notes.0.document_paths.0.document_path`):
   * those records are `invalid`, not sent. `send --documents` checks the file store folder here.
   */
  readonly checkDocuments?: ((endpoint: PostEndpointId, body: unknown) => ReadonlyArray<ApiError>) | undefined
  /** Let the service skip transactions it has already (default `true`). */
  readonly checkPreviouslyAdded?: boolean | undefined
  /** Texts never to be written to the ledger (token, API key): replaced wherever an answer echoes them. */
  readonly secrets?: ReadonlyArray<string> | undefined
  /** Aborted: no further request starts; the answers in flight are awaited and written. */
  readonly signal?: AbortSignal | undefined
  /** The clock of validation (transactions in the future). */
  readonly now?: (() => Date) | undefined
  /** Called after each line is planned and after each answer, for progress. */
  readonly onProgress?: ((progress: { readonly lines: number; readonly answered: number }) => void) | undefined
  /** What the ledger records as the run's command and options. */
  readonly command?: string | undefined
  readonly runOptions?: unknown
}

interface Job {
  readonly request: PlannedRequest
  readonly file: string
  readonly line: number
}

/** The cause of a record already there whose earlier request, of this campaign, may have stored it. */
const MAYBE_OWN = "maybe_stored_by_an_earlier_request"

const PENDING_BATCH = 256
const FLUSH_MS = 20

const zeroes = <K extends string>(keys: ReadonlyArray<K>): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>


/**
 * Sends the records of `lines` with the ledger's memory of the campaign, and returns what became of
 * them (each record's outcome is in the ledger). Never throws for a bad line or an HTTP failure; throws
 * the ledger's error when the ledger cannot be written (nothing is sent after that).
 *
 * @example
 * import { createClient } from "data-import-payloads"
 * const ledger = openLedger(":memory:", { service: "https://api.example.energy/" })
 * const service = async (_: string, init: RequestInit) => new Response(init.body, { status: 201 })
 * const client = createClient({ baseUrl: "https://api.example.energy", token: "my-token", fetch: service as typeof fetch })
 * const line = JSON.stringify({ code: 9900000000003, code_type: "BDEW", name: "Netz Nord", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" })
 * const first = await sendRecords([{ file: "a.ndjson", line: 1, text: line }], { ledger, client })
 * first.outcomes.created // => 1
 * const again = await sendRecords([{ file: "copy.ndjson", line: 7, text: line }], { ledger, client })
 * again.dispositions.settled_before // => 1
 *
 * @since 0.1.0
 */
export const sendRecords = async (lines: AsyncIterable<SourceLine> | Iterable<SourceLine>, options: SendRecordsOptions): Promise<SendSummary> => {
  const { ledger, client } = options
  const dryRun = client === undefined
  const secrets = (options.secrets ?? []).filter((s) => s !== "")
  const query = {
    check_previously_added: options.checkPreviouslyAdded ?? true,
    force_add_to_current_statement: options.forceAddToCurrentStatement ?? false
  }
  // The query goes only to an endpoint that takes it (its catalogue entry's `queryParameters`, transactions):
  // what a record was sent with decides some of its outcomes.
  const queries = new Map<PostEndpointId, Readonly<Record<string, boolean>> | undefined>()
  const queryOf = (endpoint: PostEndpointId): Readonly<Record<string, boolean>> | undefined => {
    if (queries.has(endpoint)) return queries.get(endpoint)
    const entry: EndpointDefinition = endpoints[endpoint]
    const names = new Set(entry.queryParameters.map((p) => p.name))
    const taken = names.size === 0 ? undefined : Object.fromEntries(Object.entries(query).filter(([name]) => names.has(name)))
    queries.set(endpoint, taken)
    return taken
  }
  const run = dryRun ? 0 : ledger.startRun(options.command ?? "send", options.service ?? null, options.runOptions ?? {})
  const dispositions = zeroes(DISPOSITIONS)
  const outcomes = zeroes(RECORD_OUTCOMES)
  const byEndpoint: Record<string, Record<string, number>> = {}
  const causes: Record<string, number> = {}
  const warnings: Record<string, number> = {}
  const firstWarnings: Array<SendSummary["firstWarnings"][number]> = []
  const count = (endpoint: string, what: string): void => {
    const counts = (byEndpoint[endpoint] ??= {})
    counts[what] = (counts[what] ?? 0) + 1
  }
  const seen = new Map<string, string>()
  const notSent = new Set<string>()
  let linesRead = 0
  const filesRead = new Set<string>()
  let records = 0
  let answered = 0
  let unauthorized = false
  const stopped = (): boolean => options.signal?.aborted === true
  const progress = (): void => options.onProgress?.({ lines: linesRead, answered })
  const clean = (outcome: LedgerOutcome): LedgerOutcome =>
    secrets.length === 0 || outcome.detail === undefined ? outcome : redactSecrets(outcome, secrets)

  /**
   * The cause of a 404 for an account, asked once per account and run of the status endpoint. An account
   * or supplier that no URL can carry (`.`, `..`) cannot be asked about: its cause stays the 404's own.
   */
  const accountCauses = new Map<string, Promise<BlockedCause>>()
  const causeOf = (record: KeyedRecord): Promise<BlockedCause> => {
    const key = JSON.stringify([record.supplier, record.account])
    let cause = accountCauses.get(key)
    if (cause === undefined) {
      const askable = pathParameterProblem(record.supplier) === undefined && pathParameterProblem(record.account) === undefined
      cause = client === undefined || !askable
        ? Promise.resolve("account_not_found")
        : client.send("account-transfer-status", { import_supplier_code: record.supplier, external_account_number: record.account }).then((o) =>
          o.kind === "not_found" ? "account_unknown" : o.kind === "ok" ? "account_not_imported" : "account_not_found"
        )
      accountCauses.set(key, cause)
    }
    return cause
  }

  /** Sends a request, and again without the records a refusal named, until every record has an outcome. */
  const sendJob = async (job: Job): Promise<ReadonlyArray<readonly [KeyedRecord, LedgerOutcome | "unsent"]>> => {
    const done: Array<readonly [KeyedRecord, LedgerOutcome | "unsent"]> = []
    let request = job.request
    for (;;) {
      if (unauthorized || stopped()) {
        const why: LedgerOutcome | "unsent" = unauthorized
          ? { outcome: "failed", cause: "unauthorized", detail: "Not sent: the service refused the credentials (401) earlier in this run." }
          : "unsent"
        return [...done, ...request.records.map((r) => [r, why] as const)]
      }
      const signal = options.signal === undefined ? {} : { signal: options.signal }
      const sentWith = queryOf(request.endpoint)
      const outcome: SendOutcome = await client!.send(request.endpoint, request.body, sentWith === undefined ? signal : { query: sentWith, ...signal })
      if (outcome.kind === "unauthorized") unauthorized = true
      const result = recordOutcomes(request.endpoint, request.body, request.records, outcome)
      const cause = result.askAccount === true && request.records[0] !== undefined ? await causeOf(request.records[0]) : undefined
      for (const [record, o] of result.settled) done.push([record, cause === undefined ? o : { ...o, cause }])
      if (result.again.length === 0) return done
      const positions = result.again.map((r) => request.records.indexOf(r))
      request = { endpoint: request.endpoint, body: bodyWith(request.endpoint, request.body, positions), records: result.again }
    }
  }

  /**
   * The records sent in this run that an earlier request may have stored (in doubt, or in flight when a run
   * died), by their state before this run marked them, and whether a repeat of them is harmless. One whose
   * repeat is harmless is answered as the earlier request left it (a note or transaction stored already is
   * `…_ALREADY_EXISTS`), so its answer is its outcome. One sent again on `resendInDoubt` alone: an answer
   * that does not say it is stored now (blocked, rejected, failed) says nothing of the earlier request, so
   * it stays in doubt, never `blocked` or `failed`, which every later run would send again unasked,
   * storing it twice. Except blocked for its account, market participant or network operator: an import is
   * never undone, so one missing now was missing then, and the earlier request was refused too (a supplier,
   * though, may have been paused since). Stopped before its request left, either goes back to its state
   * before the run.
   */
  const maybeStored = new Map<string, { readonly state: RecordState; harmless: boolean }>()
  /** Records whose outcome a send option decided, by that option's flag: kept back, and sent again on this run's options. */
  const decisions: Record<string, { waiting: number; taken: number }> = {}
  /** Records in doubt sent again on `resendInDoubt` alone (a repeat not harmless), and those of them the answer says are stored now. */
  const resentInDoubt = { sent: 0, stored: 0 }
  const known = (identity: string): LedgerRecord | undefined => {
    const record = ledger.record(identity)
    if (record !== undefined && (record.state === "in_flight" || (record.state === "done" && record.outcome === "in_doubt"))) {
      maybeStored.set(identity, { state: record.state, harmless: false })
    }
    const decision = record === undefined ? undefined : decisionOf(record)
    if (decision !== undefined) {
      const counts = (decisions[decision.flag] ??= { waiting: 0, taken: 0 })
      if (reopenedBy(record!, query) === undefined) counts.waiting++
      else counts.taken++
    }
    return record
  }
  const stillInDoubt = (outcome: LedgerOutcome): LedgerOutcome => ({
    outcome: "in_doubt",
    cause: "in_doubt_before",
    httpStatus: outcome.httpStatus,
    attempts: outcome.attempts,
    detail: {
      reason: `Maybe stored by an earlier request whose outcome is unknown; sent again, this request was not stored (${outcome.outcome}${outcome.cause === undefined || outcome.cause === null ? "" : `: ${outcome.cause}`}).`,
      answer: outcome.detail ?? null
    }
  })

  const marked = new WeakSet<Job>()
  const sender = dryRun ? undefined : journaledWorkers<Job, ReadonlyArray<readonly [KeyedRecord, LedgerOutcome | "unsent"]>>({
    concurrency: Math.max(1, options.concurrency ?? 4),
    group: Math.max(1, options.concurrency ?? 4),
    flushMs: FLUSH_MS,
    queueLimit: 2 * PENDING_BATCH
  }, {
    begin: (job) => {
      // Stopped: its request will not leave, and a record never marked was never sent. (After a 401 it is
      // marked all the same, so that its `failed` is written.)
      if (stopped()) return
      marked.add(job)
      const sentWith = queryOf(job.request.endpoint)
      for (const r of job.request.records) ledger.inFlight({ ...r, endpoint: job.request.endpoint, file: job.file, line: job.line }, run, sentWith)
    },
    send: sendJob,
    end: (job, results) => {
      for (const [record, answer] of results) {
        const before = maybeStored.get(record.identity)
        maybeStored.delete(record.identity)
        if (answer === "unsent") {
          // Stopped before its request left: as it was before this run marked it (when it was), for the next
          // run to judge again: pending, or still maybe stored by an earlier request.
          if (marked.has(job)) ledger.unsent(record.identity, before?.state)
          dispositions.unsent++
          count(job.request.endpoint, "unsent")
        } else {
          const refusedThen = answer.outcome === "blocked" && answer.cause !== "supplier_not_ongoing"
          const outcome = before !== undefined && !before.harmless && answer.outcome !== "in_doubt" && !STORED_OUTCOMES.has(answer.outcome) && !refusedThen
            ? stillInDoubt(answer)
            : before !== undefined && answer.outcome === "already_existed"
            // Maybe this campaign's own earlier request stored it: no option may send it once more.
            ? { ...answer, cause: MAYBE_OWN }
            : withDecision(job.request.endpoint, answer, query)
          // Stored now, and maybe by the earlier request too: a possible duplicate.
          if (before !== undefined && !before.harmless && STORED_OUTCOMES.has(outcome.outcome)) resentInDoubt.stored++
          ledger.settle(record.identity, clean(outcome))
          outcomes[outcome.outcome]++
          count(job.request.endpoint, outcome.outcome)
          if (outcome.outcome === "blocked" || outcome.outcome === "rejected") {
            const key = `${outcome.outcome}:${outcome.cause ?? "unknown"}`
            causes[key] = (causes[key] ?? 0) + 1
          }
        }
      }
      answered += results.length
      progress()
    },
    together: (work) => ledger.batch(work)
  })

  /** Where earlier runs met lines that named no record: a record read there now ends that (few, so held here). */
  const unidentifiedBefore = new Set(dryRun ? [] : ledger.unidentifiedPlaces().map((p) => `${p.line}:${p.file}`))
  let batch: Array<Job> = []
  /** Ledger writes of the lines planned since the last flush: one commit for many lines. */
  let writes: Array<() => void> = []
  const flush = async (): Promise<void> => {
    const jobs = batch
    const pending = writes
    batch = []
    writes = []
    // Written (pending) before their jobs are handed on: a job is marked in flight only after this commit.
    if (pending.length > 0) ledger.batch(() => pending.forEach((write) => write()))
    if (jobs.length > 0) await sender!.add(jobs)
  }
  for await (const source of lines) {
    if (stopped()) break
    linesRead++
    filesRead.add(source.file)
    const plan = source.undecodable === true
      ? { kind: "unidentified" as const, endpoint: null, detail: "The line is not valid UTF-8.", errors: [] }
      : planLine(source.text, {
        known,
        rekey: dryRun ? undefined : (from, to, key) => {
          maybeStored.delete(from)
          ledger.rekey(from, to, key)
        },
        seen,
        notSent,
        endpoint: options.endpoint,
        resendInDoubt: options.resendInDoubt === true,
        query,
        now: options.now,
        failOnWarnings: options.failOnWarnings,
        checkDocuments: options.checkDocuments
      })
    if (plan.kind === "unidentified") {
      records++
      dispositions.invalid++
      count(plan.endpoint ?? "(none)", "invalid")
      if (!dryRun) writes.push(() => ledger.unidentified(run, source.file, source.line, plan.detail))
      continue
    }
    records += plan.judged.length
    // Only the records handed to the senders are looked for at their answer.
    for (const { record, disposition } of plan.judged) {
      const before = maybeStored.get(record.identity)
      if (before === undefined) continue
      if (disposition !== "send" || plan.request === undefined) maybeStored.delete(record.identity)
      else {
        before.harmless = isRepeatHarmless(plan.endpoint, record.index === null ? plan.request.body : bodyWith(plan.endpoint, plan.request.body, [plan.request.records.indexOf(record)]), query)
        if (!before.harmless) resentInDoubt.sent++
      }
    }
    if (unidentifiedBefore.size > 0 && unidentifiedBefore.delete(`${source.line}:${source.file}`)) writes.push(() => ledger.identified(source.file, source.line))
    for (const { record, disposition, errors, warnings: found } of plan.judged) {
      for (const w of found ?? []) {
        warnings[w.code] = (warnings[w.code] ?? 0) + 1
        if (firstWarnings.length < 10) firstWarnings.push({ file: source.file, line: source.line, attr: w.attr, code: w.code, detail: w.detail })
      }
      dispositions[disposition]++
      if (disposition !== "send") count(plan.endpoint, disposition)
      if (disposition === "invalid") outcomes.invalid++
      // A record to send is written when it is marked in flight, just before its request leaves.
      if (dryRun || disposition === "send" || disposition === "duplicate" || disposition === "settled_before") continue
      writes.push(() => {
        const sighting = { ...record, endpoint: plan.endpoint, file: source.file, line: source.line }
        // Still a problem, and not sent: where it is now (a payload file mapped again has moved it), for the report.
        if (disposition === "rejected_before" || disposition === "kept_in_doubt") ledger.readAt(record.identity, source.file, source.line)
        if (disposition === "conflict") ledger.conflict(record.identity, record.content, source.file, source.line, run)
        if (disposition === "invalid") {
          ledger.pending(sighting, run)
          ledger.settle(record.identity, { outcome: "invalid", cause: errors?.map((e) => e.code).join(",") ?? "invalid", detail: errors })
        }
        // In flight when an earlier run died: what that run could not write is written now, as in doubt.
        if (disposition === "kept_in_doubt" && ledger.record(record.identity)?.state !== "done") {
          ledger.settle(record.identity, {
            outcome: "in_doubt",
            cause: STOPPED_IN_FLIGHT,
            detail: "In flight when an earlier run stopped: the outcome is unknown, and a repeat is not harmless for this endpoint."
          })
        }
      })
    }
    if (plan.request !== undefined && !dryRun) batch.push({ request: plan.request, file: source.file, line: source.line })
    if (batch.length >= PENDING_BATCH || writes.length >= 4 * PENDING_BATCH) await flush()
    progress()
  }
  if (!dryRun) {
    await flush()
    await sender!.drain()
  }
  const summary: SendSummary = { run, dryRun, lines: linesRead, records, dispositions, outcomes, byEndpoint, causes, warnings, firstWarnings, decisions, resentInDoubt, stopped: stopped(), unauthorized }
  checkAccounts(summary)
  // The files read (to the end, when completed): the report tells a payload file mapped and never sent through by them.
  if (!dryRun) ledger.endRun(run, summary.stopped ? "interrupted" : "completed", { dispositions, outcomes, files: [...filesRead] })
  return summary
}
