/**
 * The ledger's vocabulary: the outcomes of a record, what the ledger holds of it, and the interface of
 * the ledger (`openLedger` implements it over SQLite).
 *
 * @module
 */

/**
 * What became of a record:
 * - `created`: stored by the service; `already_existed`: the service had it already; `moved`: a
 *   transaction the service stored with another date (into the open statement period);
 * - `blocked`: refused for a reason outside the record (supplier not ongoing, account not imported or
 *   unknown, the market participant or network operator it names not imported); sent again by every later run;
 * - `rejected`: refused for its content; sent again only when its content changed;
 * - `in_doubt`: maybe stored, maybe not (no answer, or an answer that cannot be read);
 * - `failed`: not stored (retries exhausted, service unreachable, token refused); sent again by every later run;
 * - `invalid`: refused here before sending; sent once it is valid.
 *
 * @example
 * RECORD_OUTCOMES.length // => 8
 * RECORD_OUTCOMES.includes("in_doubt") // => true
 *
 * @since 0.1.0
 */
export const RECORD_OUTCOMES = [
  "created",
  "already_existed",
  "moved",
  "blocked",
  "rejected",
  "in_doubt",
  "failed",
  "invalid"
] as const

/**
 * What became of a record (see {@link RECORD_OUTCOMES}).
 *
 * @since 0.1.0
 */
export type RecordOutcome = (typeof RECORD_OUTCOMES)[number]

/** Outcomes that mean the service holds the record: it is never sent again. */
export const STORED_OUTCOMES: ReadonlySet<RecordOutcome> = new Set(["created", "already_existed", "moved"])

/**
 * The cause of a record that was in flight when its run was killed: in doubt. `send` writes it when a later
 * run meets the record and cannot repeat it harmlessly; the report counts such a record so before that.
 */
export const STOPPED_IN_FLIGHT = "in_flight_when_a_run_stopped"

/**
 * Why a record is blocked.
 *
 * @since 0.1.0
 */
export type BlockedCause =
  | "supplier_not_ongoing"
  | "account_not_imported"
  | "account_unknown"
  | "account_not_found"
  | "market_participant_not_imported"
  | "network_operator_not_imported"

/**
 * The state of a record's latest version in the ledger.
 *
 * @since 0.1.0
 */
export type RecordState = "pending" | "in_flight" | "done"

/**
 * A record as the ledger knows it.
 *
 * @since 0.1.0
 */
export interface LedgerRecord {
  readonly identity: string
  readonly endpoint: string
  /** The natural key's values, as JSON text. */
  readonly key: string
  readonly supplier: string | null
  readonly account: string | null
  /** Digest of the content the state and outcome are about. */
  readonly content: string
  readonly state: RecordState
  readonly outcome: RecordOutcome | null
  /** The blocked cause, or the codes of a rejection, comma-separated. */
  readonly cause: string | null
  readonly httpStatus: number | null
  /** JSON text: the errors or details of the outcome. */
  readonly detail: string | null
  readonly attempts: number
  /** Where that content was last read. */
  readonly file: string | null
  readonly line: number | null
  readonly run: number
  /** Milliseconds since the epoch of the last change. */
  readonly updatedAt: number
  /**
   * The send options the record was last sent with (`{ force_add_to_current_statement, check_previously_added }`
   * for a transaction), JSON text; `null` when not sent, or sent before the ledger kept them.
   */
  readonly options: string | null
  /** Milliseconds since the epoch when the record was last sent (marked in flight); `null` when not known. */
  readonly sentAt: number | null
}

/**
 * A record read from a source, as written before it is sent.
 *
 * @since 0.1.0
 */
export interface LedgerSighting {
  readonly identity: string
  readonly endpoint: string
  readonly key: string
  readonly supplier: string | null
  readonly account: string | null
  readonly content: string
  readonly file: string
  readonly line: number
}

/**
 * An outcome, as written when it is known.
 *
 * @since 0.1.0
 */
export interface LedgerOutcome {
  readonly outcome: RecordOutcome
  readonly cause?: string | null | undefined
  readonly httpStatus?: number | null | undefined
  readonly detail?: unknown
  readonly attempts?: number | undefined
}

/**
 * A record met again with content other than the version the ledger holds as stored (or in doubt).
 *
 * @since 0.1.0
 */
export interface LedgerConflict {
  readonly identity: string
  readonly endpoint: string
  readonly key: string
  /** The version the ledger holds, and where it came from. */
  readonly known: { readonly content: string; readonly file: string | null; readonly line: number | null; readonly outcome: RecordOutcome | null }
  /** The other version, and where it was met first. */
  readonly other: { readonly content: string; readonly file: string; readonly line: number }
}

/**
 * A line no record could be read from (not JSON, no endpoint, no key): invalid, and listed by its place.
 *
 * @since 0.1.0
 */
export interface UnidentifiedLine {
  readonly run: number
  readonly file: string
  readonly line: number
  readonly detail: string
}

/**
 * The ledger belongs elsewhere: a run in progress holds it, another version wrote it, or another service.
 *
 * @example
 * // Opened read-only (a dry run), a database that holds no ledger is refused.
 * let refused: unknown
 * try { openLedger(":memory:", { readOnly: true }) } catch (error) { refused = error }
 * refused instanceof LedgerMismatchError // => true
 *
 * @since 0.1.0
 */
export class LedgerMismatchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "LedgerMismatchError"
  }
}

/**
 * The ledger (or its lock file) is damaged: SQLite cannot read it, or its own index disagrees with its
 * tables. The message points to the recovery (docs/send.md, "A damaged ledger"), never to a new ledger,
 * which would send the campaign's stored records again.
 *
 * @example
 * const damaged = new LedgerDamagedError("the ledger campaign.ledger is damaged: …")
 * damaged.name // => "LedgerDamagedError"
 *
 * @since 0.1.0
 */
export class LedgerDamagedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "LedgerDamagedError"
  }
}

/**
 * Options of {@link openLedger}.
 *
 * @since 0.1.0
 */
export interface OpenLedgerOptions {
  /**
   * The service the run sends to (its base URL), when it sends. A ledger that has sent to other services
   * only is refused unless {@link OpenLedgerOptions.allowNewService}: its outcomes would be about another
   * service's store.
   */
  readonly service?: string | undefined
  /** Accept a service the ledger has not seen (the same service at a new address, e.g. a new port). */
  readonly allowNewService?: boolean | undefined
  /** Open without writing: a dry run. A missing file is an empty ledger. */
  readonly readOnly?: boolean | undefined
}

/**
 * The ledger of one campaign.
 *
 * @since 0.1.0
 */
export interface Ledger {
  readonly path: string
  /** Starts a run; returns its number. */
  startRun(command: string, service: string | null, options: unknown): number
  /** Ends a run: `completed`, `interrupted` (stopped by a signal) or `failed`, with its counts. */
  endRun(run: number, ended: "completed" | "interrupted" | "failed", counts: unknown): void
  /** The base URLs this ledger has sent to, first seen first. */
  services(): ReadonlyArray<string>
  record(identity: string): LedgerRecord | undefined
  /**
   * Moves the record kept under identity `from` to identity `to` and key text `key`, with the conflicts met
   * with it: a record of a ledger written before its endpoint's natural key declared its instants, once
   * it is known to be the record read now (see `KeyedRecord.formerIdentity`). Nothing moves when `to` is
   * taken already.
   */
  rekey(from: string, to: string, key: string): void
  /** Writes a version of a record as about to be sent (or judged): state `pending`, its source, this run. */
  pending(sighting: LedgerSighting, run: number): void
  /**
   * Marks a version of a record in flight (its source, this run, the send options it leaves with): committed
   * before its request leaves. A record is written first here: one never marked was never sent.
   */
  inFlight(sighting: LedgerSighting, run: number, sentWith?: Readonly<Record<string, boolean>>): void
  /**
   * A record read again unchanged and not sent (refused before for this content, or kept in doubt): where
   * it was read, so that the report points at the payload line (and, through the lineage, the legacy row)
   * that holds it now, also after the export was mapped again and the payloads moved. Its outcome, run
   * and time stay those of its last answer.
   */
  readAt(identity: string, file: string, line: number): void
  /**
   * A record marked in flight whose request never left (the run was stopped): `pending` again, or `state`,
   * the state it had before the run marked it (a record an earlier request may have stored stays so).
   */
  unsent(identity: string, state?: RecordState | undefined): void
  /** Writes a record's outcome (state `done`). */
  settle(identity: string, outcome: LedgerOutcome): void
  /** Writes a conflict: a record met with content other than the one the ledger holds as stored or in doubt. */
  conflict(identity: string, content: string, file: string, line: number, run: number): void
  /** Writes a line that names no record. */
  unidentified(run: number, file: string, line: number, detail: string): void
  /** The places (file and line) of the lines that named no record, in any run so far. */
  unidentifiedPlaces(): ReadonlyArray<{ readonly file: string; readonly line: number }>
  /** A record was read at this place: the lines that named no record there before no longer count. */
  identified(file: string, line: number): void
  /** Runs `work` in one transaction (one commit for many writes). */
  batch<T>(work: () => T): T
  /**
   * Records by outcome (`null`: not done: pending or in flight) and by the run that wrote them last, at
   * most `limit`, in the order they were first written.
   */
  records(filter: { readonly outcome?: RecordOutcome | null; readonly run?: number; readonly limit: number }): ReadonlyArray<LedgerRecord>
  /**
   * The records in doubt, in the order they were first written: answered `in_doubt`, or in flight (written
   * so before their request left, and never answered). Called by a holder of the ledger (a run that is not
   * sending, `resolve`), every record in flight is one whose run ended without its answer.
   */
  inDoubt(): ReadonlyArray<LedgerRecord>
  /** The records a run wrote, in the order it wrote them last. */
  runRecords(run: number): IterableIterator<LedgerRecord>
  /** Counts of records by endpoint, state and outcome. */
  counts(): ReadonlyArray<{ readonly endpoint: string; readonly state: RecordState; readonly outcome: RecordOutcome | null; readonly count: number }>
  conflicts(limit: number): ReadonlyArray<LedgerConflict>
  unidentifiedLines(run: number, limit: number): ReadonlyArray<UnidentifiedLine>
  close(): void
}

/**
 * Which tables the ledger has: a ledger from before `map --journal` has no map tables (`map`), one whose map
 * runs came from a version before map's warnings and each record's lineage has no `map_warnings` and
 * `lineage_items` (`mapWarnings`).
 */
export interface LedgerTables {
  readonly map: boolean
  readonly mapWarnings?: boolean | undefined
  /** The ledger records the rows map left out on purpose (`map_exclusions`, `map_runs.rows_excluded`). */
  readonly mapExclusions?: boolean | undefined
}
