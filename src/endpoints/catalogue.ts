/**
 * The 14 endpoints of the Customer Data Import API as data: method, path template, parameters, request
 * schema, response schemas by status, and what a client should do on each error status. Everything that
 * needs "the schema of endpoint X" reads it from here.
 *
 * @module
 */
import { Schema } from "effect"
import type { EndpointDefinition, ResponseDefinition } from "./endpoint-definition.js"
import { DeliveryNoteRequest, DeliveryNoteResponse } from "../schemas/delivery-note.js"
import { EnergyAmountRequest, EnergyAmountResponse } from "../schemas/energy-amount.js"
import { DetailBody, NotFoundErrorBody, UndocumentedBody, ValidationErrorBody } from "../schemas/errors.js"
import { HistoricalStatementsRequest, HistoricalStatementsResponse } from "../schemas/historical-statements.js"
import {
  AccountTransferStatusParams,
  AccountTransferStatusResponse,
  AllAccountImportProcessesResponse,
  ImportedAccountImportProcessesResponse,
  ImportSupplierParams,
  PendingAccountImportProcessesResponse
} from "../schemas/import-status.js"
import { MarketParticipantInvoiceRequest, MarketParticipantInvoiceResponse } from "../schemas/market-participant-invoice.js"
import { MarketParticipantRequest } from "../schemas/market-participant.js"
import { NotesRequest, NotesResponse } from "../schemas/notes.js"
import { PaymentInstructionRequest, PaymentInstructionResponse } from "../schemas/payment-instruction.js"
import { MarketParticipantFeesRequest } from "../schemas/price-sheets.js"
import { MarketParticipantDefinitionsRequest } from "../schemas/time-definitions.js"
import {
  TRANSACTIONS_QUERY_DEFAULTS,
  TransactionImportError,
  TransactionsQuery,
  TransactionsRequest,
  TransactionsResponse
} from "../schemas/transactions.js"

export type {
  EndpointDefinition,
  NaturalKey,
  QueryParameterDefinition,
  RepeatRule,
  ResponseDefinition,
  RetryAdvice,
  ServiceBehaviour
} from "./endpoint-definition.js"

const validation400: ResponseDefinition = {
  schema: ValidationErrorBody,
  description: "Validation errors.",
  retry: "do-not-retry-unchanged"
}
const notFound = (schema: Schema.Top): ResponseDefinition => ({
  schema,
  description: "Account import process or account not found: check that the account is imported (not only staged) and that the supplier code and external account number are right.",
  retry: "do-not-retry-unchanged"
})
/**
 * The answers every endpoint may give: the real API authenticates every endpoint (DRF's `{ detail }`),
 * and a server under load or in maintenance answers 429 or 503 with `Retry-After` before doing anything.
 */
const SERVICE_LEVEL_RESPONSES = {
  401: { schema: DetailBody, description: "Missing or invalid credentials.", retry: "reauthenticate" },
  429: {
    schema: DetailBody,
    description: "Too many requests: nothing was done; wait as long as `Retry-After` says, then send the request again.",
    retry: "retry-later"
  },
  503: {
    schema: DetailBody,
    description: "Unavailable: nothing was done; wait as long as `Retry-After` says, then send the request again.",
    retry: "retry-later"
  }
} as const satisfies Readonly<Record<number, ResponseDefinition>>
/** One of the three list endpoints: GET by import supplier, a 200 list of the supplier's `processes`. */
const listEndpoint = <const Id extends string, const P extends "all" | "pending" | "imported">(
  id: Id,
  processes: P,
  summary: string,
  schema: Schema.Top,
  description: string
) => ({
  id,
  method: "GET",
  path: `/v1/data-import/${id}/{import_supplier_code}/`,
  summary,
  pathParameters: ["import_supplier_code"],
  queryParameters: [],
  requestKind: "path",
  request: ImportSupplierParams,
  responses: { 200: { schema, description }, ...SERVICE_LEVEL_RESPONSES },
  repeat: "always",
  service: { handler: "account-import-processes", processes }
}) as const

const post = (id: string, path: string, summary: string) =>
  ({ id, method: "POST", path, summary, pathParameters: [], queryParameters: [], requestKind: "body" }) as const

/**
 * The catalogue of all 14 endpoints, keyed by endpoint id (the path segment after `/v1/data-import/`).
 *
 * @example
 * endpoints["payment-instruction"].responses[500].retry // "retry-as-is"
 *
 * @since 0.1.0
 */
export const endpoints = {
  "notes": {
    ...post("notes", "/v1/data-import/notes/create/", "Add notes to an imported account."),
    naturalKey: { items: "notes", account: true, fields: ["body", "created_at", "document_paths[].document_path"] },
    request: NotesRequest,
    repeat: "when-notes-have-created-at",
    service: { handler: "notes", stores: "notes" },
    responses: {
      201: { schema: NotesResponse, description: "One result per note: created, or already present." },
      400: validation400,
      404: notFound(UndocumentedBody),
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "delivery-note": {
    ...post("delivery-note", "/v1/data-import/delivery-note/create/", "Import a delivery note."),
    naturalKey: { account: true, fields: ["delivery_note.malo_number", "delivery_note.edifact_reference_number", "delivery_note.amounts[].period_start_at", "delivery_note.amounts[].period_end_at", "delivery_note.amounts[].product_identifier", "delivery_note.amounts[].line_item_identifier"] },
    request: DeliveryNoteRequest,
    repeat: "never",
    service: { handler: "store-and-echo", stores: "delivery_notes", field: "delivery_note" },
    responses: {
      201: { schema: DeliveryNoteResponse, description: "The validated data." },
      400: validation400,
      404: notFound(NotFoundErrorBody),
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "energy-amount": {
    ...post("energy-amount", "/v1/data-import/energy-amount/create/", "Import an energy amount."),
    naturalKey: { account: true, fields: ["energy_amount.malo_number", "energy_amount.period_start_at", "energy_amount.period_end_at", "energy_amount.product_identifier", "energy_amount.line_item_identifier", "energy_amount.edifact_reference_number"] },
    request: EnergyAmountRequest,
    repeat: "never",
    service: { handler: "store-and-echo", stores: "energy_amounts", field: "energy_amount" },
    responses: {
      201: { schema: EnergyAmountResponse, description: "The validated data." },
      400: validation400,
      404: notFound(NotFoundErrorBody),
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "transactions": {
    ...post("transactions", "/v1/data-import/transactions/create/", "Import financial transactions."),
    naturalKey: { items: "transactions", account: true, fields: ["transaction_id"] },
    queryParameters: [
      {
        name: "check_previously_added",
        type: "boolean",
        default: TRANSACTIONS_QUERY_DEFAULTS.check_previously_added,
        description: "Skip transactions that were already added (TRANSACTION_ALREADY_EXISTS)."
      },
      {
        name: "force_add_to_current_statement",
        type: "boolean",
        default: TRANSACTIONS_QUERY_DEFAULTS.force_add_to_current_statement,
        description: "Move a transaction outside the open statement period into it, with a description and a pinned note."
      }
    ],
    query: TransactionsQuery,
    request: TransactionsRequest,
    repeat: "when-check-previously-added",
    service: { handler: "transactions", stores: "transactions" },
    responses: {
      201: { schema: TransactionsResponse, description: "`{ results }`, one per transaction." },
      400: {
        schema: Schema.Union([ValidationErrorBody, TransactionImportError]),
        description: "Validation errors, or the first transaction that could not be created.",
        retry: "do-not-retry-unchanged"
      },
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "historical-statements": {
    ...post("historical-statements", "/v1/data-import/historical-statements/create/", "Import historical statements."),
    naturalKey: { items: "statements", account: true, fields: ["statement_id"] },
    request: HistoricalStatementsRequest,
    // A repeat is a 400 `historical_statement_already_exists`, which cannot be told from a real refusal.
    repeat: "never",
    service: { handler: "historical-statements", stores: "historical_statements" },
    responses: {
      200: { schema: HistoricalStatementsResponse, description: "The validated data (the descriptive text says 200 OK)." },
      201: { schema: HistoricalStatementsResponse, description: "The validated data." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "market-participant-invoice": {
    ...post("market-participant-invoice", "/v1/data-import/market-participant-invoice/create/", "Import a market participant invoice."),
    naturalKey: { account: true, fields: ["market_participant_invoice.invoice_number"] },
    request: MarketParticipantInvoiceRequest,
    repeat: "never",
    service: { handler: "store-and-echo", stores: "market_participant_invoices", field: "market_participant_invoice" },
    responses: {
      201: { schema: MarketParticipantInvoiceResponse, description: "The validated data." },
      400: validation400,
      404: notFound(NotFoundErrorBody),
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "payment-instruction": {
    ...post("payment-instruction", "/v1/data-import/payment-instruction/create/", "Create a payment instruction."),
    naturalKey: { account: true, fields: ["reference"] },
    request: PaymentInstructionRequest,
    repeat: "never",
    service: { handler: "payment-instruction", stores: "payment_instructions" },
    responses: {
      201: { schema: PaymentInstructionResponse, description: "The account number and the instruction's reference." },
      400: {
        schema: ValidationErrorBody,
        description: "Validation errors or persistent trouble reaching the payment vendor: do not retry in the same form.",
        retry: "do-not-retry-unchanged"
      },
      500: {
        schema: UndocumentedBody,
        description: "Unexpected error, for instance intermittent vendor trouble: retry the same request as it is.",
        retry: "retry-as-is"
      },
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "account-transfer-status": {
    id: "account-transfer-status",
    method: "GET",
    path: "/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/",
    summary: "Status of one account import process.",
    pathParameters: ["import_supplier_code", "external_account_number"],
    queryParameters: [],
    requestKind: "path",
    request: AccountTransferStatusParams,
    repeat: "always",
    service: { handler: "account-transfer-status" },
    responses: {
      200: { schema: AccountTransferStatusResponse, description: "The process exists (with or without an account)." },
      404: { schema: UndocumentedBody, description: "No process exists for the pair.", retry: "do-not-retry-unchanged" },
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "all-account-import-processes": listEndpoint("all-account-import-processes", "all", "List pending and imported account import processes.", AllAccountImportProcessesResponse, "Pending and imported processes."),
  "pending-account-import-processes": listEndpoint("pending-account-import-processes", "pending", "List pending account import processes.", PendingAccountImportProcessesResponse, "Pending processes."),
  "imported-account-import-processes": listEndpoint("imported-account-import-processes", "imported", "List imported account import processes.", ImportedAccountImportProcessesResponse, "Imported processes."),
  "market-participant": {
    ...post("market-participant", "/v1/data-import/market-participant/import/", "Import a market participant."),
    naturalKey: { account: false, fields: ["code"] },
    request: MarketParticipantRequest,
    // A participant whose code exists already is answered 200 and left unchanged.
    repeat: "always",
    service: { handler: "market-participant", stores: "market_participants" },
    responses: {
      200: { schema: UndocumentedBody, description: "A participant with that code already existed; nothing changed.", alreadyExisted: true },
      201: { schema: UndocumentedBody, description: "Imported." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "market-participant-fees": {
    ...post("market-participant-fees", "/v1/data-import/market-participant-fees/import/", "Import fee price sheets."),
    naturalKey: { items: "price_sheets", account: false, fields: ["market_participant_code", "document_number"] },
    request: MarketParticipantFeesRequest,
    repeat: "never",
    service: { handler: "market-participant-fees", stores: "price_sheets" },
    responses: {
      201: { schema: UndocumentedBody, description: "Imported." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  },
  "market-participant-definitions": {
    ...post("market-participant-definitions", "/v1/data-import/market-participant-definitions/import/", "Import time definitions."),
    naturalKey: { account: false, fields: ["network_operator_code", "definitions[].definition_type", "definitions[].definition_code", "definitions[].valid_from", "rolled_out_definitions[].definition_type", "rolled_out_definitions[].definition_code", "rolled_out_definitions[].validity_period_start", "rolled_out_definitions[].validity_period_end"] },
    request: MarketParticipantDefinitionsRequest,
    repeat: "never",
    service: { handler: "market-participant-definitions", stores: "time_definitions" },
    responses: {
      201: { schema: UndocumentedBody, description: "Imported." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  }
} as const satisfies Record<string, EndpointDefinition>
