/**
 * The resources of the API, one folder each (`src/resources/<resource>/`): this list is the one place a
 * new resource is registered: its endpoints, its rules and the generator of its valid payloads. The
 * catalogue, the code lists and the testing kit read them from here.
 *
 * @module
 */
import type { PayloadArbitrary } from "../testing/arbitrary-kit.js"
import { deliveryNote } from "./delivery-note/arbitrary.js"
import { energyAmount } from "./energy-amount/arbitrary.js"
import { historicalStatements } from "./historical-statements/arbitrary.js"
import { marketParticipantInvoice } from "./market-participant-invoice/arbitrary.js"
import { marketParticipant } from "./market-participant/arbitrary.js"
import { notes } from "./notes/arbitrary.js"
import { paymentInstruction } from "./payment-instruction/arbitrary.js"
import { marketParticipantFees } from "./price-sheets/arbitrary.js"
import { marketParticipantDefinitions } from "./time-definitions/arbitrary.js"
import { transactions } from "./transactions/arbitrary.js"
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

/**
 * The generator of valid request bodies of each POST endpoint. Each receives fast-check and the shared
 * value generators as a kit from the testing entry, so this registry loads no fast-check.
 */
export const RESOURCE_PAYLOADS = {
  "notes": notes,
  "delivery-note": deliveryNote,
  "energy-amount": energyAmount,
  "transactions": transactions,
  "historical-statements": historicalStatements,
  "market-participant-invoice": marketParticipantInvoice,
  "payment-instruction": paymentInstruction,
  "market-participant": marketParticipant,
  "market-participant-fees": marketParticipantFees,
  "market-participant-definitions": marketParticipantDefinitions
} as const satisfies Readonly<Record<string, PayloadArbitrary>>
