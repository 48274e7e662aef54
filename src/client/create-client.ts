/**
 * The client: `buildRequest`, `fetch`, `parseResponse`, and the retry policy around them. Everything
 * with time (the clock, sleeping, jitter) is injectable, so retries are tested with a fake clock.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import { checkBaseUrl } from "./base-url.js"
import { buildRequest, isHeaderSafe, requestQuery } from "./build-request.js"
import type { ResponseOutcome, SendOutcome } from "./outcome.js"
import { parseResponse, requestItemCount } from "./parse-response.js"
import { redactOutcome } from "./redact-secrets.js"
import { codeOf, NOT_SENT } from "./network-errors.js"
import { isRepeatHarmless } from "./repeat-is-harmless.js"
import { backoffDelay, createRetryBudget, type RetryPolicy, STANDARD_RETRY_POLICY } from "./retry-policy.js"
import { fixedToken, keyTokens, TokenError, type TokenSource, withoutToken } from "./token-source.js"

export { checkBaseUrl, InsecureBaseUrlError } from "./base-url.js"

/**
 * Time as the client sees it: injectable, so tests run on a fake clock.
 *
 * @since 0.1.0
 */
export interface ClientClock {
  /** Milliseconds since an arbitrary origin. */
  now(): number
  sleep(ms: number): Promise<void>
  /** Milliseconds since the Unix epoch (default `Date.now`): a token's `exp` without `iat` is read against it. */
  wallTime?(): number
}

/**
 * Options of {@link createClient}.
 *
 * @since 0.1.0
 */
export interface ClientOptions {
  /** `https://…`; plain `http://` only to a loopback host, unless {@link ClientOptions.allowInsecureHttp}. */
  readonly baseUrl: string
  /**
   * A data-import token, used as it is (never renewed). It is sent in the `Authorization` header and
   * appears nowhere else: where the service echoes it (an error body, a reason), every outcome of `send`
   * has `[redacted]` instead. Give `token` or `apiKey`, not both.
   */
  readonly token?: string | undefined
  /**
   * The organisation API key: the client obtains tokens with it (`obtainKrakenToken` at
   * `{baseUrl}/v1/graphql/`), renews them before they expire and once after a 401. The key and every
   * token issued are redacted from outcomes like `token`.
   */
  readonly apiKey?: string | undefined
  /**
   * Transactions: let the service move a transaction dated outside the open statement period into it,
   * changing its date and pinning a note on the account. Default `false` (the API's default is `true`):
   * nothing is changed without being asked for, so `force_add_to_current_statement` is always sent.
   * A transaction outside the period is then the 400 `TRANSACTION_IMPORT_ERROR` (`import_error`).
   */
  readonly forceAddToCurrentStatement?: boolean
  /** Transactions: skip a `transaction_id` already added (`already_exists`). Default `true`, as the API's. */
  readonly checkPreviouslyAdded?: boolean
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch
  /** Allow plain `http://` to a host that is not loopback (the token then travels unencrypted). */
  readonly allowInsecureHttp?: boolean
  readonly retry?: Partial<RetryPolicy>
  /** Longest wait for an answer, per attempt (default 60 s); then the attempt counts as a broken connection. */
  readonly timeoutMs?: number
  /** At most this many attempts start per second (default: no limit). */
  readonly requestsPerSecond?: number
  readonly clock?: ClientClock
  /** Random numbers in [0, 1) for the jitter (default `Math.random`). */
  readonly random?: () => number
}

/**
 * Options of one `send`.
 *
 * @since 0.1.0
 */
export interface SendOptions {
  /** Query parameters (transactions) of this request; they win over the client's options, which fill the rest. */
  readonly query?: Readonly<Record<string, boolean>>
  /**
   * Whether sending the request twice is harmless, so that a broken connection after sending is retried
   * (default: by the service's rules, `isRepeatHarmless`). Otherwise such a request ends `in_doubt`.
   */
  readonly repeatable?: boolean
  /**
   * Aborted: no retry starts (a wait before one ends at once); the request ends `failed` with the last
   * answer. An attempt already sent is still awaited; one still waiting for its turn under
   * `requestsPerSecond` is not sent (`failed`, `attempts` counting the ones sent).
   */
  readonly signal?: AbortSignal
}

/**
 * A client of the Customer Data Import API.
 *
 * @since 0.1.0
 */
export interface Client {
  /** Sends one request, with retries as the policy allows, and says how it ended. Never throws for HTTP or network trouble. */
  send(endpointId: EndpointId, payload: unknown, options?: SendOptions): Promise<SendOutcome>
  /**
   * Obtains the first token now (with an API key; nothing to do with a fixed token), so that a refused
   * key is known before anything is sent. Throws a `TokenError`, whose message names the service's reason.
   */
  authenticate(): Promise<void>
}

/** A failed exchange: not sent at all, sent with no answer (broken connection or timeout), or answered with a redirect. */
type Broken =
  | { readonly kind: "not_sent"; readonly timeout: false; readonly reason: string }
  | { readonly kind: "no_answer"; readonly timeout: boolean; readonly reason: string }
  | { readonly kind: "redirected"; readonly timeout: false; readonly reason: string }

/** How undici's fetch reports a redirect it was told not to follow (`redirect: "error"`). */
/** A request a stop kept from going out while it waited for its turn under the rate limit. */
const STOPPED: unique symbol = Symbol("stopped")

const isRedirect = (error: unknown): boolean =>
  (error as { cause?: { message?: unknown } } | undefined)?.cause?.message === "unexpected redirect"

/** Whether an endpoint's 201 answers with the request itself (its schema is the request's). */
const echoesRequest = (endpointId: EndpointId): boolean => {
  const created = (endpoints[endpointId].responses as Readonly<Record<number, { readonly schema: unknown }>>)[201]
  return created !== undefined && created.schema === endpoints[endpointId].request
}

const realClock: ClientClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Creates a client. Retries follow the catalogue's advice (`retry-as-is`, `retry-later` with
 * `Retry-After`), and also a request that never left (connection refused); a request whose connection
 * broke after sending is retried only when a repeat is harmless, else it ends `in_doubt`. A 400 is never
 * retried. Backoff, jitter and the retry budget follow {@link STANDARD_RETRY_POLICY} unless changed.
 * Transactions are sent with `force_add_to_current_statement=false` unless the options (or the call's
 * `query`) say otherwise. The token is redacted from every text of an outcome that came from the answer
 * (body, errors, reason). With `apiKey` instead of `token`, the client obtains and renews its tokens
 * (`obtainKrakenToken`): before they expire, and once after a 401; a refused key makes `unauthorized`.
 *
 * @example
 * // A stand-in for the service: unavailable once, then it stores the amount (and echoes it).
 * let calls = 0
 * const service = async (url: string, init: RequestInit) =>
 *   ++calls === 1
 *     ? new Response(JSON.stringify({ detail: "Unavailable." }), { status: 503, headers: { "Retry-After": "0" } })
 *     : new Response(init.body, { status: 201 })
 * const client = createClient({ baseUrl: "https://api.example.energy", token: "my-token", fetch: service as typeof fetch })
 * const outcome = await client.send("energy-amount", { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", energy_amount: amount })
 * outcome.kind // "created"
 * outcome.attempts // 2
 *
 * @since 0.1.0
 */
export const createClient = (options: ClientOptions): Client => {
  const base = checkBaseUrl(options.baseUrl, options.allowInsecureHttp)
  if ((options.token === undefined) === (options.apiKey === undefined)) throw new TypeError("Give a token or an API key (one of them).")
  const secret = options.apiKey ?? options.token
  if (!isHeaderSafe(secret)) throw new TypeError(`The ${options.apiKey === undefined ? "token" : "API key"} must be printable ASCII without spaces.`)
  const baseUrl = base.href
  const doFetch = options.fetch ?? globalThis.fetch
  const policy: RetryPolicy = { ...STANDARD_RETRY_POLICY, ...options.retry }
  const clock = options.clock ?? realClock
  const random = options.random ?? Math.random
  const timeoutMs = options.timeoutMs ?? 60_000
  const tokens: TokenSource = options.apiKey === undefined ? fixedToken(secret) : keyTokens({
    baseUrl,
    apiKey: options.apiKey,
    fetch: doFetch,
    now: () => clock.now(),
    wallTime: () => clock.wallTime?.() ?? Date.now(),
    timeoutMs
  })
  const budget = createRetryBudget(policy)
  /** The waits before a retry, by the signal that ends them: one listener per signal, however many wait. */
  const waiting = new WeakMap<AbortSignal, Set<() => void>>()
  /** Sleeps `ms`, or less: until `signal` is aborted (the real clock's timer is then cleared). */
  const sleepUnless = (ms: number, signal: AbortSignal | undefined): Promise<void> => {
    if (signal === undefined) return clock.sleep(ms)
    if (signal.aborted) return Promise.resolve()
    let wakers = waiting.get(signal)
    if (wakers === undefined) {
      const all = new Set<() => void>()
      signal.addEventListener("abort", () => [...all].forEach((wake) => wake()), { once: true })
      waiting.set(signal, (wakers = all))
    }
    const set = wakers
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const done = (): void => {
        clearTimeout(timer)
        set.delete(done)
        resolve()
      }
      set.add(done)
      if (clock === realClock) timer = setTimeout(done, ms)
      else void clock.sleep(ms).then(done, done)
    })
  }
  const interval = options.requestsPerSecond !== undefined && options.requestsPerSecond > 0 ? 1000 / options.requestsPerSecond : 0
  let nextStart = -Infinity

  /**
   * Waits for the request's turn under `requestsPerSecond`; false when `signal` is aborted before a turn
   * that had to be waited for: a stop keeps a queued request from going out.
   */
  const pace = async (signal: AbortSignal | undefined): Promise<boolean> => {
    const now = clock.now()
    const start = Math.max(now, nextStart)
    if (start > now && signal?.aborted === true) return false
    nextStart = start + interval
    if (start <= now) return true
    await sleepUnless(start - now, signal)
    return signal?.aborted !== true
  }

  const flags = { forceAddToCurrentStatement: options.forceAddToCurrentStatement, checkPreviouslyAdded: options.checkPreviouslyAdded }

  /**
   * When an answer was given, for a `Retry-After` that names a date: the answer's own `Date` header (the
   * service's clock, so the wait is the one the service meant however far this machine's clock is off:
   * ahead, it would retry at once; behind, it would wait too long, or give up), else the client's wall clock.
   */
  const answeredAt = (date: string | null): Date => {
    const at = date === null ? Number.NaN : Date.parse(date)
    return new Date(Number.isNaN(at) ? clock.wallTime?.() ?? Date.now() : at)
  }

  const exchange = async (
    endpointId: EndpointId,
    payload: unknown,
    query: SendOptions["query"],
    token: string,
    signal: AbortSignal | undefined
  ): Promise<ResponseOutcome | Broken | typeof STOPPED> => {
    const request = buildRequest(endpointId, payload, { baseUrl, token, query, ...flags })
    if (interval > 0 && !(await pace(signal))) return STOPPED
    // The wait is bounded by a timer raced against the answer, not by an abort signal: a signal costs
    // undici's fetch more per request than everything else `send` does for a record. A request given up
    // on this way ends on its own: undici ends one whose headers or body stop coming (300 s).
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs)
    })
    let received = false
    const answer = (async () => {
      const response = await doFetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        // The contract documents no redirect, and following one would send the payload (and, on the same
        // origin, the token) to an address nobody chose. Not following also spares fetch a copy of every body.
        redirect: "error"
      })
      received = true
      return { response, text: await response.text() }
    })()
    try {
      const result = await Promise.race([answer, timedOut])
      if (result === "timeout") {
        answer.catch(() => undefined)
        return { kind: "no_answer", timeout: true, reason: `no answer within ${timeoutMs} ms` }
      }
      const { response, text } = result
      // "The validated data": a 201 that is the request byte for byte is the request, which was read
      // against the same schema before it left; it need not be parsed and read again.
      if (response.status === 201 && text === request.body && echoesRequest(endpointId)) {
        return { kind: "created", status: 201, body: payload, warnings: [] }
      }
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // Not JSON: the text itself is the body, and it will not validate.
      }
      const retryAfter = response.headers.get("retry-after")
      return parseResponse(endpointId, response.status, body, {
        retryAfter,
        ...(retryAfter === null ? {} : { now: answeredAt(response.headers.get("date")) }),
        input: "json",
        itemCount: requestItemCount(endpointId, payload),
        secrets: tokens.secrets()
      })
    } catch (error) {
      if (isRedirect(error)) {
        return { kind: "redirected", timeout: false, reason: "the service answered with a redirect, which the contract does not document (not followed): whether it stored the request is unknown" }
      }
      const code = codeOf(error)
      if (!received && code !== undefined && NOT_SENT.has(code)) {
        return { kind: "not_sent", timeout: false, reason: `could not connect (${code})` }
      }
      return { kind: "no_answer", timeout: false, reason: `the connection broke before the answer (${code ?? "network error"})` }
    } finally {
      clearTimeout(timer)
    }
  }

  const attemptAll = async (endpointId: EndpointId, payload: unknown, sendOptions: SendOptions): Promise<SendOutcome> => {
    const query = requestQuery(endpointId, flags, sendOptions.query)
    const repeatable = sendOptions.repeatable ?? isRepeatHarmless(endpointId, payload, query)
    let taken = 0
    let renewed = false
    for (let attempt = 1;; attempt++) {
      let token: string
      try {
        token = await tokens.token()
      } catch (error) {
        if (error instanceof TokenError) return withoutToken(error, attempt - 1)
        throw error
      }
      const result = await exchange(endpointId, payload, query, token, sendOptions.signal)
      if (result === STOPPED) return { kind: "failed", reason: "stopped while waiting for its turn under the rate limit; not sent", attempts: attempt - 1 }
      // A 401 to a token that can be renewed: renewed once (shared with the other requests that got it), then sent again once.
      if (result.kind === "unauthorized" && !renewed) {
        renewed = true
        const next = await tokens.renew(token).catch((error: unknown) => (error instanceof TokenError ? error : Promise.reject(error)))
        if (typeof next === "string") continue
        if (next instanceof TokenError && !next.refused) return { kind: "failed", reason: `401; ${next.message}`, attempts: attempt, last: result }
      }
      let wait = 0
      let cost: "retry" | "timeout" = "retry"
      let last: ResponseOutcome | undefined
      // An answer, but not one of the contract's: sending it again would meet the same redirect.
      if (result.kind === "redirected") return { kind: "in_doubt", reason: result.reason, attempts: attempt }
      if (result.kind === "not_sent" || result.kind === "no_answer") {
        if (result.kind === "no_answer" && !repeatable) return { kind: "in_doubt", reason: result.reason, attempts: attempt }
        if (result.kind === "no_answer") cost = "timeout"
        if (attempt >= policy.maxAttempts) {
          return { kind: "failed", reason: `${result.reason}; gave up after ${attempt} attempts`, attempts: attempt }
        }
      } else if (result.kind === "retryable") {
        last = result
        if (result.retryAfterMs !== undefined && result.retryAfterMs > policy.maxRetryAfterMs) {
          return { kind: "failed", reason: `the service asked to wait ${result.retryAfterMs} ms (Retry-After), more than allowed`, attempts: attempt, last }
        }
        if (attempt >= policy.maxAttempts) {
          return { kind: "failed", reason: `status ${result.status} ${attempt} times; gave up`, attempts: attempt, last }
        }
        wait = result.retryAfterMs ?? 0
      } else {
        budget.refund(taken)
        return { ...result, attempts: attempt }
      }
      const paid = budget.take(cost)
      if (paid === false) {
        const why = result.kind === "retryable" ? `status ${result.status}` : result.reason
        return { kind: "failed", reason: `${why}; the retry budget is exhausted`, attempts: attempt, ...(last === undefined ? {} : { last }) }
      }
      taken += paid
      await sleepUnless(Math.max(wait, backoffDelay(policy, attempt, random)), sendOptions.signal)
      if (sendOptions.signal?.aborted === true) {
        const why = result.kind === "retryable" ? `status ${result.status}` : result.reason
        return { kind: "failed", reason: `${why}; stopped before attempt ${attempt + 1}`, attempts: attempt, ...(last === undefined ? {} : { last }) }
      }
    }
  }

  return {
    // The service may echo the token (an error body saying which token is invalid): outcomes end up in
    // journals, result files and logs, so none of their texts may hold it.
    send: async (endpointId, payload, sendOptions = {}) => {
      const outcome = await attemptAll(endpointId, payload, sendOptions)
      // The request echoed back (a 201 of "the validated data") is the caller's own data, not the service's words.
      return "body" in outcome && outcome.body === payload ? outcome : redactOutcome(outcome, tokens.secrets())
    },
    authenticate: async () => {
      await tokens.token()
    }
  }
}
