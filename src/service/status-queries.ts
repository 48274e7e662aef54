/**
 * The status endpoints, answered from the seeded account import processes: `""` for a missing account
 * number in the single status, `null` in the lists, exactly as the spec says.
 *
 * @module
 */
import type { AccountImportProcess } from "../schemas/import-status.js"
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

type ListEndpointId = "all-account-import-processes" | "pending-account-import-processes" | "imported-account-import-processes"

const list = <E extends ListEndpointId>(keep: (a: SeedAccount) => boolean): Handler<E> => ({ state, request }) => ({
  status: 200,
  body: state.accounts(request.import_supplier_code).filter(keep).map(listItem)
})

/** `all-account-import-processes`: every process of the supplier (an unknown supplier has none). */
export const allProcessesHandler = list<"all-account-import-processes">(() => true)
/** `pending-account-import-processes`: `IN_PROGRESS` and `UNKNOWN` processes. */
export const pendingProcessesHandler = list<"pending-account-import-processes">((a) => a.status !== "COMPLETED")
/** `imported-account-import-processes`: `COMPLETED` processes. */
export const importedProcessesHandler = list<"imported-account-import-processes">((a) => a.status === "COMPLETED")
