/**
 * The report of a migration campaign, computed from the ledger's queries (`ledger/report-queries.ts`,
 * `ledger/account-scan.ts`): a few aggregating scans of the records (by kind, supplier and outcome; by
 * account; by run and time), never the records in memory, and at most a bounded number of listed rows.
 * The same figures feed every format.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite"
import { realPathOf } from "../ledger/ledger.js"
import { LedgerMismatchError, RECORD_OUTCOMES, type RecordOutcome, STOPPED_IN_FLIGHT } from "../ledger/ledger-types.js"
import { startAccountScan } from "../ledger/account-scan.js"
import {
  completedSendRuns,
  conflictCounts,
  currentUnidentifiedCount,
  groupedRecords,
  latestMapOutputs,
  mapRejectCounts,
  mapRunRows,
  mapWarningCounts,
  runRows,
  runsSpan,
  serviceRows,
  unknownAccountCount,
  unknownAccountList
} from "../ledger/report-queries.js"
import type { LedgerTables } from "../ledger/ledger-types.js"
import type { ReportSource } from "../ledger/report-source.js"
import { cutProblem } from "./report-cells.js"
import { linesText, problemRows } from "./report-problems.js"
import { adviceFor, advised } from "./problem-advice.js"
import { movedTransactions } from "./report-moved.js"
import { exclusionsMismatches, exclusionsOf } from "./report-exclusions.js"
import {
  type AccountRow,
  type AccountTotals,
  type CampaignReport,
  type CodeCounts,
  emptyTally,
  type KindReport,
  PROBLEM_KINDS,
  type ProblemKind,
  type SupplierReport,
  type Tally,
  TALLY_KEYS,
  type UnknownAccountRows
} from "./report-types.js"

/**
 * Options of {@link campaignReport}.
 *
 * @since 0.1.0
 */
export interface CampaignReportOptions {
  /** Problems listed per kind, accounts listed (default 500); every one is counted. */
  readonly limit?: number | undefined
  /** Intervals of the timeline, at most (default 120). */
  readonly buckets?: number | undefined
  readonly now?: (() => number) | undefined
  /** Scan the accounts in a worker thread beside the scan of kinds (default: when the machine has a second core). */
  readonly parallel?: boolean | undefined
}

const bump = (codes: CodeCounts, kind: ProblemKind, cause: string | null, n: number): void => {
  const byCode = (codes[kind] ??= {})
  for (const code of (cause ?? kind).split(",")) byCode[code] = (byCode[code] ?? 0) + n
}

/**
 * A record's state as the report reads it: in flight in a run that is over (killed: it never wrote the
 * answer) is in doubt, with the cause `send` writes when it meets such a record again.
 */
const asRead = (row: { state: string; outcome: string | null; cause: string | null; run: number }, running: number | undefined) =>
  row.state === "in_flight" && row.run !== running ? { state: "done", outcome: "in_doubt", cause: STOPPED_IN_FLIGHT } : row

const KNOWN_OUTCOMES: ReadonlySet<string> = new Set(RECORD_OUTCOMES)

const add = (tally: Tally, state: string, outcome: string | null, n: number): void => {
  tally.records += n
  if (state !== "done" || outcome === null) tally[state === "in_flight" ? "in_flight" : "pending"] += n
  else tally[outcome as RecordOutcome] += n
}

/** The columns of a tally that partition its records. */
const PARTS = ["created", "already_existed", "moved", "blocked", "rejected", "in_doubt", "failed", "invalid", "pending", "in_flight"] as const

/**
 * The report's own check that nothing is lost or counted twice: each tally's records are the sum of its
 * columns, kinds and suppliers add up to the totals, and the accounts of every status to the accounts.
 * A failure is a bug of the report (the CLI's exit 70), never a figure printed wrongly.
 */
const checkConservation = (report: CampaignReport, wrong: Array<string> = []): void => {
  const tallies: Array<readonly [string, Tally]> = [["totals", report.totals], ...report.kinds.map((k) => [`kind ${k.endpoint}`, k.tally] as const), ...report.suppliers.map((s) => [`supplier ${s.supplier}`, s.tally] as const)]
  for (const [name, tally] of tallies) {
    const sum = PARTS.reduce((total, key) => total + tally[key], 0)
    if (sum !== tally.records) wrong.push(`${name}: ${tally.records} records, ${sum} in its columns`)
  }
  for (const [group, list] of [["kinds", report.kinds.map((k) => k.tally)], ["suppliers", report.suppliers.map((s) => s.tally)]] as const) {
    for (const key of TALLY_KEYS) {
      const sum = list.reduce((total, tally) => total + tally[key], 0)
      if (sum !== report.totals[key]) wrong.push(`${key}: ${report.totals[key]} in total, ${sum} over the ${group}`)
    }
  }
  const a = report.accounts.totals
  if (a.complete + a.blocked + a.partly + a.not_stored !== a.accounts) wrong.push(`accounts: ${a.accounts}, ${a.complete + a.blocked + a.partly + a.not_stored} by status`)
  for (const kind of PROBLEM_KINDS) if (report.problems.counts[kind] !== report.totals[kind]) wrong.push(`problems ${kind}: ${report.problems.counts[kind]}, totals ${report.totals[kind]}`)
  if (report.moved.total !== report.totals.moved) wrong.push(`moved: ${report.moved.total} listed as moved, totals ${report.totals.moved}`)
  const excluded = report.exclusions.counts.reduce((sum, c) => sum + c.count, 0)
  if (excluded !== report.exclusions.total) wrong.push(`exclusions: ${report.exclusions.total}, ${excluded} by outcome and reason`)
  if (wrong.length > 0) throw new Error(`the report's counts do not add up (${wrong.join("; ")})`)
}

/**
 * The payload files mapped and not sent through since: for each file the latest map run wrote (with
 * payloads), whether a send run that began after it completed with the file among those it read. A run
 * stopped or killed half-way may not have read it all, so only completed runs count; and where a completed
 * run after the map run did not record its files (an earlier version), the ledger cannot tell: not named.
 */
const unsentPayloadFilesOf = (db: DatabaseSync): CampaignReport["unsent_payload_files"] => {
  const outputs = latestMapOutputs(db)
  if (outputs.length === 0) return []
  const sends = completedSendRuns(db).map((r) => {
    let files: unknown
    try {
      files = r.counts === null ? undefined : (JSON.parse(r.counts) as { files?: unknown }).files
    } catch {
      files = undefined
    }
    return { id: r.id, files: Array.isArray(files) ? (files as Array<string>) : undefined }
  })
  // The same file by another name (a link, another spelling of the path) is the same file.
  const read = sends.map((s) => ({ id: s.id, files: s.files === undefined ? undefined : new Set([...s.files].map(realPathOf)) }))
  return outputs.filter((o) => {
    const output = realPathOf(o.output)
    return read.filter((s) => s.id > o.run).every((s) => s.files !== undefined && !s.files.has(output))
  })
}

/** The rows of the latest map runs whose supplier or account is unknown (a kind keyed by account): counted, and listed up to `limit`. */
const unknownAccountsOf = (db: DatabaseSync, tables: LedgerTables, limit: number): UnknownAccountRows => {
  const rows = unknownAccountCount(db, tables)
  if (rows === 0) return { rows, listed: [] }
  const listed = unknownAccountList(db, tables, limit).map(({ file, lines, ...row }) => ({ ...row, source_file: file, source_lines: linesText(lines) }))
  return { rows, listed }
}

const noAccounts = (): AccountTotals => ({ accounts: 0, complete: 0, blocked: 0, partly: 0, not_stored: 0 })

/**
 * Computes the report of the ledger `source`.
 *
 * @example
 * // A campaign of two lines: a market participant the service stores, and a note with neither body nor document.
 * import { createClient, openLedger, sendRecords } from "data-import-payloads"
 * const path = `${process.env["TMPDIR"] ?? "/tmp"}/campaign-${process.pid}-${Date.now()}.ledger`
 * const ledger = openLedger(path, { service: "https://api.example.energy" })
 * const client = createClient({ baseUrl: "https://api.example.energy", token: "my-token", fetch: (async (_: string, init: RequestInit) => new Response(init.body, { status: 201 })) as typeof fetch })
 * const participant = JSON.stringify({ code: 9900000000003, code_type: "BDEW", name: "Netz Nord", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" })
 * const note = JSON.stringify({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ is_pinned: true }] })
 * await sendRecords([{ file: "a.ndjson", line: 1, text: participant }, { file: "a.ndjson", line: 2, text: note }], { ledger, client, service: "https://api.example.energy" })
 * ledger.close()
 *
 * const source = openReportSource(path)
 * const report = campaignReport(source)
 * source.close()
 * report.totals // => { records: 2, created: 1, invalid: 1, blocked: 0, pending: 0, in_flight: 0, map_rejected: 0, … }
 * report.complete // => false
 * report.kinds.map((kind) => kind.endpoint) // => ["market-participant", "notes"]
 * report.accounts // => { totals: { accounts: 1, complete: 0, blocked: 0, partly: 0, not_stored: 1 }, listed: [{ supplier: "STADTWERKE_NORD", account: "KD-1", records: 1, stored: 0, status: "not_stored", causes: [], map_rejected: 0, map_warning: 0 }], unlisted: 0, unknown: { rows: 0, listed: [] } }
 * report.problems.listed // => [{ problem: "invalid", endpoint: "notes", code: "note_body_or_document_path_not_found", supplier: "STADTWERKE_NORD", account: "KD-1", source_file: "a.ndjson", source_lines: "2", payload_file: "a.ndjson", payload_line: 2, … }]
 *
 * @since 0.1.0
 */
export const campaignReport = (source: ReportSource, options: CampaignReportOptions = {}): CampaignReport => {
  const { db, tables } = source
  const limit = options.limit ?? 500
  const totals = emptyTally()
  const kinds = new Map<string, { tally: Tally; codes: CodeCounts }>()
  const suppliers = new Map<string, Tally>()
  const kindOf = (endpoint: string) => {
    let k = kinds.get(endpoint)
    if (k === undefined) kinds.set(endpoint, (k = { tally: emptyTally(), codes: {} }))
    return k
  }
  const supplierOf = (supplier: string | null): Tally => {
    const name = supplier ?? "(none)"
    let s = suppliers.get(name)
    if (s === undefined) suppliers.set(name, (s = emptyTally()))
    return s
  }

  // The timeline's interval, from the runs (every record is written within one): no scan of the records.
  const now = (options.now ?? Date.now)()
  const span = runsSpan(db, now)
  const minute = 60_000
  const wide = span.first === null || span.last === null ? 0 : span.last - span.first
  const bucketMs = Math.max(minute, Math.ceil(wide / (options.buckets ?? 120) / minute) * minute)
  const points = new Map<number, number>()
  const perRun = new Map<number, number>()

  // The scan of accounts starts first: with a core to spare it runs meanwhile, in a worker thread.
  const accountScan = startAccountScan(db, source.file ?? source.path, limit, { map: tables.map, mapWarnings: tables.mapWarnings, parallel: options.parallel })

  /** Outcomes this version does not know (a ledger a later version wrote), with their records. */
  const unknown = new Map<string, number>()
  // One scan: records by kind, supplier, state, outcome and cause, and by run and interval of their last change.
  for (const row of groupedRecords(db, bucketMs)) {
    if (row.state === "done" && row.outcome !== null && !KNOWN_OUTCOMES.has(row.outcome)) {
      unknown.set(row.outcome, (unknown.get(row.outcome) ?? 0) + row.n)
      continue
    }
    const at = row.bucket * bucketMs
    points.set(at, (points.get(at) ?? 0) + row.n)
    perRun.set(row.run, (perRun.get(row.run) ?? 0) + row.n)
    const kind = kindOf(row.endpoint)
    const { state, outcome, cause } = asRead(row, source.running)
    for (const tally of [totals, kind.tally, supplierOf(row.supplier)]) add(tally, state, outcome, row.n)
    if (state === "done" && outcome !== null && (PROBLEM_KINDS as ReadonlyArray<string>).includes(outcome)) bump(kind.codes, outcome as ProblemKind, cause, row.n)
  }
  const unidentified = currentUnidentifiedCount(db)
  if (unidentified > 0) {
    const kind = kindOf("(unidentified)")
    for (const tally of [totals, kind.tally, supplierOf(null)]) {
      tally.records += unidentified
      tally.invalid += unidentified
    }
    bump(kind.codes, "invalid", "unidentified", unidentified)
  }
  for (const row of conflictCounts(db)) {
    const kind = kindOf(row.endpoint)
    for (const tally of [totals, kind.tally, supplierOf(row.supplier)]) tally.conflict += row.n
    bump(kind.codes, "conflict", "conflict", row.n)
  }
  if (tables.map) {
    for (const row of mapRejectCounts(db)) {
      const kind = kindOf(row.endpoint ?? "(unknown)")
      for (const tally of [totals, kind.tally, supplierOf(row.supplier)]) tally.map_rejected += row.n
      bump(kind.codes, "map_rejected", row.codes, row.n)
    }
  }
  if (tables.map && tables.mapWarnings === true) {
    for (const row of mapWarningCounts(db)) {
      const kind = kindOf(row.endpoint ?? "(unknown)")
      for (const tally of [totals, kind.tally, supplierOf(row.supplier)]) tally.map_warning += row.n
      bump(kind.codes, "map_warning", row.code, row.n)
    }
  }
  const unknownAccounts = tables.map ? unknownAccountsOf(db, tables, limit) : { rows: 0, listed: [] }

  const scan = accountScan()
  // (After the scan of accounts has answered: its worker thread is done with the ledger.)
  if (unknown.size > 0) {
    // Counted nowhere, they would make the figures wrong; guessed at, the report would say what nobody knows.
    const list = [...unknown].map(([outcome, n]) => `${n} with the outcome "${outcome}"`).join(", ")
    throw new LedgerMismatchError(`${source.path} holds records this version of data-import cannot report (${list}): report it with the version that wrote it`)
  }
  const accountTotals = new Map<string, AccountTotals>()
  const allAccounts = noAccounts() as { -readonly [K in keyof AccountTotals]: number }
  for (const row of scan.bySupplier) {
    const t: AccountTotals = { accounts: row.accounts, complete: row.complete, blocked: row.blocked, partly: row.partly, not_stored: row.not_stored }
    accountTotals.set(row.supplier ?? "(none)", t)
    for (const k of Object.keys(allAccounts) as Array<keyof AccountTotals>) allAccounts[k] += t[k]
  }
  const listedAccounts: Array<AccountRow> = scan.listed.map((r) => ({
    supplier: r.supplier ?? "(none)",
    account: r.account,
    records: r.n,
    stored: r.stored,
    status: r.blocked > 0 ? "blocked" : r.stored > 0 ? "partly" : "not_stored",
    causes: r.causes === null ? [] : [...new Set(r.causes.split(","))].sort(),
    map_rejected: r.map_rejected,
    map_warning: r.map_warning
  }))

  const runs = runRows(db).map((r) => {
    const records = perRun.get(r.id) ?? 0
    const minutes = r.ended_at === null ? null : Math.max(r.ended_at - r.started_at, 1) / minute
    // A run that never ended and does not hold the ledger now was killed (a map run in progress keeps every reader out).
    const ended = r.ended ?? (r.id === source.running ? null : "killed")
    return { ...r, ended, records, per_minute: minutes === null || r.command === "map" ? null : Math.round((records / minutes) * 10) / 10 }
  })

  const unsentPayloadFiles = tables.map ? unsentPayloadFilesOf(db) : []

  const problemCounts = Object.fromEntries(PROBLEM_KINDS.map((k) => [k, totals[k]])) as Record<ProblemKind, number>
  const topCodes = new Map<string, { problem: ProblemKind; code: string; count: number }>()
  for (const kind of kinds.values()) {
    for (const [problem, codes] of Object.entries(kind.codes) as Array<[ProblemKind, Record<string, number>]>) {
      for (const [code, count] of Object.entries(codes)) {
        const entry = topCodes.get(`${problem} ${code}`) ?? { problem, code, count: 0 }
        entry.count += count
        topCodes.set(`${problem} ${code}`, entry)
      }
    }
  }
  const stored = totals.created + totals.already_existed + totals.moved
  const open = PROBLEM_KINDS.reduce((sum, k) => sum + totals[k], 0)
  const kindReports: Array<KindReport> = [...kinds.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([endpoint, k]) => ({ endpoint, ...k }))
  const supplierReports: Array<SupplierReport> = [...suppliers.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([supplier, tally]) => ({ supplier, tally, accounts: accountTotals.get(supplier) ?? noAccounts() }))
  const report: CampaignReport = {
    ledger: source.path,
    generated_at: now,
    totals,
    // A ledger without records (new, or written by map runs alone) has stored nothing: not complete.
    complete: totals.records > 0 && stored === totals.records && open === 0 && unsentPayloadFiles.length === 0,
    kinds: kindReports,
    suppliers: supplierReports,
    accounts: { totals: allAccounts, listed: listedAccounts, unlisted: allAccounts.accounts - allAccounts.complete - listedAccounts.length, unknown: unknownAccounts },
    map_runs: tables.map
      ? mapRunRows(db, tables)
      : [],
    unsent_payload_files: unsentPayloadFiles,
    runs,
    timeline: { bucket_ms: bucketMs, points: [...points.entries()].sort((a, b) => a[0] - b[0]).map(([at, records]) => ({ at, records })) },
    services: serviceRows(db),
    top_codes: [...topCodes.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)).slice(0, 20).map((c) => ({ ...c, advice: adviceFor(c.problem, c.code) })),
    problems: { counts: problemCounts, limit, listed: Array.from(problemRows(db, tables, { perKind: limit, counts: problemCounts, running: source.running }), (p) => advised(cutProblem(p))) },
    moved: movedTransactions(db, tables, limit),
    exclusions: exclusionsOf(db, tables, limit)
  }
  checkConservation(report, exclusionsMismatches(db, tables))
  return report
}
