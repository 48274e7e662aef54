/**
 * Market participant invoice: `POST /v1/data-import/market-participant-invoice/create/`
 * (endpoint id `market-participant-invoice`). Amounts are integers (cents); prices, quantities and tax
 * rates are decimal strings.
 *
 * @module
 */
import { Schema } from "effect"
import {
  AccountIdentificationFields,
  DecimalString,
  IsoDateTime,
  JsonInteger,
  MaloNumber,
  MarketParticipantCode,
  NonBlankString,
  nonEmptyArray,
  openEnum,
  UNDOCUMENTED_SHAPE,
  undocumentedShape,
  WARNING_RULES
} from "../conventions.js"
import { invoiceTotalsMismatch } from "./invoice-totals.js"
import { ruleFilter, startNotAfterEndRule } from "../rules.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { storeAndEcho } from "../endpoint-parts.js"

/** An invoice's, and each of its lines', `period_start_at` is not after its `period_end_at`. */
const invoicePeriodInOrder = startNotAfterEndRule("period_start_at", "period_end_at", "datetime")

/** The cross-field rules of market participant invoices, for the list of error codes. */
const marketParticipantInvoiceRules = [invoicePeriodInOrder] as const

/**
 * The warning rules of market participant invoices, for the list of warning codes: the totals, and
 * `undocumented_shape`, which the `paid_in_advance_amounts` list carries (`UNDOCUMENTED_SHAPE`).
 */
const marketParticipantInvoiceWarningRules = [invoiceTotalsMismatch, undocumentedShape] as const

/**
 * Tax rate types that appear in the spec (open enumeration).
 *
 * @example
 * Schema.is(Schemas.TaxRateType)("S") // => true
 * Schema.is(Schemas.TaxRateType)("Z") // => true
 * Schema.is(Schemas.TaxRateType)("") // => false
 *
 * @since 0.1.0
 */
export const TaxRateType = openEnum(["S"])

/**
 * Postal and tax address of an invoice's sender or recipient.
 *
 * @example
 * const address = { name: "Netzgesellschaft Nord GmbH", street: "Hafenstraße 12", city: "Kiel", postcode: "24103", country_code: "DE" }
 * Schema.is(Schemas.InvoiceAddress)(address) // => true
 * Schema.is(Schemas.InvoiceAddress)({ ...address, city: "" }) // => false
 *
 * @since 0.1.0
 */
export const InvoiceAddress = Schema.Struct({
  name: NonBlankString,
  street: NonBlankString,
  city: NonBlankString,
  postcode: NonBlankString,
  tax_number: Schema.optionalKey(NonBlankString),
  tax_number_type: Schema.optionalKey(openEnum(["VA", "FC"])),
  country_code: NonBlankString
}).annotate({ identifier: "InvoiceAddress" })
/** Postal and tax address of an invoice party. */
export type InvoiceAddress = typeof InvoiceAddress.Type

/**
 * One line of a market participant invoice.
 *
 * @example
 * const item = { position: 1, article: "9990001000053", quantity: "263.4175", period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-11-01T00:00:00+01:00", amount_net: 2107, price: "7.998", tax_rate: "19.00" }
 * Schema.is(Schemas.InvoiceLineItem)(item) // => true
 * Schema.is(Schemas.InvoiceLineItem)({ ...item, amount_net: 21.07 }) // => false
 *
 * @since 0.1.0
 */
export const InvoiceLineItem = Schema.Struct({
  position: JsonInteger,
  article: NonBlankString,
  article_type: Schema.optionalKey(NonBlankString),
  quantity: DecimalString,
  quantity_unit: Schema.optionalKey(NonBlankString),
  quantity_interval: Schema.optionalKey(DecimalString),
  quantity_interval_type: Schema.optionalKey(NonBlankString),
  quantity_correction_factor: Schema.optionalKey(Schema.NullOr(DecimalString)),
  period_start_at: IsoDateTime,
  period_end_at: IsoDateTime,
  service_conducted_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  amount_net: JsonInteger,
  amount_adjustment: Schema.optionalKey(Schema.NullOr(JsonInteger)),
  price: DecimalString,
  price_interval: Schema.optionalKey(Schema.NullOr(NonBlankString)),
  tax_rate: DecimalString,
  tax_rate_type: Schema.optionalKey(TaxRateType),
  external_id: Schema.optionalKey(NonBlankString)
}).check(ruleFilter(invoicePeriodInOrder)).annotate({ identifier: "InvoiceLineItem" })
/** One line of a market participant invoice. */
export type InvoiceLineItem = typeof InvoiceLineItem.Type

/**
 * Tax totals of one tax rate of an invoice.
 *
 * @example
 * const vat = { tax_rate: "19.00", tax_amount_assessment_basis: 2107, tax_amount: 400 }
 * Schema.is(Schemas.InvoiceTaxAmount)(vat) // => true
 * Schema.is(Schemas.InvoiceTaxAmount)({ ...vat, tax_rate: 19 }) // => false
 *
 * @since 0.1.0
 */
export const InvoiceTaxAmount = Schema.Struct({
  tax_rate: DecimalString,
  tax_rate_type: Schema.optionalKey(TaxRateType),
  amount_paid_in_advance: Schema.optionalKey(Schema.NullOr(JsonInteger)),
  tax_amount_paid_in_advance: Schema.optionalKey(Schema.NullOr(JsonInteger)),
  tax_amount_assessment_basis: JsonInteger,
  tax_amount: JsonInteger
}).annotate({ identifier: "InvoiceTaxAmount" })
/** Tax totals of one tax rate of an invoice. */
export type InvoiceTaxAmount = typeof InvoiceTaxAmount.Type

/**
 * An item of `paid_in_advance_amounts`: any JSON object, since the spec does not give its shape.
 *
 * @example
 * Schema.is(Schemas.PaidInAdvanceAmount)({ amount: 1200, month: "2024-09" }) // => true
 * Schema.is(Schemas.PaidInAdvanceAmount)(1200) // => false
 *
 * @since 0.1.0
 */
export const PaidInAdvanceAmount = Schema.Record(Schema.String, Schema.Unknown).annotate({ identifier: "PaidInAdvanceAmount" })

/**
 * A market participant invoice (network usage, metering or other market communication invoice).
 *
 * @example
 * const item = { position: 1, article: "9990001000053", quantity: "263.4175", period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-11-01T00:00:00+01:00", amount_net: 2107, price: "7.998", tax_rate: "19.00" }
 * const invoice = { invoice_type: "NETWORK_USAGE", invoice_number: "NNR-2024-10-558213", issued_at: "2024-11-05T10:00:00+01:00", malo_number: "51238696781", period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-11-01T00:00:00+01:00", amount_total: 2507, amount_due: 2507, sender_id: 9900123456789, recipient_id: 9907654321098, line_items: [item] }
 * Schema.is(Schemas.MarketParticipantInvoice)(invoice) // => true
 * Schema.is(Schemas.MarketParticipantInvoice)({ ...invoice, sender_id: "9900123456789" }) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantInvoice = Schema.Struct({
  invoice_type: NonBlankString,
  invoice_sub_type: Schema.optionalKey(NonBlankString),
  invoice_document_type: Schema.optionalKey(NonBlankString),
  invoice_number: NonBlankString,
  status: Schema.optionalKey(openEnum(["CLOSED"])),
  issued_at: IsoDateTime,
  due_at: Schema.optionalKey(IsoDateTime),
  malo_number: MaloNumber,
  melo_number: Schema.optionalKey(Schema.NullOr(NonBlankString)),
  period_start_at: IsoDateTime,
  period_end_at: IsoDateTime,
  balancing_period_start_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  supply_period_end_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  service_conducted_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  amount_total: JsonInteger,
  amount_due: JsonInteger,
  amount_discount: Schema.optionalKey(Schema.NullOr(JsonInteger)),
  is_reverse_charge: Schema.optionalKey(Schema.Boolean),
  is_duplicate: Schema.optionalKey(Schema.Boolean),
  was_prepaid: Schema.optionalKey(Schema.Boolean),
  reference_invoice_number: Schema.optionalKey(Schema.NullOr(NonBlankString)),
  reference_document: Schema.optionalKey(Schema.NullOr(NonBlankString)),
  reference_invoice_issued_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  interchange_reference: Schema.optionalKey(NonBlankString),
  external_id: Schema.optionalKey(NonBlankString),
  sender_id: MarketParticipantCode,
  recipient_id: MarketParticipantCode,
  sender_address: Schema.optionalKey(InvoiceAddress),
  recipient_address: Schema.optionalKey(InvoiceAddress),
  line_items: nonEmptyArray(InvoiceLineItem),
  tax_amounts: Schema.optionalKey(Schema.Array(InvoiceTaxAmount)),
  paid_in_advance_amounts: Schema.optionalKey(
    Schema.Array(PaidInAdvanceAmount).annotate({ [UNDOCUMENTED_SHAPE]: true })
  )
}).check(ruleFilter(invoicePeriodInOrder)).annotate({
  identifier: "MarketParticipantInvoice",
  [WARNING_RULES]: [invoiceTotalsMismatch]
})
/** A market participant invoice. */
export type MarketParticipantInvoice = typeof MarketParticipantInvoice.Type

/**
 * Request body of `market-participant-invoice`.
 *
 * @example
 * import { samplePayloads } from "data-import-payloads/testing"
 * const [sample] = samplePayloads("market-participant-invoice", { count: 1, seed: 1 })
 * Schema.is(Schemas.MarketParticipantInvoiceRequest)(sample?.payload) // => true
 * Schema.is(Schemas.MarketParticipantInvoiceRequest)({ ...sample?.payload, market_participant_invoice: {} }) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantInvoiceRequest = Schema.Struct({
  ...AccountIdentificationFields,
  market_participant_invoice: MarketParticipantInvoice
}).annotate({ identifier: "MarketParticipantInvoiceRequest" })
/** Request body of `market-participant-invoice`. */
export type MarketParticipantInvoiceRequest = typeof MarketParticipantInvoiceRequest.Type

/**
 * 201 response of `market-participant-invoice`: the validated data, echoed.
 *
 * @example
 * Schemas.MarketParticipantInvoiceResponse === Schemas.MarketParticipantInvoiceRequest // => true
 *
 * @since 0.1.0
 */
export const MarketParticipantInvoiceResponse = MarketParticipantInvoiceRequest
/** 201 response of `market-participant-invoice`. */
export type MarketParticipantInvoiceResponse = typeof MarketParticipantInvoiceResponse.Type

/**
 * The catalogue's entry of `market-participant-invoice`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const marketParticipantInvoiceEndpoints = {
  "market-participant-invoice": storeAndEcho({
    id: "market-participant-invoice",
    summary: "Import a market participant invoice.",
    field: "market_participant_invoice",
    documentName: "invoice",
    stores: "market_participant_invoices",
    keyFields: ["market_participant_invoice.invoice_number"],
    request: MarketParticipantInvoiceRequest
  })
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: marketParticipantInvoiceEndpoints,
  rules: marketParticipantInvoiceRules,
  warningRules: marketParticipantInvoiceWarningRules
} as const satisfies ResourceDefinition
