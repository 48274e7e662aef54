/**
 * Checks of a converter's answer stronger than "it did not throw": every converter runs inside `guard`,
 * which turns an exception into `invalid`, so `typeof result.ok === "boolean"` holds even for a converter
 * that throws on every input.
 */
import { expect } from "vitest"
import type { ConversionResult } from "../../src/mappers/conversion-result.js"

/** The detail `guard` answers with when a converter's own code threw. Ordinary input never gets it. */
export const THROWN_DETAIL = "value could not be converted"

/**
 * Asserts that the converter answered itself: a value that `isValue` accepts, or one of its documented
 * error `codes` with a detail of its own (not `guard`'s).
 */
export const expectOwnAnswer = <A>(
  result: ConversionResult<A>,
  codes: ReadonlyArray<string>,
  isValue: (value: A) => boolean
): void => {
  if (result.ok) {
    expect(isValue(result.value), `unexpected value ${JSON.stringify(result.value)}`).toBe(true)
  } else {
    expect(codes).toContain(result.error.code)
    expect(result.error.detail).not.toBe(THROWN_DETAIL)
    expect(result.error.detail).not.toBe("")
  }
}
