/**
 * Account import status queries: `account-transfer-status`, `all-account-import-processes`,
 * `pending-account-import-processes` and `imported-account-import-processes` (all GET).
 *
 * @module
 */
import { Schema } from "effect"
import { closedEnum, ExternalAccountNumber, ImportSupplierCode, IsoDateTime } from "../conventions.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { SERVICE_LEVEL_RESPONSES } from "../endpoint-parts.js"
import { UndocumentedBody } from "../errors.js"

/**
 * State of an account import process.
 *
 * @example
 * Schema.is(Schemas.AccountImportProcessStatus)("COMPLETED") // => true
 * Schema.is(Schemas.AccountImportProcessStatus)("DONE") // => false
 *
 * @since 0.1.0
 */
export const AccountImportProcessStatus = closedEnum(["UNKNOWN", "COMPLETED", "IN_PROGRESS"])
/** State of an account import process. */
export type AccountImportProcessStatus = typeof AccountImportProcessStatus.Type

/**
 * State of an import supplier, set by the service operators (not a payload field of these endpoints).
 *
 * @example
 * Schema.is(Schemas.ImportSupplierStatus)("Paused") // => true
 * Schema.is(Schemas.ImportSupplierStatus)("PAUSED") // => false
 *
 * @since 0.1.0
 */
export const ImportSupplierStatus = closedEnum(["Ongoing", "Paused", "Complete"])
/** State of an import supplier. */
export type ImportSupplierStatus = typeof ImportSupplierStatus.Type

/**
 * Path parameters of `account-transfer-status`.
 *
 * @example
 * Schema.is(Schemas.AccountTransferStatusParams)({ import_supplier_code: "STADTWERKE_NORD", external_account_number: "KD-1" }) // => true
 * Schema.is(Schemas.AccountTransferStatusParams)({ import_supplier_code: "STADTWERKE_NORD" }) // => false
 *
 * @since 0.1.0
 */
export const AccountTransferStatusParams = Schema.Struct({
  import_supplier_code: ImportSupplierCode,
  external_account_number: ExternalAccountNumber
}).annotate({ identifier: "AccountTransferStatusParams" })
/** Path parameters of `account-transfer-status`. */
export type AccountTransferStatusParams = typeof AccountTransferStatusParams.Type

/**
 * Path parameters of the three list endpoints.
 *
 * @example
 * Schema.is(Schemas.ImportSupplierParams)({ import_supplier_code: "STADTWERKE_NORD" }) // => true
 * Schema.is(Schemas.ImportSupplierParams)({ import_supplier_code: "" }) // => false
 *
 * @since 0.1.0
 */
export const ImportSupplierParams = Schema.Struct({ import_supplier_code: ImportSupplierCode }).annotate({ identifier: "ImportSupplierParams" })
/** Path parameters of the three list endpoints. */
export type ImportSupplierParams = typeof ImportSupplierParams.Type

/**
 * 200 response of `account-transfer-status`; `service_account_number` is `""` while no account exists.
 *
 * @example
 * Schema.is(Schemas.AccountTransferStatusResponse)({ status: "IN_PROGRESS", service_account_number: "" }) // => true
 * Schema.is(Schemas.AccountTransferStatusResponse)({ status: "IN_PROGRESS", service_account_number: null }) // => false
 *
 * @since 0.1.0
 */
export const AccountTransferStatusResponse = Schema.Struct({
  status: AccountImportProcessStatus,
  service_account_number: Schema.String
}).annotate({ identifier: "AccountTransferStatusResponse" })
/** 200 response of `account-transfer-status`. */
export type AccountTransferStatusResponse = typeof AccountTransferStatusResponse.Type

/**
 * One item of the process lists; the last two fields are `null` while the process is pending.
 *
 * @example
 * Schema.is(Schemas.AccountImportProcess)({ external_account_number: "KD-1", service_account_number: "A-1B2C3D4E", account_created_at: "2024-01-02T10:00:00Z" }) // => true
 * Schema.is(Schemas.AccountImportProcess)({ external_account_number: "KD-2", service_account_number: null, account_created_at: null }) // => true
 * Schema.is(Schemas.AccountImportProcess)({ external_account_number: "KD-2" }) // => false
 *
 * @since 0.1.0
 */
export const AccountImportProcess = Schema.Struct({
  external_account_number: Schema.String,
  service_account_number: Schema.NullOr(Schema.String),
  account_created_at: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "AccountImportProcess" })
/** One item of the process lists. */
export type AccountImportProcess = typeof AccountImportProcess.Type

/**
 * One item of the pending list: no account yet, so both fields are always `null`.
 *
 * @example
 * Schema.is(Schemas.PendingAccountImportProcess)({ external_account_number: "KD-2", service_account_number: null, account_created_at: null }) // => true
 * Schema.is(Schemas.PendingAccountImportProcess)({ external_account_number: "KD-1", service_account_number: "A-1B2C3D4E", account_created_at: null }) // => false
 *
 * @since 0.1.0
 */
export const PendingAccountImportProcess = Schema.Struct({
  external_account_number: Schema.String,
  service_account_number: Schema.Null,
  account_created_at: Schema.Null
}).annotate({ identifier: "PendingAccountImportProcess" })
/** One item of the pending list. */
export type PendingAccountImportProcess = typeof PendingAccountImportProcess.Type

/**
 * 200 response of `all-account-import-processes`: pending and imported processes.
 *
 * @example
 * const pending = { external_account_number: "KD-2", service_account_number: null, account_created_at: null }
 * Schema.is(Schemas.AllAccountImportProcessesResponse)([pending]) // => true
 * Schema.is(Schemas.AllAccountImportProcessesResponse)({ results: [pending] }) // => false
 *
 * @since 0.1.0
 */
export const AllAccountImportProcessesResponse = Schema.Array(AccountImportProcess).annotate({ identifier: "AllAccountImportProcessesResponse" })
/** 200 response of `all-account-import-processes`. */
export type AllAccountImportProcessesResponse = typeof AllAccountImportProcessesResponse.Type

/**
 * 200 response of `pending-account-import-processes`.
 *
 * @example
 * Schema.is(Schemas.PendingAccountImportProcessesResponse)([{ external_account_number: "KD-2", service_account_number: null, account_created_at: null }]) // => true
 * Schema.is(Schemas.PendingAccountImportProcessesResponse)([{ external_account_number: "KD-1", service_account_number: "A-1B2C3D4E", account_created_at: "2024-01-02T10:00:00Z" }]) // => false
 *
 * @since 0.1.0
 */
export const PendingAccountImportProcessesResponse = Schema.Array(PendingAccountImportProcess).annotate({ identifier: "PendingAccountImportProcessesResponse" })
/** 200 response of `pending-account-import-processes`. */
export type PendingAccountImportProcessesResponse = typeof PendingAccountImportProcessesResponse.Type

/**
 * 200 response of `imported-account-import-processes` (the spec does not show it; the list item shape is assumed).
 *
 * @example
 * Schema.is(Schemas.ImportedAccountImportProcessesResponse)([{ external_account_number: "KD-1", service_account_number: "A-1B2C3D4E", account_created_at: "2024-01-02T10:00:00Z" }]) // => true
 * Schema.is(Schemas.ImportedAccountImportProcessesResponse)([{ external_account_number: "KD-1" }]) // => false
 *
 * @since 0.1.0
 */
export const ImportedAccountImportProcessesResponse = Schema.Array(AccountImportProcess).annotate({ identifier: "ImportedAccountImportProcessesResponse" })
/** 200 response of `imported-account-import-processes`. */
export type ImportedAccountImportProcessesResponse = typeof ImportedAccountImportProcessesResponse.Type


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

/**
 * The catalogue's entries of `account-transfer-status`, `all-account-import-processes`, `pending-account-import-processes`, `imported-account-import-processes`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does.
 */
const importStatusEndpoints = {
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
  "imported-account-import-processes": listEndpoint("imported-account-import-processes", "imported", "List imported account import processes.", ImportedAccountImportProcessesResponse, "Imported processes.")
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: importStatusEndpoints,
  rules: [],
  warningRules: []
} as const satisfies ResourceDefinition
