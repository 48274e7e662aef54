/**
 * What to do about each problem the report can show, declared once as data: by code where a code needs
 * its own words (the causes the send engine writes: blocked, in doubt, failed; the report's own codes),
 * and by kind of problem for the open families (the contract's validation codes, the service's own codes,
 * map's codes), whose remedy is the same: fix the source and send again. Every format of the report and
 * `status` read it from here.
 *
 * @module
 */
import { STOPPED_IN_FLIGHT } from "../ledger/ledger-types.js"
import type { Problem, ProblemKind } from "./report-types.js"

/** What to do about a problem of each kind whose code has no advice of its own. */
export const ADVICE_BY_KIND: Readonly<Record<ProblemKind, string>> = {
  map_rejected: "Fix the row in the legacy export (or the mapping), map the export again and send the new payload file with the same ledger.",
  invalid: "Refused here, never sent: fix the row in the legacy export (or the mapping), map again and send with the same ledger.",
  rejected:
    "The service refused its content (the detail quotes it): fix the row in the legacy export (or the mapping), map again and send with the same ledger; unchanged, it is not sent again.",
  blocked: "Refused for its account or supplier, not its content: once that is settled, run send again with the same ledger (every run sends blocked records again).",
  failed: "Not stored: run send again with the same ledger (every run sends failed records again).",
  in_doubt:
    "The service may or may not have stored it, and the API cannot be asked: ask the operators; --resend-in-doubt sends it again anyway, which may store it twice.",
  map_warning:
    "Left to look at, not a failure: check the row in the legacy export (the detail says what map noticed); if it is wrong, fix the export and map again, else nothing to do.",
  conflict:
    "Met again with other content than the version the ledger holds (both places are in the detail): the API has no update, so compare the two; make the export match what was sent, or ask the operators to change the record in the service."
}

/** The in-doubt advice after the part that says why it is in doubt. */
const ASK = "Ask the operators whether the service stored it; --resend-in-doubt sends it again anyway, which may store it twice."

/**
 * What to do about a problem by its code, where the kind's advice does not fit. Keyed by the code as the
 * ledger and the report write it (a blocked cause, a cause of `send`, a code of the service or the report).
 */
export const ADVICE_BY_CODE: Readonly<Record<string, string>> = {
  supplier_not_ongoing:
    "The supplier's migration is Paused or Complete (the API does not tell a supplier's status): ask the operators to set it Ongoing, then run send again with the same ledger.",
  account_not_imported:
    "The account is staged but not imported yet: once `data-import status SUPPLIER ACCOUNT` exits 0 for it, run send again with the same ledger.",
  account_unknown:
    "The service has no import process for this supplier and account: check the supplier code and account number in the export (or have the account imported), then send again.",
  account_not_found:
    "The service does not have the account (not imported, or no import process): check it with `data-import status SUPPLIER ACCOUNT`, then run send again with the same ledger.",
  market_participant_not_imported:
    "The market participant it names is not in the service yet: send the market participants first, then run send again with the same ledger.",
  network_operator_not_imported:
    "The network operator it names is not in the service yet: send the market participants first, then run send again with the same ledger.",
  TRANSACTION_IMPORT_ERROR:
    "The transaction lies outside the account's open statement period (the detail names both): correct its date in the export and send again, or, where the business decides to move it into the open period, send again with --force-add-to-current-statement (the service then pins a note on the account).",
  [STOPPED_IN_FLIGHT]: `A run was killed while this record was in flight. The next send sends it again where a repeat is harmless; otherwise: ${ASK}`,
  no_answer: `The request got no answer (the connection broke or timed out after it was sent). ${ASK}`,
  no_result: `The service's answer held no result for this record. ${ASK}`,
  unexpected_answer: `The service's answer could not be read (the detail quotes it). ${ASK}`,
  in_doubt_before: `In doubt before and sent again with --resend-in-doubt; this answer says nothing of the earlier request. ${ASK}`,
  unauthorized: "The service refused the credentials (401): set a valid DATA_IMPORT_API_KEY or DATA_IMPORT_TOKEN and run send again with the same ledger.",
  failed: "Retries ran out or the service could not be reached: run send again with the same ledger once it answers.",
  unidentified: "The line names no record (not JSON, or no endpoint or natural key): fix or remove the line in the payload file (or the mapping that wrote it), then send again.",
  path_does_not_exist_in_file_store:
    "The document it names is not in the file store (--documents DIR): put the file there, or correct the path in the export, then send again.",
  duplicate_row:
    "The same row (every cell) appears twice in the export. If the repeat is a mistake of the export, remove it and map again; if both are real, tell them apart in the export.",
  moved_into_open_statement_period:
    "Stored with another date: the service moved it into the account's open statement period and pinned a note on the account. Check that this is what the business wanted."
}

/**
 * What to do about a problem of `kind` with `code` (codes joined by commas each count): the advice of each
 * code that has its own, else the kind's, each once.
 *
 * @example
 * adviceFor("blocked", "supplier_not_ongoing").startsWith("The supplier's migration is Paused or Complete") // => true
 * adviceFor("rejected", "invalid_date,blank") === ADVICE_BY_KIND.rejected // => true
 *
 * @since 0.1.0
 */
export const adviceFor = (kind: ProblemKind, code: string): string =>
  // (A code of the service's own is any text: "constructor" must not find Object's.)
  [...new Set(code.split(",").map((c) => (Object.hasOwn(ADVICE_BY_CODE, c) ? ADVICE_BY_CODE[c]! : ADVICE_BY_KIND[kind])))].join(" ")

/**
 * A problem with what to do about it, as every format of the report shows it.
 *
 * @example
 * const problem = { problem: "conflict", endpoint: "notes", code: "conflict", supplier: null, account: null, source_file: null, source_lines: null, payload_file: null, payload_line: null, detail: "", raw: null } as const
 * advised(problem).advice === ADVICE_BY_KIND.conflict // => true
 *
 * @since 0.1.0
 */
export const advised = <P extends Problem>(problem: P): P & { readonly advice: string } => ({ ...problem, advice: adviceFor(problem.problem, problem.code) })
