/**
 * Request routing from the endpoint catalogue: method and path to endpoint id and path parameters.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { ENDPOINT_IDS, type EndpointId } from "../schemas/endpoints/endpoint-id.js"

/** The path of the reference service's own statistics, outside `/v1/`. */
export const STATS_PATH = "/_reference/stats"

/**
 * The rehearsal controls, outside `/v1/` like the statistics: what the real service's operators change
 * (a supplier's status, an account's import), as path templates in the catalogue's form.
 */
export const CONTROL_PATHS = {
  supplier: "/_reference/suppliers/{code}/",
  account: "/_reference/accounts/{import_supplier}/{external_account_number}/",
  /** What the operators answer on records in doubt: which of these natural keys the service has stored. */
  lookup: "/_reference/lookup/"
} as const

/** A rehearsal control: `supplier`, `account` or `lookup`. */
export type ControlId = keyof typeof CONTROL_PATHS

/** Where a request goes. */
export type Route =
  | {
    readonly kind: "endpoint"
    readonly endpointId: EndpointId
    /** Whether the method is the endpoint's (otherwise the answer is 405). */
    readonly methodAllowed: boolean
    readonly params: Readonly<Record<string, string>>
    readonly query: URLSearchParams
  }
  | { readonly kind: "stats"; readonly methodAllowed: boolean }
  | {
    readonly kind: "control"
    readonly control: ControlId
    /** Whether the method is POST (otherwise the answer is 405). */
    readonly methodAllowed: boolean
    /** The decoded path parameters: `code`, or `import_supplier` and `external_account_number`. */
    readonly params: Readonly<Record<string, string>>
  }
  | { readonly kind: "none" }

const PLACEHOLDER = /^\{([a-z_]+)\}$/u

const templates = ENDPOINT_IDS.map((endpointId) => ({
  endpointId,
  segments: endpoints[endpointId].path.split("/")
}))
const controlTemplates = (Object.keys(CONTROL_PATHS) as Array<ControlId>).map((control) => ({
  control,
  segments: CONTROL_PATHS[control].split("/")
}))

const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** Matches path segments against one template; the decoded parameters, or `undefined`. */
const match = (template: ReadonlyArray<string>, segments: ReadonlyArray<string>): Record<string, string> | undefined => {
  if (template.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of template.entries()) {
    const segment = segments[i]!
    const placeholder = PLACEHOLDER.exec(part)
    if (placeholder === null) {
      if (part !== segment) return undefined
      continue
    }
    const value = segment === "" ? undefined : decodeSegment(segment)
    if (value === undefined) return undefined
    params[placeholder[1]!] = value
  }
  return params
}

/**
 * The route of a request target (`/v1/data-import/…/?query`). Paths end with `/`, as the catalogue's do.
 *
 * @example
 * routeOf("GET", "/v1/data-import/account-transfer-status/NORD/KD%2F1/")
 * // => { kind: "endpoint", endpointId: "account-transfer-status", params: { import_supplier_code: "NORD", external_account_number: "KD/1" }, … }
 * routeOf("POST", "/_reference/accounts/NORD/KD%2F1/")
 * // => { kind: "control", control: "account", methodAllowed: true, params: { import_supplier: "NORD", external_account_number: "KD/1" } }
 */
export const routeOf = (method: string, target: string): Route => {
  const at = target.indexOf("?")
  const path = at === -1 ? target : target.slice(0, at)
  const query = new URLSearchParams(at === -1 ? "" : target.slice(at + 1))
  if (path === STATS_PATH) return { kind: "stats", methodAllowed: method === "GET" }
  const segments = path.split("/")
  for (const { control, segments: template } of controlTemplates) {
    const params = match(template, segments)
    if (params !== undefined) return { kind: "control", control, methodAllowed: method === "POST", params }
  }
  for (const { endpointId, segments: template } of templates) {
    const params = match(template, segments)
    if (params !== undefined) {
      return { kind: "endpoint", endpointId, methodAllowed: method === endpoints[endpointId].method, params, query }
    }
  }
  return { kind: "none" }
}
