/**
 * What the tests know of `market-participant-invoice`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/market-participant-invoice.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "market-participant-invoice": (() => {
    const INV = "market_participant_invoice"
    const LINE = `${INV}.line_items.0`
    const TAX = `${INV}.tax_amounts.0`
    const at = (...fields: Array<string>) => (prefix: string) => fields.map((f) => `${prefix}.${f}`)
    const ADDRESS_REQUIRED = at("name", "street", "city", "postcode", "country_code")
    const LINE_REQUIRED = at("position", "article", "quantity", "period_start_at", "period_end_at", "amount_net", "price", "tax_rate")
    /** contract-decisions.md: eleven invoice fields, address fields (when given), line item and tax amount fields. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      INV,
      ...at(
        "invoice_number",
        "invoice_type",
        "issued_at",
        "malo_number",
        "period_start_at",
        "period_end_at",
        "amount_total",
        "amount_due",
        "sender_id",
        "recipient_id",
        "line_items"
      )(INV),
      ...ADDRESS_REQUIRED(`${INV}.sender_address`),
      ...ADDRESS_REQUIRED(`${INV}.recipient_address`),
      ...LINE_REQUIRED(LINE),
      ...LINE_REQUIRED(`${INV}.line_items.1`),
      ...at("tax_rate", "tax_amount_assessment_basis", "tax_amount")(TAX)
    ]
    const OPTIONAL_NOT_NULLABLE = [
      ...at(
        "invoice_sub_type",
        "invoice_document_type",
        "status",
        "due_at",
        "is_reverse_charge",
        "is_duplicate",
        "was_prepaid",
        "interchange_reference",
        "external_id",
        "sender_address",
        "recipient_address",
        "tax_amounts",
        "paid_in_advance_amounts",
        "line_items.1",
        "sender_address.tax_number",
        "sender_address.tax_number_type"
      )(INV),
      ...at("article_type", "quantity_unit", "quantity_interval", "quantity_interval_type", "tax_rate_type", "external_id")(LINE),
      `${TAX}.tax_rate_type`,
      `${INV}.tax_amounts.0`
    ]
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      ...at(
        "invoice_type",
        "invoice_sub_type",
        "invoice_document_type",
        "invoice_number",
        "status",
        "issued_at",
        "malo_number",
        "melo_number",
        "reference_invoice_number",
        "reference_document",
        "interchange_reference",
        "external_id",
        "sender_address.name",
        "sender_address.street",
        "sender_address.city",
        "sender_address.postcode",
        "sender_address.tax_number",
        "sender_address.tax_number_type",
        "sender_address.country_code"
      )(INV),
      ...at("article", "article_type", "quantity", "quantity_unit", "quantity_interval_type", "price_interval", "tax_rate_type", "external_id")(
        LINE
      ),
      `${TAX}.tax_rate_type`,
      `${TAX}.tax_rate`
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
  "market-participant-invoice": [...POST_IMPORT, "not_a_list", "empty", "start_date_later_than_end_date"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
