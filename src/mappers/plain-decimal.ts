/**
 * The usual amount of a legacy export read in one pass: a plain decimal in a known locale. Anything
 * else is left to {@link toDecimalString}'s general reading, which gives the same answer for what this
 * reads.
 *
 * @module
 */

const MINUS = 45
const ZERO = 48
const NINE = 57

/**
 * The canonical decimal that `text` writes in a locale whose decimal separator is `decimal` and group
 * separator `group` (char codes): an optional leading `-`, digits grouped by threes or not, and an
 * optional fraction. `undefined` for any other text (blanks, `+`, a trailing minus, bad grouping,
 * whatever is not a number): such text is read the general way.
 *
 * @example
 * plainDecimal("-1.234,50", 44, 46) // => "-1234.50"
 * plainDecimal("007", 44, 46) // => "7"
 * // "1.23" is not a grouping of thousands:
 * plainDecimal("1.23", 44, 46) // => undefined
 */
export const plainDecimal = (text: string, decimal: number, group: number): string | undefined => {
  const length = text.length
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, charCodeAt(0) of "" is NaN, never a minus
  const negative = length > 0 && text.charCodeAt(0) === MINUS
  const start = negative ? 1 : 0
  let lastGroup = -1
  let point = -1
  for (let i = start; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code >= ZERO && code <= NINE) continue
    // Stryker disable next-line ConditionalExpression: equivalent, a group taken after the point ends past the integer part, which the check of the last group refuses
    if (code === group && point === -1) {
      // The first group has one to three digits and no leading zero ("0.123" is never a grouping); the others three.
      const digits = i - (lastGroup === -1 ? start : lastGroup + 1)
      if (lastGroup === -1 ? digits < 1 || digits > 3 || text.charCodeAt(start) === ZERO : digits !== 3) return undefined
      lastGroup = i
    } else if (code === decimal && point === -1) point = i
    else return undefined
  }
  const integerEnd = point === -1 ? length : point
  // Stryker disable next-line ConditionalExpression: equivalent where it gives up more often, the general reading answers alike
  if (integerEnd === start || point === length - 1) return undefined
  if (lastGroup !== -1 && integerEnd - lastGroup - 1 !== 3) return undefined
  let integer = text.slice(start, integerEnd)
  // Stryker disable next-line ConditionalExpression: equivalent, without a group there is no separator to remove
  if (lastGroup !== -1) integer = integer.replaceAll(String.fromCharCode(group), "")
  let first = 0
  while (first < integer.length - 1 && integer.charCodeAt(first) === ZERO) first++
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, slice(0) is the same text
  if (first > 0) integer = integer.slice(first)
  const fraction = point === -1 ? "" : text.slice(point + 1)
  let zero = integer === "0"
  for (let i = 0; zero && i < fraction.length; i++) zero = fraction.charCodeAt(i) === ZERO
  const sign = negative && !zero ? "-" : ""
  return fraction === "" ? `${sign}${integer}` : `${sign}${integer}.${fraction}`
}
