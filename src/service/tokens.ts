/**
 * The tokens the reference service issues through `obtainKrakenToken`: JWTs signed with HS256 by a
 * random secret of the running process (a restart makes every issued token invalid, as a rotated key
 * would; the seeded fixed tokens keep working). Access tokens expire after `tokenTtlSeconds`, refresh
 * tokens after `refreshTtlSeconds`. Signing uses jose; the check of a presented token is synchronous
 * (HMAC over the first two parts), so that it runs inside a request's transaction like the seeded
 * tokens' check. This lives in the HTTP layer: the pure model knows only the seeded tokens.
 *
 * @module
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose"
import type { ReferenceStore } from "./store.js"

/** What `obtainKrakenToken` answers: the token, its claims, the refresh token and when that expires (Unix seconds). */
export interface IssuedToken {
  readonly token: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly refreshToken: string
  readonly refreshExpiresIn: number
}

/** Options of {@link createTokenIssuer}. */
export interface TokenIssuerOptions {
  /** Lifetime of an access token, in seconds (default 3600). */
  readonly tokenTtlSeconds?: number | undefined
  /** Lifetime of a refresh token, in seconds (default 7 days). */
  readonly refreshTtlSeconds?: number | undefined
  /** The signing secret (default: 32 random bytes, new for each process). */
  readonly secret?: Uint8Array
}

/** Issues and checks the service's JWTs. */
export interface TokenIssuer {
  /** A new access token and refresh token, at `now`. */
  issue(now: Date): Promise<IssuedToken>
  /** A new access token for a valid refresh token (which stays as it is, with its expiry), or `undefined`. */
  refresh(refreshToken: string, now: Date): Promise<IssuedToken | undefined>
  /** Whether `token` is an access token this issuer signed that has not expired at `now`. */
  isAccessToken(token: string, now: Date): boolean
}

type Kind = "access" | "refresh"

export const DEFAULT_TOKEN_TTL_SECONDS = 3600
export const DEFAULT_REFRESH_TTL_SECONDS = 7 * 24 * 3600

/** Creates the issuer of a running service. */
export const createTokenIssuer = (options: TokenIssuerOptions = {}): TokenIssuer => {
  const secret = options.secret ?? new Uint8Array(randomBytes(32))
  const tokenTtl = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS
  const refreshTtl = options.refreshTtlSeconds ?? DEFAULT_REFRESH_TTL_SECONDS

  const sign = (kind: Kind, iat: number, exp: number): Promise<string> =>
    new SignJWT({ kind }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt(iat).setExpirationTime(exp).setJti(randomUUID()).sign(secret)

  /** The claims of a token this issuer signed, of this kind, unexpired at `now`; else `undefined`. */
  const verified = (token: string, kind: Kind, now: Date): Record<string, unknown> | undefined => {
    const parts = token.split(".")
    if (parts.length !== 3) return undefined
    try {
      if (decodeProtectedHeader(token).alg !== "HS256") return undefined
      const expected = createHmac("sha256", secret).update(`${parts[0]}.${parts[1]}`).digest()
      const given = Buffer.from(parts[2]!, "base64url")
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      const claims = decodeJwt(token)
      return claims.kind === kind && typeof claims.exp === "number" && claims.exp * 1000 > now.getTime() ? claims : undefined
    } catch {
      return undefined
    }
  }

  const access = async (now: Date, refreshToken: string, refreshExpiresIn: number): Promise<IssuedToken> => {
    const iat = Math.floor(now.getTime() / 1000)
    const token = await sign("access", iat, iat + tokenTtl)
    return { token, payload: decodeJwt(token), refreshToken, refreshExpiresIn }
  }

  return {
    issue: async (now) => {
      const iat = Math.floor(now.getTime() / 1000)
      return access(now, await sign("refresh", iat, iat + refreshTtl), iat + refreshTtl)
    },
    refresh: async (refreshToken, now) => {
      const claims = verified(refreshToken, "refresh", now)
      return claims === undefined ? undefined : access(now, refreshToken, claims.exp as number)
    },
    isAccessToken: (token, now) => verified(token, "access", now) !== undefined
  }
}

/**
 * The store with the issued tokens accepted beside the seeded ones: every request's state answers
 * `isToken` for a valid access token of `issuer` at the time `now` gives.
 */
export const acceptIssuedTokens = (store: ReferenceStore, issuer: TokenIssuer, now: () => Date = () => new Date()): ReferenceStore => ({
  ...store,
  transact: (work) => store.transact((state) => work({ ...state, isToken: (token) => state.isToken(token) || issuer.isAccessToken(token, now()) }))
})
