/**
 * Outcomes that depend on a send option, declared once: which outcome of which endpoint a record had with
 * which value of the option, the flag of `send` that gives the other value, and what the service does
 * then. The ledger keeps the options each record was sent with; a run whose options differ sends such a
 * record again, and every message about such a record names the flag.
 *
 * @module
 */
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { LedgerOutcome, LedgerRecord, RecordOutcome } from "../ledger/ledger-types.js"

/**
 * An outcome that a send option decided: had with `sentWith`, it is open to a run with the other value.
 *
 * @since 0.1.0
 */
export interface OptionDecision {
  /** The transactions' query parameter. */
  readonly option: "force_add_to_current_statement" | "check_previously_added"
  readonly endpoint: PostEndpointId
  readonly outcome: RecordOutcome
  /** The cause the outcome has (`null`: none). */
  readonly cause: string | null
  /** The option's value the outcome was had with. */
  readonly sentWith: boolean
  /** The flag of `data-import send` that gives the other value. */
  readonly flag: string
  /** What that flag does to the record, as a message says it. */
  readonly advice: string
}

/**
 * The outcomes a send option decided.
 *
 * @example
 * OPTION_DECISIONS.map((d) => d.flag) // => ["--force-add-to-current-statement", "--no-check-previously-added"]
 *
 * @since 0.1.0
 */
export const OPTION_DECISIONS: ReadonlyArray<OptionDecision> = [
  {
    option: "force_add_to_current_statement",
    endpoint: "transactions",
    outcome: "rejected",
    cause: "TRANSACTION_IMPORT_ERROR",
    sentWith: false,
    flag: "--force-add-to-current-statement",
    advice: "to add it anyway, send with --force-add-to-current-statement: the service moves it into the open statement period and pins a note on the account"
  },
  {
    option: "check_previously_added",
    endpoint: "transactions",
    outcome: "already_existed",
    cause: null,
    sentWith: true,
    flag: "--no-check-previously-added",
    advice: "the service skipped it as a transaction it has already; to add it once more, send with --no-check-previously-added"
  }
]

/** The options a record was sent with, from the ledger's JSON text (`{}` for none kept). */
const optionsOf = (text: string | null): Readonly<Record<string, unknown>> => {
  if (text === null) return {}
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * The decision a record's outcome came from: its endpoint, outcome and cause are a decision's, and it was
 * sent with the decision's value of the option (a record whose options the ledger does not know has none).
 *
 * @example
 * const record = { endpoint: "transactions", state: "done", outcome: "rejected", cause: "TRANSACTION_IMPORT_ERROR", options: '{"force_add_to_current_statement":false}' } as const
 * decisionOf(record)?.flag // => "--force-add-to-current-statement"
 * decisionOf({ ...record, options: null }) // => undefined
 *
 * @since 0.1.0
 */
export const decisionOf = (record: Pick<LedgerRecord, "endpoint" | "state" | "outcome" | "cause" | "options">): OptionDecision | undefined => {
  if (record.state !== "done" || record.options === null) return undefined
  const decision = OPTION_DECISIONS.find((d) => d.endpoint === record.endpoint && d.outcome === record.outcome && d.cause === record.cause)
  return decision !== undefined && optionsOf(record.options)[decision.option] === decision.sentWith ? decision : undefined
}

/**
 * The decision a run with this query takes for the record: it is sent again (`undefined`: not).
 *
 * @example
 * const record = { endpoint: "transactions", state: "done", outcome: "rejected", cause: "TRANSACTION_IMPORT_ERROR", options: '{"force_add_to_current_statement":false}' } as const
 * reopenedBy(record, { force_add_to_current_statement: true })?.option // => "force_add_to_current_statement"
 * reopenedBy(record, { force_add_to_current_statement: false }) // => undefined
 *
 * @since 0.1.0
 */
export const reopenedBy = (
  record: Pick<LedgerRecord, "endpoint" | "state" | "outcome" | "cause" | "options">,
  query: Readonly<Record<string, boolean>>
): OptionDecision | undefined => {
  const decision = decisionOf(record)
  return decision !== undefined && query[decision.option] !== undefined && query[decision.option] !== decision.sentWith ? decision : undefined
}

/**
 * An outcome as written for a record sent with `query`: a rejection a decision would change says so in its
 * detail (`detail` the service's message and the flag, `decided_by` the flag), which the report and
 * `--results` show.
 */
export const withDecision = (endpoint: PostEndpointId, outcome: LedgerOutcome, query: Readonly<Record<string, boolean>>): LedgerOutcome => {
  if (outcome.outcome !== "rejected") return outcome
  const decision = OPTION_DECISIONS.find((d) =>
    d.endpoint === endpoint && d.outcome === outcome.outcome && d.cause === (outcome.cause ?? null) && query[d.option] === d.sentWith
  )
  if (decision === undefined) return outcome
  const before = outcome.detail
  const said = typeof before === "object" && before !== null && !Array.isArray(before) ? (before as Record<string, unknown>) : { answer: before ?? null }
  const message = typeof said["detail"] === "string" && said["detail"] !== "" ? `${said["detail"]} ` : ""
  return { ...outcome, detail: { ...said, detail: `${message}(${decision.advice}.)`, decided_by: decision.flag } }
}
