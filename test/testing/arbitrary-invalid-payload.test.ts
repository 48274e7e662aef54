/**
 * `arbitraryInvalidPayload`: every generated broken payload fails `validatePayload` with its expected
 * attr and code; the broken payloads cover every error code that applies to the endpoint; a mutation is
 * one change to a valid payload; and a counterexample shrinks to a small payload.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ERROR_CODES, POST_ENDPOINT_IDS, type PostEndpointId, validatePayload } from "../../src/index.js"
import { mutate } from "../../src/testing/arbitrary-invalid-payload.js"
import { arbitraryInvalidPayload, arbitraryPayload, type InvalidPayload, type JsonObject } from "../../src/testing/index.js"
import { APPLICABLE } from "../schemas/fields.js"

const SEED = 20_250_102
const RUNS = 1_000

const reports = (id: PostEndpointId, broken: InvalidPayload): boolean => {
  const result = validatePayload(id, broken.payload)
  return !result.ok && result.error.errors.some((e) => e.attr === broken.expected.attr && e.code === broken.expected.code)
}

/** The dot paths where two JSON values differ (the highest differing node of each branch). */
const differences = (a: unknown, b: unknown, prefix = ""): Array<string> => {
  const bothObjects = typeof a === "object" && a !== null && typeof b === "object" && b !== null && Array.isArray(a) === Array.isArray(b)
  if (!bothObjects) return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix]
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  return [...keys].flatMap((k) =>
    differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], prefix === "" ? k : `${prefix}.${k}`)
  )
}

const paths = (value: unknown, prefix = ""): Array<string> => {
  if (typeof value !== "object" || value === null) return [prefix]
  return Object.entries(value).flatMap(([k, v]) => paths(v, prefix === "" ? k : `${prefix}.${k}`))
}

describe("the tables of applicable codes", () => {
  it("hold one table for each POST endpoint, in its resource's test folder (test/schemas/<resource>/fields.ts)", () => {
    expect(Object.keys(APPLICABLE).sort()).toEqual([...POST_ENDPOINT_IDS].sort())
  })

  it("use only codes the library defines", () => {
    for (const codes of Object.values(APPLICABLE)) for (const code of codes) expect(Object.keys(ERROR_CODES)).toContain(code)
  })
})

describe.each(POST_ENDPOINT_IDS)("arbitraryInvalidPayload(%s)", (id) => {
  it("1,000 broken payloads fail at the expected attr with the expected code, covering every code that applies", () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(arbitraryInvalidPayload(id), (broken) => {
        seen.add(broken.expected.code)
        const result = validatePayload(id, broken.payload)
        if (result.ok) throw new Error(`${broken.description}: the payload validates`)
        const found = result.error.errors.some((e) => e.attr === broken.expected.attr && e.code === broken.expected.code)
        if (!found) {
          throw new Error(`${broken.description}: expected ${JSON.stringify(broken.expected)}, got ${JSON.stringify(result.error.errors)}`)
        }
      }),
      { numRuns: RUNS, seed: SEED }
    )
    expect([...seen].sort()).toEqual([...(APPLICABLE[id] ?? [])].sort())
  })

  it("a broken payload draws exactly one error, its expected one, and no warning, whatever the seed and list sizes", () => {
    // `samplePayloads({ invalid: true })` promises payloads with exactly one error each, and a rule's
    // breaker breaks exactly that rule: nothing else of the payload may fail along with it.
    fc.assert(
      fc.property(fc.constantFrom(1, 4, 8), fc.integer(), (maxItems, seed) => {
        for (const broken of fc.sample(arbitraryInvalidPayload(id, { maxItems }), { numRuns: 5, seed })) {
          const result = validatePayload(id, broken.payload)
          expect(result.ok ? [] : result.error.errors.map((e) => ({ attr: e.attr, code: e.code })), broken.description)
            .toEqual([broken.expected])
          // The valid payload drew no warning, and one mistake is no reason for one.
          expect(result.warnings, broken.description).toEqual([])
        }
      }),
      { numRuns: 40, seed: SEED }
    )
  })

  it("a mutation changes one place of a valid payload (a key, or the fields of one object), leaves the original alone, and names the place", () => {
    fc.assert(
      fc.property(arbitraryPayload(id), fc.nat(), fc.nat(), fc.nat(), (valid, kind, site, variant) => {
        const before = JSON.stringify(valid)
        const broken = mutate(id, valid as JsonObject, kind, site, variant)
        expect(JSON.stringify(valid)).toBe(before)
        expect(JSON.parse(JSON.stringify(broken.payload))).toStrictEqual(broken.payload)
        const attr = broken.expected.attr
        const parent = attr === "non_field_errors" || !attr.includes(".") ? "" : attr.slice(0, attr.lastIndexOf("."))
        const changes = differences(valid, broken.payload)
        expect(changes.length, `${attr}: nothing changed`).toBeGreaterThan(0)
        for (const changed of changes) {
          expect(parent === "" || changed === parent || changed.startsWith(`${parent}.`), `${changed} for ${attr}`).toBe(true)
        }
        if (attr !== "non_field_errors") expect(broken.description).toContain(attr)
      }),
      { numRuns: 300, seed: SEED }
    )
  })

  it("an unknown key is added at every depth where the payloads have objects", () => {
    const added = new Set<number>()
    const objectDepths = new Set<number>()
    const visit = (value: unknown, depth: number): void => {
      if (typeof value !== "object" || value === null) return
      // A key of an object at depth d has an attr of d + 1 steps; array items add a step of their own.
      if (!Array.isArray(value)) objectDepths.add(depth + 1)
      for (const child of Object.values(value)) visit(child, depth + 1)
    }
    for (const payload of fc.sample(arbitraryPayload(id), { numRuns: 200, seed: SEED })) visit(payload, 0)
    for (const broken of fc.sample(arbitraryInvalidPayload(id), { numRuns: RUNS, seed: SEED })) {
      if (broken.expected.code === "unknown_field") added.add(broken.expected.attr.split(".").length)
    }
    expect([...added].sort()).toEqual([...objectDepths].sort())
  })

  it("an always-failing property shrinks to a small broken payload that still fails as announced", () => {
    const details = fc.check(fc.property(arbitraryInvalidPayload(id), () => false), { seed: SEED, numRuns: 10 })
    const shrunk = details.counterexample?.[0] as InvalidPayload | undefined
    if (shrunk === undefined) throw new Error("the property did not fail")
    expect(reports(id, shrunk)).toBe(true)
    expect(JSON.stringify(shrunk.payload).length).toBeLessThan(1_000)
    expect(paths(shrunk.payload).length).toBeLessThan(45)
  })
})

describe("mutations in detail", () => {
  const samples = (id: PostEndpointId) => fc.sample(arbitraryInvalidPayload(id), { numRuns: RUNS, seed: SEED })

  it("an unknown key may be __proto__: an own key of the payload, kept through JSON, and reported where it is", () => {
    const proto = samples("notes").filter((b) => b.expected.code === "unknown_field" && b.expected.attr.endsWith("__proto__"))
    expect(proto.length).toBeGreaterThan(0)
    for (const broken of proto) {
      const steps = broken.expected.attr.split(".")
      const parent = steps.slice(0, -1).reduce<unknown>((node, step) => (node as Record<string, unknown>)[step], broken.payload)
      expect(Object.hasOwn(parent as object, "__proto__")).toBe(true)
      // As a tool reads it back from a file: JSON.parse makes it an own key again, not the prototype.
      const back = JSON.parse(JSON.stringify(broken.payload)) as unknown
      const result = validatePayload("notes", back)
      expect(result.ok ? [] : result.error.errors.map((e) => [e.attr, e.code])).toEqual([[broken.expected.attr, "unknown_field"]])
    }
  })

  it("ignores withWarnings (not one of its options), as JavaScript callers may still pass it: no warning joins the one error", () => {
    const options = { withWarnings: true } as unknown as Parameters<typeof arbitraryInvalidPayload>[1]
    for (const broken of fc.sample(arbitraryInvalidPayload("transactions", options), { numRuns: 200, seed: SEED })) {
      expect(validatePayload("transactions", broken.payload).warnings, broken.description).toEqual([])
    }
  })

  it("a removed required key is absent from the payload", () => {
    const removed = samples("energy-amount").filter((b) => b.expected.code === "required")
    expect(removed.length).toBeGreaterThan(0)
    for (const broken of removed) {
      const steps = broken.expected.attr.split(".")
      const parent = steps.slice(0, -1).reduce<unknown>((node, step) => (node as Record<string, unknown>)[step], broken.payload)
      expect(Object.hasOwn(parent as object, steps[steps.length - 1] as string)).toBe(false)
    }
  })

  it("a too-long string is longer than its limit in code points, and some use characters outside the BMP", () => {
    const long = samples("payment-instruction").filter((b) => b.expected.code === "max_length")
    const limits: Readonly<Record<string, number>> = { import_supplier: 32, external_account_number: 128, reference: 512 }
    for (const broken of long) {
      const value = broken.payload[broken.expected.attr] as string
      expect([...value].length).toBeGreaterThan(limits[broken.expected.attr] ?? Infinity)
    }
    expect(long.some((b) => (b.payload[b.expected.attr] as string).includes("😀"))).toBe(true)
  })

  it("a transaction in the future is after any plausible clock, and valid otherwise", () => {
    const future = samples("transactions").filter((b) => b.expected.code === "transaction_in_future")
    expect(future.length).toBeGreaterThan(0)
    for (const broken of future) {
      expect(validatePayload("transactions", broken.payload, { now: new Date("2199-12-30T00:00:00Z") }).ok).toBe(false)
      expect(validatePayload("transactions", broken.payload, { now: new Date("3000-01-01T00:00:00Z") }).ok).toBe(true)
    }
  })

  it("a SUPPLY_CHARGE without one of its fields, made from another type of transaction, lacks only that field", () => {
    const payment = { transaction_id: "ZA-000001", transaction_date: "2024-01-15", amount: 86, type: "PAYMENT", payment_type: "DD_REGULAR_COLLECTION" }
    const valid = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", transactions: [payment] }
    const kinds = (variant: number) => [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
      .map((kind) => mutate("transactions", valid, kind, 0, variant))
      .filter((b) => b.description.includes("SUPPLY_CHARGE"))
    const broken = [0, 1, 2, 3].flatMap(kinds)
    expect(new Set(broken.map((b) => b.expected.attr))).toEqual(new Set(["transactions.0.product_code", "transactions.0.line_items"]))
    for (const b of broken) {
      const result = validatePayload("transactions", b.payload)
      expect(result.ok ? [] : result.error.errors.map((e) => ({ attr: e.attr, code: e.code })), b.description).toEqual([b.expected])
      // Nothing the SUPPLY_CHARGE does not use is left over to warn about (payment_type).
      expect(result.warnings, b.description).toEqual([])
    }
  })

  it("a broken start/end pair has a well-formed end before its start", () => {
    const pairs = samples("market-participant-definitions").filter((b) => b.expected.code === "start_date_later_than_end_date")
    expect(pairs.length).toBeGreaterThan(0)
    for (const broken of pairs) {
      const result = validatePayload("market-participant-definitions", broken.payload)
      expect(result.ok ? [] : result.error.errors.map((e) => e.code)).toEqual(["start_date_later_than_end_date"])
    }
  })
})
