/**
 * The field table of every POST endpoint's request, as attrs of its example payload
 * (examples/payloads/<id>.json): which are required, which are optional and not nullable, which other
 * places refuse `null` (array items), and which strings may not be blank (contract-decisions.md). fields.test.ts
 * checks every endpoint alike from this one table; a resource's own test file reads its entry for its
 * other cases.
 */
import type { PostEndpointId } from "../../src/index.js"

/** One endpoint's fields. */
export interface FieldTable {
  /** Removed: `required`; `null`: `null`. */
  readonly required: ReadonlyArray<string>
  /** Optional and not nullable: may be removed; `null`: `null`. */
  readonly optional: ReadonlyArray<string>
  /** Other places where `null` is refused (array items): `null`. */
  readonly notNull: ReadonlyArray<string>
  /** Strings that may not be blank: `blank`. */
  readonly strings: ReadonlyArray<string>
}

export const FIELDS: { readonly [E in PostEndpointId]: FieldTable } = {
  "notes": (() => {
    /** Required by contract-decisions.md: the account, the notes, and `document_path` in each document item. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      "notes",
      "notes.1.document_paths.0.document_path",
      "notes.2.document_paths.1.document_path"
    ]
    /** Optional fields that are not nullable (the spec never says "or null" for notes). */
    const OPTIONAL_NOT_NULLABLE = [
      "notes.0",
      "notes.0.body",
      "notes.0.created_at",
      "notes.0.is_pinned",
      "notes.0.unpin_at",
      "notes.1.document_paths",
      "notes.1.document_paths.0"
    ]
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      "notes.0.body",
      "notes.0.created_at",
      "notes.0.unpin_at",
      "notes.1.document_paths.0.document_path"
    ]
    return { required: REQUIRED, optional: OPTIONAL_NOT_NULLABLE, notNull: [], strings: STRINGS }
  })(),
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
  })(),
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
  })(),
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
  })(),
  "historical-statements": (() => {
    /** contract-decisions.md: the account, the statements, and three fields per statement. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      "statements",
      ...[0, 1].flatMap((i) =>
        ["bill_period_from_date", "bill_period_to_date", "statement_id"].map((f) => `statements.${i}.${f}`)
      )
    ]
    const OPTIONAL = ["issued_date", "number", "gross_amount", "statement_path", "supply_type", "is_annulled"].map(
      (f) => `statements.0.${f}`
    )
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      "statements.0.bill_period_from_date",
      "statements.0.statement_id",
      "statements.0.issued_date",
      "statements.0.number",
      "statements.0.statement_path",
      "statements.0.supply_type"
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: ["statements.1"], strings: STRINGS }
  })(),
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
  })(),
  "payment-instruction": (() => {
    /** contract-decisions.md: the account, `vendor`, `reference` and `type` (all top-level, all required). */
    const REQUIRED = ["import_supplier", "external_account_number", "vendor", "reference", "type"]
    return { required: REQUIRED, optional: [], notNull: [], strings: REQUIRED }
  })(),
  "market-participant": (() => {
    const CONTACT = "contact_details.0"
    /** contract-decisions.md: `code`, `code_type`, `name`, `role`, `energy`; a contact needs its `category`. */
    const REQUIRED = ["code", "code_type", "name", "role", "energy", `${CONTACT}.category`]
    const OPTIONAL = ["contact_details", CONTACT, `${CONTACT}.name`, `${CONTACT}.email`, `${CONTACT}.phone`, `${CONTACT}.valid_from`]
    const STRINGS = [
      "code_type",
      "name",
      "role",
      "energy",
      `${CONTACT}.category`,
      `${CONTACT}.name`,
      `${CONTACT}.email`,
      `${CONTACT}.phone`,
      `${CONTACT}.valid_from`
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: [], strings: STRINGS }
  })(),
  "market-participant-fees": (() => {
    const SHEET = "price_sheets.0"
    const PRICE = `${SHEET}.article_prices.0`
    const ZONE = `${PRICE}.interval_zone`
    /** contract-decisions.md: `price_sheets`; five fields per sheet; two per article price; both interval bounds. */
    const REQUIRED = [
      "price_sheets",
      ...["market_participant_code", "price_sheet_type", "document_number", "active_from", "article_prices"].map(
        (f) => `${SHEET}.${f}`
      ),
      `${PRICE}.article_id`,
      `${PRICE}.price_cents`,
      `${SHEET}.article_prices.1.article_id`,
      `${SHEET}.article_prices.1.price_cents`,
      `${ZONE}.lower_bound`,
      `${ZONE}.upper_bound`
    ]
    const OPTIONAL = [
      `${SHEET}.preceding_document_number`,
      `${SHEET}.is_price_sheet_unused`,
      `${SHEET}.external_id`,
      ZONE,
      `${SHEET}.article_prices.1`
    ]
    const STRINGS = [
      `${SHEET}.price_sheet_type`,
      `${SHEET}.document_number`,
      `${SHEET}.preceding_document_number`,
      `${SHEET}.active_from`,
      `${SHEET}.external_id`,
      `${PRICE}.article_id`,
      `${PRICE}.price_cents`
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: [SHEET], strings: STRINGS }
  })(),
  "market-participant-definitions": (() => {
    const DEF = "definitions.0"
    const ROLLED = "rolled_out_definitions.0"
    const entry = (i: number) => `${ROLLED}.entries.${i}`
    /** contract-decisions.md: the operator code; four fields per definition, two per register, six per rolled-out definition, three per entry. */
    const REQUIRED = [
      "network_operator_code",
      ...["valid_from", "version_datetime", "definition_type", "definition_code"].map((f) => `${DEF}.${f}`),
      ...[0, 1].flatMap((i) => ["register_code", "low_load_capable"].map((f) => `${DEF}.registers.${i}.${f}`)),
      ...["definition_type", "definition_code", "version_datetime", "validity_period_start", "validity_period_end", "entries"].map(
        (f) => `${ROLLED}.${f}`
      ),
      ...[0, 1, 2].flatMap((i) => ["period_start", "period_end", "active_register_code"].map((f) => `${entry(i)}.${f}`))
    ]
    const OPTIONAL = [
      "definitions",
      "rolled_out_definitions",
      DEF,
      ROLLED,
      `${DEF}.status`,
      `${DEF}.transmission_frequency`,
      `${DEF}.registers`,
      `${DEF}.registers.0`,
      `${ROLLED}.recurrence`,
      entry(0)
    ]
    const STRINGS = [
      "network_operator_code",
      `${DEF}.valid_from`,
      `${DEF}.version_datetime`,
      `${DEF}.status`,
      `${DEF}.definition_type`,
      `${DEF}.definition_code`,
      `${DEF}.transmission_frequency`,
      `${DEF}.registers.0.register_code`,
      `${ROLLED}.definition_type`,
      `${ROLLED}.definition_code`,
      `${ROLLED}.recurrence`,
      `${ROLLED}.validity_period_start`,
      `${entry(0)}.active_register_code`,
      `${entry(0)}.period_end`
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: [], strings: STRINGS }
  })(),
}
