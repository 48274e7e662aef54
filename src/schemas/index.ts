/**
 * Every schema of the contract, one module per resource: the public `Schemas` namespace of the main entry.
 * Only schemas are listed here (the annotation keys, patterns and schema builders of the resource modules
 * are internal); the OpenAPI and JSON Schema exports name their components after these names.
 *
 * @module
 */

// The shared building blocks.
export {
  AccountIdentification,
  DecimalString,
  DocumentPath,
  EmailAddress,
  ExternalAccountNumber,
  ImportSupplierCode,
  IsoDate,
  IsoDateTime,
  JsonInteger,
  JsonNumber,
  MaloNumber,
  MarketParticipantCode,
  NetworkOperatorCode,
  NonBlankString,
  PhoneNumber
} from "./conventions.js"

// Error bodies.
export { ApiError, DetailBody, NotFoundErrorBody, UndocumentedBody, ValidationErrorBody } from "./errors.js"

// One block per resource, in the spec's order.
export { Note, NoteDocument, NoteResult, NoteResultStatus, NotesRequest, NotesResponse } from "../resources/notes/notes.js"
export { DeliveryNote, DeliveryNoteAmount, DeliveryNoteRequest, DeliveryNoteResponse } from "../resources/delivery-note/delivery-note.js"
export {
  EnergyAmount,
  EnergyAmountRequest,
  EnergyAmountResponse,
  ProductIdentifierType,
  QuantityUnit
} from "../resources/energy-amount/energy-amount.js"
export {
  PaymentType,
  Transaction,
  TransactionData,
  TransactionImportError,
  TransactionLineItem,
  TransactionList,
  TransactionReason,
  TransactionResult,
  TransactionResultStatus,
  TransactionsQuery,
  TransactionsRequest,
  TransactionsResponse,
  TransactionTaxItem,
  TransactionType
} from "../resources/transactions/transactions.js"
export { HistoricalStatement, HistoricalStatementsRequest, HistoricalStatementsResponse } from "../resources/historical-statements/historical-statements.js"
export {
  InvoiceAddress,
  InvoiceLineItem,
  InvoiceTaxAmount,
  MarketParticipantInvoice,
  MarketParticipantInvoiceRequest,
  MarketParticipantInvoiceResponse,
  PaidInAdvanceAmount,
  TaxRateType
} from "../resources/market-participant-invoice/market-participant-invoice.js"
export { PaymentInstructionRequest, PaymentInstructionResponse } from "../resources/payment-instruction/payment-instruction.js"
export {
  AccountImportProcess,
  AccountImportProcessStatus,
  AccountTransferStatusParams,
  AccountTransferStatusResponse,
  AllAccountImportProcessesResponse,
  ImportedAccountImportProcessesResponse,
  ImportSupplierParams,
  ImportSupplierStatus,
  PendingAccountImportProcess,
  PendingAccountImportProcessesResponse
} from "../resources/import-status/import-status.js"
export { MarketParticipantContact, MarketParticipantRequest } from "../resources/market-participant/market-participant.js"
export { ArticlePrice, IntervalZone, MarketParticipantFeesRequest, PriceSheet } from "../resources/price-sheets/price-sheets.js"
export {
  MarketParticipantDefinitionsRequest,
  RolledOutDefinition,
  RolledOutDefinitionEntry,
  TimeDefinition,
  TimeDefinitionRegister
} from "../resources/time-definitions/time-definitions.js"
