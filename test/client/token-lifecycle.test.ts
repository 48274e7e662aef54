/**
 * The client's token lifecycle with an API key, on a fake clock and a fake service that issues JWTs
 * through `obtainKrakenToken`: renewed before it expires (with the refresh token), once after a 401 and
 * never in a loop, one renewal shared by concurrent requests, refused keys and refresh tokens told
 * apart, and the key and every token kept out of outcomes.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type ClientClock, createClient } from "../../src/index.js"
import { TokenError } from "../../src/client/token-source.js"
import { loadExample } from "../support/payloads.js"

const KEY = "key-0123456789-very-secret"
const EPOCH_MS = 1_700_000_000_000
const energy = loadExample("energy-amount")

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url")
/** An HS256-shaped JWT (the signature is not checked by the client, nor by this fake). */
const jwt = (claims: Record<string, unknown>): string => `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}.c2lnbmF0dXJl`

interface GraphqlCall {
  readonly query: string
  readonly input: Record<string, unknown>
}

/** A clock and a service: tokens live `ttlSeconds`; `rejectNext` makes the service refuse the next n data requests with 401. */
const setup = (options: { readonly ttlSeconds?: number; readonly refreshSeconds?: number; readonly graphqlDelay?: () => Promise<void> } = {}) => {
  let now = 0
  const clock: ClientClock = {
    now: () => now,
    sleep: (ms) => {
      now += ms
      return Promise.resolve()
    },
    wallTime: () => EPOCH_MS + now
  }
  const ttl = options.ttlSeconds ?? 100
  const refreshTtl = options.refreshSeconds ?? 10_000
  const issued: Array<{ token: string; refreshToken: string; exp: number }> = []
  const graphql: Array<GraphqlCall> = []
  const sentWith: Array<string> = []
  const control = { rejectNext: 0, refuseRefresh: false, echo: false, down: false, alwaysReject: false }
  const fetch = (async (url: string, init: RequestInit) => {
    if (url.endsWith("/v1/graphql/")) {
      if (control.down) throw new TypeError("fetch failed", { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) })
      const body = JSON.parse(String(init.body)) as { query: string; variables: { input: Record<string, unknown> } }
      graphql.push({ query: body.query, input: body.variables.input })
      await options.graphqlDelay?.()
      const { APIKey, refreshToken } = body.variables.input
      const wall = (EPOCH_MS + now) / 1000
      const known = issued.find((t) => t.refreshToken === refreshToken)
      if (APIKey !== undefined && APIKey !== KEY) {
        return Response.json({ data: { obtainKrakenToken: null }, errors: [{ message: "Invalid data.", extensions: { errorCode: "KT-CT-1134", errorDescription: `Unknown API key ${String(APIKey)}.` } }] })
      }
      if (refreshToken !== undefined && (control.refuseRefresh || known === undefined)) {
        return Response.json({ data: { obtainKrakenToken: null }, errors: [{ message: "Invalid data.", extensions: { errorCode: "KT-CT-1135" } }] })
      }
      const n = issued.length + 1
      const iat = Math.floor(wall)
      const token = jwt({ iat, exp: iat + ttl, n })
      const refresh = known?.refreshToken ?? `refresh-${n}-secret`
      issued.push({ token, refreshToken: refresh, exp: iat + ttl })
      return Response.json({ data: { obtainKrakenToken: { token, payload: { iat, exp: iat + ttl }, refreshToken: refresh, refreshExpiresIn: iat + refreshTtl } } })
    }
    const token = new Headers(init.headers).get("authorization")!.slice("Token ".length)
    sentWith.push(token)
    const valid = issued.find((t) => t.token === token)
    if (control.alwaysReject || control.rejectNext > 0 || valid === undefined || valid.exp * 1000 <= EPOCH_MS + now) {
      control.rejectNext = Math.max(0, control.rejectNext - 1)
      return Response.json({ detail: "Invalid token." }, { status: 401 })
    }
    if (control.echo) return Response.json({ detail: `bad ${KEY} ${token} ${valid.refreshToken}`, code: "x", errors: [] }, { status: 400 })
    return new Response(String(init.body), { status: 201 })
  }) as unknown as typeof globalThis.fetch
  const client = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: KEY, fetch, clock, random: () => 0 })
  return { client, clock, fetch, graphql, sentWith, issued, control, advance: (ms: number) => (now += ms) }
}

describe("obtaining a token with the API key", () => {
  it("calls obtainKrakenToken with { APIKey } once, then sends Authorization: Token <token>", async () => {
    const s = setup()
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 1 })
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "created" })
    expect(s.graphql).toHaveLength(1)
    expect(s.graphql[0]!.input).toEqual({ APIKey: KEY })
    expect(s.graphql[0]!.query).toMatch(/mutation \w+\(\$input: ObtainJSONWebTokenInput!\) \{ obtainKrakenToken\(input: \$input\) \{[^}]*token[^}]*refreshToken/u)
    expect(s.sentWith).toEqual([s.issued[0]!.token, s.issued[0]!.token])
  })

  it("a refused key: authenticate() throws a TokenError with the service's message and code, without the key; send is unauthorized and sends nothing", async () => {
    const s = setup()
    const bad = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: "wrong-key-xyz", fetch: s.fetch, clock: s.clock })
    const error = await bad.authenticate().then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).code).toBe("KT-CT-1134")
    expect((error as TokenError).refused).toBe(true)
    expect((error as TokenError).message).toContain("Invalid data.")
    expect((error as TokenError).message).not.toContain("wrong-key-xyz")
    const outcome = await bad.send("energy-amount", energy)
    expect(outcome).toMatchObject({ kind: "unauthorized", status: 401, attempts: 0 })
    expect(JSON.stringify(outcome)).not.toContain("wrong-key-xyz")
    expect(s.sentWith).toHaveLength(0)
  })

  it("no answer from the GraphQL API: a TokenError that is not a refusal, and a failed send", async () => {
    const s = setup()
    s.control.down = true
    const error = await s.client.authenticate().then(() => undefined, (e: unknown) => e)
    expect(error).toMatchObject({ name: "TokenError", refused: false })
    expect((error as Error).message).toContain("ECONNREFUSED")
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "failed", attempts: 0 })
  })

  it("a token and an API key together, or neither, are refused", () => {
    expect(() => createClient({ baseUrl: "https://api.example.energy", apiKey: KEY, token: "t" })).toThrow(TypeError)
    expect(() => createClient({ baseUrl: "https://api.example.energy" })).toThrow(TypeError)
  })
})

describe("renewal before expiry", () => {
  it("a 100 s token is used until 10 s before it expires, then renewed with the refresh token; no request goes out with an expired token", async () => {
    const s = setup({ ttlSeconds: 100 })
    await s.client.send("energy-amount", energy)
    s.advance(89_000)
    await s.client.send("energy-amount", energy)
    expect(s.graphql).toHaveLength(1)
    s.advance(2_000)
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 1 })
    expect(s.graphql).toHaveLength(2)
    expect(s.graphql[1]!.input).toEqual({ refreshToken: "refresh-1-secret" })
    expect(s.sentWith.at(-1)).toBe(s.issued[1]!.token)
    for (let i = 0; i < 50; i++) {
      s.advance(7_000)
      expect((await s.client.send("energy-amount", energy)).kind).toBe("created")
    }
    expect(s.sentWith).toHaveLength(53)
  })

  it("an hour's token is renewed a minute before it expires", async () => {
    const s = setup({ ttlSeconds: 3600 })
    await s.client.send("energy-amount", energy)
    s.advance(3_539_000)
    await s.client.send("energy-amount", energy)
    expect(s.graphql).toHaveLength(1)
    s.advance(2_000)
    await s.client.send("energy-amount", energy)
    expect(s.graphql).toHaveLength(2)
  })

  it("a refused refresh token (KT-CT-1135) falls back to the API key; an expired one is not even tried", async () => {
    const s = setup({ ttlSeconds: 100, refreshSeconds: 150 })
    await s.client.send("energy-amount", energy)
    s.control.refuseRefresh = true
    s.advance(95_000)
    expect((await s.client.send("energy-amount", energy)).kind).toBe("created")
    expect(s.graphql.map((c) => Object.keys(c.input)[0])).toEqual(["APIKey", "refreshToken", "APIKey"])
    s.control.refuseRefresh = false
    s.advance(200_000)
    expect((await s.client.send("energy-amount", energy)).kind).toBe("created")
    // The second key's refresh token ("refresh-2") expired with the wall clock: straight to the API key.
    expect(s.graphql.map((c) => Object.keys(c.input)[0])).toEqual(["APIKey", "refreshToken", "APIKey", "APIKey"])
  })
})

describe("a 401", () => {
  it("is followed by one renewal and one repeat of the request", async () => {
    const s = setup()
    await s.client.send("energy-amount", energy)
    s.control.rejectNext = 1
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 2 })
    expect(s.graphql).toHaveLength(2)
    expect(s.sentWith.slice(1)).toEqual([s.issued[0]!.token, s.issued[1]!.token])
  })

  it("a second 401 is unauthorized: no renewal loop", async () => {
    const s = setup()
    s.control.alwaysReject = true
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "unauthorized", status: 401, attempts: 2 })
    expect(s.graphql).toHaveLength(2)
    expect(s.sentWith).toHaveLength(2)
    expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "unauthorized" })
    expect(s.graphql).toHaveLength(3)
    expect(s.sentWith).toHaveLength(4)
  })
})

describe("concurrent requests", () => {
  it("share one renewal when the token is due, and one after 401s to the same token", async () => {
    let release: () => void = () => undefined
    let gate = Promise.resolve()
    const s = setup({ ttlSeconds: 100, graphqlDelay: () => gate })
    await s.client.send("energy-amount", energy)
    s.advance(95_000)
    gate = new Promise((r) => (release = r))
    const pending = Array.from({ length: 10 }, () => s.client.send("energy-amount", energy))
    await new Promise((r) => setTimeout(r, 10))
    release()
    expect((await Promise.all(pending)).map((o) => o.kind)).toEqual(Array(10).fill("created"))
    expect(s.graphql).toHaveLength(2)
    s.control.rejectNext = 10
    gate = new Promise((r) => (release = r))
    const rejected = Array.from({ length: 10 }, () => s.client.send("energy-amount", energy))
    await new Promise((r) => setTimeout(r, 10))
    release()
    expect((await Promise.all(rejected)).map((o) => o.kind)).toEqual(Array(10).fill("created"))
    expect(s.graphql).toHaveLength(3)
  })
})

describe("redaction", () => {
  it("the API key, the token and the refresh token echoed by the service are [redacted] in the outcome", async () => {
    const s = setup()
    s.control.echo = true
    const outcome = await s.client.send("energy-amount", energy)
    const text = JSON.stringify(outcome)
    expect(outcome.kind).toBe("rejected")
    expect(text).toContain("[redacted]")
    for (const secret of [KEY, s.issued[0]!.token, s.issued[0]!.refreshToken]) expect(text).not.toContain(secret)
  })
})

describe("a token without iat, read by a clock that is off", () => {
  /** A service whose tokens carry `exp` only, and a client whose wall clock is `skewMs` off the service's. */
  const skewed = (skewMs: number, ttlSeconds: number) => {
    const serviceNow = EPOCH_MS
    const graphql: Array<unknown> = []
    const fetch = (async (url: string, init: RequestInit) => {
      if (url.endsWith("/v1/graphql/")) {
        graphql.push(JSON.parse(String(init.body)))
        const exp = Math.floor(serviceNow / 1000) + ttlSeconds
        return Response.json({ data: { obtainKrakenToken: { token: jwt({ exp, n: graphql.length }), payload: { exp }, refreshToken: `refresh-${graphql.length}`, refreshExpiresIn: exp + 86_400 } } })
      }
      return new Response(String(init.body), { status: 201 })
    }) as unknown as typeof globalThis.fetch
    const clock: ClientClock = { now: () => 0, sleep: () => Promise.resolve(), wallTime: () => serviceNow + skewMs }
    return { client: createClient({ baseUrl: "http://127.0.0.1:1", apiKey: KEY, fetch, clock, random: () => 0 }), graphql }
  }

  it("a clock two hours ahead does not renew the token before every request", async () => {
    const s = skewed(2 * 3600_000, 3600)
    for (let i = 0; i < 5; i++) expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 1 })
    expect(s.graphql).toHaveLength(1)
  })

  it("property: whatever the skew, requests at one instant share one token", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -86_400, max: 86_400 }), fc.integer({ min: 1, max: 7200 }), fc.integer({ min: 1, max: 6 }), async (skewSeconds, ttl, sends) => {
        const s = skewed(skewSeconds * 1000, ttl)
        for (let i = 0; i < sends; i++) expect(await s.client.send("energy-amount", energy)).toMatchObject({ kind: "created" })
        expect(s.graphql).toHaveLength(1)
      }),
      { numRuns: 60 }
    )
  })
})
