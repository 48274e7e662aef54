/**
 * Valid request bodies of market-participant: a participant and its contacts.
 *
 * @module
 */
import { MarketParticipantRequest } from "./market-participant.js"
import { isoDateTime } from "../../testing/arbitrary-dates.js"
import { choice, compactObject, emailAddress, type GeneratorContext, label, marketPartnerCode, name, optional, optionalList, phoneNumber, record } from "../../testing/arbitrary-values.js"

/** A market-participant request body. */
export const marketParticipant = (ctx: GeneratorContext) =>
  record({
    code: marketPartnerCode,
    code_type: choice(MarketParticipantRequest.fields.code_type, ctx),
    name,
    role: choice(MarketParticipantRequest.fields.role, ctx),
    energy: choice(MarketParticipantRequest.fields.energy, ctx),
    contact_details: optionalList(record({
      category: label("Z10", "Z11", "IC"),
      name: optional(name),
      email: optional(emailAddress),
      phone: optional(phoneNumber),
      valid_from: optional(isoDateTime)
    }).map(compactObject), ctx)
  }).map(compactObject)
