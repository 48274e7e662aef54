/**
 * The request of an endpoint as data (sans-IO): method, URL, headers and body, from the catalogue.
 *
 * @module
 */
import { buildPath } from "../schemas/endpoints/build-path.js"
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"

/**
 * An HTTP request, ready for `fetch` or any other HTTP client.
 *
 * @since 0.1.0
 */
export interface HttpRequest {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body of a POST; `undefined` for a GET. */
  readonly body: string | undefined
}

/**
 * Where and as whom a request goes.
 *
 * @since 0.1.0
 */
export interface RequestTarget {
  /** The service's base URL, e.g. `https://api.example.energy` (a path prefix is kept). */
  readonly baseUrl: string
  /** The data-import token, sent as `Authorization: Token <token>`. */
  readonly token: string
  /**
   * Query parameters (transactions only). A parameter given here wins over the options below; the
   * service's defaults apply to none of them, because every parameter is always sent.
   */
  readonly query?: Readonly<Record<string, boolean>> | undefined
  /**
   * Transactions: let the service move a transaction dated outside the open statement period into it
   * (changing its date and pinning a note on the account). Default `false`, unlike the API's `true`:
   * nothing is changed without being asked for, so the flag is always sent.
   */
  readonly forceAddToCurrentStatement?: boolean | undefined
  /** Transactions: a `transaction_id` already added is skipped (`TRANSACTION_ALREADY_EXISTS`). Default `true`. */
  readonly checkPreviouslyAdded?: boolean | undefined
}

/** The transactions flags of a {@link RequestTarget} (or of the client's options). */
export interface TransactionFlags {
  readonly forceAddToCurrentStatement?: boolean | undefined
  readonly checkPreviouslyAdded?: boolean | undefined
}

/** The effective query of an endpoint: every parameter of the catalogue, given or defaulted. */
export const effectiveQuery = (
  endpointId: EndpointId,
  query: Readonly<Record<string, boolean>> | undefined
): Readonly<Record<string, boolean>> =>
  Object.fromEntries(
    endpoints[endpointId].queryParameters.map((p: { readonly name: string; readonly default: boolean }) => {
      const given = query !== undefined && Object.hasOwn(query, p.name) ? query[p.name] : undefined
      return [p.name, typeof given === "boolean" ? given : p.default]
    })
  )

/**
 * The query a request of an endpoint is sent with: the per-call `query` first, then the flags (whose
 * defaults are ours, not the API's: `force_add_to_current_statement` is false unless asked for), then
 * the catalogue's defaults. Every parameter of the endpoint is in it, and only those.
 */
export const requestQuery = (
  endpointId: EndpointId,
  flags: TransactionFlags,
  query: Readonly<Record<string, boolean>> | undefined
): Readonly<Record<string, boolean>> => {
  const given = Object.entries(query ?? {}).filter(([, value]) => typeof value === "boolean")
  return effectiveQuery(endpointId, {
    check_previously_added: flags.checkPreviouslyAdded ?? true,
    force_add_to_current_statement: flags.forceAddToCurrentStatement ?? false,
    ...Object.fromEntries(given)
  })
}

/** Whether a token fits in one header value: printable ASCII, no whitespace or control characters. */
export const isHeaderSafe = (token: unknown): token is string => typeof token === "string" && /^[\x21-\x7e]+$/u.test(token)

/** URLs of POST endpoints without query parameters, by base URL and endpoint: the same for every request. */
const fixedUrls = new Map<string, string>()
const fixedUrl = (baseUrl: string, endpointId: EndpointId): string => {
  const key = `${baseUrl}\u0000${endpointId}`
  let url = fixedUrls.get(key)
  if (url === undefined) {
    url = `${baseUrl.replace(/\/+$/u, "")}${buildPath(endpointId, {} as never, {})}`
    // Bounded: a client uses one base URL; a cache that outgrows a few hundred is cleared, not grown.
    if (fixedUrls.size > 256) fixedUrls.clear()
    fixedUrls.set(key, url)
  }
  return url
}

/**
 * The request for one payload of an endpoint: the path from the catalogue (a GET's payload is its path
 * parameters), every query parameter (see {@link RequestTarget}: `force_add_to_current_statement` is
 * sent as `false` unless asked for), `Authorization: Token …` and, for a POST, the payload as JSON.
 * Pure: no I/O. Throws a `TypeError` for an unknown endpoint, a missing path parameter, a base URL with
 * a query or fragment, or a token that cannot be a header value (its text is never in the message).
 *
 * @example
 * buildRequest("transactions", payload, { baseUrl: "https://api.example.energy", token: "my-token" })
 * // => { method: "POST", url: "https://api.example.energy/v1/data-import/transactions/create/?check_previously_added=true&force_add_to_current_statement=false", … }
 * buildRequest("transactions", payload, { baseUrl: "https://api.example.energy", token: "my-token", forceAddToCurrentStatement: true }).url
 * // "https://api.example.energy/v1/data-import/transactions/create/?check_previously_added=true&force_add_to_current_statement=true"
 *
 * @since 0.1.0
 */
export const buildRequest = (endpointId: EndpointId, payload: unknown, target: RequestTarget): HttpRequest => {
  const endpoint = endpoints[endpointId]
  if (endpoint === undefined) throw new TypeError(`Unknown endpoint id: ${String(endpointId)}`)
  if (!isHeaderSafe(target.token)) throw new TypeError("The token must be printable ASCII without spaces.")
  // The path is appended to the base URL as text: after a query or fragment it would not be a path at all.
  if (/[?#]/u.test(target.baseUrl)) throw new TypeError("The base URL must not have a query (?) or a fragment (#).")
  const url = endpoint.method === "POST" && endpoint.queryParameters.length === 0
    ? fixedUrl(target.baseUrl, endpointId)
    : `${target.baseUrl.replace(/\/+$/u, "")}${buildPath(endpointId, (endpoint.method === "GET" ? payload : {}) as never, requestQuery(endpointId, target, target.query))}`
  const headers: Record<string, string> = { Accept: "application/json", Authorization: `Token ${target.token}` }
  if (endpoint.method === "GET") return { method: "GET", url, headers, body: undefined }
  return { method: "POST", url, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(payload) }
}
