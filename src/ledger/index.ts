/**
 * The campaign's ledger as the commands use it directly: which files belong to a ledger (so that no
 * output overwrites one), where a new one would be created, what a damaged or foreign file is, and the
 * ledger opened for reading (`report`). Not part of the package's exports: the CLI's entry to it.
 *
 * @module
 */
export { targetOf } from "./ledger-file.js"
export { LedgerDamagedError, LedgerMismatchError } from "./ledger-types.js"
export { damagedLedgerAdvice, ledgerFilesOf } from "./ledger.js"
export { openReportSource, type ReportSource } from "./report-source.js"
