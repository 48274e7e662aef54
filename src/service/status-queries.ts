/**
 * The status endpoints, answered from the seeded account import processes: `""` for a missing account
 * number in the single status, `null` in the lists, exactly as the spec says.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { AccountImportProcess } from "../schemas/import-status/import-status.js"
import type { Handler } from "./handler.js"
import type { SeedAccount } from "./seed.js"

const listItem = (a: SeedAccount): AccountImportProcess => ({
  external_account_number: a.external_account_number,
  service_account_number: a.service_account_number ?? null,
  account_created_at: a.account_created_at ?? null
})

/** `account-transfer-status`: 200 `{ status, service_account_number }` or 404 `{ detail }`. */
export const accountTransferStatusHandler: Handler<"account-transfer-status"> = ({ state, request }) => {
  const account = state.account(request.import_supplier_code, request.external_account_number)
  return account === undefined
    ? { status: 404, body: { detail: "No account import process exists for this import supplier and external account number." } }
    : { status: 200, body: { status: account.status, service_account_number: account.service_account_number ?? "" } }
}

/** The endpoints the catalogue answers with `"account-import-processes"`. */
type ListEndpointId = {
  [E in EndpointId]: (typeof endpoints)[E]["service"]["handler"] extends "account-import-processes" ? E : never
}[EndpointId]

/** Which processes each list keeps: `pending` are `IN_PROGRESS` and `UNKNOWN`, `imported` are `COMPLETED`. */
const KEEP: Readonly<Record<"all" | "pending" | "imported", (a: SeedAccount) => boolean>> = {
  all: () => true,
  pending: (a) => a.status !== "COMPLETED",
  imported: (a) => a.status === "COMPLETED"
}

/**
 * `"account-import-processes"` (the three lists): the supplier's processes that `service.processes` keeps
 * (an unknown supplier has none).
 */
export const processesHandler: Handler<ListEndpointId> = ({ endpointId, state, request }) => ({
  status: 200,
  body: state.accounts(request.import_supplier_code).filter(KEEP[endpoints[endpointId].service.processes]).map(listItem)
})
