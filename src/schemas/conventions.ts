/**
 * The API's shared payload conventions, each defined once: identifiers, decimal strings, ISO dates and
 * datetimes, document paths, market participant codes, open and closed enumerations, arrays that must not
 * be empty. Every check carries the stable error `code` of the contract, so a failed decode can be reported
 * in the API's own 400 shape.
 *
 * @module
 */
import { Schema } from "effect"
import { KNOWN_VALUES, NAMED_CHECK } from "./annotation-keys.js"
import { isInstantInRange } from "./instant.js"
import { isCalendarDate } from "./is-calendar-date.js"
import { DECIMAL_RE, DOCUMENT_PATH_RE, EMAIL_RE, ISO_DATE_RE, ISO_DATETIME_RE, NO_NUL_RE, NON_BLANK_RE, PHONE_NUMBER_RE, THIRTEEN_DIGITS_RE } from "./patterns.js"

// Re-exported so that the resource modules, validation and the testing kit find every convention in one module.
export { CROSS_FIELD_RULE, KNOWN_VALUES, NAMED_CHECK, UNDOCUMENTED_SHAPE, WARNING_RULES } from "./annotation-keys.js"
export type { CrossFieldRule, RuleBreak, RuleContext, RuleFinding } from "./cross-field-rule.js"
export { isCalendarDate } from "./is-calendar-date.js"
export { DECIMAL_RE, DOCUMENT_PATH_RE, EMAIL_RE, ISO_DATE_RE, ISO_DATETIME_RE, NO_NUL_RE, NON_BLANK_RE, PHONE_NUMBER_RE, THIRTEEN_DIGITS_RE } from "./patterns.js"
export { type RuleWarning, undocumentedShape, type WarningRule } from "./warning-rule.js"

const nonBlank = Schema.isPattern(NON_BLANK_RE, {
  code: "blank",
  message: "This field may not be blank."
}).abort()

/** No NUL: identifiers holding one would read as another in stores that end text there (`NO_NUL_RE`). */
const noNul = Schema.isPattern(NO_NUL_RE, {
  code: "null_characters_not_allowed",
  message: "Null characters are not allowed."
})

/**
 * A string with at least one non-whitespace character (`""` and `"  "` are `blank`) and no NUL (U+0000,
 * `null_characters_not_allowed`).
 *
 * @example
 * Schema.is(Schemas.NonBlankString)("Rückruf erbeten") // => true
 * Schema.is(Schemas.NonBlankString)("  ") // => false
 * Schema.is(Schemas.NonBlankString)("MALO\u00001") // => false
 *
 * @since 0.1.0
 */
export const NonBlankString = Schema.String.check(nonBlank, noNul)

/**
 * A non-blank string without NUL of at most `max` characters, counted as Unicode code points (`max_length`
 * beyond). Code points, as JSON Schema's `maxLength` counts them, so the exported JSON Schema states the
 * same limit.
 */
export const boundedString = (max: number) =>
  Schema.String.check(
    nonBlank,
    noNul,
    Schema.isMaxCodePoints(max, {
      code: "max_length",
      message: `Ensure this field has no more than ${max} characters.`
    })
  )

/**
 * Code of the import supplier: non-blank, at most 32 characters. Supplier codes are never hard-coded.
 *
 * @example
 * Schema.is(Schemas.ImportSupplierCode)("STADTWERKE_NORD") // => true
 * Schema.is(Schemas.ImportSupplierCode)("S".repeat(33)) // => false
 *
 * @since 0.1.0
 */
export const ImportSupplierCode = boundedString(32)
/**
 * Account number in the external (legacy) system: non-blank, at most 128 characters.
 *
 * @example
 * Schema.is(Schemas.ExternalAccountNumber)("KD-0045127") // => true
 * Schema.is(Schemas.ExternalAccountNumber)("") // => false
 *
 * @since 0.1.0
 */
export const ExternalAccountNumber = boundedString(128)

/**
 * A decimal number written as a JSON string, exactly: `"1234.5"`, `"-0.25"`, `"123.456789000"`.
 *
 * @example
 * Schema.is(Schemas.DecimalString)("12.50") // => true
 * Schema.is(Schemas.DecimalString)("12,50") // => false
 * Schema.is(Schemas.DecimalString)("1e3") // => false
 *
 * @since 0.1.0
 */
export const DecimalString = Schema.String.check(
  nonBlank,
  Schema.isPattern(DECIMAL_RE, {
    code: "invalid",
    message: "A valid decimal string is required (digits, an optional '-' and '.', no exponent or comma)."
  })
)

/**
 * The calendar check of dates and datetimes. JSON Schema has no keyword for it; its `format` says it, and a
 * validator that asserts formats (ajv with ajv-formats) checks it. Declared approximate because draft
 * 2020-12 leaves format assertion optional: a validator that only annotates formats accepts `2023-02-29`.
 */
const calendarCheck = (format: "date" | "date-time") =>
  Schema.makeFilter((s: string) => isCalendarDate(s), {
    [NAMED_CHECK]: "isCalendarDate",
    code: "invalid",
    message: "This date does not exist in the calendar.",
    toJsonSchema: () => [{ format }, true]
  })

/**
 * An ISO 8601 calendar date `YYYY-MM-DD` that exists (`2024-02-30` is `invalid`). Kept as a string.
 *
 * @example
 * Schema.is(Schemas.IsoDate)("2024-02-29") // => true
 * Schema.is(Schemas.IsoDate)("2023-02-29") // => false
 *
 * @since 0.1.0
 */
export const IsoDate = Schema.String.check(
  nonBlank,
  Schema.isPattern(ISO_DATE_RE, { code: "invalid", message: "Date has wrong format. Use YYYY-MM-DD." }).abort(),
  calendarCheck("date")
)

/**
 * An ISO 8601 datetime with seconds and a zone (`Z` or `±HH:MM`), e.g. `2024-03-31T03:00:00+02:00`.
 *
 * @example
 * Schema.is(Schemas.IsoDateTime)("2024-03-31T03:00:00+02:00") // => true
 * Schema.is(Schemas.IsoDateTime)("2024-03-31T03:00") // => false
 *
 * @since 0.1.0
 */
export const IsoDateTime = Schema.String.check(
  nonBlank,
  Schema.isPattern(ISO_DATETIME_RE, {
    code: "invalid",
    message: "Datetime has wrong format. Use YYYY-MM-DDTHH:MM:SS with Z or an offset like +01:00."
  }).abort(),
  calendarCheck("date-time"),
  // Not expressed in JSON Schema (a pattern cannot subtract an offset from a time): only 0001-01-01 with
  // a positive offset and 9999-12-31 with a negative one can leave the range.
  Schema.makeFilter((s: string) => isInstantInRange(s), {
    [NAMED_CHECK]: "isInstantInRange",
    code: "invalid",
    message: "This datetime lies outside the years 0001 to 9999 in UTC."
  })
)

/**
 * A document path relative to the supplier's configured root (`invalid_document_path` otherwise).
 *
 * @example
 * Schema.is(Schemas.DocumentPath)("statements/2024/JA-2024-0045127.pdf") // => true
 * Schema.is(Schemas.DocumentPath)("../secret.pdf") // => false
 *
 * @since 0.1.0
 */
export const DocumentPath = Schema.String.check(
  nonBlank,
  Schema.isPattern(DOCUMENT_PATH_RE, {
    code: "invalid_document_path",
    message: "A relative path below the document root is required (no leading '/', '..', scheme or backslash)."
  })
)

/**
 * A phone number: `+` and 7 to 15 digits (`invalid_phone_number` otherwise).
 *
 * @example
 * Schema.is(Schemas.PhoneNumber)("+49 431 123456-0") // => true
 * Schema.is(Schemas.PhoneNumber)("0431 123456") // => false
 *
 * @since 0.1.0
 */
export const PhoneNumber = Schema.String.check(
  nonBlank,
  Schema.isPattern(PHONE_NUMBER_RE, { code: "invalid_phone_number", message: "Enter a valid phone number." })
)

/**
 * An e-mail address (`invalid` otherwise).
 *
 * @example
 * Schema.is(Schemas.EmailAddress)("netzabrechnung@netz-nord.example") // => true
 * Schema.is(Schemas.EmailAddress)("netzabrechnung") // => false
 *
 * @since 0.1.0
 */
export const EmailAddress = Schema.String.check(
  nonBlank,
  Schema.isPattern(EMAIL_RE, { code: "invalid", message: "Enter a valid email address." })
)

/**
 * A finite JSON number (money in major units, unit counts, rates).
 *
 * @example
 * Schema.is(Schemas.JsonNumber)(86.5) // => true
 * Schema.is(Schemas.JsonNumber)("86.5") // => false
 * Schema.is(Schemas.JsonNumber)(Number.POSITIVE_INFINITY) // => false
 *
 * @since 0.1.0
 */
export const JsonNumber = Schema.Finite

/**
 * A JSON integer within JavaScript's safe range (amounts in cents, positions).
 *
 * @example
 * Schema.is(Schemas.JsonInteger)(3452) // => true
 * Schema.is(Schemas.JsonInteger)(34.52) // => false
 *
 * @since 0.1.0
 */
export const JsonInteger = Schema.Number.check(
  Schema.isInt({ code: "invalid", message: "A valid integer is required." }),
  Schema.isBetween({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, {
    code: "invalid",
    message: "A valid integer is required."
  })
)

/**
 * A market participant code (BDEW/DVGW): a positive JSON integer of exactly 13 digits.
 *
 * @example
 * Schema.is(Schemas.MarketParticipantCode)(9900123456789) // => true
 * Schema.is(Schemas.MarketParticipantCode)("9900123456789") // => false
 * Schema.is(Schemas.MarketParticipantCode)(990012345678) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantCode = Schema.Number.check(
  Schema.isInt({ code: "invalid", message: "A 13-digit market participant code is required." }),
  Schema.isBetween({ minimum: 1_000_000_000_000, maximum: 9_999_999_999_999 }, {
    code: "invalid",
    message: "A 13-digit market participant code is required."
  })
)

/**
 * A network operator code: a string of exactly 13 digits.
 *
 * @example
 * Schema.is(Schemas.NetworkOperatorCode)("9900123456789") // => true
 * Schema.is(Schemas.NetworkOperatorCode)(9900123456789) // => false
 *
 * @since 0.1.0
 */
export const NetworkOperatorCode = Schema.String.check(
  nonBlank,
  Schema.isPattern(THIRTEEN_DIGITS_RE, { code: "invalid", message: "A 13-digit network operator code is required." })
)

/**
 * The MaLo id (Marktlokations-ID) as a string.
 *
 * @example
 * Schema.is(Schemas.MaloNumber)("51238696781") // => true
 * Schema.is(Schemas.MaloNumber)("") // => false
 *
 * @since 0.1.0
 */
export const MaloNumber = NonBlankString

/**
 * An open enumeration: any non-blank string is accepted; a value outside `known` is reported as the
 * warning `unknown_choice`, because the spec lists the values that "appear", not the full set.
 */
export const openEnum = <const L extends ReadonlyArray<string>>(known: L) =>
  NonBlankString.annotate({ [KNOWN_VALUES]: known, examples: [known[0] ?? "VALUE"] }) as Schema.Codec<
    L[number] | (string & {}),
    string
  >

/** A closed enumeration: only the listed values (`invalid_choice` otherwise). */
export const closedEnum = <const L extends readonly [string, ...Array<string>]>(values: L) => Schema.Literals(values)

/** An array that must hold at least one item (`empty` otherwise). */
export const nonEmptyArray = <S extends Schema.Top>(item: S) =>
  Schema.Array(item).check(Schema.isMinLength(1, { code: "empty", message: "This list may not be empty." }))

/**
 * The two keys that identify the account on every post-import request. Spread into a request struct.
 *
 * @example
 * const Body = Schema.Struct({ ...AccountIdentificationFields, notes: nonEmptyArray(Schemas.Note) })
 * Schema.is(Body)({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "Hi" }] }) // => true
 * Schema.is(Body)({ import_supplier: "STADTWERKE_NORD", notes: [{ body: "Hi" }] }) // => false
 */
export const AccountIdentificationFields = {
  import_supplier: ImportSupplierCode,
  external_account_number: ExternalAccountNumber
} as const

/**
 * The account identification as a schema of its own.
 *
 * @example
 * Schema.is(Schemas.AccountIdentification)({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1" }) // => true
 * Schema.is(Schemas.AccountIdentification)({ import_supplier: "STADTWERKE_NORD" }) // => false
 *
 * @since 0.1.0
 */
export const AccountIdentification = Schema.Struct(AccountIdentificationFields)
/** `{ import_supplier, external_account_number }`. */
export type AccountIdentification = typeof AccountIdentification.Type
