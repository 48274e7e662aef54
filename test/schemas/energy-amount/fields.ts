/**
 * What the tests know of `energy-amount`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/energy-amount.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "energy-amount": (() => {
    const EA = "energy_amount"
    /** contract-decisions.md: the account, the energy amount and seven of its fields. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      EA,
      ...["malo_number", "period_start_at", "period_end_at", "product_identifier", "product_identifier_type", "quantity", "quantity_unit"]
        .map((f) => `${EA}.${f}`)
    ]
    const OPTIONAL_NOT_NULLABLE = [
      "line_item_identifier",
      "preceding_reference",
      "cancelled",
      "qualifier",
      "estimate_method",
      "estimate_reason",
      "plausibility_indications",
      "measurement_classifications",
      "edifact_reference_number"
    ].map((f) => `${EA}.${f}`)
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      ...[
        "malo_number",
        "period_start_at",
        "period_end_at",
        "product_identifier",
        "product_identifier_type",
        "quantity",
        "quantity_unit",
        "line_item_identifier",
        "preceding_reference",
        "qualifier",
        "estimate_method",
        "estimate_reason",
        "edifact_reference_number",
        "plausibility_indications.0",
        "measurement_classifications.1"
      ].map((f) => `${EA}.${f}`)
    ]
    return { required: REQUIRED, optional: OPTIONAL_NOT_NULLABLE, notNull: [`${EA}.plausibility_indications.0`], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "energy-amount": [...POST_IMPORT, "not_a_list", "start_date_later_than_end_date"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
