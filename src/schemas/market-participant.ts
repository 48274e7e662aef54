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
} from "./conventions.js"

/** One contact of a market participant; `category` is an EDIFACT code such as `Z10`. */
export const MarketParticipantContact = Schema.Struct({
  category: NonBlankString,
  name: Schema.optionalKey(NonBlankString),
  email: Schema.optionalKey(EmailAddress),
  phone: Schema.optionalKey(PhoneNumber),
  valid_from: Schema.optionalKey(IsoDateTime)
}).annotate({ identifier: "MarketParticipantContact" })
/** One contact of a market participant. */
export type MarketParticipantContact = typeof MarketParticipantContact.Type

/** Request body of `market-participant`: one market participant with its 13-digit code. */
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
