/**
 * Injected faults for rehearsals, decided per request from a seed: the n-th request the service receives
 * gets the same faults in every run with the same `--fault-seed`, whatever the other rates are (each
 * fault draws from its own stream).
 *
 * @module
 */

/** The fault options of `data-import serve`; rates are fractions from 0 to 1. */
export interface FaultOptions {
  /** Delay before each request is handled, in milliseconds. */
  readonly latencyMs: number
  /** Fraction of requests answered 503 with `Retry-After`, before the state is touched. */
  readonly failRate: number
  /** Fraction of requests whose connection is destroyed after their changes are committed. */
  readonly resetRate: number
  /** Fraction of payment instructions answered 500 (the upstream vendor failed), nothing stored. */
  readonly vendorFailRate: number
  /** The seed of the decisions. */
  readonly seed: number
  /** The `Retry-After` of a 503, in seconds. */
  readonly retryAfterSeconds: number
}

/** No faults. */
export const NO_FAULTS: FaultOptions = { latencyMs: 0, failRate: 0, resetRate: 0, vendorFailRate: 0, seed: 0, retryAfterSeconds: 1 }

/** What happens to one request. */
export interface FaultDecision {
  /** Answer 503 without handling the request. */
  readonly fail: boolean
  /** Handle and commit, then destroy the connection instead of answering. */
  readonly reset: boolean
  /** The payment vendor fails (matters for payment-instruction only). */
  readonly vendorFails: boolean
}

/** The finaliser of MurmurHash3: a 32-bit integer whose every bit depends on every input bit. */
const fmix = (x: number): number => {
  let h = x >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Hashes seed, request number and stream one after the other, so no two triples are related. */
const mix = (seed: number, index: number, stream: number): number =>
  fmix(fmix(fmix(seed ^ 0x9e3779b9) ^ index) + stream * 0x27d4eb2f)

/** A number in [0, 1) for request `index` of fault stream `stream`, fixed by the seed. */
const draw = (seed: number, index: number, stream: number): number => mix(seed, index, stream) / 2 ** 32

/**
 * The faults of the request with number `index` (0 for the first request the service receives).
 *
 * @example
 * const options = { ...NO_FAULTS, failRate: 0.1, seed: 7 }
 * faultsFor(options, 0) // the same decision in every run
 * faultsFor({ ...options, failRate: 1 }, 0).fail // => true
 * faultsFor({ ...options, failRate: 0 }, 0).fail // => false
 */
export const faultsFor = (options: FaultOptions, index: number): FaultDecision => {
  const fail = draw(options.seed, index, 0) < options.failRate
  return {
    fail,
    reset: !fail && draw(options.seed, index, 1) < options.resetRate,
    vendorFails: draw(options.seed, index, 2) < options.vendorFailRate
  }
}
