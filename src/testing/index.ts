/**
 * The testing kit (subpath `data-import-payloads/testing`): fast-check arbitraries of valid request
 * bodies, of precisely broken ones (each with the error it must cause), and of valid response bodies.
 * Only this entry loads fast-check (an optional peer dependency); the main entry never does.
 *
 * @module
 */
export {
  arbitraryInvalidPayload,
  type ExpectedError,
  type InvalidPayload
} from "./arbitrary-invalid-payload.js"
export { type ArbitraryPayloadOptions, arbitraryPayload, DEFAULT_NOW, type PayloadOf } from "./arbitrary-payload.js"
export { arbitraryResponse } from "./arbitrary-response.js"
export { type PayloadSample, samplePayloads, type SamplePayloadsOptions } from "./sample-payloads.js"
export type { Json, JsonObject } from "./arbitrary-values.js"
export {
  decodeSeed,
  type ModelState,
  type ReferenceModel,
  referenceModel,
  type RequestContext,
  Seed,
  type SeedAccount,
  type SeedSupplier,
  type ServiceRequest,
  type ServiceResponse,
  type ServiceStats
} from "../service/model-entry.js"
