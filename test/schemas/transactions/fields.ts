/**
 * What the tests know of `transactions`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/transactions.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "transactions": (() => {
    const SC = "transactions.2" // the SUPPLY_CHARGE of the example
    const LINE = `${SC}.line_items.0`
    const TAX = `${SC}.tax_items.0`
    /** contract-decisions.md: four fields per transaction, the SUPPLY_CHARGE extras, line and tax item fields. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      "transactions",
      ...[0, 1, 2, 3].flatMap((i) =>
        ["transaction_id", "transaction_date", "amount", "type"].map((f) => `transactions.${i}.${f}`)
      ),
      `${SC}.product_code`,
      `${SC}.line_items`,
      ...["start_date", "end_date", "number_of_units", "net_amount"].map((f) => `${LINE}.${f}`),
      ...["amount", "tax_type", "value_taxed", "rate", "unit_type"].map((f) => `${TAX}.${f}`)
    ]
    const OPTIONAL_NOT_NULLABLE = [
      "transactions.1",
      "transactions.0.reason",
      "transactions.0.reference",
      "transactions.0.payment_type",
      "transactions.0.note",
      "transactions.1.display_note",
      `${SC}.tax_items`,
      `${SC}.tax_items.0`,
      `${SC}.line_items.0`,
      `${LINE}.rate_band`,
      `${LINE}.price_per_unit`,
      `${LINE}.units`,
      `${LINE}.units.0`
    ]
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      "transactions.0.transaction_id",
      "transactions.0.transaction_date",
      "transactions.0.type",
      "transactions.0.reason",
      "transactions.0.reference",
      "transactions.0.payment_type",
      "transactions.0.note",
      "transactions.1.display_note",
      `${SC}.product_code`,
      `${LINE}.rate_band`,
      `${LINE}.start_date`,
      `${TAX}.tax_type`,
      `${TAX}.unit_type`
    ]
    return { required: REQUIRED, optional: OPTIONAL_NOT_NULLABLE, notNull: [], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "transactions": [
    ...POST_IMPORT,
    "not_a_list",
    "empty",
    "start_date_later_than_end_date",
    "duplicate_transaction_ids",
    "transaction_in_future",
    "line_item_units_must_be_two_values"
  ]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
