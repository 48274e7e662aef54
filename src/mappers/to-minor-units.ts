import { type ConversionResult, fail, guard, preview, succeed } from "./conversion-result.js"

/**
 * Options of {@link toMinorUnits} and {@link fromMinorUnits}: the decimals of the currency's minor unit.
 *
 * @since 0.1.0
 */
export interface MinorUnitsOptions {
  /** Decimals of the currency's minor unit (2 for cents, 0 for JPY, 3 for KWD). Default 2. */
  readonly digits?: number
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/
// Number.MAX_SAFE_INTEGER has 16 digits; longer magnitudes are rejected before
// building a bigint so that huge strings stay cheap.
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER).length

const readDigits = (options: MinorUnitsOptions | undefined): number | undefined => {
  const digits = options?.digits ?? 2
  return Number.isSafeInteger(digits) && digits >= 0 && digits <= 100 ? digits : undefined
}

/**
 * Converts a decimal string (as produced by `toDecimalString`) to an integer
 * amount of minor units, e.g. euros to cents. Refuses instead of rounding:
 * a fraction below one minor unit is `fraction_lost`, a result beyond
 * `Number.MAX_SAFE_INTEGER` is `out_of_range`, anything that is not a plain
 * `-?\d+(\.\d+)?` string is `invalid`.
 *
 * @example
 * toMinorUnits("12.34") // => { ok: true, value: 1234 }
 * toMinorUnits("12.345") // => { ok: false, error: { code: "fraction_lost", ... } }
 * toMinorUnits("7", { digits: 3 }) // => { ok: true, value: 7000 }
 *
 * @since 0.1.0
 */
export const toMinorUnits = (decimal: string, options?: MinorUnitsOptions): ConversionResult<number> =>
  guard(() => {
    const digits = readDigits(options)
    // Stryker disable next-line OptionalChaining: equivalent, without options the digits are 2, so this line is not reached
    if (digits === undefined) return fail("invalid_option", `digits must be an integer 0..100, got ${preview(options?.digits)}`)
    if (typeof decimal !== "string") return fail("invalid", `expected a decimal string, got ${preview(decimal)}`)
    const match = PLAIN_DECIMAL.exec(decimal)
    if (match === null) return fail("invalid", `${preview(decimal)} is not a decimal string`)
    // Stryker disable next-line StringLiteral: equivalent, the sign and the whole part always take part in a match
    const [, sign = "", whole = "", fraction = ""] = match
    if (/[1-9]/.test(fraction.slice(digits))) {
      return fail("fraction_lost", `${preview(decimal)} has more than ${digits} significant decimals`)
    }
    const magnitude = (whole + fraction.slice(0, digits).padEnd(digits, "0")).replace(/^0+/, "")
    // Stryker disable next-line ConditionalExpression: equivalent, a shortcut: the comparison below refuses the same values
    if (magnitude.length > MAX_SAFE_DIGITS) return fail("out_of_range", `${preview(decimal)} exceeds the safe integer range`)
    // Stryker disable next-line StringLiteral: equivalent, BigInt("") is 0n too
    const units = BigInt(magnitude || "0")
    if (units > BigInt(Number.MAX_SAFE_INTEGER)) {
      return fail("out_of_range", `${preview(decimal)} exceeds the safe integer range`)
    }
    // Number(0n) is +0, so "-0.00" cannot produce -0.
    return succeed(Number(sign === "-" ? -units : units))
  })

/**
 * Converts an integer amount of minor units back to a decimal string with
 * exactly `digits` decimals. Numbers must be safe integers (`-0` counts as
 * `0`); bigints of any size are exact and therefore accepted.
 *
 * @example
 * fromMinorUnits(1234) // => { ok: true, value: "12.34" }
 * fromMinorUnits(-5) // => { ok: true, value: "-0.05" }
 * fromMinorUnits(7n, { digits: 0 }) // => { ok: true, value: "7" }
 *
 * @since 0.1.0
 */
export const fromMinorUnits = (cents: number | bigint, options?: MinorUnitsOptions): ConversionResult<string> =>
  guard(() => {
    const digits = readDigits(options)
    // Stryker disable next-line OptionalChaining: equivalent, without options the digits are 2, so this line is not reached
    if (digits === undefined) return fail("invalid_option", `digits must be an integer 0..100, got ${preview(options?.digits)}`)
    let units: bigint
    if (typeof cents === "bigint") {
      units = cents
    } else if (typeof cents === "number") {
      if (!Number.isInteger(cents)) return fail("invalid", `${preview(cents)} is not an integer amount of minor units`)
      if (!Number.isSafeInteger(cents)) return fail("out_of_range", `${preview(cents)} is not a safe integer`)
      units = BigInt(cents)
    } else {
      return fail("invalid", `expected an integer number or bigint, got ${preview(cents)}`)
    }
    const negative = units < 0n
    const padded = (negative ? -units : units).toString().padStart(digits + 1, "0")
    const cut = padded.length - digits
    const text = digits === 0 ? padded : `${padded.slice(0, cut)}.${padded.slice(cut)}`
    return succeed(negative ? `-${text}` : text)
  })
