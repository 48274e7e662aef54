/**
 * Whether a decimal string survives the trip through a JSON number unchanged.
 *
 * @module
 */

const NUMBER_TEXT = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/u

/**
 * The magnitude of a JSON number text as significant digits and a power of ten (`12.50` → `125e-1`, any
 * zero → `0`), or `undefined` for other text. The sign is left out: `Number` keeps it, so a decimal and
 * the text its number is sent as never differ in sign but for zero.
 */
const magnitude = (text: string): string | undefined => {
  const m = NUMBER_TEXT.exec(text)
  if (m === null) return undefined
  // Stryker disable next-line StringLiteral: equivalent, the integer part always takes part in a match, and Number("") is 0 like "0"
  const [, integer = "", fraction = "", exponent = "0"] = m
  const digits = `${integer}${fraction}`.replace(/^0+/u, "")
  const significant = digits.replace(/0+$/u, "")
  // Stryker disable next-line StringLiteral,ArithmeticOperator: equivalent, both texts go through this line: any name for zero, and a shift by twice the significant digits, changes both alike
  return significant === "" ? "0" : `${significant}e${Number(exponent) - fraction.length + digits.length - significant.length}`
}

/**
 * Whether `decimal` (a plain decimal string such as `"12.50"`) is exactly the value that
 * `JSON.stringify(Number(decimal))` sends: no digit lost to a double's 53 bits, no overflow.
 *
 * @example
 * isExactJsonNumber("12.50") // => true
 * // 9007199254740993.01 would be sent as 9007199254740994:
 * isExactJsonNumber("9007199254740993.01") // => false
 */
export const isExactJsonNumber = (decimal: string): boolean => {
  const wanted = magnitude(decimal)
  // A number too large for a double is sent as `null`, which has no magnitude.
  return wanted !== undefined && magnitude(JSON.stringify(Number(decimal))) === wanted
}
