/**
 * What the accept-only checks compiled from the schemas (`../compile-check.ts`) call, besides the rules
 * and warning rules they receive as values.
 *
 * @module
 */
import { isCalendarDate, NON_BLANK_RE } from "../../schemas/conventions.js"
import { isInstantInRange } from "../../schemas/instant.js"

/**
 * `NON_BLANK_RE.test(text)`, answered without the pattern when the first character is printable ASCII.
 *
 * @example
 * isNonBlank("KD-1") // => true
 * isNonBlank(" \u00a0") // => false
 */
export const isNonBlank = (text: string): boolean => {
  const first = text.charCodeAt(0)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the shortcut answers as NON_BLANK_RE does (DEL is no blank either)
  return (first > 32 && first < 127) || NON_BLANK_RE.test(text)
}

/**
 * The number of code points of `text`, counted up to `limit` (as Effect's `isMaxCodePoints` counts).
 *
 * @example
 * countCodePointsUpTo("a😀b", 10) // => 3
 * countCodePointsUpTo("abcdef", 3) // => 3
 */
export const countCodePointsUpTo = (text: string, limit: number): number => {
  let count = 0
  for (const _ of text) if (++count >= limit) break
  return count
}

/** The helpers by the names the compiled code calls them (see `emit-leaf.ts` and `emit-check.ts`). */
export const CHECK_HELPERS = { countCodePointsUpTo, isCalendarDate, isInstantInRange, isNonBlank, NON_BLANK_RE } as const
