/**
 * Valid request bodies of market-participant-definitions: time definitions, rolled out or not (at least one list).
 *
 * @module
 */
import type { ArbitraryKit, GeneratorContext, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

const registerCode = ({ label }: ArbitraryKit) => label("1-1:1.8.1", "1-1:1.8.2", "HT", "NT")

const definition = (kit: ArbitraryKit, ctx: GeneratorContext) => {
  const { compactObject, fc, isoDate, isoDateTime, label, optional, optionalList, record } = kit
  return record({
    valid_from: isoDate(),
    version_datetime: isoDateTime,
    status: optional(label("ACTIVE", "INACTIVE")),
    definition_type: label("SCHALTZEITDEFINITION", "LEISTUNGSKURVENDEFINITION"),
    definition_code: label("HT-NT-STD", "SZ-0815"),
    transmission_frequency: optional(label("DAILY", "MONTHLY")),
    registers: optionalList(record({ register_code: registerCode(kit), low_load_capable: fc.boolean() }), ctx)
  }).map(compactObject)
}

const rolledOutDefinition = (kit: ArbitraryKit, ctx: GeneratorContext) => {
  const { compactObject, isoDateTime, isoDateTimePair, label, nonEmptyList, optional, record } = kit
  return record({
    definition_type: label("SCHALTZEITDEFINITION"),
    definition_code: label("HT-NT-STD", "SZ-0815"),
    version_datetime: isoDateTime,
    validity: isoDateTimePair,
    recurrence: optional(label("DAILY", "WEEKLY", "YEARLY")),
    entries: nonEmptyList(record({ period: isoDateTimePair, active_register_code: registerCode(kit) }), ctx)
  }).map(({ validity: [start, end], entries, recurrence, ...rest }) =>
    compactObject({
      ...rest,
      validity_period_start: start,
      validity_period_end: end,
      recurrence,
      entries: entries.map(({ period: [from, to], active_register_code }) => ({
        period_start: from,
        period_end: to,
        active_register_code
      }))
    })
  )
}

/** A market-participant-definitions request body (time definitions). */
export const marketParticipantDefinitions: PayloadArbitrary = (kit, ctx) => {
  const { compactObject, marketPartnerCodeText, nonEmptyList, oneof, record } = kit
  return record({
    network_operator_code: marketPartnerCodeText,
    // At least one of the two lists, present and not empty.
    lists: oneof(
      record({ definitions: nonEmptyList(definition(kit, ctx), ctx) }),
      record({ rolled_out_definitions: nonEmptyList(rolledOutDefinition(kit, ctx), ctx) }),
      record({ definitions: nonEmptyList(definition(kit, ctx), ctx), rolled_out_definitions: nonEmptyList(rolledOutDefinition(kit, ctx), ctx) })
    )
  }).map(({ network_operator_code, lists }) => compactObject({ network_operator_code, ...lists }))
}
