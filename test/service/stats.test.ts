/**
 * `GET /_reference/stats`: the same token as the endpoints; what is stored, by kind, every endpoint's
 * answers by status, the suppliers' statuses and the accounts by import status.
 */
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { RECORD_KINDS, STATS_PATH } from "../../src/service/index.js"
import { ENERGY_AMOUNT, forAccount, IMPORTED, IN_PROGRESS, PAUSED, startService, SUPPLIER } from "./support.js"

describe("statistics", () => {
  it("counts stored records by kind and answers by endpoint and status", async () => {
    const service = await startService()
    const fresh = await service.stats()
    expect(fresh).toEqual({
      stored: Object.fromEntries(RECORD_KINDS.map((k) => [k, k === "market_participants" ? 1 : 0])),
      responses: {},
      suppliers: { [SUPPLIER]: "Ongoing", [PAUSED]: "Paused" },
      accounts: { COMPLETED: 3, IN_PROGRESS: 1, UNKNOWN: 1 }
    })
    const energy = buildPath("energy-amount", {})
    await service.call({ path: energy, body: forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT }) })
    await service.call({ path: energy, body: forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT }) })
    await service.call({ path: energy, body: forAccount(IN_PROGRESS, { energy_amount: ENERGY_AMOUNT }) })
    await service.call({ path: energy, body: forAccount(IMPORTED, { energy_amount: {} }) })
    await service.call({ path: buildPath("notes", {}), body: forAccount(IMPORTED, { notes: [{ body: "a" }, { body: "b" }] }) })
    await service.call({ path: buildPath("account-transfer-status", { import_supplier_code: SUPPLIER, external_account_number: "nope" }) })
    await service.call({ path: energy, body: {}, authorization: "Token wrong" })
    const stats = await service.stats()
    expect(stats.stored).toMatchObject({ energy_amounts: 2, notes: 2, market_participants: 1, transactions: 0 })
    expect(stats.responses).toEqual({
      "energy-amount": { 201: 2, 400: 1, 401: 1, 404: 1 },
      "notes": { 201: 1 },
      "account-transfer-status": { 404: 1 }
    })
  })

  it("needs the token and only answers GET", async () => {
    const service = await startService()
    expect((await service.call({ path: STATS_PATH, authorization: null })).status).toBe(401)
    expect((await service.call({ method: "POST", path: STATS_PATH, body: {} })).status).toBe(405)
  })
})
