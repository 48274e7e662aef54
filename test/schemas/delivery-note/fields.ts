/**
 * What the tests know of `delivery-note`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/delivery-note.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "delivery-note": (() => {
    const AMOUNT_REQUIRED = [
      "period_start_at",
      "period_end_at",
      "product_identifier",
      "product_identifier_type",
      "quantity",
      "quantity_unit"
    ]
    /** contract-decisions.md: the account, the delivery note, `malo_number`, `amounts` and six fields per amount. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      "delivery_note",
      "delivery_note.malo_number",
      "delivery_note.amounts",
      ...AMOUNT_REQUIRED.map((f) => `delivery_note.amounts.0.${f}`),
      ...AMOUNT_REQUIRED.map((f) => `delivery_note.amounts.1.${f}`)
    ]
    const OPTIONAL = [
      "delivery_note.preceding_reference",
      "delivery_note.cancelled",
      "delivery_note.validation_status",
      "delivery_note.last_validation_at",
      "delivery_note.edifact_reference_number",
      "delivery_note.amounts.0.line_item_identifier"
    ]
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      "delivery_note.malo_number",
      "delivery_note.preceding_reference",
      "delivery_note.last_validation_at",
      "delivery_note.edifact_reference_number",
      "delivery_note.amounts.0.period_start_at",
      "delivery_note.amounts.0.product_identifier",
      "delivery_note.amounts.0.product_identifier_type",
      "delivery_note.amounts.0.quantity",
      "delivery_note.amounts.0.quantity_unit",
      "delivery_note.amounts.0.line_item_identifier"
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: ["delivery_note.amounts.1"], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "delivery-note": [...POST_IMPORT, "not_a_list", "empty", "start_date_later_than_end_date"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
