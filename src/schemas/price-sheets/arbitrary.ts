/**
 * Valid request bodies of market-participant-fees: price sheets with their interval zones.
 *
 * @module
 */
import type { ArbitraryKit, GeneratorContext, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

const intervalZone = ({ fc }: ArbitraryKit) =>
  fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.boolean())
    .map(([a, b, fractional]) => {
      const [lower, upper] = a <= b ? [a, b] : [b, a]
      return { lower_bound: fractional ? lower / 10 : lower, upper_bound: fractional ? upper / 10 : upper }
    })

const priceSheet = (kit: ArbitraryKit, ctx: GeneratorContext) => {
  const { compactObject, decimalString, fc, isoDateTime, label, marketPartnerCode, nonEmptyList, optional, record, reference } = kit
  return record({
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
      interval_zone: optional(intervalZone(kit))
    }).map(compactObject), ctx)
  }).map(compactObject)
}

/** A market-participant-fees request body (price sheets). */
export const marketParticipantFees: PayloadArbitrary = (kit, ctx) =>
  kit.record({ price_sheets: kit.nonEmptyList(priceSheet(kit, ctx), ctx) })
