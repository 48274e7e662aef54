/**
 * A quantity of a product over a period: the fields an energy amount and the amounts of a delivery note
 * share, with the open enumerations of their product identifier type and unit. A module of its own so
 * that the delivery note can use it without taking it into the public `Schemas`.
 *
 * @module
 */
import { Schema } from "effect"
import { DecimalString, IsoDateTime, NonBlankString, openEnum } from "../conventions.js"

/**
 * Product identifier types that appear in the spec (open enumeration).
 *
 * @example
 * Schema.is(Schemas.ProductIdentifierType)("SRW") // => true
 * Schema.is(Schemas.ProductIdentifierType)("OBIS") // => true
 * Schema.is(Schemas.ProductIdentifierType)("") // => false
 *
 * @since 0.1.0
 */
export const ProductIdentifierType = openEnum(["SRW"])
/**
 * Quantity units that appear in the spec (open enumeration).
 *
 * @example
 * Schema.is(Schemas.QuantityUnit)("KWH") // => true
 * Schema.is(Schemas.QuantityUnit)("MWH") // => true
 * Schema.is(Schemas.QuantityUnit)(" ") // => false
 *
 * @since 0.1.0
 */
export const QuantityUnit = openEnum(["KWH"])

/**
 * The fields of a quantity of a product over a period, shared by an energy amount and the amounts of a
 * delivery note.
 */
export const QuantityOverPeriodFields = {
  period_start_at: IsoDateTime,
  period_end_at: IsoDateTime,
  product_identifier: NonBlankString,
  product_identifier_type: ProductIdentifierType,
  quantity: DecimalString,
  quantity_unit: QuantityUnit,
  line_item_identifier: Schema.optionalKey(NonBlankString)
} as const
