/**
 * Generated payloads as plain JSON, for callers that want examples rather than fast-check arbitraries
 * (the CLI's `sample`, a fixture file, a demo).
 *
 * @module
 */
import * as fc from "fast-check"
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { arbitraryInvalidPayload, type ExpectedError } from "./arbitrary-invalid-payload.js"
import { arbitraryPayload } from "./arbitrary-payload.js"
import type { JsonObject } from "./arbitrary-values.js"

/**
 * Options of {@link samplePayloads}.
 *
 * @example
 * const options: SamplePayloadsOptions = { count: 3, seed: 42, invalid: true }
 * const samples = samplePayloads("notes", options)
 * samples.length // => 3
 * samples.every((s) => !validatePayload("notes", s.payload).ok) // => true
 *
 * @since 0.1.0
 */
export interface SamplePayloadsOptions {
  /** How many payloads: a whole number, at least 1 (else a `RangeError`). */
  readonly count: number
  /** The same seed gives the same payloads; without one, each call differs. */
  readonly seed?: number | undefined
  /** Payloads with exactly one error each, named in `expected`, instead of valid ones. */
  readonly invalid?: boolean | undefined
}

/**
 * One generated payload; `expected` is the error a broken one must be rejected with.
 *
 * @example
 * const [sample]: Array<PayloadSample> = samplePayloads("energy-amount", { count: 1, seed: 7, invalid: true })
 * const result = validatePayload("energy-amount", sample!.payload)
 * !result.ok && result.error.errors.some((e) => e.attr === sample!.expected?.attr && e.code === sample!.expected?.code) // => true
 *
 * @since 0.1.0
 */
export interface PayloadSample {
  readonly payload: JsonObject
  readonly expected?: ExpectedError
}

/**
 * `count` generated request bodies of a POST endpoint: valid ones, or with `invalid` broken ones, each
 * with the one error `validatePayload` must report for it. Throws a `TypeError` for a non-POST id and a
 * `RangeError` for a `count` that is not a whole number of at least 1.
 *
 * @example
 * const [sample] = samplePayloads("notes", { count: 1, seed: 7 })
 * validatePayload("notes", sample?.payload).ok // => true
 * samplePayloads("notes", { count: 2, seed: 7, invalid: true }).every((s) => s.expected !== undefined) // => true
 *
 * @since 0.1.0
 */
export const samplePayloads = (id: PostEndpointId, options: SamplePayloadsOptions): ReadonlyArray<PayloadSample> => {
  // fast-check would round 2.5 up to 3 runs and answer 0, -1 or NaN with no payload at all.
  if (!Number.isInteger(options.count) || options.count < 1) {
    throw new RangeError(`samplePayloads: count must be a whole number of at least 1 (got ${String(options.count)})`)
  }
  const parameters = { numRuns: options.count, ...(options.seed !== undefined ? { seed: options.seed } : {}) }
  if (options.invalid === true) {
    return fc.sample(arbitraryInvalidPayload(id), parameters).map(({ payload, expected }) => ({ payload, expected }))
  }
  return fc.sample(arbitraryPayload(id), parameters).map((payload) => ({ payload: payload as JsonObject }))
}
