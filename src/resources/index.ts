/**
 * The resources of the API, one folder each (`src/resources/<resource>/`): this list is the one place a
 * new resource is registered. The catalogue of endpoints is read from it, in the spec's order.
 *
 * @module
 */
import { deliveryNoteEndpoints, deliveryNoteRules } from "./delivery-note/delivery-note.js"
import { energyAmountEndpoints, energyAmountRules } from "./energy-amount/energy-amount.js"
import { historicalStatementsEndpoints, historicalStatementsRules } from "./historical-statements/historical-statements.js"
import { importStatusEndpoints } from "./import-status/import-status.js"
import {
  marketParticipantInvoiceEndpoints,
  marketParticipantInvoiceRules,
  marketParticipantInvoiceWarningRules
} from "./market-participant-invoice/market-participant-invoice.js"
import { marketParticipantEndpoints } from "./market-participant/market-participant.js"
import { notesEndpoints, notesRules, notesWarningRules } from "./notes/notes.js"
import { paymentInstructionEndpoints } from "./payment-instruction/payment-instruction.js"
import { priceSheetsEndpoints, priceSheetsRules } from "./price-sheets/price-sheets.js"
import { timeDefinitionsEndpoints, timeDefinitionsRules } from "./time-definitions/time-definitions.js"
import { transactionsEndpoints, transactionsRules, transactionsWarningRules } from "./transactions/transactions.js"

/** Every endpoint of every resource, keyed by endpoint id, in the spec's order. */
export const RESOURCE_ENDPOINTS = {
  ...notesEndpoints,
  ...deliveryNoteEndpoints,
  ...energyAmountEndpoints,
  ...transactionsEndpoints,
  ...historicalStatementsEndpoints,
  ...marketParticipantInvoiceEndpoints,
  ...paymentInstructionEndpoints,
  ...importStatusEndpoints,
  ...marketParticipantEndpoints,
  ...priceSheetsEndpoints,
  ...timeDefinitionsEndpoints
} as const

/**
 * Every cross-field rule and every warning rule of every resource, as the resources declare them (each
 * rule with its code's description): the lists of error and warning codes are built from them.
 */
export const RESOURCE_RULES = {
  crossField: [
    ...notesRules,
    ...deliveryNoteRules,
    ...energyAmountRules,
    ...transactionsRules,
    ...historicalStatementsRules,
    ...marketParticipantInvoiceRules,
    ...priceSheetsRules,
    ...timeDefinitionsRules
  ],
  warning: [...notesWarningRules, ...transactionsWarningRules, ...marketParticipantInvoiceWarningRules]
} as const
