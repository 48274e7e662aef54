/**
 * The resources of the API, one folder each (`src/resources/<resource>/`): this list is the one place a
 * new resource is registered. The catalogue of endpoints is read from it, in the spec's order.
 *
 * @module
 */
import { deliveryNoteEndpoints } from "./delivery-note/delivery-note.js"
import { energyAmountEndpoints } from "./energy-amount/energy-amount.js"
import { historicalStatementsEndpoints } from "./historical-statements/historical-statements.js"
import { importStatusEndpoints } from "./import-status/import-status.js"
import { marketParticipantInvoiceEndpoints } from "./market-participant-invoice/market-participant-invoice.js"
import { marketParticipantEndpoints } from "./market-participant/market-participant.js"
import { notesEndpoints } from "./notes/notes.js"
import { paymentInstructionEndpoints } from "./payment-instruction/payment-instruction.js"
import { priceSheetsEndpoints } from "./price-sheets/price-sheets.js"
import { timeDefinitionsEndpoints } from "./time-definitions/time-definitions.js"
import { transactionsEndpoints } from "./transactions/transactions.js"

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
