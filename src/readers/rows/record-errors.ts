/**
 * The CLI's own problems with a record (it cannot be read, or its endpoint cannot be told), written in
 * the same `{ detail, code, errors: [{ detail, code, attr }] }` shape as the API's validation errors, so
 * every report lists every problem the same way.
 *
 * @module
 */
import type { ApiError, ValidationErrorBody } from "../../schemas/errors.js"
import { NON_FIELD_ERRORS } from "../../validation/codes.js"

/** An error response in the API's shape, or the CLI's own for records it cannot read. */
export type RecordError = ValidationErrorBody

/** One invalid or unparseable record. */
export interface Problem {
  /** NDJSON: 0-based line offset within the batch; JSON: the absolute 1-based line. */
  readonly line: number
  /** For a JSON syntax error: the 1-based column (characters) where it is. */
  readonly column?: number
  readonly kind: "invalid" | "unparseable"
  /** The endpoint the record was checked against; `null` when none could be told. */
  readonly endpoint: string | null
  readonly error: RecordError
  readonly warnings: ReadonlyArray<ApiError>
  /** The record as read (without its line break), for `--reject-file`: text, or bytes when not UTF-8. */
  readonly raw?: string | Uint8Array
}

/** Codes of records that cannot be read as JSON. */
export type UnparseableCode = "invalid_json" | "invalid_utf8" | "line_too_long"

/** Top-level `code` of an unparseable record. */
export const RECORD_UNPARSEABLE = "record_unparseable"
/** Top-level `code` of a record whose endpoint could not be inferred. */
export const ENDPOINT_NOT_INFERRED = "endpoint_not_inferred"

/** What each of the CLI's own codes means (README and `--help` list them). */
export const CLI_CODES = {
  invalid_json: "The line (or JSON value) is not valid JSON; the report gives line and column.",
  invalid_utf8: "The line is not valid UTF-8.",
  line_too_long: "The line (or JSON value) is longer than --max-line-length; it is skipped, not read.",
  unknown_endpoint: "Without --endpoint: the record has none of the keys that name an endpoint.",
  ambiguous_endpoint: "Without --endpoint: the record has keys of several endpoints."
} as const

/** A one-error body with a top-level code and an error at `non_field_errors`. */
export const singleError = (top: string, code: string, detail: string): RecordError => ({
  detail,
  code: top,
  errors: [{ detail, code, attr: NON_FIELD_ERRORS }]
})

/** An unparseable record, as a problem. */
export const unparseable = (
  line: number,
  code: UnparseableCode,
  detail: string,
  extra: { readonly column?: number; readonly raw?: string | Uint8Array } = {}
): Problem => ({
  line,
  ...(extra.column !== undefined ? { column: extra.column } : {}),
  kind: "unparseable",
  endpoint: null,
  error: singleError(RECORD_UNPARSEABLE, code, detail),
  warnings: [],
  ...(extra.raw !== undefined ? { raw: extra.raw } : {})
})

/** The longest line (or JSON value) `validate` and `map` read when not told otherwise (`--max-line-length`): 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024

/** The detail of an overlong line. */
export const overlongDetail = (length: number, max: number): string =>
  `The line has ${length} bytes, more than the maximum of ${max} (--max-line-length); it was skipped.`

/** Where the first invalid UTF-8 sequence of `bytes` starts, or -1 when they are valid UTF-8. */
export const firstInvalidUtf8 = (bytes: Uint8Array): number => {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1
    if (need < 0) return i
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]
      if (c === undefined || (c & 0xc0) !== 0x80) return i
      // Overlong forms, surrogates and code points above U+10FFFF are invalid too.
      if (k === 1 && ((b === 0xe0 && c < 0xa0) || (b === 0xed && c > 0x9f) || (b === 0xf0 && c < 0x90) || (b === 0xf4 && c > 0x8f))) return i
    }
    i += need + 1
  }
  return -1
}
