/**
 * Generators of valid request bodies, one per POST endpoint, written by hand where realism matters
 * (transaction fields by type, amounts that add up, pinned notes with an unpin time) and built from the
 * shared value generators. Every cross-field rule holds by construction (ordered start/end pairs, unique
 * transaction ids, a note with a body or paths, at least one list of time definitions), so the generators
 * keep producing valid payloads while fast-check shrinks them.
 *
 * @module
 */
import * as fc from "fast-check"
import { endpoints } from "../endpoints/catalogue.js"
import type { PostEndpointId } from "../endpoints/endpoint-id.js"
import { ProductIdentifierType, QuantityUnit } from "../schemas/energy-amount.js"
import { HistoricalStatement } from "../schemas/historical-statements.js"
import { InvoiceAddress, MarketParticipantInvoice, TaxRateType } from "../schemas/market-participant-invoice.js"
import { MarketParticipantRequest } from "../schemas/market-participant.js"
import { PaymentInstructionRequest } from "../schemas/payment-instruction.js"
import {
  PaymentType,
  TransactionLineItem,
  TransactionReason,
  TransactionTaxItem,
  TransactionType,
  TYPE_SPECIFIC_FIELDS
} from "../schemas/transactions.js"
import {
  cents,
  choice,
  compactObject,
  dateOfDay,
  dayNumber,
  decimalString,
  documentPath,
  emailAddress,
  externalAccountNumber,
  freeText,
  type GeneratorContext,
  importSupplierCode,
  isoDate,
  isoDatePair,
  isoDateTime,
  isoDateTimePair,
  type Json,
  type JsonObject,
  label,
  maloId,
  marketPartnerCode,
  marketPartnerCodeText,
  meloId,
  money,
  name,
  nonEmptyList,
  optional,
  optionalList,
  phoneNumber,
  oneof,
  record,
  reference,
  taxRate
} from "./arbitrary-values.js"

/**
 * The JSON form of a POST endpoint's request body.
 *
 * @example
 * const payload: PayloadOf<"notes"> = { import_supplier: "S", external_account_number: "1", notes: [{ body: "Hi" }] }
 */
export type PayloadOf<E extends PostEndpointId> = (typeof endpoints)[E]["request"]["Encoded"]

/**
 * Options of {@link arbitraryPayload}.
 *
 * @example
 * arbitraryPayload("transactions", { maxItems: 10, now: new Date("2024-06-30T00:00:00Z") })
 */
export interface ArbitraryPayloadOptions {
  /** The largest number of items of a generated list (default 4; at least 1). */
  readonly maxItems?: number
  /**
   * Also generate data that is valid but draws warnings: values outside an open enumeration's listed
   * ones, empty optional lists, `paid_in_advance_amounts`, fields of another transaction type, `unpin_at`
   * on an unpinned note. Default `false`: generated payloads validate without warnings.
   */
  readonly withWarnings?: boolean
  /**
   * The clock the payloads will be validated against: no transaction is dated after its day. Default
   * 2025-01-01, a fixed day, so that a seed reproduces the same payloads on any day.
   */
  readonly now?: Date
}

/**
 * The default of {@link ArbitraryPayloadOptions.now}: generated transactions are dated up to this day.
 *
 * @example
 * validatePayload("transactions", payload, { now: DEFAULT_NOW })
 */
export const DEFAULT_NOW = new Date("2025-01-01T00:00:00Z")

/** The generator context of a set of options. */
export const contextOf = (options: ArbitraryPayloadOptions = {}): GeneratorContext => {
  const now = options.now ?? DEFAULT_NOW
  if (!Number.isFinite(now.getTime())) throw new RangeError("arbitraryPayload: options.now is not a valid date")
  return {
    maxItems: Math.max(1, Math.floor(options.maxItems ?? 4)),
    withWarnings: options.withWarnings ?? false,
    today: now.toISOString().slice(0, 10)
  }
}

const account = { import_supplier: importSupplierCode, external_account_number: externalAccountNumber }

// ---------------------------------------------------------------------------------------------------------
// notes

const note = (ctx: GeneratorContext): fc.Arbitrary<JsonObject> =>
  record({
    // A body, document paths, or both: the note must carry one of them.
    content: oneof(
      record({ body: freeText }),
      record({ document_paths: nonEmptyList(record({ document_path: documentPath }), ctx) }),
      record({ body: freeText, document_paths: nonEmptyList(record({ document_path: documentPath }), ctx) })
    ),
    // Unpinned, pinned for good, or pinned until a time not before the note's creation.
    pin: oneof(
      record({ created_at: optional(isoDateTime) }),
      record({ created_at: optional(isoDateTime), is_pinned: fc.boolean() }),
      isoDateTimePair.chain(([createdAt, unpinAt]) =>
        record({ created_at: optional(fc.constant(createdAt)), is_pinned: fc.constant(true), unpin_at: fc.constant(unpinAt) })
      ),
      ...(ctx.withWarnings ? [record({ is_pinned: fc.constant(false), unpin_at: isoDateTime })] : [])
    )
  }).map(({ content, pin }) => compactObject({ ...content, ...pin }))

const notes = (ctx: GeneratorContext) =>
  record({ ...account, notes: nonEmptyList(note(ctx), ctx) }).map(compactObject)

// ---------------------------------------------------------------------------------------------------------
// delivery-note, energy-amount

const quantity = oneof(
  { weight: 4, arbitrary: decimalString({ maxIntegerDigits: 6, maxScale: 4 }) },
  { weight: 1, arbitrary: decimalString({ maxIntegerDigits: 4, maxScale: 3, signed: true }) }
)
const productIdentifier = label("1-1:1.8.0", "1-1:2.8.0", "1-0:1.8.1", "1-0:1.8.2", "9991000000044")
const ediCode = label("Z18", "Z02", "Z76", "Z57", "Z84", "Z86", "220", "67")

const amountItem = (ctx: GeneratorContext) =>
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

const deliveryNote = (ctx: GeneratorContext) =>
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

const energyAmount = (ctx: GeneratorContext) =>
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

// ---------------------------------------------------------------------------------------------------------
// transactions

/** Whether the contract documents `field` for transactions of `type` (else: `field_not_used_by_type`). */
const usedBy = (field: string, type: string): boolean => TYPE_SPECIFIC_FIELDS[field]?.includes(type) ?? true

/** Three decimals at most, as meter readings and unit counts are written. */
const round = (value: number, decimals: number): number => Math.round(value * 10 ** decimals) / 10 ** decimals

const lineItem = (ctx: GeneratorContext) => record({
  rate_band: optional(choice(TransactionLineItem.fields.rate_band, ctx)),
  dates: isoDatePair,
  reading: fc.integer({ min: 0, max: 99_999_000 }).map((r) => r / 1000),
  consumption: fc.integer({ min: 0, max: 9_999_000 }).map((u) => u / 1000),
  price_per_unit: fc.integer({ min: 1, max: 9_999 }).map((p) => p / 10_000),
  with_units: fc.boolean(),
  with_price: fc.boolean()
}).map(({ rate_band, dates: [start, end], reading, consumption, price_per_unit, with_units, with_price }) =>
  compactObject({
    rate_band,
    start_date: start,
    end_date: end,
    number_of_units: consumption,
    net_amount: round(consumption * price_per_unit, 2),
    price_per_unit: with_price ? price_per_unit : undefined,
    // Two readings: the meter at the start and at the end of the period.
    units: with_units ? [reading, round(reading + consumption, 3)] : undefined
  })
)

const taxItem = (ctx: GeneratorContext) =>
  record({
    net: money({ min: 0, max: 10_000 }),
    rate: fc.constantFrom(0.19, 0.07, 0.16, 0),
    tax_type: choice(TransactionTaxItem.fields.tax_type, ctx),
    unit_type: choice(TransactionTaxItem.fields.unit_type, ctx)
  }).map(({ net, rate, tax_type, unit_type }) => ({ amount: round(net * rate, 2), tax_type, value_taxed: net, rate, unit_type }))

const transactionId = fc.tuple(fc.constantFrom("BU", "TX", "ZA", "GS"), fc.integer({ min: 1, max: 999_999 }))
  .map(([prefix, n]) => `${prefix}-${String(n).padStart(6, "0")}`)

const transaction = (ctx: GeneratorContext): fc.Arbitrary<JsonObject> => {
  const firstDay = dateOfDay(Math.min(dayNumber("2015-01-01"), dayNumber(ctx.today) - 3650))
  const base = {
    transaction_id: transactionId,
    transaction_date: isoDate(firstDay, ctx.today),
    amount: money({ min: -5_000, max: 5_000 })
  }
  const byType = (type: string, fields: Readonly<Record<string, fc.Arbitrary<Json | symbol>>>) =>
    record({ ...base, type: fc.constant(type), ...fields }).map((t) => {
      const out = compactObject(t as Record<string, Json>)
      if (ctx.withWarnings) return out
      // Without warnings, a field is only sent with the types the contract documents it for.
      return Object.fromEntries(Object.entries(out).filter(([field]) => usedBy(field, type)))
    })
  const reasonOf = (...values: ReadonlyArray<string>) => optional(fc.constantFrom(...values))
  const types = [
    byType("CHARGE", { reason: reasonOf("IMPORTED_CHARGE"), display_note: optional(freeText), note: optional(freeText), reference: optional(reference("RG")) }),
    byType("CREDIT", { reason: reasonOf("IMPORTED_CREDIT", "GENERAL_CREDIT"), display_note: optional(freeText), note: optional(freeText) }),
    byType("PAYMENT", {
      reason: reasonOf("ACCOUNT_CHARGE_PAYMENT"),
      note: optional(freeText),
      reference: optional(reference("ZA")),
      payment_type: optional(choice(PaymentType, ctx))
    }),
    byType("REPAYMENT", {
      reason: reasonOf("FULL_CREDIT_REFUND"),
      note: optional(freeText),
      reference: optional(reference("RZ")),
      payment_type: optional(choice(PaymentType, ctx))
    }),
    byType("SUPPLY_CHARGE", {
      reason: optional(choice(TransactionReason, ctx)),
      note: optional(freeText),
      product_code: label("E-1ST-24M", "OE-FIX-12", "GAS-BASIS"),
      line_items: nonEmptyList(lineItem(ctx), ctx),
      tax_items: optionalList(taxItem(ctx), ctx)
    })
  ]
  if (!ctx.withWarnings) return oneof(...types)
  // With warnings: also types the spec does not list, and fields documented for other types.
  return oneof(
    ...types,
    record({
      ...base,
      // Not SUPPLY_CHARGE: that type needs its product code and line items, generated above.
      type: choice(TransactionType, ctx).filter((type) => type !== "SUPPLY_CHARGE"),
      payment_type: optional(choice(PaymentType, ctx)),
      reference: optional(reference("XX")),
      tax_items: optionalList(taxItem(ctx), ctx)
    }).map((t) => compactObject(t as Record<string, Json>))
  )
}

/** Makes the ids unique (the contract rejects a repeated id), keeping the first of each. */
const uniqueIds = (list: ReadonlyArray<JsonObject>): Array<JsonObject> => {
  const seen = new Set<Json | undefined>()
  return list.map((t, index) => {
    let id = t["transaction_id"]
    if (seen.has(id)) id = `${String(id)}-${index}`
    seen.add(id)
    return { ...t, transaction_id: id ?? `TX-${index}` }
  })
}

const transactions = (ctx: GeneratorContext) =>
  record({ ...account, transactions: nonEmptyList(transaction(ctx), ctx).map(uniqueIds) }).map(compactObject)

// ---------------------------------------------------------------------------------------------------------
// historical-statements

const statement = (ctx: GeneratorContext) =>
  record({
    period: isoDatePair,
    statement_id: reference("ST"),
    issued_after: optional(fc.integer({ min: 0, max: 30 })),
    number: optional(reference("R")),
    gross_amount: optional(money({ min: -2_000, max: 20_000 })),
    statement_path: optional(documentPath),
    supply_type: optional(choice(HistoricalStatement.fields.supply_type, ctx)),
    is_annulled: optional(fc.boolean())
  }).map(({ period: [from, to], issued_after, ...rest }) => {
    const { statement_id, ...others } = rest
    return compactObject({
      bill_period_from_date: from,
      bill_period_to_date: to,
      statement_id,
      // Issued some days after the period (not a rule, just how bills are).
      issued_date: typeof issued_after === "number" ? dateOfDay(dayNumber(to) + issued_after) : undefined,
      ...others
    })
  })

const historicalStatements = (ctx: GeneratorContext) =>
  record({ ...account, statements: nonEmptyList(statement(ctx), ctx) }).map(compactObject)

// ---------------------------------------------------------------------------------------------------------
// market-participant-invoice

const address = (ctx: GeneratorContext) =>
  record({
    name,
    street: fc.constantFrom("Hauptstraße 1", "Am Kraftwerk 12a", "Ring 3, Haus B"),
    city: fc.constantFrom("Hamburg", "München", "Frankfurt am Main", "Görlitz"),
    postcode: fc.constantFrom("20095", "80331", "60311", "02826"),
    tax_number: optional(fc.constantFrom("DE123456789", "12/345/67890")),
    tax_number_type: optional(choice(InvoiceAddress.fields.tax_number_type, ctx)),
    country_code: fc.constantFrom("DE", "AT", "NL")
  }).map(compactObject)

const nullable = <A>(arb: fc.Arbitrary<A>) => optional(oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }))

const invoiceLine = (ctx: GeneratorContext) =>
  record({
    article: label("Netzentgelt Arbeitspreis", "Messstellenbetrieb", "Konzessionsabgabe", "9990001000798"),
    article_type: optional(label("ARBEITSPREIS", "GRUNDPREIS")),
    quantity: decimalString({ maxIntegerDigits: 6, maxScale: 3 }),
    quantity_unit: optional(label("KWH", "ANZ", "MON")),
    quantity_interval: optional(decimalString({ maxIntegerDigits: 2, maxScale: 0 })),
    quantity_interval_type: optional(label("MON", "DAY")),
    quantity_correction_factor: nullable(decimalString({ maxIntegerDigits: 1, maxScale: 4 })),
    period: isoDateTimePair,
    service_conducted_at: nullable(isoDateTime),
    amount_net: cents({ min: -100_000, max: 5_000_000 }),
    amount_adjustment: nullable(cents({ min: -10_000, max: 10_000 })),
    price: decimalString({ maxIntegerDigits: 4, maxScale: 6 }),
    price_interval: nullable(label("MON", "YEAR")),
    tax_rate: taxRate,
    tax_rate_type: optional(choice(TaxRateType, ctx)),
    external_id: optional(reference("POS"))
  })

const invoice = (ctx: GeneratorContext) =>
  record({
    header: record({
      invoice_type: label("NETZNUTZUNG", "MESSSTELLENBETRIEB", "MEHRMINDERMENGE"),
      invoice_sub_type: optional(label("ABSCHLAG", "SCHLUSSRECHNUNG")),
      invoice_document_type: optional(label("380", "381")),
      invoice_number: reference("NN"),
      status: optional(choice(MarketParticipantInvoice.fields.status, ctx))
    }),
    issued: isoDateTimePair,
    malo_number: maloId,
    melo_number: nullable(meloId),
    period: isoDateTimePair,
    balancing_period_start_at: nullable(isoDateTime),
    supply_period_end_at: nullable(isoDateTime),
    service_conducted_at: nullable(isoDateTime),
    with_due: fc.boolean(),
    amount_discount: nullable(cents({ min: 0, max: 10_000 })),
    flags: record({ is_reverse_charge: optional(fc.boolean()), is_duplicate: optional(fc.boolean()), was_prepaid: optional(fc.boolean()) }),
    references: record({
      reference_invoice_number: nullable(reference("NN")),
      reference_document: nullable(reference("DOC")),
      reference_invoice_issued_at: nullable(isoDateTime),
      interchange_reference: optional(reference("UNB")),
      external_id: optional(reference("INV"))
    }),
    sender_id: marketPartnerCode,
    recipient_id: marketPartnerCode,
    sender_address: optional(address(ctx)),
    recipient_address: optional(address(ctx)),
    lines: nonEmptyList(invoiceLine(ctx), ctx),
    tax_amounts: optionalList(record({
      tax_rate: taxRate,
      tax_rate_type: optional(choice(TaxRateType, ctx)),
      amount_paid_in_advance: nullable(cents({ min: 0, max: 100_000 })),
      tax_amount_paid_in_advance: nullable(cents({ min: 0, max: 19_000 })),
      tax_amount_assessment_basis: cents({ min: 0, max: 5_000_000 }),
      tax_amount: cents({ min: 0, max: 950_000 })
    }).map(compactObject), ctx),
    paid_in_advance_amounts: ctx.withWarnings
      ? optional(fc.array(record({ amount: cents(), paid_at: isoDate() }), { maxLength: 2 }))
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
    // The totals add up: net amounts of the lines, less the discount.
    const total = lines.reduce((sum, line) => sum + Number(line["amount_net"]), 0)
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

const marketParticipantInvoice = (ctx: GeneratorContext) =>
  record({ ...account, market_participant_invoice: invoice(ctx) }).map(compactObject)

// ---------------------------------------------------------------------------------------------------------
// payment-instruction

const paymentInstruction = (ctx: GeneratorContext) =>
  record({
    ...account,
    vendor: fc.constantFrom("STRIPE", "ADYEN", "GOCARDLESS", "PAYPAL"),
    reference: oneof(
      { weight: 4, arbitrary: fc.stringMatching(/^(?:pm|src|MD)_[A-Za-z0-9]{14,24}$/u) },
      { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(..."abcdef0123456789"), minLength: 400, maxLength: 512 }) }
    ),
    type: choice(PaymentInstructionRequest.fields.type, ctx)
  }).map(compactObject)

// ---------------------------------------------------------------------------------------------------------
// market-participant

const marketParticipant = (ctx: GeneratorContext) =>
  record({
    code: marketPartnerCode,
    code_type: choice(MarketParticipantRequest.fields.code_type, ctx),
    name,
    role: choice(MarketParticipantRequest.fields.role, ctx),
    energy: choice(MarketParticipantRequest.fields.energy, ctx),
    contact_details: optionalList(record({
      category: label("Z10", "Z11", "IC"),
      name: optional(name),
      email: optional(emailAddress),
      phone: optional(phoneNumber),
      valid_from: optional(isoDateTime)
    }).map(compactObject), ctx)
  }).map(compactObject)

// ---------------------------------------------------------------------------------------------------------
// market-participant-fees

const intervalZone = fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.boolean())
  .map(([a, b, fractional]) => {
    const [lower, upper] = a <= b ? [a, b] : [b, a]
    return { lower_bound: fractional ? lower / 10 : lower, upper_bound: fractional ? upper / 10 : upper }
  })

const priceSheet = (ctx: GeneratorContext) =>
  record({
    market_participant_code: marketPartnerCode,
    price_sheet_type: label("MESSSTELLENBETRIEB", "NETZNUTZUNG", "KONZESSIONSABGABE"),
    document_number: reference("PRICAT"),
    preceding_document_number: optional(reference("PRICAT")),
    is_price_sheet_unused: optional(fc.boolean()),
    active_from: isoDateTime,
    external_id: optional(reference("PS")),
    article_prices: nonEmptyList(record({
      article_id: label("9990001000798", "9990001000582", "1-01-6-005"),
      price_cents: decimalString({ maxIntegerDigits: 5, maxScale: 4 }),
      interval_zone: optional(intervalZone)
    }).map(compactObject), ctx)
  }).map(compactObject)

const marketParticipantFees = (ctx: GeneratorContext) => record({ price_sheets: nonEmptyList(priceSheet(ctx), ctx) })

// ---------------------------------------------------------------------------------------------------------
// market-participant-definitions

const registerCode = label("1-1:1.8.1", "1-1:1.8.2", "HT", "NT")

const definition = (ctx: GeneratorContext) =>
  record({
    valid_from: isoDate(),
    version_datetime: isoDateTime,
    status: optional(label("ACTIVE", "INACTIVE")),
    definition_type: label("SCHALTZEITDEFINITION", "LEISTUNGSKURVENDEFINITION"),
    definition_code: label("HT-NT-STD", "SZ-0815"),
    transmission_frequency: optional(label("DAILY", "MONTHLY")),
    registers: optionalList(record({ register_code: registerCode, low_load_capable: fc.boolean() }), ctx)
  }).map(compactObject)

const rolledOutDefinition = (ctx: GeneratorContext) =>
  record({
    definition_type: label("SCHALTZEITDEFINITION"),
    definition_code: label("HT-NT-STD", "SZ-0815"),
    version_datetime: isoDateTime,
    validity: isoDateTimePair,
    recurrence: optional(label("DAILY", "WEEKLY", "YEARLY")),
    entries: nonEmptyList(record({ period: isoDateTimePair, active_register_code: registerCode }), ctx)
  }).map(({ validity: [start, end], entries, recurrence, ...rest }) =>
    compactObject({
      ...rest,
      validity_period_start: start,
      validity_period_end: end,
      recurrence,
      entries: entries.map(({ period: [from, to], active_register_code }) => ({
        period_start: from,
        period_end: to,
        active_register_code
      }))
    })
  )

const marketParticipantDefinitions = (ctx: GeneratorContext) =>
  record({
    network_operator_code: marketPartnerCodeText,
    // At least one of the two lists, present and not empty.
    lists: oneof(
      record({ definitions: nonEmptyList(definition(ctx), ctx) }),
      record({ rolled_out_definitions: nonEmptyList(rolledOutDefinition(ctx), ctx) }),
      record({ definitions: nonEmptyList(definition(ctx), ctx), rolled_out_definitions: nonEmptyList(rolledOutDefinition(ctx), ctx) })
    )
  }).map(({ network_operator_code, lists }) => compactObject({ network_operator_code, ...lists }))

// ---------------------------------------------------------------------------------------------------------

/** The generator of each POST endpoint's request body. */
const generators: { readonly [E in PostEndpointId]: (ctx: GeneratorContext) => fc.Arbitrary<JsonObject> } = {
  "notes": notes,
  "delivery-note": deliveryNote,
  "energy-amount": energyAmount,
  "transactions": transactions,
  "historical-statements": historicalStatements,
  "market-participant-invoice": marketParticipantInvoice,
  "payment-instruction": paymentInstruction,
  "market-participant": marketParticipant,
  "market-participant-fees": marketParticipantFees,
  "market-participant-definitions": marketParticipantDefinitions
}

/** Whether `id` is a POST endpoint id. */
export const isPostEndpointId = (id: unknown): id is PostEndpointId => typeof id === "string" && Object.hasOwn(generators, id)

/** The payload generator of an endpoint, as plain JSON objects; throws a `TypeError` for a non-POST id. */
export const payloadGenerator = (endpointId: PostEndpointId, ctx: GeneratorContext): fc.Arbitrary<JsonObject> => {
  if (!isPostEndpointId(endpointId)) {
    throw new TypeError(`${String(endpointId)} is not the id of a POST endpoint (no request body to generate)`)
  }
  return generators[endpointId](ctx)
}

/**
 * A fast-check arbitrary of valid request bodies of a POST endpoint, in their JSON form: what
 * `validatePayload(endpointId, payload)` accepts (without warnings, unless `withWarnings`). Realistic and
 * varied: 11-digit MaLo ids with their check digit, 13-digit codes, datetimes with `Z` and with offsets,
 * start/end pairs ordered as instants across offsets, decimal strings of varying scale and sign, optional
 * keys present and absent, lists of one to `maxItems` items, transaction fields that match their type.
 * Counterexamples shrink towards the smallest payload: required keys only, one item per list.
 *
 * @example
 * import fc from "fast-check"
 * import { validatePayload } from "data-import-payloads"
 * import { arbitraryPayload } from "data-import-payloads/testing"
 *
 * fc.assert(fc.property(arbitraryPayload("energy-amount"), (payload) => validatePayload("energy-amount", payload).ok))
 */
export const arbitraryPayload = <E extends PostEndpointId>(
  endpointId: E,
  options?: ArbitraryPayloadOptions
): fc.Arbitrary<PayloadOf<E>> => payloadGenerator(endpointId, contextOf(options)) as unknown as fc.Arbitrary<PayloadOf<E>>
