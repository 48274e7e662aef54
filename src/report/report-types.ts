/**
 * The campaign report's vocabulary: what `campaignReport` computes from the ledger's queries
 * (src/ledger/), and what every format (text, markdown, json, csv, html) renders.
 *
 * @module
 */
import type { RunRow as LedgerRunRow } from "../ledger/report-queries.js"

/**
 * The problems on the legacy team's to-do list, in the order they are listed: the last, `map_warning`
 * (rows `map` let through with a warning, such as an exact repeat), is left to look at, not a failure.
 */
export const PROBLEM_KINDS = ["map_rejected", "invalid", "rejected", "blocked", "failed", "in_doubt", "conflict", "map_warning"] as const
/**
 * A kind of problem on the to-do list: a row `map` rejected, a record invalid, rejected, blocked, failed,
 * in doubt or in conflict, or rows `map` warned about.
 *
 * @since 0.1.0
 */
export type ProblemKind = (typeof PROBLEM_KINDS)[number]

/** The columns of a tally: records by what became of them (plus map rejects and conflicts, beside them). */
export const TALLY_KEYS = [
  "map_rejected",
  "map_warning",
  "records",
  "created",
  "already_existed",
  "moved",
  "blocked",
  "rejected",
  "conflict",
  "in_doubt",
  "failed",
  "invalid",
  "pending",
  "in_flight"
] as const
export type TallyKey = (typeof TALLY_KEYS)[number]

/**
 * Counts: `records` = created + already_existed + moved + blocked + rejected + in_doubt + failed +
 * invalid + pending + in_flight. `map_rejected` (rows refused by the latest map run of each export),
 * `map_warning` (its warnings about rows it let through) and `conflict` (records met again with other
 * content) are beside it, not inside.
 *
 * @since 0.1.0
 */
export type Tally = Record<TallyKey, number>

/** Codes by problem: blocked causes, rejection codes of the service, validation codes, map codes. */
export type CodeCounts = Partial<Record<ProblemKind, Record<string, number>>>

/** One kind of record (an endpoint). */
export interface KindReport {
  readonly endpoint: string
  readonly tally: Tally
  readonly codes: CodeCounts
}

/**
 * Accounts by state: complete (every record stored, and no legacy row of the account rejected or warned
 * about by the latest map run of its export), blocked (some record blocked), partly, nothing stored.
 */
export interface AccountTotals {
  readonly accounts: number
  readonly complete: number
  readonly blocked: number
  readonly partly: number
  readonly not_stored: number
}

export interface SupplierReport {
  readonly supplier: string
  readonly tally: Tally
  readonly accounts: AccountTotals
}

/** An account that is not complete. */
export interface AccountRow {
  readonly supplier: string
  readonly account: string
  readonly records: number
  readonly stored: number
  readonly status: "complete" | "blocked" | "partly" | "not_stored"
  /** Why its blocked records are blocked. */
  readonly causes: ReadonlyArray<string>
  /** Its legacy rows the latest map run of their export rejected: data the service does not have. */
  readonly map_rejected: number
  /** Its legacy rows the latest map run of their export warned about (an exact repeat, …): to look at. */
  readonly map_warning: number
}

/**
 * Rows `map` rejected or warned about, of a kind whose records belong to accounts, whose supplier or account
 * could not be told (a value table that does not know the code, an empty cell, an unreadable line): filed
 * under no account (never under the raw cell), counted and listed here with their file and lines.
 */
export interface UnknownAccountRows {
  readonly rows: number
  /** At most the report's limit of them, by file and line. */
  readonly listed: ReadonlyArray<Pick<Problem, "problem" | "endpoint" | "code" | "supplier" | "account" | "source_file" | "source_lines">>
}

export interface RunRow extends LedgerRunRow {
  /** `completed`, `interrupted` or `failed` as the run wrote it; `killed` when it never ended and holds the ledger no more; `null` while it runs. */
  readonly ended: string | null
  /** Records this run wrote last (a later run that sent a record again takes it over). */
  readonly records: number
  /** Records per minute over the run's duration. */
  readonly per_minute: number | null
}

/** Records written last in one interval of the timeline. */
export interface TimePoint {
  readonly at: number
  readonly records: number
}

/**
 * One problem: a line of the to-do list.
 *
 * @since 0.1.0
 */
export interface Problem {
  readonly problem: ProblemKind
  readonly endpoint: string
  readonly code: string
  readonly supplier: string | null
  readonly account: string | null
  /** The legacy export and its physical lines, when the lineage is known; else the payload file. */
  readonly source_file: string | null
  readonly source_lines: string | null
  readonly payload_file: string | null
  readonly payload_line: number | null
  readonly detail: string
  readonly raw: string | null
}

/** A problem with what to do about it (`adviceFor`): a line of the to-do list as every format shows it. */
export type AdvisedProblem = Problem & { readonly advice: string }

/**
 * A transaction the service moved into the open statement period of its account (sent with
 * `force_add_to_current_statement`): stored with another date, and a note pinned on the account.
 */
export interface MovedTransaction {
  readonly supplier: string | null
  readonly account: string | null
  readonly transaction_id: string | null
  /** The date sent, and the date the service stored it with. */
  readonly from: string | null
  readonly to: string | null
  /** The text the service wrote into the transaction about the move, as its answer carried it (null when the ledger does not hold it). */
  readonly service_note: string | null
  /** The legacy export and its physical lines, when the lineage is known; else the payload file. */
  readonly source_file: string | null
  readonly source_lines: string | null
  readonly payload_file: string | null
  readonly payload_line: number | null
}

/**
 * A record left out on purpose, as the report lists it.
 *
 * @since 0.1.0
 */
export interface ExcludedRow {
  readonly outcome: string
  readonly reason: string
  readonly endpoint: string | null
  readonly supplier: string | null
  readonly account: string | null
  readonly source_file: string
  readonly source_lines: string | null
  readonly detail: string
  readonly raw: string | null
}

/**
 * The records left out on purpose: how many, how many per outcome and reason, and at most `limit` listed
 * (by file and line).
 *
 * @since 0.1.0
 */
export interface ReportExclusions {
  readonly total: number
  readonly counts: ReadonlyArray<{ readonly outcome: string; readonly reason: string; readonly count: number }>
  readonly limit: number
  readonly listed: ReadonlyArray<ExcludedRow>
}

/**
 * What `campaignReport` computes from a ledger: totals, kinds, suppliers, accounts, runs, the timeline, the
 * top codes and the listed problems; every format of `data-import report` is written from it.
 *
 * @since 0.1.0
 */
export interface CampaignReport {
  readonly ledger: string
  readonly generated_at: number
  readonly totals: Tally
  /** Every record stored and nothing on the to-do list; never for a ledger without records. */
  readonly complete: boolean
  readonly kinds: ReadonlyArray<KindReport>
  readonly suppliers: ReadonlyArray<SupplierReport>
  readonly accounts: { readonly totals: AccountTotals; readonly listed: ReadonlyArray<AccountRow>; readonly unlisted: number; readonly unknown: UnknownAccountRows }
  readonly map_runs: ReadonlyArray<{ readonly run: number; readonly input: string; readonly output: string | null; readonly endpoint: string | null; readonly rows_read: number; readonly payloads: number; readonly rows_rejected: number; readonly rows_excluded: number }>
  /**
   * Payload files that the latest map run writing each of them wrote (with payloads), and that no run has
   * sent through since (read to the end and completed): their records are nowhere else in the ledger.
   * Empty when the ledger cannot tell (a send run of an earlier version did not record the files it read).
   */
  readonly unsent_payload_files: ReadonlyArray<{ readonly run: number; readonly input: string; readonly output: string; readonly payloads: number }>
  readonly runs: ReadonlyArray<RunRow>
  readonly timeline: { readonly bucket_ms: number; readonly points: ReadonlyArray<TimePoint> }
  readonly services: ReadonlyArray<{ readonly url: string; readonly first_run: number; readonly last_run: number }>
  /** The most frequent codes, each with what to do about it. */
  readonly top_codes: ReadonlyArray<{ readonly problem: ProblemKind; readonly code: string; readonly count: number; readonly advice: string }>
  /** Problems by kind (all of them), and at most `limit` listed per kind, each with what to do. */
  readonly problems: { readonly counts: Record<ProblemKind, number>; readonly limit: number; readonly listed: ReadonlyArray<AdvisedProblem> }
  /**
   * What the service changed: the transactions it moved into the open statement period (all counted, at
   * most `limit` listed), on how many accounts (it pinned a note on the account for each), and what to do.
   */
  readonly moved: { readonly total: number; readonly accounts: number; readonly advice: string; readonly listed: ReadonlyArray<MovedTransaction> }
  /**
   * Rows the latest map run of each export left out on purpose (skipped outside the reader file's
   * selection, superseded, cancelled): counted by outcome and reason, at most `limit` listed. Not problems.
   */
  readonly exclusions: ReportExclusions
}

export const emptyTally = (): Tally => Object.fromEntries(TALLY_KEYS.map((k) => [k, 0])) as Tally
