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
 * A whole segment `.` or `..` cannot be sent safely: WHATWG URL parsers (`fetch`, `new URL`) treat it,
 * and even its percent-encoded forms, as a dot segment and remove it together with its neighbour.
 */
const isDotSegment = (value: string): boolean => value === "." || value === ".."

/**
 * The path of an endpoint (relative to the base URL) with its path parameters percent-encoded and, for
 * `transactions`, the query parameters that were given. Throws a `TypeError` when a path parameter is
 * missing, blank, `.` or `..` (no URL can carry those as a segment): that is a programming error, not
 * bad data.
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
    if (typeof value !== "string" || value.trim() === "") {
      throw new TypeError(`buildPath(${endpointId}): path parameter ${name} must be a non-blank string`)
    }
    if (isDotSegment(value)) {
      throw new TypeError(`buildPath(${endpointId}): path parameter ${name} cannot be "${value}": URLs drop dot segments`)
    }
    return encodePathSegment(value)
  })
  const known = new Set<string>(endpoint.queryParameters.map((q: { readonly name: string }) => q.name))
  const pairs = Object.entries(query ?? {}).filter(([name, value]) => known.has(name) && typeof value === "boolean")
  return pairs.length === 0 ? path : `${path}?${pairs.map(([name, value]) => `${name}=${String(value)}`).join("&")}`
}
