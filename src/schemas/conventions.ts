/**
 * The API's shared payload conventions, each defined once: identifiers, decimal strings, ISO dates and
 * datetimes, document paths, market participant codes, open and closed enumerations, arrays that must not
 * be empty. Every check carries the stable error `code` of the contract, so a failed decode can be reported
 * in the API's own 400 shape.
 *
 * @module
 */
import { Schema } from "effect"
import { isInstantInRange } from "./instant.js"

/** Annotation key: the values a field of an open enumeration is known to take (outside them: a warning). */
export const KNOWN_VALUES = "dataImport/knownValues"
/** Annotation key: a structural warning rule attached to an object schema (see {@link WarningRule}). */
export const WARNING_RULES = "dataImport/warningRules"
/** Annotation key: items of this array have a shape the spec does not give (`undocumented_shape`). */
export const UNDOCUMENTED_SHAPE = "dataImport/undocumentedShape"
/**
 * Annotation key: on a cross-field filter, the rule it checks (see {@link CrossFieldRule}). Validation reads
 * it to run the rule wherever the fields it reads are valid; tooling such as the testing kit reads it to find
 * every place a rule applies without keeping its own list.
 *
 * @example
 * const rule: CrossFieldRule = { name: "definitions_required", fields: ["definitions"], check: () => [] }
 * Schema.makeFilter(check, { [CROSS_FIELD_RULE]: rule })
 */
export const CROSS_FIELD_RULE = "dataImport/crossFieldRule"
/**
 * Annotation key: on a filter that is not one of Effect's own, the name of the function that checks it
 * (`"isCalendarDate"`, `"isInstantInRange"`), so the validators generated from the schemas can call it.
 */
export const NAMED_CHECK = "dataImport/namedCheck"

/** A finding of a {@link CrossFieldRule}: where (relative to the value the rule is declared on) and why. */
export interface RuleFinding {
  readonly path: ReadonlyArray<string | number>
  readonly code: string
  readonly detail: string
}

/** What a rule may know beyond the payload: the clock. */
export interface RuleContext {
  readonly now: Date
}

/**
 * A cross-field rule, declared once as data: its name (its error code, where it has one), the fields it
 * relates in order (`[start, end]`), the field values under which it applies, what it reads, and its check.
 * Validation runs it whenever the fields it reads are valid, even when other fields of the same object are
 * not, so one report lists every error; the schema's filter, the generated validators and the testing kit's
 * breakers all come from this declaration.
 *
 * @example
 * const rule: CrossFieldRule = {
 *   name: "lower_bound_greater_than_upper_bound",
 *   fields: ["lower_bound", "upper_bound"],
 *   check: (zone) => zone.lower_bound <= zone.upper_bound ? [] : [{ path: ["upper_bound"], code: "lower_bound_greater_than_upper_bound", detail: "…" }]
 * }
 */
export interface CrossFieldRule<A = any> {
  readonly name: string
  readonly fields: ReadonlyArray<string>
  readonly when?: Readonly<Record<string, string>>
  /** The fields the check reads, when more than {@link CrossFieldRule.fields}. */
  readonly reads?: ReadonlyArray<string>
  /**
   * What the rule is declared on. `"object"` (default): an object, whose `reads` it reads. `"items"`: a list,
   * whose items' `reads` it reads; the check sees only the items whose fields are valid (others are
   * `undefined`). `"list"`: a list, of which it reads the length only.
   */
  readonly scope?: "object" | "items" | "list"
  /** The rule needs the clock: a schema cannot check it, validation does (with `now`). */
  readonly clock?: true
  /**
   * The rule in JSON Schema, where JSON Schema can say it exactly (a keyword fragment the exported schemas
   * add to the object or list); absent where it cannot (comparing two values, say).
   */
  readonly jsonSchema?: Readonly<Record<string, unknown>>
  /** The findings of the rule on a value whose read fields are valid; none when it holds. */
  readonly check: (value: A, context: RuleContext) => ReadonlyArray<RuleFinding>
}

/** A warning found by a {@link WarningRule}: where (relative to the object) and why. */
export interface RuleWarning {
  readonly path: ReadonlyArray<string | number>
  readonly code: string
  readonly detail: string
}

/**
 * A rule over one object of a payload that reports allowed but suspicious data. It sees the raw input
 * object (which may be malformed elsewhere), so it must check the types it reads.
 */
export type WarningRule = (input: Readonly<Record<string, unknown>>) => ReadonlyArray<RuleWarning>

/**
 * The characters JavaScript's `\s` matches, written out: the exported JSON Schemas use these patterns too,
 * and engines outside JavaScript (Python's `re`, PCRE) give `\s`, `\d` and `\w` other, Unicode-wide
 * meanings. So no pattern here uses a class escape; digits are `[0-9]`.
 */
const WHITESPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
/**
 * The end of the text. In Python and PCRE a bare `$` also matches before a final newline (`"12\n"` would
 * be a decimal there), so the anchor refuses one itself.
 */
const END = "(?!\\n)$"
/** Control characters: C0, DEL and C1. */
const CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f"

/** A non-whitespace character somewhere: the contract's definition of a non-blank string. */
export const NON_BLANK_RE = new RegExp(`[^${WHITESPACE}]`, "u")
/** `-?digits[.digits]`: no exponent, no `+`, no thousands separator, no decimal comma (leading zeros allowed). */
export const DECIMAL_RE = /^-?[0-9]+(?:\.[0-9]+)?(?!\n)$/u
/** Years 0001 to 9999: the range of `toIsoDate` and of the date types of most languages (no year 0000). */
const YEAR = "(?!0000)[0-9]{4}"
const MONTH_DAY = "-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
/** `YYYY-MM-DD`; the calendar check runs separately. */
export const ISO_DATE_RE = new RegExp(`^${YEAR}${MONTH_DAY}${END}`, "u")
/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`: a datetime without a zone is not an instant, so it is
 * refused. The fraction may have any number of digits; instants are compared exactly.
 */
export const ISO_DATETIME_RE = new RegExp(
  `^${YEAR}${MONTH_DAY}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])${END}`,
  "u"
)
/** A dot as written in a path: `.`, percent-encoded (`%2e`), or a character whose NFKC form is `.`. */
const DOT = "(?:\\.|%2[eE]|\\u2024|\\ufe52|\\uff0e)"
/** A `.` or `..` segment, however written (`..`, `%2e%2e`, `．．`, `‥`: the NFKC forms of `..` included). */
const DOT_SEGMENT = `(?:${DOT}{1,2}|\\u2025|\\ufe30)(?:/|${END})`
/** Never in a path: separators other than `/`, controls, lone surrogates and the bidi controls (U+202E…). */
const NOT_IN_PATH = `/\\\\${CONTROLS}\\ud800-\\udfff\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069`
/**
 * A relative path below the supplier's document root: no leading `/`, no backslash, no control, bidi
 * control or lone surrogate, no empty segment, and no `.` or `..` segment, also percent-encoded or in
 * characters that NFKC-normalise to dots (any of these could escape or confuse the configured root). No
 * URI scheme: a path that starts with one (letters, digits, `+`, `-`, `.` from a letter up to a colon, RFC
 * 3986, 3.1) is read as a URI by any URI parser, so `file:/etc/passwd`, `s3://…`, `C:/…` and `x:y.pdf` are
 * refused. Any other colon is allowed (`scan 10:42.png`, `notes/x:y.pdf`): object storage keys may hold one.
 */
export const DOCUMENT_PATH_RE = new RegExp(
  `^(?![A-Za-z][A-Za-z0-9+.-]*:)(?!${DOT_SEGMENT})[^${NOT_IN_PATH}]+(?:/(?!${DOT_SEGMENT})[^${NOT_IN_PATH}]+)*${END}`,
  "u"
)
/** `+` and 7 to 15 digits; spaces, dashes, dots and parentheses (and nothing else) between them. */
export const PHONE_NUMBER_RE = /^\+[ ().-]*(?:[0-9][ ().-]*){7,15}(?!\n)$/u
/** What an e-mail address holds in no part: `@`, whitespace, controls. */
const NOT_IN_EMAIL = `@${WHITESPACE}${CONTROLS}`
/** A pragmatic e-mail shape: something, `@`, a domain with a dot; no whitespace and no control characters. */
export const EMAIL_RE = new RegExp(`^[^${NOT_IN_EMAIL}]+@[^.${NOT_IN_EMAIL}]+(?:\\.[^.${NOT_IN_EMAIL}]+)+${END}`, "u")
/** 13 digits: the BDEW/market participant code written as a string. */
export const THIRTEEN_DIGITS_RE = /^[0-9]{13}(?!\n)$/u

const WELL_FORMED_DATE_PREFIX = /^[0-9]{4}-[0-9]{2}-[0-9]{2}/u

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
    : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** Whether the `YYYY-MM-DD` prefix of a well-formed date or datetime names a day that exists. */
export const isCalendarDate = (text: string): boolean => {
  // Digit arithmetic first: this runs for every date of every payload. Any other text takes the
  // general reading below, with the same answers.
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, a fast path with the same answers (the tests compare both readings)
  if (WELL_FORMED_DATE_PREFIX.test(text)) {
    const digit = (i: number): number => text.charCodeAt(i) - 48
    const month = digit(5) * 10 + digit(6)
    const day = digit(8) * 10 + digit(9)
    // Stryker disable next-line ArithmeticOperator: equivalent, only the year's leap-ness counts, which these sign changes keep for every year 0000-9999 (checked by brute force)
    const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
    return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
  }
  const year = Number(text.slice(0, 4))
  const month = Number(text.slice(5, 7))
  const day = Number(text.slice(8, 10))
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

const nonBlank = Schema.isPattern(NON_BLANK_RE, {
  code: "blank",
  message: "This field may not be blank."
}).abort()

/** A string with at least one non-whitespace character (`""` and `"  "` are `blank`). */
export const NonBlankString = Schema.String.check(nonBlank)

/**
 * A non-blank string of at most `max` characters, counted as Unicode code points (`max_length` beyond).
 * Code points, as JSON Schema's `maxLength` counts them, so the exported JSON Schema states the same limit.
 */
export const boundedString = (max: number) =>
  Schema.String.check(
    nonBlank,
    Schema.isMaxCodePoints(max, {
      code: "max_length",
      message: `Ensure this field has no more than ${max} characters.`
    })
  )

/** Code of the import supplier: non-blank, at most 32 characters. Supplier codes are never hard-coded. */
export const ImportSupplierCode = boundedString(32)
/** Account number in the external (legacy) system: non-blank, at most 128 characters. */
export const ExternalAccountNumber = boundedString(128)

/** A decimal number written as a JSON string, exactly: `"1234.5"`, `"-0.25"`, `"123.456789000"`. */
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

/** An ISO 8601 calendar date `YYYY-MM-DD` that exists (`2024-02-30` is `invalid`). Kept as a string. */
export const IsoDate = Schema.String.check(
  nonBlank,
  Schema.isPattern(ISO_DATE_RE, { code: "invalid", message: "Date has wrong format. Use YYYY-MM-DD." }).abort(),
  calendarCheck("date")
)

/** An ISO 8601 datetime with seconds and a zone (`Z` or `±HH:MM`), e.g. `2024-03-31T03:00:00+02:00`. */
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

/** A document path relative to the supplier's configured root (`invalid_document_path` otherwise). */
export const DocumentPath = Schema.String.check(
  nonBlank,
  Schema.isPattern(DOCUMENT_PATH_RE, {
    code: "invalid_document_path",
    message: "A relative path below the document root is required (no leading '/', '..', scheme or backslash)."
  })
)

/** A phone number: `+` and 7 to 15 digits (`invalid_phone_number` otherwise). */
export const PhoneNumber = Schema.String.check(
  nonBlank,
  Schema.isPattern(PHONE_NUMBER_RE, { code: "invalid_phone_number", message: "Enter a valid phone number." })
)

/** An e-mail address (`invalid` otherwise). */
export const EmailAddress = Schema.String.check(
  nonBlank,
  Schema.isPattern(EMAIL_RE, { code: "invalid", message: "Enter a valid email address." })
)

/** A finite JSON number (money in major units, unit counts, rates). */
export const JsonNumber = Schema.Finite

/** A JSON integer within JavaScript's safe range (amounts in cents, positions). */
export const JsonInteger = Schema.Number.check(
  Schema.isInt({ code: "invalid", message: "A valid integer is required." }),
  Schema.isBetween({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, {
    code: "invalid",
    message: "A valid integer is required."
  })
)

/** A market participant code (BDEW/DVGW): a positive JSON integer of exactly 13 digits. */
export const MarketParticipantCode = Schema.Number.check(
  Schema.isInt({ code: "invalid", message: "A 13-digit market participant code is required." }),
  Schema.isBetween({ minimum: 1_000_000_000_000, maximum: 9_999_999_999_999 }, {
    code: "invalid",
    message: "A 13-digit market participant code is required."
  })
)

/** A network operator code: a string of exactly 13 digits. */
export const NetworkOperatorCode = Schema.String.check(
  nonBlank,
  Schema.isPattern(THIRTEEN_DIGITS_RE, { code: "invalid", message: "A 13-digit network operator code is required." })
)

/** The MaLo id (Marktlokations-ID) as a string. */
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
 */
export const AccountIdentificationFields = {
  import_supplier: ImportSupplierCode,
  external_account_number: ExternalAccountNumber
} as const

/** The account identification as a schema of its own. */
export const AccountIdentification = Schema.Struct(AccountIdentificationFields)
/** `{ import_supplier, external_account_number }`. */
export type AccountIdentification = typeof AccountIdentification.Type
