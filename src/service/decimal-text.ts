/**
 * Money in responses: the API echoes amounts that requests send as JSON numbers as decimal strings.
 *
 * @module
 */

const MIN_DECIMALS = 2

/**
 * The decimal string of a finite number, exactly as JavaScript prints it but never with an exponent, and
 * with at least two decimal places (`86` → `"86.00"`, `1e-7` → `"0.0000001"`, `1e21` → `"1000000000000000000000.00"`).
 *
 * @example
 * toDecimalText(12.5) // "12.50"
 */
export const toDecimalText = (n: number): string => {
  const text = String(n)
  const exponentAt = text.search(/e/iu)
  let plain = text
  if (exponentAt !== -1) {
    const negative = text.startsWith("-")
    const mantissa = text.slice(negative ? 1 : 0, exponentAt)
    const exponent = Number(text.slice(exponentAt + 1))
    const point = mantissa.indexOf(".")
    const digits = mantissa.replace(".", "")
    const at = (point === -1 ? mantissa.length : point) + exponent
    const unsigned = at <= 0
      ? `0.${"0".repeat(-at)}${digits}`
      : at >= digits.length
      ? `${digits}${"0".repeat(at - digits.length)}`
      : `${digits.slice(0, at)}.${digits.slice(at)}`
    plain = `${negative ? "-" : ""}${unsigned}`
  }
  const point = plain.indexOf(".")
  const decimals = point === -1 ? 0 : plain.length - point - 1
  return decimals >= MIN_DECIMALS ? plain : `${plain}${point === -1 ? "." : ""}${"0".repeat(MIN_DECIMALS - decimals)}`
}
