/**
 * Valid request bodies of market-participant-fees: price sheets with their interval zones.
 *
 * @module
 */
import * as fc from "fast-check"
import { isoDateTime } from "../../testing/arbitrary-dates.js"
import { compactObject, decimalString, type GeneratorContext, label, marketPartnerCode, nonEmptyList, optional, record, reference } from "../../testing/arbitrary-values.js"

const intervalZone = fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.boolean())
  .map(([a, b, fractional]) => {
    const [lower, upper] = a <= b ? [a, b] : [b, a]
    return { lower_bound: fractional ? lower / 10 : lower, upper_bound: fractional ? upper / 10 : upper }
  })

const priceSheet = (ctx: GeneratorContext) =>
  record({
    market_participant_code: marketPartnerCode,
    price_sheet_type: label("MESSSTELLENBETRIEB", "NETZNUTZUNG", "KONZESSIONSABGABE"),
    document_number: reference("PRICAT"),
    preceding_document_number: optional(reference("PRICAT")),
    is_price_sheet_unused: optional(fc.boolean()),
    active_from: isoDateTime,
    external_id: optional(reference("PS")),
    article_prices: nonEmptyList(record({
      article_id: label("9990001000798", "9990001000582", "1-01-6-005"),
      price_cents: decimalString({ maxIntegerDigits: 5, maxScale: 4 }),
      interval_zone: optional(intervalZone)
    }).map(compactObject), ctx)
  }).map(compactObject)

/** A market-participant-fees request body (price sheets). */
export const marketParticipantFees = (ctx: GeneratorContext) => record({ price_sheets: nonEmptyList(priceSheet(ctx), ctx) })
