/**
 * Valid request bodies of delivery-note: amounts over a period, as energy-amount's items.
 *
 * @module
 */
import * as fc from "fast-check"
import { isoDateTime } from "../../testing/arbitrary-dates.js"
import { account, compactObject, type GeneratorContext, maloId, nonEmptyList, optional, record, reference } from "../../testing/arbitrary-values.js"
import { amountItem } from "../energy-amount/arbitrary.js"

/** A delivery-note request body. */
export const deliveryNote = (ctx: GeneratorContext) =>
  record({
    ...account,
    delivery_note: record({
      malo_number: maloId,
      amounts: nonEmptyList(amountItem(ctx), ctx),
      preceding_reference: optional(reference("LS")),
      cancelled: optional(fc.boolean()),
      validation_status: optional(fc.boolean()),
      last_validation_at: optional(isoDateTime),
      edifact_reference_number: optional(reference("MSCONS"))
    }).map(compactObject)
  }).map(compactObject)
