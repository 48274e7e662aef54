/**
 * Endpoint ids and the types derived from the catalogue.
 *
 * @module
 */
import type { Schema } from "effect"
import { endpoints } from "./catalogue.js"

/** An endpoint id: the path segment after `/v1/data-import/` (`"energy-amount"`, `"transactions"`, …). */
export type EndpointId = keyof typeof endpoints

/** Ids of the endpoints that take a JSON request body (POST). */
export type PostEndpointId = {
  [K in EndpointId]: (typeof endpoints)[K]["method"] extends "POST" ? K : never
}[EndpointId]

/** Ids of the status query endpoints (GET, path parameters only). */
export type GetEndpointId = Exclude<EndpointId, PostEndpointId>

/** All endpoint ids, in the spec's order. */
export const ENDPOINT_IDS = Object.keys(endpoints) as ReadonlyArray<EndpointId>

/** Ids of the POST endpoints, in the spec's order. */
export const POST_ENDPOINT_IDS = ENDPOINT_IDS.filter((id) => endpoints[id].method === "POST") as ReadonlyArray<
  PostEndpointId
>

/**
 * Whether a value is the id of a POST endpoint (one that takes a request body).
 *
 * @example
 * isPostEndpointId("notes") // => true
 * isPostEndpointId("account-transfer-status") // => false
 */
export const isPostEndpointId = (value: unknown): value is PostEndpointId =>
  typeof value === "string" && (POST_ENDPOINT_IDS as ReadonlyArray<string>).includes(value)

/** Whether a string is one of the 14 endpoint ids. */
export const isEndpointId = (value: unknown): value is EndpointId =>
  typeof value === "string" && Object.hasOwn(endpoints, value)

/** The decoded request of an endpoint: its body (POST) or its path parameters (GET). */
export type RequestOf<E extends EndpointId> = Schema.Schema.Type<(typeof endpoints)[E]["request"]>

/** The documented statuses of an endpoint. */
export type StatusOf<E extends EndpointId> = keyof (typeof endpoints)[E]["responses"] & number

/** The decoded response body of an endpoint for a status. */
export type ResponseOf<E extends EndpointId, S extends StatusOf<E>> = (typeof endpoints)[E]["responses"][S] extends
  { readonly schema: infer R } ? R extends Schema.Top ? Schema.Schema.Type<R> : never : never
