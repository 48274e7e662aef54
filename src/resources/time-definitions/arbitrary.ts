/**
 * Valid request bodies of market-participant-definitions: time definitions, rolled out or not (at least one list).
 *
 * @module
 */
import * as fc from "fast-check"
import { isoDate, isoDateTime, isoDateTimePair } from "../../testing/arbitrary-dates.js"
import { compactObject, type GeneratorContext, label, marketPartnerCodeText, nonEmptyList, oneof, optional, optionalList, record } from "../../testing/arbitrary-values.js"

const registerCode = label("1-1:1.8.1", "1-1:1.8.2", "HT", "NT")

const definition = (ctx: GeneratorContext) =>
  record({
    valid_from: isoDate(),
    version_datetime: isoDateTime,
    status: optional(label("ACTIVE", "INACTIVE")),
    definition_type: label("SCHALTZEITDEFINITION", "LEISTUNGSKURVENDEFINITION"),
    definition_code: label("HT-NT-STD", "SZ-0815"),
    transmission_frequency: optional(label("DAILY", "MONTHLY")),
    registers: optionalList(record({ register_code: registerCode, low_load_capable: fc.boolean() }), ctx)
  }).map(compactObject)

const rolledOutDefinition = (ctx: GeneratorContext) =>
  record({
    definition_type: label("SCHALTZEITDEFINITION"),
    definition_code: label("HT-NT-STD", "SZ-0815"),
    version_datetime: isoDateTime,
    validity: isoDateTimePair,
    recurrence: optional(label("DAILY", "WEEKLY", "YEARLY")),
    entries: nonEmptyList(record({ period: isoDateTimePair, active_register_code: registerCode }), ctx)
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

/** A market-participant-definitions request body (time definitions). */
export const marketParticipantDefinitions = (ctx: GeneratorContext) =>
  record({
    network_operator_code: marketPartnerCodeText,
    // At least one of the two lists, present and not empty.
    lists: oneof(
      record({ definitions: nonEmptyList(definition(ctx), ctx) }),
      record({ rolled_out_definitions: nonEmptyList(rolledOutDefinition(ctx), ctx) }),
      record({ definitions: nonEmptyList(definition(ctx), ctx), rolled_out_definitions: nonEmptyList(rolledOutDefinition(ctx), ctx) })
    )
  }).map(({ network_operator_code, lists }) => compactObject({ network_operator_code, ...lists }))
