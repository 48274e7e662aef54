/**
 * The stable error and warning codes, as data. `detail` texts may change; codes do not.
 *
 * @module
 */

/**
 * Every error code the validation reports, with when it is reported.
 *
 * @example
 * ERROR_CODES.required // => "A required field is missing."
 * Object.keys(ERROR_CODES).includes("start_date_later_than_end_date") // => true
 *
 * @since 0.1.0
 */
export const ERROR_CODES = {
  required: "A required field is missing.",
  null: "`null` where the field is not nullable.",
  blank: "An empty or whitespace-only string where a value is needed.",
  invalid: "Wrong JSON type, or a malformed date, datetime, decimal, integer, e-mail or code; also a root that is not an object.",
  not_a_list: "An array was expected.",
  empty: "A required array is empty.",
  invalid_choice: "A value outside a closed enumeration.",
  unknown_field: "A field the spec does not document.",
  max_length: "A string longer than its limit (import_supplier 32, external_account_number 128, payment reference 512).",
  min_value: "Reserved: a number below its limit (no field of the current contract has one).",
  max_value: "Reserved: a number above its limit (no field of the current contract has one).",
  max_digits: "Reserved: a decimal with too many digits (no field of the current contract has a limit).",
  max_decimal_places: "Reserved: a decimal with too many decimal places (no field of the current contract has a limit).",
  invalid_document_path: "A document path that is absolute, has `.`/`..`/empty segments, a backslash, a scheme or control characters.",
  invalid_phone_number: "A phone number that is not `+` and 7–15 digits.",
  start_date_later_than_end_date: "A start/end pair (dates or datetimes, compared as instants) whose start is after its end.",
  lower_bound_greater_than_upper_bound: "An interval zone whose lower bound exceeds its upper bound.",
  note_body_or_document_path_not_found: "A note with neither `body` nor `document_paths`.",
  note_unpin_at_earlier_than_creation_date: "`unpin_at` before `created_at`.",
  duplicate_transaction_ids: "Two transactions of one account share a `transaction_id`, in one payload or (CLI) anywhere in the input (reported on the later one).",
  duplicate_statement_ids: "Two historical statements of one payload share a `statement_id` (reported on the later one).",
  path_does_not_exist_in_file_store: "A `document_path` or `statement_path` that names no file in the documents folder (only with `--documents DIR`: validate, send, serve).",
  transaction_in_future: "`transaction_date` after today (the clock is an option).",
  line_item_units_must_be_two_values: "`units` given with other than two values.",
  definitions_required: "Time definitions with neither `definitions` nor `rolled_out_definitions`.",
  inexact_number: "A JSON number a double cannot hold exactly (`12345678901234567.89`): it would be sent changed (validate and send read the raw text)."
} as const

/**
 * An error code.
 *
 * @since 0.1.0
 */
export type ErrorCode = keyof typeof ERROR_CODES

/**
 * Every warning code: allowed but suspicious data, never a reason to reject a payload.
 *
 * @example
 * WARNING_CODES.unknown_choice // => "A value outside the values the spec lists for an open enumeration."
 *
 * @since 0.1.0
 */
export const WARNING_CODES = {
  unknown_choice: "A value outside the values the spec lists for an open enumeration.",
  empty_optional: "An optional array sent empty: the convention is to omit it.",
  field_not_used_by_type: "A transaction field documented for another transaction type.",
  unpin_at_without_pin: "`unpin_at` on a note that is not pinned.",
  undocumented_shape: "An item of `paid_in_advance_amounts`, whose shape the spec does not give.",
  invoice_totals_mismatch: "An invoice whose line items' `amount_net` plus its `tax_amounts`' `tax_amount` is not its `amount_total`."
} as const

/**
 * A warning code.
 *
 * @since 0.1.0
 */
export type WarningCode = keyof typeof WARNING_CODES

/**
 * The warning code of a response field the contract does not name. Responses are read tolerantly (the
 * spec says additions to existing endpoints may appear), so it is a warning of `validateResponse` with
 * `{ additionalFields: "warn" }`; requests stay strict (`unknown_field`).
 */
export const ADDITIONAL_FIELD = "additional_field"

/** Top-level `code` of a failed payload validation. */
export const PAYLOAD_FAILED_VALIDATION = "payload_failed_validation"

/**
 * The `attr` of an error about the payload as a whole.
 *
 * @example
 * const result = validatePayload("notes", [])
 * !result.ok && result.error.errors[0]?.attr === NON_FIELD_ERRORS // => true
 *
 * @since 0.1.0
 */
export const NON_FIELD_ERRORS = "non_field_errors"
