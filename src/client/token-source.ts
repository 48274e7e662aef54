/**
 * The client's token lifecycle. A fixed token is sent as it is. With an API key, the client obtains a
 * token with the GraphQL mutation `obtainKrakenToken` at `{base_url}/v1/graphql/`, renews it with the
 * refresh token before it expires (read from the JWT's `exp`, unverified: only the service can verify
 * it), falls back to the API key when the refresh token is refused or expired, and renews once after a
 * 401. One renewal at a time: requests that need a token meanwhile wait for the same one.
 *
 * @module
 */
import { decodeJwt } from "jose"
import { isHeaderSafe } from "./build-request.js"
import { codeOf } from "./network-errors.js"
import type { SendOutcome } from "./outcome.js"
import { printable } from "../schemas/printable.js"
import { redactSecrets } from "./redact-secrets.js"

/** The mutation that obtains a token, from an API key or a refresh token (its input holds exactly one). */
export const OBTAIN_TOKEN_MUTATION =
  "mutation ObtainToken($input: ObtainJSONWebTokenInput!) { obtainKrakenToken(input: $input) { token refreshToken refreshExpiresIn payload } }"

/** The path of the GraphQL API, below the base URL. */
export const GRAPHQL_PATH = "/v1/graphql/"

/** Renew this long before a token expires: 10 % of its lifetime, at most a minute. */
const MARGIN_SHARE = 0.1
const MAX_MARGIN_MS = 60_000
/** The longest message of a {@link TokenError}, in characters: the service's words are cut there. */
const MAX_MESSAGE = 1000
/** How many issued tokens (and refresh tokens) are kept for redaction: an answer echoes a recent one. */
const KEPT_SECRETS = 16

/**
 * No token could be obtained. `refused`: the service refused the credentials (a GraphQL error, whose
 * `errorCode` is `code`, e.g. `KT-CT-1134`); otherwise the service could not be reached or answered
 * something that is not a token. The message never holds the API key or a token, in any spelling
 * (`redactSecrets`), nor a control character (escaped as `\u001b`, `\n`, …), and is at most 1,000 characters.
 *
 * @example
 * // A stand-in for the service's GraphQL API, refusing every key.
 * const service = async () => Response.json({ data: null, errors: [{ message: "Invalid data.", extensions: { errorCode: "KT-CT-1134" } }] })
 * const client = createClient({ baseUrl: "https://api.example.energy", apiKey: "not-our-key", fetch: service as typeof fetch })
 * const error = await client.authenticate().catch((e: unknown) => e as TokenError)
 * error instanceof TokenError // => true
 * error.code // => "KT-CT-1134"
 * error.message // => "the service refused the API key (obtainKrakenToken): Invalid data. [KT-CT-1134]"
 *
 * @since 0.1.0
 */
export class TokenError extends Error {
  readonly code: string | undefined
  readonly refused: boolean
  constructor(message: string, options: { readonly code?: string | undefined; readonly refused: boolean }) {
    super(message)
    this.name = "TokenError"
    this.code = options.code
    this.refused = options.refused
  }
}

/**
 * The outcome of a request that got no token: `unauthorized` (status 401, `detail` the service's reason)
 * when the key was refused, so a run stops as for any refused credentials; `failed` when no answer came.
 */
export const withoutToken = (error: TokenError, attempts: number): SendOutcome =>
  error.refused
    ? { kind: "unauthorized", status: 401, body: { detail: error.message }, warnings: [], attempts }
    : { kind: "failed", reason: error.message, attempts }

/** Where the client gets the token of each request. */
export interface TokenSource {
  /** The token to send now, renewed first when it is due. Throws a {@link TokenError}. */
  token(): Promise<string>
  /**
   * After a 401 to a request sent with `used`: a new token (one renewal for every request that saw
   * `used`), or `undefined` when none can be had (a fixed token). Throws a {@link TokenError}.
   */
  renew(used: string): Promise<string | undefined>
  /** The texts to keep out of outcomes: the API key, and the tokens and refresh tokens issued lately. */
  secrets(): ReadonlyArray<string>
}

/** A token given by the caller: never renewed. */
export const fixedToken = (token: string): TokenSource => ({
  token: () => Promise.resolve(token),
  renew: () => Promise.resolve(undefined),
  secrets: () => [token]
})

/** What {@link keyTokens} needs. */
export interface KeyTokensOptions {
  /** The base URL, checked (`https://host/`); the mutation goes to its `/v1/graphql/`. */
  readonly baseUrl: string
  readonly apiKey: string
  readonly fetch: typeof fetch
  /** Milliseconds on the client's clock (any origin). */
  readonly now: () => number
  /** Milliseconds since the Unix epoch, for a token without `iat` and for `refreshExpiresIn`. */
  readonly wallTime: () => number
  /** Longest wait for the service's answer. */
  readonly timeoutMs: number
}

interface Held {
  readonly token: string
  readonly refreshToken: string | undefined
  /** Wall time (ms since the epoch) after which the refresh token is no longer accepted. */
  readonly refreshUntil: number
  /** Client clock: renew from here on. */
  readonly renewAt: number
  /** Client clock: the token is no longer accepted from here on. */
  readonly expiresAt: number
}

type Input = { readonly APIKey: string } | { readonly refreshToken: string }

/**
 * The token's lifetime in ms from now: `exp − iat` (the service's own clock), or `exp` against the wall
 * clock when that is shorter (`iat` is rounded down to a second) but not past; Infinity without `exp`.
 * A token the service has just issued is not expired: when `exp` is past by this machine's clock, the
 * clock is off, and without a positive `exp − iat` the lifetime is unknown (only a 401 renews it). A
 * lifetime of 0 would renew the token before every request.
 */
const lifetimeOf = (token: string, wallTime: () => number): number => {
  let claims
  try {
    claims = decodeJwt(token)
  } catch {
    return Infinity // Not a JWT: its expiry is unknown, so only a 401 renews it.
  }
  if (typeof claims.exp !== "number") return Infinity
  const byIat = typeof claims.iat === "number" && claims.exp > claims.iat ? (claims.exp - claims.iat) * 1000 : Infinity
  const byWall = claims.exp * 1000 - wallTime()
  return byWall > 0 ? Math.min(byIat, byWall) : byIat
}

const describeGraphqlError = (error: unknown): { readonly message: string; readonly code: string | undefined } => {
  const e = (typeof error === "object" && error !== null ? error : {}) as { message?: unknown; extensions?: { errorCode?: unknown; errorDescription?: unknown } }
  const code = typeof e.extensions?.errorCode === "string" ? e.extensions.errorCode : undefined
  const parts = [e.message, e.extensions?.errorDescription].filter((p): p is string => typeof p === "string" && p !== "")
  return { message: parts.length === 0 ? "no message" : parts.join(" "), code }
}

/** Tokens obtained with an API key and renewed before they expire. */
export const keyTokens = (options: KeyTokensOptions): TokenSource => {
  const url = `${options.baseUrl.replace(/\/+$/u, "")}${GRAPHQL_PATH}`
  const issued: Array<string> = []
  let held: Held | undefined
  let renewal: Promise<Held> | undefined

  const keep = (...secrets: ReadonlyArray<string | undefined>): void => {
    for (const s of secrets) if (s !== undefined && !issued.includes(s)) issued.push(s)
    issued.splice(0, Math.max(0, issued.length - KEPT_SECRETS))
  }
  const secrets = (): ReadonlyArray<string> => [options.apiKey, ...issued]
  /**
   * The message holds the service's words: every spelling of the key and of the tokens is redacted
   * first, then control characters are escaped (a terminal shows it), then it is cut to a bound.
   */
  const fail = (message: string, refused: boolean, code?: string): TokenError => {
    const safe = printable(redactSecrets(message, secrets()))
    return new TokenError(safe.length > MAX_MESSAGE ? `${safe.slice(0, MAX_MESSAGE)}…` : safe, { refused, code })
  }

  /** One call of the mutation; what it returns, or a TokenError. */
  const obtain = async (input: Input): Promise<Held> => {
    const what = "APIKey" in input ? "the API key" : "the refresh token"
    const startedAt = options.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), options.timeoutMs)))
    const answer = (async () => {
      const response = await options.fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ query: OBTAIN_TOKEN_MUTATION, variables: { input } }),
        redirect: "error"
      })
      return { status: response.status, text: await response.text() }
    })()
    let result
    try {
      result = await Promise.race([answer, timedOut])
    } catch (error) {
      throw fail(`could not obtain a token from ${url}: ${codeOf(error) ?? (error as Error).message ?? "network error"}`, false)
    } finally {
      clearTimeout(timer)
    }
    if (result === "timeout") {
      answer.catch(() => undefined)
      throw fail(`could not obtain a token from ${url}: no answer within ${options.timeoutMs} ms`, false)
    }
    let body: { data?: { obtainKrakenToken?: Record<string, unknown> | null } | null; errors?: unknown } | undefined
    try {
      body = JSON.parse(result.text) as typeof body
    } catch {
      // Not JSON: reported below with the status.
    }
    if (Array.isArray(body?.errors) && body.errors.length > 0) {
      const { message, code } = describeGraphqlError(body.errors[0])
      throw fail(`the service refused ${what} (obtainKrakenToken): ${message}${code === undefined ? "" : ` [${code}]`}`, true, code)
    }
    const data = body?.data?.obtainKrakenToken
    const token = data?.token
    if (result.status !== 200 || !isHeaderSafe(token)) {
      throw fail(`obtainKrakenToken at ${url} answered HTTP ${result.status} without a token`, result.status === 401 || result.status === 403)
    }
    const refreshToken = typeof data?.refreshToken === "string" && data.refreshToken !== "" ? data.refreshToken : undefined
    keep(token, refreshToken)
    const lifetime = lifetimeOf(token, options.wallTime)
    const refreshUntil = typeof data?.refreshExpiresIn === "number" ? data.refreshExpiresIn * 1000 : Infinity
    return {
      token,
      refreshToken: refreshToken ?? ("refreshToken" in input ? input.refreshToken : undefined),
      refreshUntil: refreshToken === undefined && "refreshToken" in input && held !== undefined ? held.refreshUntil : refreshUntil,
      renewAt: startedAt + lifetime - Math.min(MAX_MARGIN_MS, lifetime * MARGIN_SHARE),
      expiresAt: startedAt + lifetime
    }
  }

  /** The next token: with the refresh token while it lasts; with the API key when it is refused or gone. */
  const next = async (): Promise<Held> => {
    const previous = held
    if (previous?.refreshToken !== undefined && options.wallTime() < previous.refreshUntil) {
      try {
        return await obtain({ refreshToken: previous.refreshToken })
      } catch (error) {
        if (!(error instanceof TokenError && error.refused)) throw error
      }
    }
    return obtain({ APIKey: options.apiKey })
  }

  /** The renewal in flight, or a new one: never two at once. */
  const renew = (): Promise<Held> => {
    renewal ??= next().then(
      (h) => {
        held = h
        renewal = undefined
        return h
      },
      (error: unknown) => {
        renewal = undefined
        throw error
      }
    )
    return renewal
  }

  return {
    token: async () => {
      const current = held
      const now = options.now()
      if (current !== undefined && now < current.renewAt) return current.token
      try {
        return (await renew()).token
      } catch (error) {
        // Renewing early failed for want of an answer: the token in hand is still good for a while.
        if (current !== undefined && error instanceof TokenError && !error.refused && options.now() < current.expiresAt) return current.token
        throw error
      }
    },
    renew: async (used) => {
      if (held !== undefined && held.token !== used) return held.token
      return (await renew()).token
    },
    secrets
  }
}
