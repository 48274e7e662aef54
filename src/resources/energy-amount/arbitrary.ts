/**
 * Valid request bodies of energy-amount: meter quantities over ordered periods.
 *
 * @module
 */
import * as fc from "fast-check"
import { ProductIdentifierType, QuantityUnit } from "./energy-amount.js"
import { isoDateTime, isoDateTimePair } from "../../testing/arbitrary-dates.js"
import { account, choice, compactObject, decimalString, type GeneratorContext, label, maloId, oneof, optional, optionalList, record, reference } from "../../testing/arbitrary-values.js"

const quantity = oneof(
  { weight: 4, arbitrary: decimalString({ maxIntegerDigits: 6, maxScale: 4 }) },
  { weight: 1, arbitrary: decimalString({ maxIntegerDigits: 4, maxScale: 3, signed: true }) }
)
const productIdentifier = label("1-1:1.8.0", "1-1:2.8.0", "1-0:1.8.1", "1-0:1.8.2", "9991000000044")
const ediCode = label("Z18", "Z02", "Z76", "Z57", "Z84", "Z86", "220", "67")

/** An amount over an ordered period, as energy amounts and delivery notes list them. */
export const amountItem = (ctx: GeneratorContext) =>
  record({
    period: isoDateTimePair,
    product_identifier: productIdentifier,
    product_identifier_type: choice(ProductIdentifierType, ctx),
    quantity,
    quantity_unit: choice(QuantityUnit, ctx),
    line_item_identifier: optional(label("1", "2", "A1", "POS-10"))
  }).map(({ period: [start, end], ...rest }) =>
    compactObject({ period_start_at: start, period_end_at: end, ...rest })
  )

/** An energy-amount request body. */
export const energyAmount = (ctx: GeneratorContext) =>
  record({
    ...account,
    energy_amount: record({
      malo_number: maloId,
      measured: amountItem(ctx),
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
        qualifier: optional(ediCode),
        estimate_method: optional(ediCode),
        estimate_reason: optional(ediCode),
        correction_reason: optional(ediCode),
        plausibility_indications: optionalList(ediCode, ctx),
        measurement_classifications: optionalList(ediCode, ctx),
        edifact_reference_number: optional(reference("MSCONS"))
      })
    }).map(({ malo_number, measured, preceding_reference, cancellation, codes }) =>
      compactObject({ malo_number, ...measured, preceding_reference, ...cancellation, ...codes })
    )
  }).map(compactObject)
