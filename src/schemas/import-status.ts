/**
 * Account import status queries: `account-transfer-status`, `all-account-import-processes`,
 * `pending-account-import-processes` and `imported-account-import-processes` (all GET).
 *
 * @module
 */
import { Schema } from "effect"
import { closedEnum, ExternalAccountNumber, ImportSupplierCode, IsoDateTime } from "./conventions.js"

/** State of an account import process. */
export const AccountImportProcessStatus = closedEnum(["UNKNOWN", "COMPLETED", "IN_PROGRESS"])
/** State of an account import process. */
export type AccountImportProcessStatus = typeof AccountImportProcessStatus.Type

/** State of an import supplier, set by the service operators (not a payload field of these endpoints). */
export const ImportSupplierStatus = closedEnum(["Ongoing", "Paused", "Complete"])
/** State of an import supplier. */
export type ImportSupplierStatus = typeof ImportSupplierStatus.Type

/** Path parameters of `account-transfer-status`. */
export const AccountTransferStatusParams = Schema.Struct({
  import_supplier_code: ImportSupplierCode,
  external_account_number: ExternalAccountNumber
}).annotate({ identifier: "AccountTransferStatusParams" })
/** Path parameters of `account-transfer-status`. */
export type AccountTransferStatusParams = typeof AccountTransferStatusParams.Type

/** Path parameters of the three list endpoints. */
export const ImportSupplierParams = Schema.Struct({ import_supplier_code: ImportSupplierCode }).annotate({ identifier: "ImportSupplierParams" })
/** Path parameters of the three list endpoints. */
export type ImportSupplierParams = typeof ImportSupplierParams.Type

/** 200 response of `account-transfer-status`; `service_account_number` is `""` while no account exists. */
export const AccountTransferStatusResponse = Schema.Struct({
  status: AccountImportProcessStatus,
  service_account_number: Schema.String
}).annotate({ identifier: "AccountTransferStatusResponse" })
/** 200 response of `account-transfer-status`. */
export type AccountTransferStatusResponse = typeof AccountTransferStatusResponse.Type

/** One item of the process lists; the last two fields are `null` while the process is pending. */
export const AccountImportProcess = Schema.Struct({
  external_account_number: Schema.String,
  service_account_number: Schema.NullOr(Schema.String),
  account_created_at: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "AccountImportProcess" })
/** One item of the process lists. */
export type AccountImportProcess = typeof AccountImportProcess.Type

/** One item of the pending list: no account yet, so both fields are always `null`. */
export const PendingAccountImportProcess = Schema.Struct({
  external_account_number: Schema.String,
  service_account_number: Schema.Null,
  account_created_at: Schema.Null
}).annotate({ identifier: "PendingAccountImportProcess" })
/** One item of the pending list. */
export type PendingAccountImportProcess = typeof PendingAccountImportProcess.Type

/** 200 response of `all-account-import-processes`: pending and imported processes. */
export const AllAccountImportProcessesResponse = Schema.Array(AccountImportProcess).annotate({ identifier: "AllAccountImportProcessesResponse" })
/** 200 response of `all-account-import-processes`. */
export type AllAccountImportProcessesResponse = typeof AllAccountImportProcessesResponse.Type

/** 200 response of `pending-account-import-processes`. */
export const PendingAccountImportProcessesResponse = Schema.Array(PendingAccountImportProcess).annotate({ identifier: "PendingAccountImportProcessesResponse" })
/** 200 response of `pending-account-import-processes`. */
export type PendingAccountImportProcessesResponse = typeof PendingAccountImportProcessesResponse.Type

/** 200 response of `imported-account-import-processes` (the spec does not show it; the list item shape is assumed). */
export const ImportedAccountImportProcessesResponse = Schema.Array(AccountImportProcess).annotate({ identifier: "ImportedAccountImportProcessesResponse" })
/** 200 response of `imported-account-import-processes`. */
export type ImportedAccountImportProcessesResponse = typeof ImportedAccountImportProcessesResponse.Type
