/**
 * The rehearsal controls of the reference service: what the real service's operators do, as requests.
 * `POST /_reference/suppliers/{code}/` sets an import supplier's status (a migration is paused, resumed,
 * completed); `POST /_reference/accounts/{import_supplier}/{external_account_number}/` sets an account
 * import process's status (an account is staged, or its import completes); `POST /_reference/lookup/`
 * answers which of a list of natural keys the service has stored (`lookup.ts`). Path parameters and
 * bodies are checked with Effect schemas and refused in the API's 400 shape.
 *
 * @module
 */
import { Schema } from "effect"
import { AccountIdentification, ImportSupplierCode } from "../schemas/conventions.js"
import { AccountImportProcessStatus, ImportSupplierStatus } from "../schemas/import-status/import-status.js"
import type { PayloadError } from "../validation/result.js"
import { runValidation, toValidationErrorBody } from "../validation/run-validation.js"
import { type Answer, formatInstant } from "./handler.js"
import type { ControlId } from "./routes.js"
import type { SeedAccount } from "./seed.js"
import { businessError, unparseableBody } from "./service-response.js"
import type { ServiceState } from "./state.js"
import { lookupRecords } from "./lookup.js"

/** The path parameters and the body of each control. */
const SCHEMAS = {
  supplier: { params: Schema.Struct({ code: ImportSupplierCode }), body: Schema.Struct({ status: ImportSupplierStatus }) },
  account: { params: AccountIdentification, body: Schema.Struct({ status: AccountImportProcessStatus }) },
  lookup: { params: Schema.Struct({}), body: Schema.Struct({ keys: Schema.Array(Schema.String) }) }
} as const

type Params<C extends ControlId> = (typeof SCHEMAS)[C]["params"]["Type"]
type Body<C extends ControlId> = (typeof SCHEMAS)[C]["body"]["Type"]

/** A control's request, or the 400 that refuses it: every error of the path parameters and the body at once. */
const decode = <C extends ControlId>(
  control: C,
  params: Readonly<Record<string, string>>,
  text: string | undefined
): { readonly params: Params<C>; readonly body: Body<C> } | { readonly refused: Answer } => {
  let input: unknown
  try {
    input = JSON.parse(text ?? "")
  } catch (cause) {
    const reason = text === undefined || text.trim() === "" ? "The body is empty" : "The body is not valid JSON"
    return { refused: { status: 400, body: unparseableBody(`${reason}: a JSON object is expected (${(cause as Error).message}).`) } }
  }
  const path = runValidation<Params<C>>(SCHEMAS[control].params, params, { rootMustBeObject: true })
  const body = runValidation<Body<C>>(SCHEMAS[control].body, input, { rootMustBeObject: true, inputIsJson: true })
  if (path.ok && body.ok) return { params: path.value, body: body.value }
  const errors: Array<PayloadError> = [...(path.ok ? [] : path.error.errors), ...(body.ok ? [] : body.error.errors)]
  return { refused: { status: 400, body: toValidationErrorBody(errors) } }
}

/** The account as the control answers it: both fields of the import `null` while it is pending, as the lists show them. */
const accountView = (a: SeedAccount) => ({
  import_supplier: a.import_supplier,
  external_account_number: a.external_account_number,
  status: a.status,
  service_account_number: a.service_account_number ?? null,
  account_created_at: a.account_created_at ?? null
})

/**
 * A service account number no account has: `R-` and eight digits, counted from the imported accounts.
 * An import is never undone, so that count only grows and each number is new; the check skips one that a
 * seed gave already. Both states count alike, so the model and the server issue the same numbers.
 */
const newServiceAccountNumber = (state: ServiceState): string => {
  for (let n = state.countAccounts("COMPLETED") + 1; ; n++) {
    const number = `R-${String(n).padStart(8, "0")}`
    if (!state.hasServiceAccountNumber(number)) return number
  }
}

const setSupplier = (state: ServiceState, params: Params<"supplier">, body: Body<"supplier">): Answer => {
  state.setSupplierStatus(params.code, body.status)
  return { status: 200, body: { code: params.code, status: body.status } }
}

/**
 * Stages an account, or completes its import. An unknown pair is added (its supplier must exist, as in a
 * seed). An imported account stays imported: `COMPLETED` again answers it unchanged (a retry is
 * harmless); `IN_PROGRESS` or `UNKNOWN` is refused, since its number may already be in a send journal and
 * its stored data belongs to it. A rehearsal that starts over starts a new state.
 */
const setAccount = (state: ServiceState, params: Params<"account">, body: Body<"account">, now: Date): Answer => {
  const { import_supplier, external_account_number } = params
  if (state.supplierStatus(import_supplier) === undefined) {
    return {
      status: 400,
      body: businessError("import_supplier_does_not_exist", [{
        detail: `No import supplier ${import_supplier}: add it first with POST /_reference/suppliers/{code}/.`,
        attr: "import_supplier"
      }])
    }
  }
  const current = state.account(import_supplier, external_account_number)
  if (current?.status === "COMPLETED") {
    if (body.status === "COMPLETED") return { status: 200, body: accountView(current) }
    return {
      status: 400,
      body: businessError("account_already_imported", [{
        detail: `The account for external account number ${external_account_number} is imported (${String(current.service_account_number)}): an import is not undone.`,
        attr: "status"
      }])
    }
  }
  const base: SeedAccount = current ?? { import_supplier, external_account_number, status: body.status }
  const next: SeedAccount = body.status === "COMPLETED"
    ? { ...base, status: body.status, service_account_number: newServiceAccountNumber(state), account_created_at: formatInstant(now) }
    : { ...base, status: body.status }
  state.putAccount(next)
  return { status: 200, body: accountView(next) }
}

/**
 * The answer of a rehearsal control to an authenticated POST: 200 with the new state, or a 400 in the
 * API's shape. `now` is the completed account's `account_created_at`.
 *
 * @example
 * answerControl(state, { control: "supplier", params: { code: "STADTWERKE_NORD" } }, '{"status":"Paused"}', new Date())
 * // => { status: 200, body: { code: "STADTWERKE_NORD", status: "Paused" } }
 * const staged = { control: "account", params: { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-9" } } as const
 * answerControl(state, staged, '{"status":"COMPLETED"}', new Date("2025-01-01T12:00:00.250Z")).body
 * // => { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-9", status: "COMPLETED", service_account_number: "R-00000002", account_created_at: "2025-01-01T12:00:00Z" }
 * answerControl(state, staged, '{"status":"IN_PROGRESS"}', new Date()).status // => 400
 * answerControl(state, staged, '{"status":"Done"}', new Date()).body
 * // => { code: "payload_failed_validation", errors: [{ code: "invalid_choice", attr: "status", … }], … }
 */
export const answerControl = (
  state: ServiceState,
  route: { readonly control: ControlId; readonly params: Readonly<Record<string, string>> },
  body: string | undefined,
  now: Date
): Answer => {
  if (route.control === "supplier") {
    const request = decode("supplier", route.params, body)
    return "refused" in request ? request.refused : setSupplier(state, request.params, request.body)
  }
  if (route.control === "lookup") {
    const request = decode("lookup", route.params, body)
    return "refused" in request ? request.refused : lookupRecords(state, request.body)
  }
  const request = decode("account", route.params, body)
  return "refused" in request ? request.refused : setAccount(state, request.params, request.body, now)
}
