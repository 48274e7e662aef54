/**
 * The shape of an endpoint's behaviour: a validated request and the state in, an answer out.
 *
 * @module
 */
import type { RequestOf } from "../schemas/endpoints/endpoint-id.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { ServiceState } from "./state.js"

/**
 * What the service's behaviour depends on besides the state and the request.
 *
 * @since 0.1.0
 */
export interface RequestContext {
  /** The clock: default `created_at` of notes, the `transaction_in_future` check, dates of pinned notes. */
  readonly now: Date
  /** Whether the upstream payment vendor fails this request (a 500 on payment-instruction). */
  readonly vendorFails: boolean
  /** Whether the file store holds a document path; without it every path exists (the real default). */
  readonly documentExists?: ((path: string) => boolean) | undefined
}

/** An answer before it is counted and routed: status, body and extra headers. */
export interface Answer {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** The input of one endpoint's behaviour. */
export interface HandlerInput<E extends EndpointId> {
  /** The endpoint answered: a handler shared by several endpoints reads its `service` data in the catalogue. */
  readonly endpointId: E
  readonly state: ServiceState
  /** The validated body (POST) or the path parameters (GET). */
  readonly request: RequestOf<E>
  readonly query: URLSearchParams
  readonly context: RequestContext
}

/** One endpoint's behaviour. */
export type Handler<E extends EndpointId> = (input: HandlerInput<E>) => Answer

/** `YYYY-MM-DDTHH:MM:SSZ` of an instant (the API's datetime shape, in UTC, whole seconds). */
export const formatInstant = (at: Date): string => `${at.toISOString().slice(0, 19)}Z`
