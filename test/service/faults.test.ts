/**
 * Injected faults: decided per request from the fault seed (the same n-th request gets the same faults in
 * every run), 503 with Retry-After before the state is touched, connection resets after the commit, vendor
 * failures on payment instructions, latency.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { faultsFor, NO_FAULTS } from "../../src/service/index.js"
import { ENERGY_AMOUNT, forAccount, IMPORTED, startService, TOKEN } from "./support.js"

const ENERGY = { path: buildPath("energy-amount", {}), body: forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT }) }

describe("faultsFor", () => {
  it("is a function of the seed and the request number alone", () => {
    fc.assert(fc.property(fc.nat(), fc.nat({ max: 1_000_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (seed, index, failRate) => {
      const options = { ...NO_FAULTS, seed, failRate, resetRate: 0.5, vendorFailRate: 0.5 }
      expect(faultsFor(options, index)).toEqual(faultsFor({ ...options }, index))
    }), { numRuns: 200 })
  })

  it("each fault draws from its own stream: changing one rate does not move the others' decisions", () => {
    const base = { ...NO_FAULTS, seed: 42, failRate: 0, resetRate: 0.3, vendorFailRate: 0.2 }
    const vendor = (o: typeof base) => Array.from({ length: 500 }, (_, i) => faultsFor(o, i).vendorFails)
    expect(vendor({ ...base, failRate: 0.7, resetRate: 0.9 })).toEqual(vendor(base))
  })

  it("the rates are the fractions of requests affected; a 503 is never also a reset", () => {
    const n = 20_000
    const options = { ...NO_FAULTS, seed: 7, failRate: 0.1, resetRate: 0.25, vendorFailRate: 0.05 }
    const decisions = Array.from({ length: n }, (_, i) => faultsFor(options, i))
    const share = (f: (d: (typeof decisions)[number]) => boolean) => decisions.filter(f).length / n
    expect(share((d) => d.fail)).toBeCloseTo(0.1, 1)
    expect(share((d) => d.reset) / (1 - share((d) => d.fail))).toBeCloseTo(0.25, 1)
    expect(share((d) => d.vendorFails)).toBeCloseTo(0.05, 1)
    expect(decisions.some((d) => d.fail && d.reset)).toBe(false)
    expect(Array.from({ length: 100 }, (_, i) => faultsFor({ ...options, failRate: 0 }, i).fail).some(Boolean)).toBe(false)
    expect(Array.from({ length: 100 }, (_, i) => faultsFor({ ...options, failRate: 1, resetRate: 0 }, i).fail).every(Boolean)).toBe(true)
  })

  it("other seeds give other decisions", () => {
    const sequence = (seed: number) => Array.from({ length: 64 }, (_, i) => faultsFor({ ...NO_FAULTS, seed, failRate: 0.5 }, i).fail)
    expect(sequence(1)).not.toEqual(sequence(2))
    expect(sequence(1)).toEqual(sequence(1))
  })
})

describe("faults over HTTP", () => {
  it("--fail-rate: 503 with Retry-After, nothing stored, counted; the same requests fail under the same seed", async () => {
    const statuses = async (seed: number) => {
      const service = await startService({ faults: { failRate: 0.5, seed, retryAfterSeconds: 3 } })
      const out: Array<number> = []
      for (let i = 0; i < 30; i++) {
        const reply = await service.call(ENERGY)
        if (reply.status === 503) expect(reply.headers.get("retry-after")).toBe("3")
        out.push(reply.status)
      }
      const stats = await service.stats()
      const failed = out.filter((s) => s === 503).length
      expect(stats.stored["energy_amounts"]).toBe(30 - failed)
      expect(stats.responses["energy-amount"]).toEqual({ ...(failed < 30 ? { 201: 30 - failed } : {}), ...(failed > 0 ? { 503: failed } : {}) })
      await service.close()
      return out
    }
    const first = await statuses(11)
    expect(first).toContain(503)
    expect(first).toContain(201)
    expect(await statuses(11)).toEqual(first)
    expect(first).toEqual(Array.from({ length: 30 }, (_, i) => (faultsFor({ ...NO_FAULTS, seed: 11, failRate: 0.5 }, i).fail ? 503 : 201)))
  })

  it("--reset-rate: the connection breaks after the change is committed", async () => {
    const service = await startService({ faults: { resetRate: 1 } })
    await expect(fetch(`${service.baseUrl}${ENERGY.path}`, {
      method: "POST",
      headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(ENERGY.body)
    })).rejects.toThrow()
    const stats = await service.stats()
    expect(stats.stored["energy_amounts"]).toBe(1)
    expect(stats.responses["energy-amount"]).toEqual({ 201: 1 })
  })

  it("--vendor-fail-rate: payment instructions are 500 with the vendor error, nothing stored; other endpoints are unaffected", async () => {
    const service = await startService({ faults: { vendorFailRate: 1 } })
    const body = forAccount(IMPORTED, { vendor: "STRIPE", reference: "pm_1", type: "CARD" })
    const reply = await service.call({ path: buildPath("payment-instruction", {}), body })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({ error_detail: expect.any(String), external_account_number: IMPORTED, import_supplier: body["import_supplier"], reference: "pm_1" })
    expect((await service.call(ENERGY)).status).toBe(201)
    // A payment instruction the service refuses anyway is refused before the vendor is asked.
    expect((await service.call({ path: buildPath("payment-instruction", {}), body: { ...body, type: "" } })).status).toBe(400)
    expect((await service.stats()).stored["payment_instructions"]).toBe(0)
  })

  it("--latency-ms: every request waits at least that long", async () => {
    const service = await startService({ faults: { latencyMs: 150 } })
    const started = performance.now()
    expect((await service.call(ENERGY)).status).toBe(201)
    expect(performance.now() - started).toBeGreaterThanOrEqual(145)
  })
})
