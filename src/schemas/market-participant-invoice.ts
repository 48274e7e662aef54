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
  WARNING_RULES
} from "./conventions.js"
import { invoiceTotalsMismatch } from "./invoice-totals.js"
import { startNotAfterEnd } from "./rules.js"

/** Tax rate types that appear in the spec (open enumeration). */
export const TaxRateType = openEnum(["S"])

/** Postal and tax address of an invoice's sender or recipient. */
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

/** One line of a market participant invoice. */
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
}).check(startNotAfterEnd("period_start_at", "period_end_at", "datetime")).annotate({ identifier: "InvoiceLineItem" })
/** One line of a market participant invoice. */
export type InvoiceLineItem = typeof InvoiceLineItem.Type

/** Tax totals of one tax rate of an invoice. */
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

/** An item of `paid_in_advance_amounts`: any JSON object, since the spec does not give its shape. */
export const PaidInAdvanceAmount = Schema.Record(Schema.String, Schema.Unknown).annotate({ identifier: "PaidInAdvanceAmount" })

/** A market participant invoice (network usage, metering or other market communication invoice). */
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
}).check(startNotAfterEnd("period_start_at", "period_end_at", "datetime")).annotate({
  identifier: "MarketParticipantInvoice",
  [WARNING_RULES]: [invoiceTotalsMismatch]
})
/** A market participant invoice. */
export type MarketParticipantInvoice = typeof MarketParticipantInvoice.Type

/** Request body of `market-participant-invoice`. */
export const MarketParticipantInvoiceRequest = Schema.Struct({
  ...AccountIdentificationFields,
  market_participant_invoice: MarketParticipantInvoice
}).annotate({ identifier: "MarketParticipantInvoiceRequest" })
/** Request body of `market-participant-invoice`. */
export type MarketParticipantInvoiceRequest = typeof MarketParticipantInvoiceRequest.Type

/** 201 response of `market-participant-invoice`: the validated data, echoed. */
export const MarketParticipantInvoiceResponse = MarketParticipantInvoiceRequest
/** 201 response of `market-participant-invoice`. */
export type MarketParticipantInvoiceResponse = typeof MarketParticipantInvoiceResponse.Type
