/**
 * Whether a decimal string survives the trip through a JSON number unchanged.
 *
 * @module
 */

/** A decimal as significant digits and a power of ten: `12.50` → `{ digits: "125", exponent: -1 }`. */
interface Scientific {
  readonly negative: boolean
  readonly digits: string
  readonly exponent: number
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/u

const scientific = (text: string): Scientific | undefined => {
  const m = NUMBER_TEXT.exec(text)
  if (m === null) return undefined
  const [, sign = "", integer = "", fraction = "", exponent = "0"] = m
  const all = `${integer}${fraction}`
  const leading = all.length - all.replace(/^0+/u, "").length
  const significant = all.slice(leading).replace(/0+$/u, "")
  if (significant === "") return { negative: false, digits: "", exponent: 0 }
  const trailing = all.length - leading - significant.length
  return { negative: sign === "-", digits: significant, exponent: Number(exponent) - fraction.length + trailing }
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
  const wanted = scientific(decimal)
  const n = Number(decimal)
  if (wanted === undefined || !Number.isFinite(n)) return false
  const sent = scientific(JSON.stringify(n))
  return sent !== undefined && sent.digits === wanted.digits && sent.exponent === wanted.exponent && sent.negative === wanted.negative
}
