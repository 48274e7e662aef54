/**
 * fast-check as a mutation run sees it (`vitest.mutation.config.ts` resolves `fast-check` to this file):
 * the same library, but `fc.assert` and `fc.check` try at most `MUTATION_FC_RUNS` inputs per property
 * (default 500) instead of the test's own `numRuns`. A few properties of 10,000 inputs per endpoint made up
 * most of each run of the suite, and a mutation run repeats the suite for every mutant of module-level
 * code. Fewer inputs can only let more mutants survive, never kill one that the full suite would not, so a
 * score measured with the cap is a lower bound of the score without it. `fc.sample` is left alone: tests
 * assert what its samples contain.
 *
 * @module
 */
import * as fc from "fast-check"

export * from "fast-check"

/** The most inputs one property tries in a mutation run (`MUTATION_FC_RUNS` overrides it). */
export const MUTATION_FC_RUNS: number = Number(process.env["MUTATION_FC_RUNS"] ?? 500)

const capped = <P extends { numRuns?: number } | undefined>(params: P): P & { numRuns: number } => ({
  ...params,
  numRuns: Math.min(params?.numRuns ?? fc.readConfigureGlobal().numRuns ?? 100, MUTATION_FC_RUNS)
}) as P & { numRuns: number }

/** `fc.assert` with at most `MUTATION_FC_RUNS` inputs. */
export const assert = ((property: never, params?: fc.Parameters<unknown>) =>
  fc.assert(property, capped(params))) as typeof fc.assert

/** `fc.check` with at most `MUTATION_FC_RUNS` inputs. */
export const check = ((property: never, params?: fc.Parameters<unknown>) =>
  fc.check(property, capped(params))) as typeof fc.check

/** The whole library, as `import fc from "fast-check"` gives it, with the capped `assert` and `check`. */
const cappedFc: typeof fc = { ...fc, assert, check }
export default cappedFc
