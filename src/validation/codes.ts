/**
 * The stable error and warning codes, as data: the generic validation's own, and those the resources'
 * rules declare (src/schemas/registry.ts registers them). `detail` texts may change; codes do not.
 *
 * @module
 */
import type { CrossFieldRule } from "../schemas/conventions.js"
import resources from "../schemas/registry.js"

/**
 * The error codes of the generic validation (types, formats, lists, lengths, documents, numbers), which no
 * cross-field rule declares.
 */
const FIELD_ERROR_CODES = {
  required: "A required field is missing.",
  null: "`null` where the field is not nullable.",
  blank: "An empty or whitespace-only string where a value is needed.",
  null_characters_not_allowed: "A text field (an identifier such as import_supplier, external_account_number, malo_number, transaction_id; or free text) holding U+0000 (NUL), which the service refuses.",
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
  path_does_not_exist_in_file_store: "A `document_path` or `statement_path` that names no file in the documents folder (only with `--documents DIR`: validate, send, serve).",
  inexact_number: "A JSON number a double cannot hold exactly (`12345678901234567.89`): it would be sent changed (validate and send read the raw text)."
} as const

/** The warning codes of the generic validation (open enumerations, optional lists), which no warning rule declares. */
const FIELD_WARNING_CODES = {
  unknown_choice: "A value outside the values the spec lists for an open enumeration.",
  empty_optional: "An optional array sent empty: the convention is to omit it."
} as const

type CrossFieldRules = (typeof resources.rules.crossField)[number]
/** The codes the registered cross-field rules add: their names, but for a rule that `reports` existing codes. */
type RuleErrorCode = CrossFieldRules extends infer R ? R extends { readonly reports: ReadonlyArray<string> } ? never : R extends CrossFieldRule<any, infer N> ? N : never : never

/** The codes the registered warning rules add. */
type RuleWarningCode = (typeof resources.rules.warning)[number]["code"]

/** `code → description` of `rules`, each code once (several rules may share one, as the start/end pairs do). */
const describe = (rules: ReadonlyArray<{ readonly code: string; readonly description: string }>): Record<string, string> =>
  Object.fromEntries(rules.map((rule) => [rule.code, rule.description]))

/**
 * Every error code the validation reports, with when it is reported: the generic ones, then those the
 * resources' cross-field rules declare (a rule's name is its code; one that reports existing codes, such as
 * `supply_charge_fields`, adds none).
 *
 * @example
 * ERROR_CODES.required // => "A required field is missing."
 * Object.keys(ERROR_CODES).includes("start_date_later_than_end_date") // => true
 *
 * @since 0.1.0
 */
export const ERROR_CODES = {
  ...FIELD_ERROR_CODES,
  ...describe(
    (resources.rules.crossField as ReadonlyArray<CrossFieldRule>)
      .filter((rule) => rule.reports === undefined)
      .map((rule) => ({ code: rule.name, description: rule.description }))
  )
} as { readonly [K in keyof typeof FIELD_ERROR_CODES | RuleErrorCode]: string }

/**
 * An error code.
 *
 * @since 0.1.0
 */
export type ErrorCode = keyof typeof ERROR_CODES

/**
 * Every warning code: allowed but suspicious data, never a reason to reject a payload. The generic ones,
 * then those the resources' warning rules declare.
 *
 * @example
 * WARNING_CODES.unknown_choice // => "A value outside the values the spec lists for an open enumeration."
 *
 * @since 0.1.0
 */
export const WARNING_CODES = {
  ...FIELD_WARNING_CODES,
  ...describe(resources.rules.warning)
} as { readonly [K in keyof typeof FIELD_WARNING_CODES | RuleWarningCode]: string }

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
