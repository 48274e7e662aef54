/**
 * Differential property: the accept-only check compiled from the schemas accepts an input exactly when
 * the one reporter (`validatePayload`) finds no error and no warning in it, its variant without the
 * warnings exactly when the reporter finds no error, and `compileValidator`, which
 * answers every other input through the reporter, gives `validatePayload`'s result (so the same set of
 * errors and warnings, in the same order). Generated valid payloads (with warnings), precisely broken
 * ones of the testing kit, and arbitrary JSON: whole values, and valid payloads with parts replaced by
 * arbitrary JSON.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compileValidator, ENDPOINT_IDS, type EndpointId, endpoints, type PostEndpointId, validatePayload } from "../../src/index.js"
import { arbitraryInvalidPayload, arbitraryPayload, DEFAULT_NOW, type Json } from "../../src/testing/index.js"
import { compileCheck } from "../../src/validation/compile-check.js"

const RUNS = 10_000
const context = { now: DEFAULT_NOW }

type Step = string | number

/** Every path into a JSON value, the root first. */
const pathsOf = (value: Json, path: Array<Step> = []): Array<Array<Step>> => {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, i) => pathsOf(item, [...path, i]))]
  if (value !== null && typeof value === "object") return [path, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, k]))]
  return [path]
}

/** `root` with the value at the `pick`-th path replaced. */
const replaced = (root: Json, pick: number, value: Json): Json => {
  const paths = pathsOf(root)
  const path = paths[pick % paths.length]!
  if (path.length === 0) return value
  const copy = structuredClone(root)
  let node = copy as Record<Step, Json>
  for (const step of path.slice(0, -1)) node = node[step] as Record<Step, Json>
  node[path[path.length - 1]!] = value
  return copy
}

/** A request of a GET endpoint: its path parameters, mostly right, sometimes wrong or with a key too many. */
const pathParameters = (id: EndpointId): fc.Arbitrary<Json> => {
  const value = fc.oneof(
    { arbitrary: fc.string({ minLength: 1, maxLength: 140 }), weight: 8 },
    { arbitrary: fc.constantFrom(" ", "", "x".repeat(33), "x".repeat(129)), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 1 }), weight: 1 }
  )
  const known = fc.record(Object.fromEntries(endpoints[id].pathParameters.map((name) => [name, value])), { requiredKeys: [] })
  const extra = fc.option(fc.dictionary(fc.string({ maxLength: 3 }), value, { maxKeys: 1 }), { freq: 5 })
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }) as Json)
}

const inputs = (id: EndpointId): fc.Arbitrary<Json> => {
  const arbitrary = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>
  if (endpoints[id].method !== "POST") return fc.oneof(pathParameters(id), arbitrary)
  const post = id as PostEndpointId
  const valid = arbitraryPayload(post, { withWarnings: true }) as fc.Arbitrary<Json>
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: arbitraryInvalidPayload(post).map((b) => b.payload as Json), weight: 4 },
    { arbitrary: fc.tuple(valid, fc.nat(), fc.jsonValue({ maxDepth: 2 })).map(([p, pick, value]) => replaced(p, pick, value as Json)), weight: 2 },
    { arbitrary, weight: 1 }
  )
}

/** Whether valid payloads of `id` can draw a warning: some of those the generator makes to draw one do. */
const canWarn = (id: EndpointId): boolean =>
  endpoints[id].method === "POST" &&
  fc.sample(arbitraryPayload(id as PostEndpointId, { withWarnings: true }), { numRuns: 200, seed: 12 })
    .some((payload) => validatePayload(id, payload, context).warnings.length > 0)

describe("which endpoints can warn", () => {
  it("notes and transactions can; the price sheets, which have nothing that warns, and the status queries cannot", () => {
    expect(ENDPOINT_IDS.filter(canWarn)).toContain("notes")
    expect(ENDPOINT_IDS.filter(canWarn)).toContain("transactions")
    expect(canWarn("market-participant-fees")).toBe(false)
    expect(canWarn("account-transfer-status")).toBe(false)
  })
})

describe("the accept-only check, compileValidator and the reporter agree", () => {
  for (const id of ENDPOINT_IDS) {
    it(`${id}: accepted ⇔ no error and no warning, and the whole result (${RUNS} inputs)`, () => {
      const { accepts } = compileCheck(endpoints[id].request.ast)!
      const { accepts: acceptsValid } = compileCheck(endpoints[id].request.ast, { warnings: false })!
      const compiled = compileValidator(id, { input: "json" })
      // Inputs drawn: RUNS, or fewer in a mutation run (test/support/capped-fast-check.ts).
      let drawn = 0
      let valid = 0
      let accepted = 0
      let warned = 0
      fc.assert(
        fc.property(inputs(id), (input) => {
          drawn++
          const reference = validatePayload(id, input, context)
          const ok = accepts(input, context)
          expect(ok).toBe(reference.ok && reference.warnings.length === 0)
          // The check of validity alone accepts exactly the valid inputs, warnings or not.
          expect(acceptsValid(input, context)).toBe(reference.ok)
          if (reference.ok) valid++
          if (ok) accepted++
          if (reference.warnings.length > 0) warned++
          expect(compiled(input, context)).toEqual(reference)
        }),
        { numRuns: RUNS, seed: 12 }
      )
      // Both answers are drawn often, of the reporter and of the check.
      expect(valid).toBeGreaterThan(drawn / 10)
      expect(valid).toBeLessThan(drawn - drawn / 10)
      expect(accepted).toBeGreaterThan(drawn / 200)
      expect(accepted).toBeLessThan(drawn - drawn / 10)
      // Valid inputs with warnings (which the check leaves to the reporter) are drawn wherever the
      // schema can warn.
      if (canWarn(id)) expect(warned).toBeGreaterThan(0)
    })
  }
})
