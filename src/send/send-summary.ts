/**
 * What a run of the send engine did, and the check that its counts add up: every record read ends in
 * exactly one disposition, every record sent in exactly one outcome (or not sent, when stopped).
 *
 * @module
 */
import { RECORD_OUTCOMES, type RecordOutcome } from "../ledger/ledger-types.js"
import type { Disposition } from "./plan-line.js"

/** The dispositions a run counts, `unsent` (stopped before its request left) included. */
export const DISPOSITIONS = ["send", "settled_before", "rejected_before", "duplicate", "conflict", "kept_in_doubt", "invalid", "unsent"] as const

/**
 * What a run did: records read by disposition, the outcomes of those it sent, and how it ended.
 *
 * @since 0.1.0
 */
export interface SendSummary {
  readonly run: number
  readonly dryRun: boolean
  /** Lines read, and records read (a line of notes holds several; a line that names no record counts one). */
  readonly lines: number
  readonly records: number
  readonly dispositions: Readonly<Record<Disposition | "unsent", number>>
  /** Outcomes of the records sent in this run (a dry run: none). */
  readonly outcomes: Readonly<Record<RecordOutcome, number>>
  /** Per endpoint: dispositions other than `send`, and outcomes of the records sent. */
  readonly byEndpoint: Readonly<Record<string, Readonly<Record<string, number>>>>
  /** Blocked and rejected records sent in this run, by `outcome:cause` (`blocked:supplier_not_ongoing`). */
  readonly causes: Readonly<Record<string, number>>
  /** Warnings of the records read (sent or, with `failOnWarnings`, refused), by code. */
  readonly warnings: Readonly<Record<string, number>>
  /** Where the first warnings are (at most 10). */
  readonly firstWarnings: ReadonlyArray<{ readonly file: string; readonly line: number; readonly attr: string; readonly code: string; readonly detail: string }>
  /**
   * Records whose outcome a send option decided (`OPTION_DECISIONS`), by the flag that changes it: `waiting`,
   * kept back since this run has the same option; `taken`, sent again since it has the other.
   */
  readonly decisions: Readonly<Record<string, { readonly waiting: number; readonly taken: number }>>
  /**
   * Records in doubt sent again on `resendInDoubt` although a repeat is not harmless (`sent`), and those of
   * them the service stored (`stored`): each of these is stored twice if the earlier request stored it too.
   */
  readonly resentInDoubt: { readonly sent: number; readonly stored: number }
  /** A signal stopped the run: lines after the last one read were not read. */
  readonly stopped: boolean
  /** The service refused the credentials: the rest of the run was not sent. */
  readonly unauthorized: boolean
}

/** Every record read ends in exactly one disposition, and every record sent in exactly one outcome or unsent. */
export const checkAccounts = (summary: SendSummary): void => {
  const d = summary.dispositions
  const judged = DISPOSITIONS.filter((k) => k !== "unsent").reduce((n, k) => n + d[k], 0)
  const sent = RECORD_OUTCOMES.filter((k) => k !== "invalid").reduce((n, k) => n + summary.outcomes[k], 0) + d.unsent
  if (judged !== summary.records || (!summary.dryRun && sent !== d.send)) {
    throw new Error(`send: the accounts do not add up (${summary.records} records read, ${judged} judged; ${d.send} to send, ${sent} answered or unsent)`)
  }
}
