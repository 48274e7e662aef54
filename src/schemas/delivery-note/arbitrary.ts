/**
 * Valid request bodies of delivery-note: amounts over a period, as energy-amount's items.
 *
 * @module
 */
import type { PayloadArbitrary } from "../../testing/arbitrary-kit.js"
import { amountItem } from "../energy-amount/arbitrary.js"

/** A delivery-note request body. */
export const deliveryNote: PayloadArbitrary = (kit, ctx) => {
  const { account, compactObject, fc, isoDateTime, maloId, nonEmptyList, optional, record, reference } = kit
  return record({
    ...account,
    delivery_note: record({
      malo_number: maloId,
      amounts: nonEmptyList(amountItem(kit, ctx), ctx),
      preceding_reference: optional(reference("LS")),
      cancelled: optional(fc.boolean()),
      validation_status: optional(fc.boolean()),
      last_validation_at: optional(isoDateTime),
      edifact_reference_number: optional(reference("MSCONS"))
    }).map(compactObject)
  }).map(compactObject)
}
