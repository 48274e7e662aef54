/**
 * Endpoint ids and the types derived from the catalogue.
 *
 * @module
 */
import type { Schema } from "effect"
import { endpoints } from "./catalogue.js"

/**
 * An endpoint id: the path segment after `/v1/data-import/` (`"energy-amount"`, `"transactions"`, …).
 *
 * @since 0.1.0
 */
export type EndpointId = keyof typeof endpoints

/**
 * Ids of the endpoints that take a JSON request body (POST).
 *
 * @since 0.1.0
 */
export type PostEndpointId = {
  [K in EndpointId]: (typeof endpoints)[K]["method"] extends "POST" ? K : never
}[EndpointId]

/**
 * Ids of the status query endpoints (GET, path parameters only).
 *
 * @since 0.1.0
 */
export type GetEndpointId = Exclude<EndpointId, PostEndpointId>

/**
 * All endpoint ids, in the spec's order.
 *
 * @example
 * ENDPOINT_IDS.slice(0, 3) // => ["notes", "delivery-note", "energy-amount"]
 * ENDPOINT_IDS.includes("account-transfer-status") // => true
 *
 * @since 0.1.0
 */
export const ENDPOINT_IDS = Object.keys(endpoints) as ReadonlyArray<EndpointId>

/**
 * Ids of the POST endpoints, in the spec's order.
 *
 * @example
 * POST_ENDPOINT_IDS.includes("transactions") // => true
 * POST_ENDPOINT_IDS.includes("account-transfer-status") // => false
 *
 * @since 0.1.0
 */
export const POST_ENDPOINT_IDS = ENDPOINT_IDS.filter((id) => endpoints[id].method === "POST") as ReadonlyArray<
  PostEndpointId
>

/**
 * Whether a value is the id of a POST endpoint (one that takes a request body).
 *
 * @example
 * isPostEndpointId("notes") // => true
 * isPostEndpointId("account-transfer-status") // => false
 *
 * @since 0.1.0
 */
export const isPostEndpointId = (value: unknown): value is PostEndpointId =>
  typeof value === "string" && (POST_ENDPOINT_IDS as ReadonlyArray<string>).includes(value)

/**
 * Whether a string is the id of an endpoint of the catalogue.
 *
 * @example
 * isEndpointId("account-transfer-status") // => true
 * isEndpointId("energy_amount") // => false
 *
 * @since 0.1.0
 */
export const isEndpointId = (value: unknown): value is EndpointId =>
  typeof value === "string" && Object.hasOwn(endpoints, value)

/**
 * The decoded request of an endpoint: its body (POST) or its path parameters (GET).
 *
 * @since 0.1.0
 */
export type RequestOf<E extends EndpointId> = Schema.Schema.Type<(typeof endpoints)[E]["request"]>

/**
 * The documented statuses of an endpoint.
 *
 * @since 0.1.0
 */
export type StatusOf<E extends EndpointId> = keyof (typeof endpoints)[E]["responses"] & number

/**
 * The decoded response body of an endpoint for a status.
 *
 * @since 0.1.0
 */
export type ResponseOf<E extends EndpointId, S extends StatusOf<E>> = (typeof endpoints)[E]["responses"][S] extends
  { readonly schema: infer R } ? R extends Schema.Top ? Schema.Schema.Type<R> : never : never
