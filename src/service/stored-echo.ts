/**
 * The post-import endpoints that store what they get and answer 201 with the validated data: the
 * generic `"store-and-echo"` (delivery-note, energy-amount, market-participant-invoice, and any new
 * endpoint whose catalogue entry names it); payment-instruction; and historical-statements, which refuses a
 * statement id the account has already (the real API's `historical_statement_already_exists`).
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { RequestOf } from "../schemas/endpoints/endpoint-id.js"
import { importedAccount, type PostImportEndpointId } from "./account-access.js"
import type { Handler } from "./handler.js"
import { businessError } from "./service-response.js"
import { accountKey } from "./state.js"

/** The endpoints the catalogue answers with `"store-and-echo"`. */
type StoreAndEchoId = {
  [E in PostImportEndpointId]: (typeof endpoints)[E]["service"]["handler"] extends "store-and-echo" ? E : never
}[PostImportEndpointId]

/** The endpoints whose `service.field` is not a field of their body: none, or this does not compile. */
type UnknownFields = {
  [E in StoreAndEchoId]: (typeof endpoints)[E]["service"] extends { readonly field: keyof RequestOf<E> } ? never : E
}[StoreAndEchoId]
const everyFieldExists: [UnknownFields] extends [never] ? true : UnknownFields = true
void everyFieldExists

/**
 * `"store-and-echo"` (delivery-note, energy-amount, market-participant-invoice): stores the body's
 * `service.field` under the account as one record of `service.stores`, and answers 201 with the body.
 */
export const storeAndEchoHandler: Handler<StoreAndEchoId> = ({ endpointId, state, request }) => {
  const found = importedAccount(state, endpointId, request)
  if ("refused" in found) return found.refused
  const { stores, field } = endpoints[endpointId].service
  state.add({
    kind: stores,
    account: accountKey(request.import_supplier, request.external_account_number),
    key: null,
    data: (request as Readonly<Record<string, unknown>>)[field]
  })
  return { status: 201, body: request }
}

/** `historical-statements`: 201 with the data, or 400 when a statement id is on the account already. */
export const historicalStatementsHandler: Handler<"historical-statements"> = ({ state, request }) => {
  const found = importedAccount(state, "historical-statements", request)
  if ("refused" in found) return found.refused
  const account = accountKey(request.import_supplier, request.external_account_number)
  const known = request.statements.flatMap((s, index) =>
    state.find("historical_statements", account, s.statement_id).length > 0
      ? [{ detail: `The account already has statement ${s.statement_id}.`, attr: `statements.${index}.statement_id` }]
      : []
  )
  if (known.length > 0) return { status: 400, body: businessError("historical_statement_already_exists", known) }
  for (const s of request.statements) state.add({ kind: "historical_statements", account, key: s.statement_id, data: s })
  return { status: 201, body: request }
}

/**
 * `payment-instruction`: 201 `{ service_account_number, reference }`; when the upstream vendor fails
 * (an injected fault), 500 with the real API's error body and nothing stored.
 */
export const paymentInstructionHandler: Handler<"payment-instruction"> = ({ state, request, context }) => {
  const found = importedAccount(state, "payment-instruction", request)
  if ("refused" in found) return found.refused
  if (context.vendorFails) {
    return {
      status: 500,
      body: {
        error_detail: "The payment vendor could not be reached. Retry the same request as it is.",
        external_account_number: request.external_account_number,
        import_supplier: request.import_supplier,
        reference: request.reference
      }
    }
  }
  const account = accountKey(request.import_supplier, request.external_account_number)
  state.add({ kind: "payment_instructions", account, key: request.reference, data: { vendor: request.vendor, reference: request.reference, type: request.type } })
  return { status: 201, body: { service_account_number: found.account.service_account_number ?? "", reference: request.reference } }
}
