/**
 * Authentication: every endpoint (and the statistics) needs `Authorization: Token <a seeded token>`;
 * missing, malformed or unknown credentials are 401 `{ detail }`, and nothing is stored.
 */
import { describe, expect, it } from "vitest"
import { buildPath, ENDPOINT_IDS, type EndpointId, endpoints } from "../../src/index.js"
import { STATS_PATH } from "../../src/service/index.js"
import { ENERGY_AMOUNT, forAccount, IMPORTED, startService, SUPPLIER, TOKEN } from "./support.js"

const PATH_PARAMS = { import_supplier_code: SUPPLIER, external_account_number: IMPORTED }
const pathOf = (id: EndpointId): string => buildPath(id, PATH_PARAMS as never)

const BAD_CREDENTIALS: ReadonlyArray<[string, string | null, string]> = [
  ["no header", null, "Authentication credentials were not provided."],
  ["another scheme", `Bearer ${TOKEN}`, "Authentication credentials were not provided."],
  ["the keyword alone", "Token", "Authentication credentials were not provided."],
  ["two words after the keyword", `Token ${TOKEN} extra`, "Authentication credentials were not provided."],
  ["an unknown token", "Token not-a-seeded-token", "Invalid token."],
  ["a seeded token with a changed case", `Token ${TOKEN.toUpperCase()}`, "Invalid token."]
]

describe("authentication", () => {
  it.each(BAD_CREDENTIALS)("%s: 401 with { detail } on every endpoint and the statistics", async (_, authorization, detail) => {
    const service = await startService()
    for (const id of ENDPOINT_IDS) {
      const reply = await service.call({
        method: endpoints[id].method,
        path: pathOf(id),
        body: endpoints[id].method === "POST" ? forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT }) : undefined,
        authorization
      })
      expect(reply.status, id).toBe(401)
      expect(reply.body, id).toEqual({ detail })
      expect(reply.headers.get("www-authenticate"), id).toBe("Token")
    }
    const stats = await service.call({ path: STATS_PATH, authorization })
    expect(stats.status).toBe(401)
    const after = await service.stats()
    expect(Object.values(after.stored).reduce((a, b) => a + b, 0)).toBe(1) // the seeded participant only
    expect(Object.keys(after.responses).sort()).toEqual([...ENDPOINT_IDS].sort())
    for (const id of ENDPOINT_IDS) expect(after.responses[id], id).toEqual({ 401: 1 })
  })

  it("any seeded token is accepted, the keyword in any case", async () => {
    const service = await startService()
    const body = forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT })
    const path = buildPath("energy-amount", {})
    expect((await service.call({ path, body, authorization: `Token ${TOKEN}` })).status).toBe(201)
    expect((await service.call({ path, body, authorization: "token second-token" })).status).toBe(201)
    expect((await service.call({ path, body, authorization: `  TOKEN   ${TOKEN}  ` })).status).toBe(201)
    expect((await service.stats()).stored["energy_amounts"]).toBe(3)
  })
})
