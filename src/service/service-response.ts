/**
 * What the reference service answers, and the bodies it answers with beyond the endpoints' own.
 *
 * @module
 */
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { ApiError, ValidationErrorBody } from "../schemas/errors.js"
import { NON_FIELD_ERRORS } from "../validation/codes.js"

/**
 * A request to the service, as HTTP carries it: method, target (path and query), credentials, raw body.
 *
 * @since 0.1.0
 */
export interface ServiceRequest {
  readonly method: string
  /** Path and query, e.g. `/v1/data-import/transactions/create/?check_previously_added=false`. */
  readonly path: string
  /** The `Authorization` header, e.g. `Token rehearsal-token`. */
  readonly authorization?: string | undefined
  /** The body as sent (JSON text). */
  readonly body?: string | undefined
}

/**
 * An answer of the service: status, JSON body, extra headers, and the endpoint it came from.
 *
 * @since 0.1.0
 */
export interface ServiceResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
  /** The endpoint the request was routed to; `undefined` for an unknown path, the statistics and the controls. */
  readonly endpointId: EndpointId | undefined
}

/**
 * `{ detail }`: the body of 401, 429 and 503 (which the catalogue lists for every endpoint), and of the
 * answers the catalogue does not list: 405 (wrong method), 413 (body too large), 415 (a media type
 * that is not JSON), and 404 for a path that
 * is no endpoint.
 */
export { DetailBody } from "../schemas/errors.js"

/** The statuses any endpoint of the reference service may answer beyond its catalogue entry, with a `DetailBody`. */
export const SERVICE_LEVEL_STATUSES: ReadonlyArray<number> = [405, 413, 415]

/** A 400 body in the API's shape for one error that is not about the payload's form. */
export const businessError = (code: string, errors: ReadonlyArray<Omit<ApiError, "code">>): ValidationErrorBody => ({
  detail: errors.length === 1 ? errors[0]!.detail : `The request was refused with ${errors.length} errors.`,
  code,
  errors: errors.map((e) => ({ detail: e.detail, code, attr: e.attr }))
})

/** The 400 body for a body that is not JSON. */
export const unparseableBody = (detail: string): ValidationErrorBody => ({
  detail,
  code: "parse_error",
  errors: [{ detail, code: "invalid", attr: NON_FIELD_ERRORS }]
})
