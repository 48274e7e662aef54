/**
 * Valid request bodies of transactions: fields by type, amounts that add up, unique ids, dates not after today.
 *
 * @module
 */
import type { Arbitrary } from "fast-check"
import { dateOfDay, dayOfDate } from "../instant.js"
import { PaymentType, TransactionLineItem, TransactionReason, TransactionTaxItem, TransactionType } from "./transactions.js"
import { TYPE_SPECIFIC_FIELDS } from "./type-specific-fields.js"
import type { ArbitraryKit, GeneratorContext, Json, JsonObject, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

/** Whether the contract documents `field` for transactions of `type` (else: `field_not_used_by_type`). */
const usedBy = (field: string, type: string): boolean => TYPE_SPECIFIC_FIELDS[field]?.includes(type) ?? true

/** Three decimals at most, as meter readings and unit counts are written. */
const round = (value: number, decimals: number): number => Math.round(value * 10 ** decimals) / 10 ** decimals

const lineItem = ({ choice, compactObject, fc, isoDatePair, optional, record }: ArbitraryKit, ctx: GeneratorContext) => record({
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

const taxItem = ({ choice, fc, money, record }: ArbitraryKit, ctx: GeneratorContext) =>
  record({
    net: money({ min: 0, max: 10_000 }),
    rate: fc.constantFrom(0.19, 0.07, 0.16, 0),
    tax_type: choice(TransactionTaxItem.fields.tax_type, ctx),
    unit_type: choice(TransactionTaxItem.fields.unit_type, ctx)
  }).map(({ net, rate, tax_type, unit_type }) => ({ amount: round(net * rate, 2), tax_type, value_taxed: net, rate, unit_type }))

const transactionId = ({ fc }: ArbitraryKit) =>
  fc.tuple(fc.constantFrom("BU", "TX", "ZA", "GS"), fc.integer({ min: 1, max: 999_999 }))
    .map(([prefix, n]) => `${prefix}-${String(n).padStart(6, "0")}`)

const transaction = (kit: ArbitraryKit, ctx: GeneratorContext): Arbitrary<JsonObject> => {
  const { choice, compactObject, fc, freeText, isoDate, label, money, nonEmptyList, oneof, optional, optionalList, record, reference } = kit
  const firstDay = dateOfDay(Math.min(dayOfDate("2015-01-01"), dayOfDate(ctx.today) - 3650))
  const base = {
    transaction_id: transactionId(kit),
    transaction_date: isoDate(firstDay, ctx.today),
    amount: money({ min: -5_000, max: 5_000 })
  }
  const byType = (type: string, fields: Readonly<Record<string, Arbitrary<Json | symbol>>>) =>
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
      line_items: nonEmptyList(lineItem(kit, ctx), ctx),
      tax_items: optionalList(taxItem(kit, ctx), ctx)
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
      tax_items: optionalList(taxItem(kit, ctx), ctx)
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

/** A transactions request body, with unique transaction ids. */
export const transactions: PayloadArbitrary = (kit, ctx) =>
  kit.record({ ...kit.account, transactions: kit.nonEmptyList(transaction(kit, ctx), ctx).map(uniqueIds) }).map(kit.compactObject)
