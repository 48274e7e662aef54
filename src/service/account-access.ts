/**
 * The checks every post-import request passes: the account must be imported (not only staged) and its
 * import supplier must be `Ongoing`. The answer when it is not differs by endpoint, as the spec documents.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { PostEndpointId, RequestOf } from "../schemas/endpoints/endpoint-id.js"
import { NotFoundErrorBody } from "../schemas/errors.js"
import type { SeedAccount } from "./seed.js"
import { businessError } from "./service-response.js"
import type { Answer } from "./handler.js"
import type { ServiceState } from "./state.js"

/** The post-import endpoints: those whose body names an account. */
export type PostImportEndpointId = {
  [E in PostEndpointId]: RequestOf<E> extends AccountId ? E : never
}[PostEndpointId]

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

/**
 * How a post-import endpoint answers for an account that is missing or not imported, as its documented
 * responses say: a 404 with the `{ error }` body where one is documented, a 404 with `{ detail }` where the
 * 404's body is not, and the 400 of a validator where no 404 is documented.
 */
const accountNotFound = (endpointId: PostImportEndpointId): (missing: Missing, id: AccountId) => Answer => {
  const responses: Readonly<Record<number, { readonly schema: unknown }>> = endpoints[endpointId].responses
  const notFound = responses[404]
  return notFound === undefined ? validation400 : notFound.schema === NotFoundErrorBody ? errorBody404 : detailBody404
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
  if (account === undefined) return { refused: accountNotFound(endpointId)("import_process_does_not_exist", id) }
  if (account.status !== "COMPLETED") return { refused: accountNotFound(endpointId)("account_not_found", id) }
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
