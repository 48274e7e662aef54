/**
 * The checks every post-import request passes: the account must be imported (not only staged) and its
 * import supplier must be `Ongoing`. The answer when it is not differs by endpoint, as the spec documents.
 *
 * @module
 */
import type { PostEndpointId } from "../endpoints/endpoint-id.js"
import type { SeedAccount } from "./seed.js"
import { businessError } from "./service-response.js"
import type { Answer } from "./handler.js"
import type { ServiceState } from "./state.js"

/** The post-import endpoints: those whose body names an account. */
export type PostImportEndpointId = Extract<
  PostEndpointId,
  "notes" | "delivery-note" | "energy-amount" | "transactions" | "historical-statements" | "market-participant-invoice" | "payment-instruction"
>

/** Why an account cannot take post-import data. */
type Missing = "import_process_does_not_exist" | "account_not_found"

interface AccountId {
  readonly import_supplier: string
  readonly external_account_number: string
}

const reason = (missing: Missing, id: AccountId): string =>
  missing === "import_process_does_not_exist"
    ? `No account import process exists for import supplier ${id.import_supplier} and external account number ${id.external_account_number}.`
    : `The account for external account number ${id.external_account_number} is not imported yet (the process is only staged).`

/** `{ error }` with status 404: the body the spec gives for delivery-note, energy-amount and invoice. */
const errorBody404 = (missing: Missing, id: AccountId): Answer => ({ status: 404, body: { error: reason(missing, id) } })
/** `{ detail }` with status 404: notes document a 404 without a body; this is the status endpoint's 404 body. */
const detailBody404 = (missing: Missing, id: AccountId): Answer => ({ status: 404, body: { detail: reason(missing, id) } })
/** No 404 documented: a 400 with the real API's validator code, at `external_account_number`. */
const validation400 = (missing: Missing, id: AccountId): Answer => ({
  status: 400,
  body: businessError(missing, [{ detail: reason(missing, id), attr: "external_account_number" }])
})

/** How each post-import endpoint answers for an account that is missing or not imported. */
export const ACCOUNT_NOT_FOUND: Readonly<Record<PostImportEndpointId, (missing: Missing, id: AccountId) => Answer>> = {
  "notes": detailBody404,
  "delivery-note": errorBody404,
  "energy-amount": errorBody404,
  "market-participant-invoice": errorBody404,
  "transactions": validation400,
  "historical-statements": validation400,
  "payment-instruction": validation400
}

/**
 * The imported account a post-import request names, or the answer that refuses it: not found (per
 * endpoint), or 400 `import_supplier_migration_not_ongoing` when its supplier is `Paused` or `Complete`.
 */
export const importedAccount = (
  state: ServiceState,
  endpointId: PostImportEndpointId,
  id: AccountId
): { readonly account: SeedAccount } | { readonly refused: Answer } => {
  const account = state.account(id.import_supplier, id.external_account_number)
  if (account === undefined) return { refused: ACCOUNT_NOT_FOUND[endpointId]("import_process_does_not_exist", id) }
  if (account.status !== "COMPLETED") return { refused: ACCOUNT_NOT_FOUND[endpointId]("account_not_found", id) }
  const status = state.supplierStatus(id.import_supplier)
  if (status !== "Ongoing") {
    return {
      refused: {
        status: 400,
        body: businessError("import_supplier_migration_not_ongoing", [{
          detail: `The migration of import supplier ${id.import_supplier} is not ongoing (${String(status)}): accounts cannot take data.`,
          attr: "import_supplier"
        }])
      }
    }
  }
  return { account }
}
