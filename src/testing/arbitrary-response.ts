/**
 * Generators of valid response bodies, for every status the catalogue documents. Each response schema of
 * the catalogue has one generator here, looked up by the schema itself: a response that echoes the request
 * reuses the payload generator, a 400 body is what `validatePayload` answers for a generated broken
 * payload, and a status whose body the spec does not show gets any JSON.
 *
 * @module
 */
import type { Schema } from "effect"
import * as fc from "fast-check"
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { type EndpointId, isEndpointId, isPostEndpointId, type ResponseOf, type StatusOf } from "../schemas/endpoints/endpoint-id.js"
import { DetailBody, NotFoundErrorBody, UndocumentedBody, ValidationErrorBody } from "../schemas/errors.js"
import {
  AccountTransferStatusResponse,
  AllAccountImportProcessesResponse,
  ImportedAccountImportProcessesResponse,
  PendingAccountImportProcessesResponse
} from "../schemas/import-status/import-status.js"
import { NotesResponse } from "../schemas/notes/notes.js"
import { PaymentInstructionResponse } from "../schemas/payment-instruction/payment-instruction.js"
import { TransactionImportError, TransactionsResponse } from "../schemas/transactions/transactions.js"
import { validatePayload } from "../validation/validate-payload.js"
import { arbitraryInvalidPayload } from "./arbitrary-invalid-payload.js"
import { isoDateTime } from "./arbitrary-dates.js"
import { contextOf, payloadGenerator } from "./arbitrary-payload.js"
import {
  compactObject,
  externalAccountNumber,
  type Json,
  type JsonObject,
  oneof,
  optional,
  record,
  reference
} from "./arbitrary-values.js"

const CTX = contextOf()

/** The account number the service gives a created account, e.g. `A-1B2C3D4E`. */
const serviceAccountNumber = fc.stringMatching(/^A-[0-9A-F]{8}$/u)

/** The 400 body `validatePayload` answers for a generated broken payload of the endpoint. */
const validationErrorBody = (id: EndpointId): fc.Arbitrary<Json> => {
  if (!isPostEndpointId(id)) throw new TypeError(`${id} documents no validation error body`)
  return arbitraryInvalidPayload(id).map(({ payload }) => {
    const result = validatePayload(id, payload)
    if (result.ok) throw new Error(`A broken ${id} payload validated: ${JSON.stringify(payload)}`)
    return result.error as unknown as Json
  })
}

/** A transaction as the server echoes it: amounts as decimal strings, line and tax numbers either way. */
const echoedTransaction = payloadGenerator("transactions", CTX).chain((payload) => {
  const list = payload["transactions"] as ReadonlyArray<JsonObject>
  return fc.tuple(fc.constant(list[0] as JsonObject), fc.boolean(), optional(fc.constant("TRANSACTION_IMPORT_SUCCESS")))
}).map(([t, asStrings, status]) => {
  const text = (n: Json | undefined): Json | undefined => (typeof n === "number" && asStrings ? String(n) : n)
  const items = (key: string, fields: ReadonlyArray<string>) =>
    Array.isArray(t[key])
      ? (t[key] as ReadonlyArray<JsonObject>).map((item) =>
        Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fields.includes(k) ? text(v) ?? v : k === "units" && Array.isArray(v) ? v.map((u) => text(u) ?? u) : v]))
      )
      : undefined
  return compactObject({
    ...t,
    amount: typeof t["amount"] === "number" ? (t["amount"]).toFixed(2) : t["amount"],
    line_items: items("line_items", ["number_of_units", "net_amount", "price_per_unit"]),
    tax_items: items("tax_items", ["amount", "value_taxed", "rate"]),
    status
  })
})

const transactionsResponse: fc.Arbitrary<Json> = record({
  results: fc.array(
    record({
      status: fc.constantFrom("TRANSACTION_ADDED_TO_ACCOUNT", "TRANSACTION_ALREADY_EXISTS", "TRANSACTION_IMPORT_ERROR"),
      transaction_data: echoedTransaction
    }),
    { maxLength: 3 }
  )
})

const transactionImportError: fc.Arbitrary<Json> = record({
  status: fc.constant("TRANSACTION_IMPORT_ERROR"),
  error_detail: fc.constantFrom(
    "Transaction is not within the open statement period.",
    "Could not add the transaction to the account."
  ),
  transaction_data: echoedTransaction
})

const notesResponse: fc.Arbitrary<Json> = payloadGenerator("notes", CTX).chain((payload) =>
  fc.tuple(
    ...(payload["notes"] as ReadonlyArray<JsonObject>).map((note) =>
      record({
        // The service fills in the creation time (now) and echoes an absent body as "".
        created_at: typeof note["created_at"] === "string" ? fc.constant(note["created_at"]) : isoDateTime,
        body: fc.constant(typeof note["body"] === "string" ? note["body"] : ""),
        status: fc.constantFrom("NOTE_CREATION_SUCCESS", "NOTE_ALREADY_EXISTS")
      })
    )
  )
)

const importProcess = (state: "pending" | "imported" | "either"): fc.Arbitrary<Json> => {
  const pending = record({ external_account_number: externalAccountNumber, service_account_number: fc.constant(null), account_created_at: fc.constant(null) })
  const imported = record({ external_account_number: externalAccountNumber, service_account_number: serviceAccountNumber, account_created_at: isoDateTime })
  return state === "pending" ? pending : state === "imported" ? imported : oneof(pending, imported)
}

/** Bodies that servers of this kind send for a status, when the spec does not show one. */
const TYPICAL_BODIES: Readonly<Record<number, ReadonlyArray<Json>>> = {
  401: [{ detail: "Authentication credentials were not provided." }, { detail: "Invalid token." }],
  404: [{ detail: "Not found." }],
  429: [{ detail: "Request was throttled. Expected available in 2 seconds." }],
  503: [{ detail: "The service is unavailable. Retry later." }],
  500: [{ detail: "A server error occurred." }, "Internal Server Error"]
}

/** Any JSON, for a status whose body the spec does not show; a typical body for the status most of the time. */
const undocumented = (status: number): fc.Arbitrary<Json> =>
  oneof(
    { weight: 3, arbitrary: fc.constantFrom<Json>(...(TYPICAL_BODIES[status] ?? [{}, { status: "ok" }])) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> }
  )

/** The generator of each response schema of the catalogue, by schema. */
const bySchema = new Map<Schema.Top, (id: EndpointId, status: number) => fc.Arbitrary<Json>>([
  [NotesResponse, () => notesResponse],
  [TransactionsResponse, () => transactionsResponse],
  [PaymentInstructionResponse, () => record({ service_account_number: serviceAccountNumber, reference: reference("pm") })],
  [AccountTransferStatusResponse, () =>
    oneof(
      record({ status: fc.constant("COMPLETED"), service_account_number: serviceAccountNumber }),
      // No account yet: the number is an empty string.
      record({ status: fc.constantFrom("UNKNOWN", "IN_PROGRESS"), service_account_number: fc.constant("") })
    )],
  [AllAccountImportProcessesResponse, () => fc.array(importProcess("either"), { maxLength: 5 })],
  [PendingAccountImportProcessesResponse, () => fc.array(importProcess("pending"), { maxLength: 5 })],
  [ImportedAccountImportProcessesResponse, () => fc.array(importProcess("imported"), { maxLength: 5 })],
  [ValidationErrorBody, validationErrorBody],
  [TransactionImportError, () => transactionImportError],
  [NotFoundErrorBody, () => externalAccountNumber.map((n) => ({ error: `Account not found for external account number ${n}.` }))],
  [UndocumentedBody, (_, status) => undocumented(status)],
  [DetailBody, (_, status) => oneof(fc.constantFrom<Json>(...(TYPICAL_BODIES[status] ?? [{ detail: "Error." }])), record({ detail: fc.string() }))]
])

/** The generator of a response schema of an endpoint. */
const generatorOf = (id: EndpointId, status: number, schema: Schema.Top): fc.Arbitrary<Json> => {
  const known = bySchema.get(schema)
  if (known !== undefined) return known(id, status)
  // "The validated data": the request body, echoed.
  if (schema === endpoints[id].request && isPostEndpointId(id)) return payloadGenerator(id, CTX)
  // Either body of a union (the transactions 400: validation errors, or a transaction import error).
  const members: unknown = (schema as { readonly members?: unknown }).members
  if (Array.isArray(members) && members.length > 0) {
    return oneof(...members.map((member: Schema.Top) => generatorOf(id, status, member)))
  }
  throw new Error(`No response generator for ${id}: add one for this schema to arbitrary-response.ts`)
}

/**
 * A fast-check arbitrary of valid response bodies of an endpoint for a documented status (what
 * `validateResponse(endpointId, status, body)` accepts). A 400 body is the API's answer to a generated
 * broken payload; a response that echoes the request is a generated request body; a status whose body
 * the spec does not show yields any JSON. Throws a `TypeError` for an unknown endpoint or a status the
 * endpoint does not document.
 *
 * @example
 * import fc from "fast-check"
 * import { arbitraryResponse } from "data-import-payloads/testing"
 *
 * // Your client's parser must understand every status body the API can send.
 * const understood = fc.property(arbitraryResponse("account-transfer-status", 200), (body) => parseStatus(body).ok)
 * fc.assert(understood) // in a test: fails with the smallest body not understood
 * fc.check(understood).failed // => false
 *
 * @since 0.1.0
 */
export const arbitraryResponse = <E extends EndpointId, S extends StatusOf<E>>(
  endpointId: E,
  status: S
): fc.Arbitrary<ResponseOf<E, S>> => {
  if (!isEndpointId(endpointId)) throw new TypeError(`Unknown endpoint id: ${String(endpointId)}`)
  const responses: Readonly<Record<number, { readonly schema: Schema.Top }>> = endpoints[endpointId].responses
  const response = Object.hasOwn(responses, status) ? responses[status] : undefined
  if (response === undefined) {
    throw new TypeError(`Status ${String(status)} is not documented for ${endpointId} (documented: ${Object.keys(responses).join(", ")})`)
  }
  return generatorOf(endpointId, status, response.schema) as unknown as fc.Arbitrary<ResponseOf<E, S>>
}
