/**
 * The resources of the API, one folder each (`src/schemas/<resource>/`): this is the one place a new
 * resource is registered. Its named exports are every resource's schemas (the public `Schemas` namespace
 * re-exports them); its default export is the registry: the endpoints in the spec's order, the rules the
 * schemas carry (the code lists are built from them) and the generator of each POST endpoint's valid
 * payloads (the testing kit hands them fast-check, so the registry loads none).
 *
 * @module
 */
import type { PayloadArbitrary } from "../testing/arbitrary-kit.js"
import { deliveryNote as deliveryNotePayloads } from "./delivery-note/arbitrary.js"
import deliveryNote from "./delivery-note/delivery-note.js"
import { energyAmount as energyAmountPayloads } from "./energy-amount/arbitrary.js"
import energyAmount from "./energy-amount/energy-amount.js"
import { historicalStatements as historicalStatementsPayloads } from "./historical-statements/arbitrary.js"
import historicalStatements from "./historical-statements/historical-statements.js"
import importStatus from "./import-status/import-status.js"
import { marketParticipantInvoice as marketParticipantInvoicePayloads } from "./market-participant-invoice/arbitrary.js"
import marketParticipantInvoice from "./market-participant-invoice/market-participant-invoice.js"
import { marketParticipant as marketParticipantPayloads } from "./market-participant/arbitrary.js"
import marketParticipant from "./market-participant/market-participant.js"
import { notes as notesPayloads } from "./notes/arbitrary.js"
import notes from "./notes/notes.js"
import { paymentInstruction as paymentInstructionPayloads } from "./payment-instruction/arbitrary.js"
import paymentInstruction from "./payment-instruction/payment-instruction.js"
import { marketParticipantFees as marketParticipantFeesPayloads } from "./price-sheets/arbitrary.js"
import priceSheets from "./price-sheets/price-sheets.js"
import { marketParticipantDefinitions as marketParticipantDefinitionsPayloads } from "./time-definitions/arbitrary.js"
import timeDefinitions from "./time-definitions/time-definitions.js"
import { transactions as transactionsPayloads } from "./transactions/arbitrary.js"
import transactions from "./transactions/transactions.js"

// Every resource's schemas, in the spec's order.
export * from "./notes/notes.js"
export * from "./delivery-note/delivery-note.js"
export * from "./energy-amount/energy-amount.js"
export * from "./transactions/transactions.js"
export * from "./historical-statements/historical-statements.js"
export * from "./market-participant-invoice/market-participant-invoice.js"
export * from "./payment-instruction/payment-instruction.js"
export * from "./import-status/import-status.js"
export * from "./market-participant/market-participant.js"
export * from "./price-sheets/price-sheets.js"
export * from "./time-definitions/time-definitions.js"

/** The resources in the spec's order. */
const RESOURCES = [
  notes,
  deliveryNote,
  energyAmount,
  transactions,
  historicalStatements,
  marketParticipantInvoice,
  paymentInstruction,
  importStatus,
  marketParticipant,
  priceSheets,
  timeDefinitions
] as const

type Rule = (typeof RESOURCES)[number]["rules"][number]
type Warning = (typeof RESOURCES)[number]["warningRules"][number]

export default {
  /** Every endpoint of every resource, keyed by endpoint id, in the spec's order. */
  endpoints: {
    ...notes.endpoints,
    ...deliveryNote.endpoints,
    ...energyAmount.endpoints,
    ...transactions.endpoints,
    ...historicalStatements.endpoints,
    ...marketParticipantInvoice.endpoints,
    ...paymentInstruction.endpoints,
    ...importStatus.endpoints,
    ...marketParticipant.endpoints,
    ...priceSheets.endpoints,
    ...timeDefinitions.endpoints
  },
  /** Every cross-field rule and every warning rule of every resource, each with its code's description. */
  rules: {
    crossField: RESOURCES.flatMap((resource): ReadonlyArray<Rule> => resource.rules),
    warning: RESOURCES.flatMap((resource): ReadonlyArray<Warning> => resource.warningRules)
  },
  /** The generator of valid request bodies of each POST endpoint. */
  payloads: {
    "notes": notesPayloads,
    "delivery-note": deliveryNotePayloads,
    "energy-amount": energyAmountPayloads,
    "transactions": transactionsPayloads,
    "historical-statements": historicalStatementsPayloads,
    "market-participant-invoice": marketParticipantInvoicePayloads,
    "payment-instruction": paymentInstructionPayloads,
    "market-participant": marketParticipantPayloads,
    "market-participant-fees": marketParticipantFeesPayloads,
    "market-participant-definitions": marketParticipantDefinitionsPayloads
  } satisfies Readonly<Record<string, PayloadArbitrary>>
} as const
