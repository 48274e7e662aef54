/**
 * The retry policy of the client, modelled on the AWS SDKs' "standard" mode: a few attempts, exponential
 * backoff with full jitter, and a retry budget (a token bucket that retries draw from and successes refill),
 * so a service in trouble is not flooded with retries.
 *
 * @module
 */

/**
 * How the client retries.
 *
 * @since 0.1.0
 */
export interface RetryPolicy {
  /** Attempts per request, the first included (AWS standard: 3). */
  readonly maxAttempts: number
  /** The backoff before retry n (1, 2, …) is drawn from [0, min(maxDelayMs, baseDelayMs · 2^(n-1))). */
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** The longest `Retry-After` honoured; a longer one ends the request as `failed`. */
  readonly maxRetryAfterMs: number
  /** The retry budget: its size, what a retry costs (a timeout or broken connection more), what a success refunds. */
  readonly budget: {
    readonly capacity: number
    readonly retryCost: number
    readonly timeoutCost: number
    readonly successRefill: number
  }
}

/**
 * The AWS SDK "standard" mode's numbers (100 ms base, 20 s cap, 500 tokens, 5 per retry, 10 per timeout, 1 back per success).
 *
 * @example
 * STANDARD_RETRY_POLICY.maxAttempts // => 3
 * STANDARD_RETRY_POLICY.budget // => { capacity: 500, retryCost: 5, timeoutCost: 10, successRefill: 1 }
 * // A client that tries five times, with the standard numbers otherwise:
 * const client = createClient({ baseUrl: "https://api.example.energy", token: "my-token", retry: { maxAttempts: 5 } })
 *
 * @since 0.1.0
 */
export const STANDARD_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 300_000,
  budget: { capacity: 500, retryCost: 5, timeoutCost: 10, successRefill: 1 }
}

/**
 * The backoff before retry `retry` (1 for the first retry): full jitter, `random` in [0, 1).
 *
 * @example
 * backoffDelay(STANDARD_RETRY_POLICY, 3, Math.random) // in [0, 400) ms
 * backoffDelay(STANDARD_RETRY_POLICY, 3, () => 0.5) // => 200
 * backoffDelay(STANDARD_RETRY_POLICY, 20, () => 0.5) // => 10000
 */
export const backoffDelay = (policy: RetryPolicy, retry: number, random: () => number): number =>
  Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)))

/**
 * The retry budget of one client: shared by all its requests.
 *
 * @since 0.1.0
 */
export interface RetryBudget {
  /** Takes the cost of a retry; `false` (and nothing taken) when the budget cannot pay it. */
  take(kind: "retry" | "timeout"): number | false
  /** After a success: gives back what its retries took, or `successRefill` when it needed none. */
  refund(taken: number): void
  /** Tokens left. */
  readonly available: number
}

/** A new, full retry budget. */
export const createRetryBudget = (policy: RetryPolicy): RetryBudget => {
  let tokens = policy.budget.capacity
  return {
    take: (kind) => {
      const cost = kind === "timeout" ? policy.budget.timeoutCost : policy.budget.retryCost
      if (cost > tokens) return false
      tokens -= cost
      return cost
    },
    refund: (taken) => {
      tokens = Math.min(policy.budget.capacity, tokens + (taken > 0 ? taken : policy.budget.successRefill))
    },
    get available() {
      return tokens
    }
  }
}
