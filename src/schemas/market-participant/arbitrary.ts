/**
 * Valid request bodies of market-participant: a participant and its contacts.
 *
 * @module
 */
import { MarketParticipantRequest } from "./market-participant.js"
import type { PayloadArbitrary } from "../../testing/arbitrary-kit.js"

/** A market-participant request body. */
export const marketParticipant: PayloadArbitrary = (kit, ctx) => {
  const { choice, compactObject, emailAddress, isoDateTime, label, marketPartnerCode, name, optional, optionalList, phoneNumber, record } = kit
  return record({
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
}
