/**
 * Energy amount: `POST /v1/data-import/energy-amount/create/` (endpoint id `energy-amount`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  AccountIdentificationFields,
  IsoDateTime,
  MaloNumber,
  NonBlankString
} from "../conventions.js"
import { ruleFilter, startNotAfterEndRule } from "../rules.js"
import { ProductIdentifierType, QuantityOverPeriodFields, QuantityUnit } from "./quantity-over-period.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { storeAndEcho } from "../endpoint-parts.js"

export { ProductIdentifierType, QuantityUnit }

/** An energy amount's `period_start_at` is not after its `period_end_at`. */
const amountPeriodInOrder = startNotAfterEndRule("period_start_at", "period_end_at", "datetime")

/** The cross-field rules of energy amounts, for the list of error codes. */
const energyAmountRules = [amountPeriodInOrder] as const

/**
 * One energy amount (a metered or estimated quantity of a MaLo over a period).
 *
 * @example
 * const october = { malo_number: "51238696781", period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-10-31T23:59:59+01:00", product_identifier: "1-1:1.8.0", product_identifier_type: "SRW", quantity: "263.4175", quantity_unit: "KWH" }
 * Schema.is(Schemas.EnergyAmount)(october) // => true
 * Schema.is(Schemas.EnergyAmount)({ ...october, quantity: "263,4175" }) // => false
 *
 * @since 0.1.0
 */
export const EnergyAmount = Schema.Struct({
  malo_number: MaloNumber,
  ...QuantityOverPeriodFields,
  preceding_reference: Schema.optionalKey(NonBlankString),
  cancelled: Schema.optionalKey(Schema.Boolean),
  cancelled_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  cancelled_reference: Schema.optionalKey(Schema.NullOr(NonBlankString)),
  qualifier: Schema.optionalKey(NonBlankString),
  estimate_method: Schema.optionalKey(NonBlankString),
  estimate_reason: Schema.optionalKey(NonBlankString),
  correction_reason: Schema.optionalKey(NonBlankString),
  plausibility_indications: Schema.optionalKey(Schema.Array(NonBlankString)),
  measurement_classifications: Schema.optionalKey(Schema.Array(NonBlankString)),
  edifact_reference_number: Schema.optionalKey(NonBlankString)
}).check(ruleFilter(amountPeriodInOrder)).annotate({ identifier: "EnergyAmount" })
/** One energy amount. */
export type EnergyAmount = typeof EnergyAmount.Type

/**
 * Request body of `energy-amount`.
 *
 * @example
 * const energy_amount = { malo_number: "51238696781", period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-10-31T23:59:59+01:00", product_identifier: "1-1:1.8.0", product_identifier_type: "SRW", quantity: "263.4175", quantity_unit: "KWH" }
 * Schema.is(Schemas.EnergyAmountRequest)({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", energy_amount }) // => true
 * Schema.is(Schemas.EnergyAmountRequest)({ import_supplier: "STADTWERKE_NORD", energy_amount }) // => false
 *
 * @since 0.1.0
 */
export const EnergyAmountRequest = Schema.Struct({
  ...AccountIdentificationFields,
  energy_amount: EnergyAmount
}).annotate({ identifier: "EnergyAmountRequest" })
/** Request body of `energy-amount`. */
export type EnergyAmountRequest = typeof EnergyAmountRequest.Type

/**
 * 201 response of `energy-amount`: the validated data, echoed.
 *
 * @example
 * Schemas.EnergyAmountResponse === Schemas.EnergyAmountRequest // => true
 *
 * @since 0.1.0
 */
export const EnergyAmountResponse = EnergyAmountRequest
/** 201 response of `energy-amount`. */
export type EnergyAmountResponse = typeof EnergyAmountResponse.Type

/**
 * The catalogue's entry of `energy-amount`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const energyAmountEndpoints = {
  "energy-amount": storeAndEcho({
    id: "energy-amount",
    summary: "Import an energy amount.",
    field: "energy_amount",
    documentName: "energy amount",
    stores: "energy_amounts",
    keyFields: ["energy_amount.malo_number", "energy_amount.period_start_at", "energy_amount.period_end_at", "energy_amount.product_identifier", "energy_amount.line_item_identifier", "energy_amount.edifact_reference_number"],
    keyInstants: ["energy_amount.period_start_at", "energy_amount.period_end_at"],
    request: EnergyAmountRequest
  })
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: energyAmountEndpoints,
  rules: energyAmountRules,
  warningRules: []
} as const satisfies ResourceDefinition
