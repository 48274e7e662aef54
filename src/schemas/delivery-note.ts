/**
 * Delivery note: `POST /v1/data-import/delivery-note/create/` (endpoint id `delivery-note`).
 *
 * @module
 */
import { Schema } from "effect"
import { AccountIdentificationFields, IsoDateTime, MaloNumber, NonBlankString, nonEmptyArray } from "./conventions.js"
import { QuantityOverPeriodFields } from "./energy-amount.js"
import { startNotAfterEnd } from "./rules.js"

/** One amount of a delivery note: a quantity of a product over a period. */
export const DeliveryNoteAmount = Schema.Struct(QuantityOverPeriodFields).check(
  startNotAfterEnd("period_start_at", "period_end_at", "datetime")
).annotate({ identifier: "DeliveryNoteAmount" })
/** One amount of a delivery note. */
export type DeliveryNoteAmount = typeof DeliveryNoteAmount.Type

/** A delivery note of a MaLo with its amounts. */
export const DeliveryNote = Schema.Struct({
  malo_number: MaloNumber,
  amounts: nonEmptyArray(DeliveryNoteAmount),
  preceding_reference: Schema.optionalKey(NonBlankString),
  cancelled: Schema.optionalKey(Schema.Boolean),
  validation_status: Schema.optionalKey(Schema.Boolean),
  last_validation_at: Schema.optionalKey(IsoDateTime),
  edifact_reference_number: Schema.optionalKey(NonBlankString)
}).annotate({ identifier: "DeliveryNote" })
/** A delivery note. */
export type DeliveryNote = typeof DeliveryNote.Type

/** Request body of `delivery-note`. */
export const DeliveryNoteRequest = Schema.Struct({
  ...AccountIdentificationFields,
  delivery_note: DeliveryNote
}).annotate({ identifier: "DeliveryNoteRequest" })
/** Request body of `delivery-note`. */
export type DeliveryNoteRequest = typeof DeliveryNoteRequest.Type

/** 201 response of `delivery-note`: the validated data, echoed. */
export const DeliveryNoteResponse = DeliveryNoteRequest
/** 201 response of `delivery-note`. */
export type DeliveryNoteResponse = typeof DeliveryNoteResponse.Type
