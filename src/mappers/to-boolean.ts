import { type ConversionResult, fail, guard, preview, succeed } from "./conversion-result.js"

/**
 * Options of {@link toBoolean}: the spellings read as true and as false.
 *
 * @since 0.1.0
 */
export interface ToBooleanOptions {
  /** Replaces the default true spellings (compared trimmed and case-insensitively). */
  readonly trueValues?: ReadonlyArray<string>
  /** Replaces the default false spellings (compared trimmed and case-insensitively). */
  readonly falseValues?: ReadonlyArray<string>
}

// Built once (a mapped column converts every row); the two defaults share no spelling.
const DEFAULT_TRUE: ReadonlySet<string> = new Set(["true", "1", "j", "ja", "y", "yes", "x"])
// SAP writes an unset flag (XFELD/BOOLE) as blank, so "" means false.
const DEFAULT_FALSE: ReadonlySet<string> = new Set(["false", "0", "n", "nein", "no", ""])

const normalise = (text: string): string => text.trim().toLowerCase()

const readList = (list: unknown, fallback: ReadonlySet<string>): ReadonlySet<string> | undefined => {
  if (list === undefined) return fallback
  if (!Array.isArray(list) || !list.every((entry) => typeof entry === "string")) return undefined
  return new Set(list.map(normalise))
}

/**
 * Converts a legacy flag to a boolean.
 *
 * Text is trimmed and compared case-insensitively. By default `true`, `1`,
 * `j`, `ja`, `y`, `yes` and `x` are true and `false`, `0`, `n`, `nein`, `no`
 * and the blank string (SAP's unset flag) are false. A list passed in the
 * options replaces the corresponding default list; a spelling in both lists is
 * an `invalid_option`. Real booleans pass through, and numbers are matched by
 * their text, so `1`/`0` work with the defaults.
 *
 * Error codes: `invalid`, `blank` (blank string not in either list),
 * `invalid_option`.
 *
 * @example
 * toBoolean("X") // => { ok: true, value: true }
 * toBoolean("") // => { ok: true, value: false }
 * toBoolean("J", { trueValues: ["J"], falseValues: ["N"] }) // => { ok: true, value: true }
 * toBoolean("maybe") // => { ok: false, error: { code: "invalid", ... } }
 *
 * @since 0.1.0
 */
export const toBoolean = (value: unknown, options?: ToBooleanOptions): ConversionResult<boolean> =>
  guard(() => {
    const trueValues = readList(options?.trueValues, DEFAULT_TRUE)
    const falseValues = readList(options?.falseValues, DEFAULT_FALSE)
    if (trueValues === undefined || falseValues === undefined) {
      return fail("invalid_option", "trueValues and falseValues must be arrays of strings")
    }
    // Stryker disable next-line ConditionalExpression: equivalent where it looks for a clash more often, the default lists have none
    const clash = trueValues === DEFAULT_TRUE && falseValues === DEFAULT_FALSE ? undefined : [...trueValues].find((entry) => falseValues.has(entry))
    if (clash !== undefined) return fail("invalid_option", `${preview(clash)} is listed as both true and false`)

    if (typeof value === "boolean") return succeed(value)
    if (typeof value !== "string" && typeof value !== "number") {
      return fail("invalid", `expected a flag string, number or boolean, got ${preview(value)}`)
    }
    const text = normalise(String(value))
    if (trueValues.has(text)) return succeed(true)
    if (falseValues.has(text)) return succeed(false)
    if (text === "") return fail("blank", "blank flag is neither in trueValues nor in falseValues")
    return fail("invalid", `${preview(value)} is not a recognised flag`)
  })
