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
export { Note, NoteDocument, NoteResult, NoteResultStatus, NotesRequest, NotesResponse } from "./notes.js"
export { DeliveryNote, DeliveryNoteAmount, DeliveryNoteRequest, DeliveryNoteResponse } from "./delivery-note.js"
export {
  EnergyAmount,
  EnergyAmountRequest,
  EnergyAmountResponse,
  ProductIdentifierType,
  QuantityUnit
} from "./energy-amount.js"
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
} from "./transactions.js"
export { HistoricalStatement, HistoricalStatementsRequest, HistoricalStatementsResponse } from "./historical-statements.js"
export {
  InvoiceAddress,
  InvoiceLineItem,
  InvoiceTaxAmount,
  MarketParticipantInvoice,
  MarketParticipantInvoiceRequest,
  MarketParticipantInvoiceResponse,
  PaidInAdvanceAmount,
  TaxRateType
} from "./market-participant-invoice.js"
export { PaymentInstructionRequest, PaymentInstructionResponse } from "./payment-instruction.js"
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
} from "./import-status.js"
export { MarketParticipantContact, MarketParticipantRequest } from "./market-participant.js"
export { ArticlePrice, IntervalZone, MarketParticipantFeesRequest, PriceSheet } from "./price-sheets.js"
export {
  MarketParticipantDefinitionsRequest,
  RolledOutDefinition,
  RolledOutDefinitionEntry,
  TimeDefinition,
  TimeDefinitionRegister
} from "./time-definitions.js"
