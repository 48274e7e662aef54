/**
 * Why a value could not be converted. `code` is stable and meant for
 * programs (e.g. `"ambiguous_decimal"`); `detail` is for humans and may change.
 *
 * @since 0.1.0
 */
export interface ConversionError {
  readonly code: string
  readonly detail: string
}

/**
 * Outcome of a value converter. Converters return this instead of throwing so
 * that a whole legacy file can be mapped and every bad cell reported at once.
 *
 * @since 0.1.0
 */
export type ConversionResult<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly error: ConversionError }

/**
 * Wraps a converted value.
 *
 * @example
 * succeed("12.50") // => { ok: true, value: "12.50" }
 */
export const succeed = <A>(value: A): ConversionResult<A> => ({ ok: true, value })

/**
 * Builds a failed conversion.
 *
 * @example
 * fail("blank", "expected a number, got an empty string")
 * // => { ok: false, error: { code: "blank", detail: "expected a number, got an empty string" } }
 */
export const fail = <A = never>(code: string, detail: string): ConversionResult<A> => ({
  ok: false,
  error: { code, detail }
})

const PREVIEW_LENGTH = 40

/**
 * Short, never-throwing rendering of an input for error details. Inputs can be
 * megabyte strings or objects without a prototype, so neither `String(x)` nor
 * `JSON.stringify(x)` is safe to call blindly.
 *
 * @example
 * preview("1.234") // => "\"1.234\""
 */
export const preview = (value: unknown): string => {
  switch (typeof value) {
    case "string": {
      const cut = value.length > PREVIEW_LENGTH ? `${value.slice(0, PREVIEW_LENGTH)}…` : value
      return JSON.stringify(cut)
    }
    case "number":
    case "boolean":
    case "undefined":
      return String(value)
    case "bigint":
      return `${preview(String(value)).slice(1, -1)}n`
    case "symbol":
      return "a symbol"
    case "function":
      return "a function"
    default:
      if (value === null) return "null"
      try {
        return Array.isArray(value) ? "an array" : "an object"
      } catch {
        // Array.isArray throws on a revoked proxy.
        return "an object"
      }
  }
}

/**
 * Runs a converter body and turns any unexpected exception into an `invalid`
 * result. Hostile inputs (proxies with throwing traps, getters that throw,
 * absurd `BigDecimal` scales that exhaust string length) must not escape as
 * exceptions, because callers rely on "converters never throw".
 *
 * @example
 * guard(() => succeed(1)) // => { ok: true, value: 1 }
 */
export const guard = <A>(run: () => ConversionResult<A>): ConversionResult<A> => {
  try {
    return run()
  } catch {
    // The thrown value itself may be hostile, so it is not inspected.
    return fail("invalid", "value could not be converted")
  }
}
