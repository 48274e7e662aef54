/**
 * The error codes that apply to every POST endpoint, for the tables of applicable codes each resource's
 * test folder declares (`test/schemas/<resource>/fields.ts`). `invalid_choice` applies to none: every
 * enumeration of a request is open. `min_value`, `max_value`, `max_digits`, `max_decimal_places` are
 * reserved: no field has them.
 */

/** Error codes every POST endpoint can report. */
export const COMMON = ["required", "null", "blank", "invalid", "unknown_field"] as const

/** The post-import endpoints carry `import_supplier` and `external_account_number`, which have length limits. */
export const POST_IMPORT = [...COMMON, "max_length"] as const
