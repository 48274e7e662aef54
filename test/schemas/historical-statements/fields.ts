/**
 * What the tests know of `historical-statements`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/historical-statements.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
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
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "historical-statements": [...POST_IMPORT, "not_a_list", "empty", "invalid_document_path", "start_date_later_than_end_date", "duplicate_statement_ids"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
