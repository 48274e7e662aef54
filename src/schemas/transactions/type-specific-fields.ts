/**
 * Which transaction type may carry which type-specific field: read by the warning rule of transactions
 * and by the generator of valid transactions, and not part of the public `Schemas`.
 *
 * @module
 */

/**
 * Which type may carry which type-specific field. A field used with another type is the warning
 * `field_not_used_by_type`, not an error: the real API's own examples send such fields.
 */
export const TYPE_SPECIFIC_FIELDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  product_code: ["SUPPLY_CHARGE"],
  line_items: ["SUPPLY_CHARGE"],
  tax_items: ["SUPPLY_CHARGE"],
  payment_type: ["PAYMENT", "REPAYMENT"]
}
