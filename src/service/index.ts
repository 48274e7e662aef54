/**
 * The reference service (`data-import serve`): its behaviour as a pure model, its SQLite store and its
 * HTTP server.
 *
 * @module
 */
export { type FaultDecision, type FaultOptions, faultsFor, NO_FAULTS } from "./faults.js"
export { handleRequest, type ServiceStats, statsOf } from "./handle-request.js"
export type { RequestContext } from "./handler.js"
export type { ModelState } from "./memory-state.js"
export { type ReferenceModel, referenceModel } from "./model.js"
export { CONTROL_PATHS, type ControlId, STATS_PATH } from "./routes.js"
export { decodeSeed, Seed, type SeedAccount, type SeedSupplier, StatementPeriod } from "./seed.js"
export { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from "./server.js"
export { DetailBody, SERVICE_LEVEL_STATUSES, type ServiceRequest, type ServiceResponse } from "./service-response.js"
export { openStore, type ReferenceStore, StateFileError } from "./store.js"
export { RECORD_KINDS, type RecordKind } from "./state.js"
export { graphqlEndpoint } from "./graphql.js"
export { acceptIssuedTokens, createTokenIssuer } from "./tokens.js"
