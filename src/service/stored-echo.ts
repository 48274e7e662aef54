/**
 * The post-import endpoints that store what they get and answer 201 with the validated data:
 * delivery-note, energy-amount, market-participant-invoice; and historical-statements, which refuses a
 * statement id the account has already (the real API's `historical_statement_already_exists`).
 *
 * @module
 */
import { importedAccount, type PostImportEndpointId } from "./account-access.js"
import type { Handler } from "./handler.js"
import { businessError } from "./service-response.js"
import { accountKey, type RecordKind } from "./state.js"

/** A handler that stores the body's data under the account as one record of `kind`, and echoes the body. */
const storeAndEcho = <E extends "delivery-note" | "energy-amount" | "market-participant-invoice">(
  endpointId: E & PostImportEndpointId,
  kind: RecordKind,
  field: "delivery_note" | "energy_amount" | "market_participant_invoice"
): Handler<E> =>
({ state, request }) => {
  const found = importedAccount(state, endpointId, request)
  if ("refused" in found) return found.refused
  state.add({
    kind,
    account: accountKey(request.import_supplier, request.external_account_number),
    key: null,
    data: (request as Readonly<Record<string, unknown>>)[field]
  })
  return { status: 201, body: request }
}

/** `delivery-note`. */
export const deliveryNoteHandler = storeAndEcho("delivery-note", "delivery_notes", "delivery_note")
/** `energy-amount`. */
export const energyAmountHandler = storeAndEcho("energy-amount", "energy_amounts", "energy_amount")
/** `market-participant-invoice`. */
export const invoiceHandler = storeAndEcho("market-participant-invoice", "market_participant_invoices", "market_participant_invoice")

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
