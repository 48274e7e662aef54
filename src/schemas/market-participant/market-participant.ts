/**
 * Market participant: `POST /v1/data-import/market-participant/import/` (endpoint id `market-participant`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  EmailAddress,
  IsoDateTime,
  MarketParticipantCode,
  NonBlankString,
  openEnum,
  PhoneNumber
} from "../conventions.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { post, SERVICE_LEVEL_RESPONSES, validation400 } from "../endpoint-parts.js"
import { UndocumentedBody } from "../errors.js"

/**
 * One contact of a market participant; `category` is an EDIFACT code such as `Z10`.
 *
 * @example
 * Schema.is(Schemas.MarketParticipantContact)({ category: "Z10", email: "netzabrechnung@netz-nord.example", phone: "+49 431 123456-0" }) // => true
 * Schema.is(Schemas.MarketParticipantContact)({ category: "Z10", phone: "0431 123456" }) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantContact = Schema.Struct({
  category: NonBlankString,
  name: Schema.optionalKey(NonBlankString),
  email: Schema.optionalKey(EmailAddress),
  phone: Schema.optionalKey(PhoneNumber),
  valid_from: Schema.optionalKey(IsoDateTime)
}).annotate({ identifier: "MarketParticipantContact" })
/** One contact of a market participant. */
export type MarketParticipantContact = typeof MarketParticipantContact.Type

/**
 * Request body of `market-participant`: one market participant with its 13-digit code.
 *
 * @example
 * const participant = { code: 9900123456789, code_type: "BDEW", name: "Netzgesellschaft Nord GmbH", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" }
 * Schema.is(Schemas.MarketParticipantRequest)(participant) // => true
 * Schema.is(Schemas.MarketParticipantRequest)({ ...participant, code: 990012345678 }) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantRequest = Schema.Struct({
  code: MarketParticipantCode,
  code_type: openEnum(["BDEW"]),
  name: NonBlankString,
  role: openEnum(["NETWORK_OPERATOR"]),
  energy: openEnum(["ELECTRICITY"]),
  contact_details: Schema.optionalKey(Schema.Array(MarketParticipantContact))
}).annotate({ identifier: "MarketParticipantRequest" })
/** Request body of `market-participant`. */
export type MarketParticipantRequest = typeof MarketParticipantRequest.Type

/**
 * The catalogue's entry of `market-participant`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const marketParticipantEndpoints = {
  "market-participant": {
    ...post("market-participant", "/v1/data-import/market-participant/import/", "Import a market participant."),
    naturalKey: { account: false, fields: ["code"] },
    documentName: "market participant",
    request: MarketParticipantRequest,
    // A participant whose code exists already is answered 200 and left unchanged.
    repeat: "always",
    service: { handler: "market-participant", stores: "market_participants" },
    responses: {
      200: { schema: UndocumentedBody, description: "A participant with that code already existed; nothing changed.", alreadyExisted: true },
      201: { schema: UndocumentedBody, description: "Imported." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  }
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: marketParticipantEndpoints,
  rules: [],
  warningRules: []
} as const satisfies ResourceDefinition
