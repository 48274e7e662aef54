/**
 * What the testing kit exports of the reference service: the pure model and its seed, without the store
 * and the server (no `node:sqlite`, no `node:http`).
 *
 * @module
 */
export type { ServiceStats } from "./handle-request.js"
export type { RequestContext } from "./handler.js"
export type { ModelState } from "./memory-state.js"
export { type ReferenceModel, referenceModel } from "./model.js"
export { decodeSeed, Seed, type SeedAccount, type SeedSupplier } from "./seed.js"
export type { ServiceRequest, ServiceResponse } from "./service-response.js"
