/**
 * The reference service's behaviour for one request, written once against {@link ServiceState}: routing,
 * authentication, body validation with the library, the endpoint's rules, and the response statistics.
 * The pure model and the HTTP server both run this function; they differ only in the state they pass.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import { AccountImportProcessStatus, type ImportSupplierStatus } from "../schemas/import-status/import-status.js"
import { compileValidator, type PayloadValidator } from "../validation/compile-validator.js"
import { answerControl } from "./controls.js"
import { missingDocumentsAnswer } from "./documents.js"
import type { Answer, Handler, RequestContext } from "./handler.js"
import { notesHandler } from "./notes.js"
import {
  marketParticipantDefinitionsHandler,
  marketParticipantFeesHandler,
  marketParticipantHandler
} from "./pre-import.js"
import { type Route, routeOf } from "./routes.js"
import { type ServiceRequest, type ServiceResponse, unparseableBody } from "./service-response.js"
import { type ServiceState, RECORD_KINDS } from "./state.js"
import { accountTransferStatusHandler, processesHandler } from "./status-queries.js"
import { historicalStatementsHandler, paymentInstructionHandler, storeAndEchoHandler } from "./stored-echo.js"
import { transactionsHandler } from "./transactions.js"

/** The handlers, by the name an endpoint's `service.handler` in the catalogue gives. */
const HANDLERS = {
  "notes": notesHandler,
  "store-and-echo": storeAndEchoHandler,
  "transactions": transactionsHandler,
  "historical-statements": historicalStatementsHandler,
  "payment-instruction": paymentInstructionHandler,
  "account-transfer-status": accountTransferStatusHandler,
  "account-import-processes": processesHandler,
  "market-participant": marketParticipantHandler,
  "market-participant-fees": marketParticipantFeesHandler,
  "market-participant-definitions": marketParticipantDefinitionsHandler
} as const

/**
 * Every endpoint's handler takes its request: an endpoint that names a handler missing from
 * {@link HANDLERS}, or one written for other requests, does not compile.
 */
const handlerOf = <E extends EndpointId>(endpointId: E): Handler<E> =>
  HANDLERS[endpoints[endpointId].service.handler] as unknown as Handler<E>
type Misfits = {
  [E in EndpointId]: (typeof HANDLERS)[(typeof endpoints)[E]["service"]["handler"]] extends Handler<E> ? never : E
}[EndpointId]
const everyHandlerFits: [Misfits] extends [never] ? true : Misfits = true
void everyHandlerFits

const validators = new Map<EndpointId, PayloadValidator<EndpointId>>()
const validatorOf = (endpointId: EndpointId): PayloadValidator<EndpointId> => {
  let validator = validators.get(endpointId)
  if (validator === undefined) {
    validator = compileValidator(endpointId)
    validators.set(endpointId, validator)
  }
  return validator
}

/**
 * How deeply a request body may nest: deeper than any payload of the contract (the compiled validator's
 * bound), and far from the depth at which storing or echoing it (`JSON.stringify`) overflows the stack.
 */
export const MAX_BODY_DEPTH = 64

/** Whether a parsed JSON value nests objects and arrays more than `limit` levels deep (without recursion). */
const nestedDeeperThan = (value: unknown, limit: number): boolean => {
  const pending: Array<[unknown, number]> = [[value, 1]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next
    if (typeof item !== "object" || item === null) continue
    if (depth > limit) return true
    for (const child of Object.values(item)) pending.push([child, depth + 1])
  }
  return false
}

/** The credentials check: `undefined` when the `Authorization` header holds `Token <a seeded token>`. */
export const unauthorized = (state: ServiceState, authorization: string | undefined): Answer | undefined => {
  const parts = authorization?.trim().split(/\s+/u) ?? []
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== "token") {
    return { status: 401, body: { detail: "Authentication credentials were not provided." }, headers: { "WWW-Authenticate": "Token" } }
  }
  return state.isToken(parts[1]!) ? undefined : { status: 401, body: { detail: "Invalid token." }, headers: { "WWW-Authenticate": "Token" } }
}

/**
 * `GET /_reference/stats`: what is stored, by kind, every endpoint's answers by status, each supplier's
 * status (by code, sorted, so both states list them alike) and how many accounts have each import status.
 */
export const statsOf = (state: ServiceState) => ({
  stored: Object.fromEntries(RECORD_KINDS.map((kind) => [kind, state.count(kind)])) as Record<(typeof RECORD_KINDS)[number], number>,
  responses: state.responseCounts().reduce<Record<string, Record<string, number>>>((out, r) => {
    ;(out[r.endpoint] ??= {})[String(r.status)] = r.count
    return out
  }, {}),
  suppliers: Object.fromEntries(
    [...state.suppliers()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)).map((s) => [s.code, s.status])
  ) as Record<string, ImportSupplierStatus>,
  accounts: Object.fromEntries(AccountImportProcessStatus.literals.map((status) => [status, state.countAccounts(status)])) as Record<
    AccountImportProcessStatus,
    number
  >
})

/**
 * The service's statistics, as `GET /_reference/stats` answers them.
 *
 * @since 0.1.0
 */
export type ServiceStats = ReturnType<typeof statsOf>

/** The answer to a path that is no endpoint, statistics or control (before credentials are checked). */
export const NOT_FOUND: Answer = { status: 404, body: { detail: "Not found." } }

const methodNotAllowed = (method: string, allowed: string): Answer => ({
  status: 405,
  body: { detail: `Method "${method}" not allowed.` },
  headers: { Allow: allowed }
})

/** The answer of an endpoint to an authenticated request with the right method. */
const answerEndpoint = (
  state: ServiceState,
  endpointId: EndpointId,
  route: { readonly params: Readonly<Record<string, string>>; readonly query: URLSearchParams },
  body: string | undefined,
  context: RequestContext
): Answer => {
  const handler: Handler<EndpointId> = handlerOf(endpointId)
  if (endpoints[endpointId].method === "GET") {
    // Path parameters are not validated: one that breaks the identifier rules names nothing that exists.
    return handler({ endpointId, state, request: route.params as never, query: route.query, context })
  }
  let input: unknown
  try {
    input = JSON.parse(body ?? "")
  } catch (cause) {
    const reason = body === undefined || body.trim() === "" ? "The body is empty" : "The body is not valid JSON"
    return { status: 400, body: unparseableBody(`${reason}: a JSON object is expected (${(cause as Error).message}).`) }
  }
  if (nestedDeeperThan(input, MAX_BODY_DEPTH)) {
    return { status: 400, body: unparseableBody(`The body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep.`) }
  }
  const result = validatorOf(endpointId)(input, { now: context.now })
  if (!result.ok) return { status: 400, body: result.error }
  const missing = missingDocumentsAnswer(endpointId, result.value, context.documentExists)
  if (missing !== undefined) return missing
  return handler({ endpointId, state, request: result.value as never, query: route.query, context })
}

/** The answer to an authenticated request on a route. */
const answerRoute = (state: ServiceState, route: Exclude<Route, { kind: "none" }>, request: ServiceRequest, context: RequestContext): Answer => {
  switch (route.kind) {
    case "stats":
      return route.methodAllowed ? { status: 200, body: statsOf(state) } : methodNotAllowed(request.method, "GET")
    case "control":
      return route.methodAllowed ? answerControl(state, route, request.body, context.now) : methodNotAllowed(request.method, "POST")
    case "endpoint":
      return route.methodAllowed
        ? answerEndpoint(state, route.endpointId, route, request.body, context)
        : methodNotAllowed(request.method, endpoints[route.endpointId].method)
  }
}

/**
 * Answers one request against a state: the whole behaviour of the reference service. Writes go to
 * `state`; the caller makes them one transaction.
 *
 * @example
 * const request = { method: "GET", path: "/_reference/stats", authorization: "Token rehearsal-token" }
 * handleRequest(state, request, { now: new Date(), vendorFails: false }).status // => 200
 * handleRequest(state, { ...request, authorization: "Token wrong" }, { now: new Date(), vendorFails: false }).status // => 401
 */
export const handleRequest = (state: ServiceState, request: ServiceRequest, context: RequestContext): ServiceResponse => {
  const route = routeOf(request.method, request.path)
  if (route.kind === "none") return { ...NOT_FOUND, endpointId: undefined }
  const endpointId = route.kind === "endpoint" ? route.endpointId : undefined
  const answer = unauthorized(state, request.authorization) ?? answerRoute(state, route, request, context)
  if (endpointId !== undefined) state.countResponse(endpointId, answer.status)
  return { ...answer, endpointId }
}
