/**
 * Delivery note: `POST /v1/data-import/delivery-note/create/` (endpoint id `delivery-note`).
 *
 * @module
 */
import { Schema } from "effect"
import { AccountIdentificationFields, IsoDateTime, MaloNumber, NonBlankString, nonEmptyArray } from "../conventions.js"
import { QuantityOverPeriodFields } from "../energy-amount/quantity-over-period.js"
import { ruleFilter, startNotAfterEndRule } from "../rules.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { storeAndEcho } from "../endpoint-parts.js"

/** A delivery note amount's `period_start_at` is not after its `period_end_at`. */
const deliveryPeriodInOrder = startNotAfterEndRule("period_start_at", "period_end_at", "datetime")

/** The cross-field rules of delivery notes, for the list of error codes. */
const deliveryNoteRules = [deliveryPeriodInOrder] as const

/**
 * One amount of a delivery note: a quantity of a product over a period.
 *
 * @example
 * const quarter = { period_start_at: "2024-01-01T00:00:00+01:00", period_end_at: "2024-03-31T00:00:00+01:00", product_identifier: "1-1:1.9.0", product_identifier_type: "SRW", quantity: "812.500", quantity_unit: "KWH" }
 * Schema.is(Schemas.DeliveryNoteAmount)(quarter) // => true
 * Schema.is(Schemas.DeliveryNoteAmount)({ ...quarter, period_end_at: "2023-12-31T00:00:00+01:00" }) // => false
 *
 * @since 0.1.0
 */
export const DeliveryNoteAmount = Schema.Struct(QuantityOverPeriodFields).check(
  ruleFilter(deliveryPeriodInOrder)
).annotate({ identifier: "DeliveryNoteAmount" })
/** One amount of a delivery note. */
export type DeliveryNoteAmount = typeof DeliveryNoteAmount.Type

/**
 * A delivery note of a MaLo with its amounts.
 *
 * @example
 * const quarter = { period_start_at: "2024-01-01T00:00:00+01:00", period_end_at: "2024-03-31T00:00:00+01:00", product_identifier: "1-1:1.9.0", product_identifier_type: "SRW", quantity: "812.500", quantity_unit: "KWH" }
 * Schema.is(Schemas.DeliveryNote)({ malo_number: "51238696781", amounts: [quarter] }) // => true
 * Schema.is(Schemas.DeliveryNote)({ malo_number: "51238696781", amounts: [] }) // => false
 *
 * @since 0.1.0
 */
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

/**
 * Request body of `delivery-note`.
 *
 * @example
 * const quarter = { period_start_at: "2024-01-01T00:00:00+01:00", period_end_at: "2024-03-31T00:00:00+01:00", product_identifier: "1-1:1.9.0", product_identifier_type: "SRW", quantity: "812.500", quantity_unit: "KWH" }
 * const body = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", delivery_note: { malo_number: "51238696781", amounts: [quarter] } }
 * Schema.is(Schemas.DeliveryNoteRequest)(body) // => true
 * Schema.is(Schemas.DeliveryNoteRequest)({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1" }) // => false
 *
 * @since 0.1.0
 */
export const DeliveryNoteRequest = Schema.Struct({
  ...AccountIdentificationFields,
  delivery_note: DeliveryNote
}).annotate({ identifier: "DeliveryNoteRequest" })
/** Request body of `delivery-note`. */
export type DeliveryNoteRequest = typeof DeliveryNoteRequest.Type

/**
 * 201 response of `delivery-note`: the validated data, echoed.
 *
 * @example
 * Schemas.DeliveryNoteResponse === Schemas.DeliveryNoteRequest // => true
 *
 * @since 0.1.0
 */
export const DeliveryNoteResponse = DeliveryNoteRequest
/** 201 response of `delivery-note`. */
export type DeliveryNoteResponse = typeof DeliveryNoteResponse.Type

/**
 * The catalogue's entry of `delivery-note`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const deliveryNoteEndpoints = {
  "delivery-note": storeAndEcho({
    id: "delivery-note",
    summary: "Import a delivery note.",
    field: "delivery_note",
    documentName: "delivery note",
    stores: "delivery_notes",
    keyFields: ["delivery_note.malo_number", "delivery_note.edifact_reference_number", "delivery_note.amounts[].period_start_at", "delivery_note.amounts[].period_end_at", "delivery_note.amounts[].product_identifier", "delivery_note.amounts[].line_item_identifier"],
    keyInstants: ["delivery_note.amounts[].period_start_at", "delivery_note.amounts[].period_end_at"],
    request: DeliveryNoteRequest
  })
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: deliveryNoteEndpoints,
  rules: deliveryNoteRules,
  warningRules: []
} as const satisfies ResourceDefinition
