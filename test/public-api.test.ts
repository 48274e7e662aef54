/**
 * The public surface, pinned: the runtime names of the main entry, of its `Schemas` namespace and of the
 * testing entry. A change to the surface is deliberate: it changes this file too. The main entry stays
 * small (at most 60 names, grouped in src/index.ts); internals (patterns, annotation keys, schema
 * builders, converter plumbing) stay in their modules.
 */
import { describe, expect, it } from "vitest"
import * as main from "../src/index.js"
import * as testing from "../src/testing/index.js"

const MAIN = [
  "CONVERTERS", "ENDPOINT_IDS", "ERROR_CODES", "InsecureBaseUrlError", "LedgerDamagedError", "LedgerMismatchError",
  "NON_FIELD_ERRORS", "OPTION_DECISIONS", "POST_ENDPOINT_IDS", "PayloadValidationError", "RECORD_OUTCOMES",
  "STANDARD_RETRY_POLICY", "Schemas", "TokenError", "UnmatchedKeysError", "WARNING_CODES", "buildPath", "buildRequest",
  "campaignReport", "compact", "compileValidator", "createClient", "defineMapping", "endpoints",
  "fromMinorUnits", "inferEndpoint", "isEndpointId", "isPostEndpointId", "isRepeatHarmless",
  "mapRecords", "mappingJsonSchema",
  "openLedger", "openReportSource", "parseResponse", "pathParameterProblem", "readKeyList", "recordsOf",
  "redactSecrets", "resolveInDoubt", "sendRecords", "standardSchema", "toBoolean", "toDecimalString", "toIsoDate",
  "toIsoDateTime", "toJsonSchema", "toMinorUnits", "toOpenApi", "validatePayload", "validatePayloadEffect",
  "validateResponse", "withExactNumbers"
]

const SCHEMAS = [
  "AccountIdentification", "AccountImportProcess", "AccountImportProcessStatus",
  "AccountTransferStatusParams", "AccountTransferStatusResponse", "AllAccountImportProcessesResponse",
  "ApiError", "ArticlePrice", "DecimalString", "DeliveryNote", "DeliveryNoteAmount", "DeliveryNoteRequest",
  "DeliveryNoteResponse", "DetailBody", "DocumentPath", "EmailAddress", "EnergyAmount",
  "EnergyAmountRequest", "EnergyAmountResponse", "ExternalAccountNumber", "HistoricalStatement",
  "HistoricalStatementsRequest", "HistoricalStatementsResponse", "ImportSupplierCode",
  "ImportSupplierParams", "ImportSupplierStatus", "ImportedAccountImportProcessesResponse", "IntervalZone",
  "InvoiceAddress", "InvoiceLineItem", "InvoiceTaxAmount", "IsoDate", "IsoDateTime", "JsonInteger",
  "JsonNumber", "MaloNumber", "MarketParticipantCode", "MarketParticipantContact",
  "MarketParticipantDefinitionsRequest", "MarketParticipantFeesRequest", "MarketParticipantInvoice",
  "MarketParticipantInvoiceRequest", "MarketParticipantInvoiceResponse", "MarketParticipantRequest",
  "NetworkOperatorCode", "NonBlankString", "NotFoundErrorBody", "Note", "NoteDocument", "NoteResult",
  "NoteResultStatus", "NotesRequest", "NotesResponse", "PaidInAdvanceAmount", "PaymentInstructionRequest",
  "PaymentInstructionResponse", "PaymentType", "PendingAccountImportProcess",
  "PendingAccountImportProcessesResponse", "PhoneNumber", "PriceSheet", "ProductIdentifierType",
  "QuantityUnit", "RolledOutDefinition", "RolledOutDefinitionEntry", "TaxRateType", "TimeDefinition",
  "TimeDefinitionRegister", "Transaction", "TransactionData", "TransactionImportError",
  "TransactionLineItem", "TransactionList", "TransactionReason", "TransactionResult",
  "TransactionResultStatus", "TransactionTaxItem", "TransactionType", "TransactionsQuery",
  "TransactionsRequest", "TransactionsResponse", "UndocumentedBody", "ValidationErrorBody"
]

const TESTING = [
  "DEFAULT_NOW", "Seed", "arbitraryInvalidPayload", "arbitraryPayload",
  "arbitraryResponse", "decodeSeed", "referenceModel", "samplePayloads"
]

const namesOf = (namespace: object): Array<string> => Object.keys(namespace).sort()

describe("the public API", () => {
  it("the main entry exports exactly the pinned names, at most 60", () => {
    expect(namesOf(main)).toEqual(MAIN)
    expect(MAIN.length).toBeLessThanOrEqual(60)
  })

  it("Schemas holds exactly the pinned schemas, each one a schema", () => {
    expect(namesOf(main.Schemas)).toEqual(SCHEMAS)
    for (const [name, value] of Object.entries(main.Schemas)) expect(typeof value.ast, name).toBe("object")
  })

  it("the testing entry exports exactly the pinned names", () => {
    expect(namesOf(testing)).toEqual(TESTING)
  })
})
