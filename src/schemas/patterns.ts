/**
 * The patterns of the contract's string formats, written so that the exported JSON Schemas mean the same
 * in engines outside JavaScript.
 *
 * @module
 */

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
/**
 * No U+0000 (NUL) anywhere: the service's text fields refuse it (Django REST framework's
 * `null_characters_not_allowed`), and a store that reads text up to a NUL, as SQLite's C interface does,
 * would show `KD-1\u0000X` as `KD-1`: two identifiers as one.
 */
export const NO_NUL_RE = /^[^\u0000]*(?!\n)$/u
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
/**
 * Not in an unquoted word of the local part (RFC 5322, 3.2.3 `atext`, and the `.` between words): the
 * specials `"(),.:;<>[\]`. Other ASCII marks (`+`, `'`, `/`, …) and any non-ASCII character are allowed
 * (RFC 6532).
 */
const NOT_IN_LOCAL_WORD = `${NOT_IN_EMAIL}"(),.:;<>\\[\\\\\\]`
/** A local part: dot-separated words without specials, or a quoted string (without `"` or `\\` in it). */
const LOCAL_PART = `(?:[^${NOT_IN_LOCAL_WORD}]+(?:\\.[^${NOT_IN_LOCAL_WORD}]+)*|"[^"\\\\${NOT_IN_EMAIL}]+")`
/**
 * Not in a domain label: every ASCII character but letters, digits and `-` (RFC 1123, 2.1: a host name
 * has no `_`, `,`, `;`, brackets, …), whitespace and controls. Non-ASCII characters are allowed
 * (internationalised domain names).
 */
const NOT_IN_LABEL = `${WHITESPACE}${CONTROLS}\\u0020-\\u002c\\u002e\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007f`
/** A domain label: no `-` at its start or end. */
const LABEL = `[^${NOT_IN_LABEL}-](?:[^${NOT_IN_LABEL}]*[^${NOT_IN_LABEL}-])?`
/**
 * A pragmatic e-mail shape: a local part, `@`, a domain of two or more labels. No whitespace and no
 * control characters anywhere, so nothing left of a list (`a@b.de,`), a display name or angle brackets
 * (`Name <a@b.de>`) passes.
 */
export const EMAIL_RE = new RegExp(`^${LOCAL_PART}@${LABEL}(?:\\.${LABEL})+${END}`, "u")
/** 13 digits: the BDEW/market participant code written as a string. */
export const THIRTEEN_DIGITS_RE = /^[0-9]{13}(?!\n)$/u
