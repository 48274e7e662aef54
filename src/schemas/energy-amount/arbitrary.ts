/**
 * Valid request bodies of energy-amount: meter quantities over ordered periods.
 *
 * @module
 */
import type { Arbitrary } from "fast-check"
import { ProductIdentifierType, QuantityUnit } from "./energy-amount.js"
import type { ArbitraryKit, GeneratorContext, JsonObject, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

const quantity = ({ decimalString, oneof }: ArbitraryKit) =>
  oneof(
    { weight: 4, arbitrary: decimalString({ maxIntegerDigits: 6, maxScale: 4 }) },
    { weight: 1, arbitrary: decimalString({ maxIntegerDigits: 4, maxScale: 3, signed: true }) }
  )
const productIdentifier = ({ label }: ArbitraryKit) => label("1-1:1.8.0", "1-1:2.8.0", "1-0:1.8.1", "1-0:1.8.2", "9991000000044")
const ediCode = ({ label }: ArbitraryKit) => label("Z18", "Z02", "Z76", "Z57", "Z84", "Z86", "220", "67")

/** An amount over an ordered period, as energy amounts and delivery notes list them. */
export const amountItem = (kit: ArbitraryKit, ctx: GeneratorContext): Arbitrary<JsonObject> => {
  const { choice, compactObject, isoDateTimePair, label, optional, record } = kit
  return record({
    period: isoDateTimePair,
    product_identifier: productIdentifier(kit),
    product_identifier_type: choice(ProductIdentifierType, ctx),
    quantity: quantity(kit),
    quantity_unit: choice(QuantityUnit, ctx),
    line_item_identifier: optional(label("1", "2", "A1", "POS-10"))
  }).map(({ period: [start, end], ...rest }) =>
    compactObject({ period_start_at: start, period_end_at: end, ...rest })
  )
}

/** An energy-amount request body. */
export const energyAmount: PayloadArbitrary = (kit, ctx) => {
  const { account, compactObject, fc, isoDateTime, maloId, oneof, optional, optionalList, record, reference } = kit
  const code = ediCode(kit)
  return record({
    ...account,
    energy_amount: record({
      malo_number: maloId,
      measured: amountItem(kit, ctx),
      preceding_reference: optional(reference("EM")),
      // Not cancelled (the cancellation fields null or absent), or cancelled with its time and reference.
      cancellation: oneof(
        record({
          cancelled: optional(fc.constant(false)),
          cancelled_at: optional(fc.constant(null)),
          cancelled_reference: optional(fc.constant(null))
        }),
        record({ cancelled: fc.constant(true), cancelled_at: optional(isoDateTime), cancelled_reference: optional(reference("EM")) })
      ),
      codes: record({
        qualifier: optional(code),
        estimate_method: optional(code),
        estimate_reason: optional(code),
        correction_reason: optional(code),
        plausibility_indications: optionalList(code, ctx),
        measurement_classifications: optionalList(code, ctx),
        edifact_reference_number: optional(reference("MSCONS"))
      })
    }).map(({ malo_number, measured, preceding_reference, cancellation, codes }) =>
      compactObject({ malo_number, ...measured, preceding_reference, ...cancellation, ...codes })
    )
  }).map(compactObject)
}
