/**
 * The reference service's token lifecycle over HTTP (in process, on 127.0.0.1, with a fake clock):
 * `obtainKrakenToken` in GraphQL's shape for an API key or a refresh token, KT-CT-1134 / KT-CT-1135 for
 * refused ones, JWTs accepted on the data-import endpoints until they expire, forged ones never, and the
 * seeded fixed tokens as before.
 */
import { decodeJwt, SignJWT } from "jose"
import { afterEach, describe, expect, it } from "vitest"
import { createReferenceServer, decodeSeed, openStore, type ReferenceServer, type Seed } from "../../src/service/index.js"
import { graphqlEndpoint } from "../../src/service/graphql.js"
import { acceptIssuedTokens, createTokenIssuer } from "../../src/service/tokens.js"

const KEY = "org-key-test-secret"
const FIXED = "fixed-token-test"
const SEED = decodeSeed({
  tokens: [FIXED],
  api_keys: [KEY],
  suppliers: [{ code: "NORD", status: "Ongoing" }],
  accounts: [{ import_supplier: "NORD", external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z" }]
})
const MUTATION = "mutation ObtainToken($input: ObtainJSONWebTokenInput!) { obtainKrakenToken(input: $input) { token refreshToken refreshExpiresIn payload } }"
const T0 = Date.parse("2025-03-01T12:00:00Z")

const servers: Array<ReferenceServer> = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

const start = async (options: { readonly tokenTtlSeconds?: number; readonly refreshTtlSeconds?: number } = {}) => {
  if (!SEED.ok) throw new Error("bad seed")
  let now = T0
  const clock = () => new Date(now)
  const store = openStore(":memory:", SEED.value as Seed)
  const issuer = createTokenIssuer(options)
  const service = createReferenceServer({ store: acceptIssuedTokens(store, issuer, clock), graphql: graphqlEndpoint(store, issuer, clock), now: clock })
  servers.push(service)
  const { port } = await service.listen(0, "127.0.0.1")
  const base = `http://127.0.0.1:${port}`
  const obtain = async (input: Record<string, unknown>) => {
    const response = await fetch(`${base}/v1/graphql/`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: MUTATION, variables: { input } }) })
    return { status: response.status, body: (await response.json()) as { data?: { obtainKrakenToken: { token: string; refreshToken: string; refreshExpiresIn: number; payload: Record<string, number> } | null }; errors?: Array<{ message: string; extensions: { errorCode: string } }> } }
  }
  const status = async (token: string) =>
    (await fetch(`${base}/v1/data-import/account-transfer-status/NORD/KD-1/`, { headers: { Authorization: `Token ${token}` } })).status
  return { obtain, status, advance: (ms: number) => (now += ms) }
}

describe("obtainKrakenToken", () => {
  it("an API key of the seed: a token, its payload, a refresh token and refreshExpiresIn (Unix seconds), in GraphQL's shape", async () => {
    const s = await start({ tokenTtlSeconds: 60, refreshTtlSeconds: 600 })
    const { status, body } = await s.obtain({ APIKey: KEY })
    expect(status).toBe(200)
    const issued = body.data!.obtainKrakenToken!
    expect(body.errors).toBeUndefined()
    const claims = decodeJwt(issued.token)
    expect(claims.iat).toBe(T0 / 1000)
    expect(claims.exp).toBe(T0 / 1000 + 60)
    expect(issued.payload).toMatchObject({ iat: T0 / 1000, exp: T0 / 1000 + 60 })
    expect(issued.refreshExpiresIn).toBe(T0 / 1000 + 600)
    expect(JSON.stringify(body)).not.toContain(KEY)
  })

  it("a wrong API key: KT-CT-1134; a wrong, expired or access token as refresh token: KT-CT-1135", async () => {
    const s = await start({ refreshTtlSeconds: 100 })
    const wrong = await s.obtain({ APIKey: "not-the-key" })
    expect(wrong.status).toBe(200)
    expect(wrong.body.data?.obtainKrakenToken).toBeNull()
    expect(wrong.body.errors?.[0]).toMatchObject({ message: "Invalid data.", extensions: { errorCode: "KT-CT-1134" } })
    const issued = (await s.obtain({ APIKey: KEY })).body.data!.obtainKrakenToken!
    for (const refreshToken of ["not-a-token", issued.token]) {
      expect((await s.obtain({ refreshToken })).body.errors?.[0]?.extensions.errorCode).toBe("KT-CT-1135")
    }
    const refreshed = (await s.obtain({ refreshToken: issued.refreshToken })).body.data!.obtainKrakenToken!
    expect(refreshed.token).not.toBe(issued.token)
    expect(refreshed.refreshToken).toBe(issued.refreshToken)
    s.advance(101_000)
    expect((await s.obtain({ refreshToken: issued.refreshToken })).body.errors?.[0]?.extensions.errorCode).toBe("KT-CT-1135")
  })
})

describe("issued tokens on the data-import endpoints", () => {
  it("accepted until they expire, then 401; a forged or unsigned one never; the seeded token always", async () => {
    const s = await start({ tokenTtlSeconds: 2 })
    const token = (await s.obtain({ APIKey: KEY })).body.data!.obtainKrakenToken!.token
    expect(await s.status(token)).toBe(200)
    s.advance(1_999)
    expect(await s.status(token)).toBe(200)
    s.advance(1)
    expect(await s.status(token)).toBe(401)
    expect(await s.status(FIXED)).toBe(200)
    const claims = { kind: "access", iat: T0 / 1000, exp: T0 / 1000 + 3600 }
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("another-secret-of-32-bytes-long!!"))
    expect(await s.status(forged)).toBe(401)
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`
    expect(await s.status(unsigned)).toBe(401)
  })
})
