/**
 * Conversions of repeated cells, remembered: a legacy export repeats its dates (every meter is read on the
 * same days), and converting a date-time costs more than looking it up.
 *
 * @module
 */
import type { ConversionResult } from "./conversion-result.js"
import type { Cell } from "./converters.js"

/** Distinct cells remembered before the memory starts afresh (a bound, whatever the input). */
export const REMEMBERED_CELLS = 4096

/**
 * `convert` with the answers for text cells remembered. Only for a conversion whose answer depends on
 * the cell alone (its options fixed), so a remembered answer is the one it would give again.
 *
 * @example
 * const toDate = rememberConversions((cell) => toIsoDate(cell, { format: "dd.MM.yyyy" }))
 * toDate("01.10.2024") // => { ok: true, value: "2024-10-01" }
 * toDate("01.10.2024") === toDate("01.10.2024") // => true
 */
export const rememberConversions = <A>(convert: (cell: Exclude<Cell, null | undefined>) => ConversionResult<A>): ((cell: Exclude<Cell, null | undefined>) => ConversionResult<A>) => {
  const answers = new Map<string, ConversionResult<A>>()
  return (cell) => {
    if (typeof cell !== "string") return convert(cell)
    let answer = answers.get(cell)
    if (answer === undefined) {
      answer = convert(cell)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the bound only keeps memory small (an answer forgotten is converted again)
      if (answers.size >= REMEMBERED_CELLS) answers.clear()
      answers.set(cell, answer)
    }
    return answer
  }
}
