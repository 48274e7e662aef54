/**
 * The reference service as a pure state machine: a seed gives the first state; a request gives a response
 * and the next state. It runs the same behaviour (`handleRequest`) as the HTTP server, over an immutable
 * in-memory state instead of SQLite, so it predicts exactly what `data-import serve` answers (without
 * injected faults: those are inputs here, `vendorFails`, or are the server's alone).
 *
 * @module
 */
import { handleRequest, type ServiceStats, statsOf } from "./handle-request.js"
import type { RequestContext } from "./handler.js"
import { initialState, type ModelState, openSession } from "./memory-state.js"
import { decodeSeed } from "./seed.js"
import type { ServiceRequest, ServiceResponse } from "./service-response.js"

/**
 * One state of the reference service; every method leaves it unchanged.
 *
 * @since 0.1.0
 */
export interface ReferenceModel {
  /** The state, as an immutable value. */
  readonly state: ModelState
  /**
   * The response to a request and the model after it. `context.now` is the service's clock (default: the
   * current time); `context.vendorFails` makes the payment vendor fail this request (default: `false`).
   */
  handle(request: ServiceRequest, context?: Partial<RequestContext>): { readonly response: ServiceResponse; readonly model: ReferenceModel }
  /** What `GET /_reference/stats` answers in this state. */
  stats(): ServiceStats
}

const modelOf = (state: ModelState): ReferenceModel => ({
  state,
  handle: (request, context) => {
    const session = openSession(state)
    const response = handleRequest(session.state, request, {
      now: context?.now ?? new Date(),
      vendorFails: context?.vendorFails ?? false
    })
    return { response, model: modelOf(session.result()) }
  },
  stats: () => statsOf(openSession(state).state)
})

/**
 * The reference service's behaviour as a pure model, for model-based tests of your own tooling: feed it the
 * requests your tool sends and compare what it answers, or what it stores, with what you expect. Throws a
 * `TypeError` listing every problem of a bad seed.
 *
 * @example
 * import { referenceModel } from "data-import-payloads/testing"
 * import { buildPath } from "data-import-payloads"
 *
 * let model = referenceModel(seed)
 * const step = model.handle({
 *   method: "POST",
 *   path: buildPath("notes", {}),
 *   authorization: "Token rehearsal-token",
 *   body: JSON.stringify({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "Hi" }] })
 * })
 * step.response.status // 201
 * model = step.model
 * model.stats().stored.notes // 1
 *
 * @since 0.1.0
 */
export const referenceModel = (seed: unknown): ReferenceModel => {
  const decoded = decodeSeed(seed)
  if (!decoded.ok) {
    throw new TypeError(`Bad seed: ${decoded.error.errors.map((e) => `${e.attr}: ${e.detail}`).join("; ")}`)
  }
  return modelOf(initialState(decoded.value))
}
