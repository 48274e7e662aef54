/**
 * Valid request bodies of market-participant-invoice: invoices whose lines and taxes are consistent.
 *
 * @module
 */
import type { Arbitrary } from "fast-check"
import { InvoiceAddress, MarketParticipantInvoice, TaxRateType } from "./market-participant-invoice.js"
import type { ArbitraryKit, GeneratorContext, Json, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

const address = ({ choice, compactObject, fc, name, optional, record }: ArbitraryKit, ctx: GeneratorContext) =>
  record({
    name,
    street: fc.constantFrom("Hauptstraße 1", "Am Kraftwerk 12a", "Ring 3, Haus B"),
    city: fc.constantFrom("Hamburg", "München", "Frankfurt am Main", "Görlitz"),
    postcode: fc.constantFrom("20095", "80331", "60311", "02826"),
    tax_number: optional(fc.constantFrom("DE123456789", "12/345/67890")),
    tax_number_type: optional(choice(InvoiceAddress.fields.tax_number_type, ctx)),
    country_code: fc.constantFrom("DE", "AT", "NL")
  }).map(compactObject)

/** An optional key whose value is `null` about one time in four. */
const nullable = ({ fc, oneof, optional }: ArbitraryKit) => <A>(arb: Arbitrary<A>) =>
  optional(oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }))

const invoiceLine = (kit: ArbitraryKit, ctx: GeneratorContext) => {
  const { cents, choice, decimalString, isoDateTime, isoDateTimePair, label, optional, record, reference, taxRate } = kit
  const orNull = nullable(kit)
  return record({
    article: label("Netzentgelt Arbeitspreis", "Messstellenbetrieb", "Konzessionsabgabe", "9990001000798"),
    article_type: optional(label("ARBEITSPREIS", "GRUNDPREIS")),
    quantity: decimalString({ maxIntegerDigits: 6, maxScale: 3 }),
    quantity_unit: optional(label("KWH", "ANZ", "MON")),
    quantity_interval: optional(decimalString({ maxIntegerDigits: 2, maxScale: 0 })),
    quantity_interval_type: optional(label("MON", "DAY")),
    quantity_correction_factor: orNull(decimalString({ maxIntegerDigits: 1, maxScale: 4 })),
    period: isoDateTimePair,
    service_conducted_at: orNull(isoDateTime),
    amount_net: cents({ min: -100_000, max: 5_000_000 }),
    amount_adjustment: orNull(cents({ min: -10_000, max: 10_000 })),
    price: decimalString({ maxIntegerDigits: 4, maxScale: 6 }),
    price_interval: orNull(label("MON", "YEAR")),
    tax_rate: taxRate,
    tax_rate_type: optional(choice(TaxRateType, ctx)),
    external_id: optional(reference("POS"))
  })
}

const invoice = (kit: ArbitraryKit, ctx: GeneratorContext) => {
  const {
    cents, choice, compactObject, fc, isoDate, isoDateTime, isoDateTimePair, label, maloId, marketPartnerCode, meloId, nonEmptyList,
    optional, optionalList, record, reference, taxRate
  } = kit
  const orNull = nullable(kit)
  return record({
    header: record({
      invoice_type: label("NETZNUTZUNG", "MESSSTELLENBETRIEB", "MEHRMINDERMENGE"),
      invoice_sub_type: optional(label("ABSCHLAG", "SCHLUSSRECHNUNG")),
      invoice_document_type: optional(label("380", "381")),
      invoice_number: reference("NN"),
      status: optional(choice(MarketParticipantInvoice.fields.status, ctx))
    }),
    issued: isoDateTimePair,
    malo_number: maloId,
    melo_number: orNull(meloId),
    period: isoDateTimePair,
    balancing_period_start_at: orNull(isoDateTime),
    supply_period_end_at: orNull(isoDateTime),
    service_conducted_at: orNull(isoDateTime),
    with_due: fc.boolean(),
    amount_discount: orNull(cents({ min: 0, max: 10_000 })),
    flags: record({ is_reverse_charge: optional(fc.boolean()), is_duplicate: optional(fc.boolean()), was_prepaid: optional(fc.boolean()) }),
    references: record({
      reference_invoice_number: orNull(reference("NN")),
      reference_document: orNull(reference("DOC")),
      reference_invoice_issued_at: orNull(isoDateTime),
      interchange_reference: optional(reference("UNB")),
      external_id: optional(reference("INV"))
    }),
    sender_id: marketPartnerCode,
    recipient_id: marketPartnerCode,
    sender_address: optional(address(kit, ctx)),
    recipient_address: optional(address(kit, ctx)),
    lines: nonEmptyList(invoiceLine(kit, ctx), ctx),
    tax_amounts: optionalList(record({
      tax_rate: taxRate,
      tax_rate_type: optional(choice(TaxRateType, ctx)),
      amount_paid_in_advance: orNull(cents({ min: 0, max: 100_000 })),
      tax_amount_paid_in_advance: orNull(cents({ min: 0, max: 19_000 })),
      tax_amount_assessment_basis: cents({ min: 0, max: 5_000_000 }),
      tax_amount: cents({ min: 0, max: 950_000 })
    }).map(compactObject), ctx),
    total_off: ctx.withWarnings ? fc.oneof(fc.constant(0), fc.integer({ min: -500, max: 500 })) : fc.constant(0),
    paid_in_advance_amounts: ctx.withWarnings
      ? optional(fc.array(record({ amount: cents(), paid_at: isoDate() }), { maxLength: Math.min(2, ctx.maxItems) }))
      : fc.constant(undefined)
  }).map((i) => {
    const lines = i.lines.map((line, index) => {
      const { period: [start, end], ...rest } = line
      const { article, article_type, quantity: q, quantity_unit, quantity_interval, quantity_interval_type, quantity_correction_factor, ...more } = rest
      return compactObject({
        position: index + 1,
        article,
        article_type,
        quantity: q,
        quantity_unit,
        quantity_interval,
        quantity_interval_type,
        quantity_correction_factor,
        period_start_at: start,
        period_end_at: end,
        ...more
      })
    })
    // The totals add up: net amounts of the lines plus the tax amounts (invoice_totals_mismatch
    // otherwise); the discount lowers only the amount due. With warnings wanted, the total may be off.
    const taxes = Array.isArray(i.tax_amounts) ? i.tax_amounts.reduce((sum, tax) => sum + Number(tax["tax_amount"]), 0) : 0
    const total = lines.reduce((sum, line) => sum + Number(line["amount_net"]), 0) + taxes + i.total_off
    const discount = typeof i.amount_discount === "number" ? i.amount_discount : 0
    return compactObject({
      ...i.header,
      issued_at: i.issued[0],
      due_at: i.with_due ? i.issued[1] : undefined,
      malo_number: i.malo_number,
      melo_number: i.melo_number,
      period_start_at: i.period[0],
      period_end_at: i.period[1],
      balancing_period_start_at: i.balancing_period_start_at,
      supply_period_end_at: i.supply_period_end_at,
      service_conducted_at: i.service_conducted_at,
      amount_total: total,
      amount_due: total - discount,
      amount_discount: i.amount_discount,
      ...i.flags,
      ...i.references,
      sender_id: i.sender_id,
      recipient_id: i.recipient_id,
      sender_address: i.sender_address,
      recipient_address: i.recipient_address,
      line_items: lines,
      tax_amounts: i.tax_amounts,
      paid_in_advance_amounts: i.paid_in_advance_amounts
    } as Record<string, Json | undefined>)
  })
}

/** A market-participant-invoice request body. */
export const marketParticipantInvoice: PayloadArbitrary = (kit, ctx) =>
  kit.record({ ...kit.account, market_participant_invoice: invoice(kit, ctx) }).map(kit.compactObject)
