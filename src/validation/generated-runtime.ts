/**
 * What the generated validators (`src/validation/generated/validators.ts`) call and how they look.
 *
 * @module
 */
import { isCalendarDate, NON_BLANK_RE, type RuleContext } from "../schemas/conventions.js"
import { isInstantInRange } from "../schemas/instant.js"
import type { PathError } from "./issue-to-errors.js"

export { isCalendarDate, isInstantInRange, NON_BLANK_RE }

/** `NON_BLANK_RE.test(text)`, answered without the pattern when the first character is printable ASCII. */
export const isNonBlank = (text: string): boolean => {
  const first = text.charCodeAt(0)
  return (first > 32 && first < 127) || NON_BLANK_RE.test(text)
}

/** The number of code points of `text`, counted up to `limit` (as Effect's `isMaxCodePoints` counts). */
export const countCodePointsUpTo = (text: string, limit: number): number => {
  let count = 0
  for (const _ of text) if (++count >= limit) break
  return count
}

/**
 * The generated check of one endpoint: `make` takes the rules and warning rules it calls (in the order of
 * `refs`, their labels) and returns the check, which answers whether `input` is valid and pushes the
 * warnings of a valid input to `out`.
 */
export interface GeneratedValidator {
  readonly refs: ReadonlyArray<string>
  /** The check runs a rule that needs the clock: `context.now` must be the clock of the validation. */
  readonly clock: boolean
  readonly make: (refs: ReadonlyArray<any>) => (input: any, out: Array<PathError>, context: RuleContext) => boolean
}
