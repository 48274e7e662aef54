/**
 * Builds request paths from the catalogue's templates.
 *
 * @module
 */
import { endpoints } from "./catalogue.js"
import type { EndpointId } from "./endpoint-id.js"

type PathParamsOf<E extends EndpointId> = {
  readonly [K in (typeof endpoints)[E]["pathParameters"][number]]: string
}

/** Lone surrogates cannot be percent-encoded as UTF-8; they are replaced rather than thrown on. */
const toWellFormed = (s: string): string => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu, "\uFFFD")

/** Percent-encodes one path segment (as UTF-8; a lone surrogate becomes U+FFFD). */
export const encodePathSegment = (value: string): string => encodeURIComponent(toWellFormed(value))

/**
 * Why a value cannot be a path parameter (what it is), or `undefined` when it can. Blank: a blank value names
 * no account or supplier. `.` or `..`: WHATWG URL parsers (`fetch`, `new URL`) take it, and even its
 * percent-encoded forms (`%2E`, `%2e%2E`), for a dot segment and remove it together with its
 * neighbour, so the request would reach another path; no URL can carry it as a segment.
 *
 * @example
 * pathParameterProblem("KD-1") // undefined
 * pathParameterProblem("..") // "a dot segment, which URLs remove (even percent-encoded)"
 * pathParameterProblem(" ") // "blank"
 *
 * @since 0.1.0
 */
export const pathParameterProblem = (value: unknown): string | undefined => {
  if (typeof value !== "string") return "missing"
  if (value.trim() === "") return "blank"
  if (value === "." || value === "..") return "a dot segment, which URLs remove (even percent-encoded)"
  return undefined
}

/**
 * The path of an endpoint (relative to the base URL) with its path parameters percent-encoded and, for
 * `transactions`, the query parameters that were given. Throws a `TypeError` when a path parameter is
 * missing, blank, `.` or `..` (see {@link pathParameterProblem}, which callers ask first for values
 * that come from data).
 *
 * @example
 * buildPath("account-transfer-status", { import_supplier_code: "TENTACLE_ENERGY", external_account_number: "A/1" })
 * // "/v1/data-import/account-transfer-status/TENTACLE_ENERGY/A%2F1/"
 * buildPath("transactions", {}, { check_previously_added: false })
 * // "/v1/data-import/transactions/create/?check_previously_added=false"
 *
 * @since 0.1.0
 */
export const buildPath = <E extends EndpointId>(
  endpointId: E,
  params: PathParamsOf<E>,
  query?: Readonly<Record<string, boolean>>
): string => {
  const endpoint = endpoints[endpointId]
  if (endpoint === undefined) throw new TypeError(`Unknown endpoint id: ${String(endpointId)}`)
  const values = params as Readonly<Record<string, unknown>>
  const path = endpoint.path.replace(/\{([a-z_]+)\}/gu, (_, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined
    const problem = pathParameterProblem(value)
    if (problem !== undefined) throw new TypeError(`buildPath(${endpointId}): path parameter ${name} is ${problem}`)
    return encodePathSegment(value as string)
  })
  const known = new Set<string>(endpoint.queryParameters.map((q: { readonly name: string }) => q.name))
  const pairs = Object.entries(query ?? {}).filter(([name, value]) => known.has(name) && typeof value === "boolean")
  return pairs.length === 0 ? path : `${path}?${pairs.map(([name, value]) => `${name}=${String(value)}`).join("&")}`
}
