/**
 * Every schema of the contract, one module per resource.
 *
 * @module
 */
export * from "./conventions.js"
export * from "./delivery-note.js"
export * from "./energy-amount.js"
export * from "./errors.js"
export * from "./historical-statements.js"
export * from "./import-status.js"
export * from "./market-participant-invoice.js"
export * from "./market-participant.js"
export * from "./notes.js"
export * from "./payment-instruction.js"
export * from "./price-sheets.js"
export { codedIssue, compareDates, compareDateTimes, startNotAfterEnd } from "./rules.js"
export * from "./time-definitions.js"
export * from "./transactions.js"
