/**
 * Differential property: the check generated ahead of time and `validatePayload` agree on every input:
 * valid or not, the same warnings for a valid one, and through `compileValidator` the same result (so the
 * same set of errors, in the same order). Generated valid payloads (with warnings), broken ones of the
 * testing kit, and arbitrary JSON: whole values, and valid payloads with parts replaced by arbitrary JSON.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compileValidator, ENDPOINT_IDS, type EndpointId, endpoints, type PostEndpointId, validatePayload } from "../../src/index.js"
import { arbitraryInvalidPayload, arbitraryPayload, DEFAULT_NOW, type Json } from "../../src/testing/index.js"
import { generatedRefs } from "../../src/validation/generate-validators.js"
import { GENERATED_VALIDATORS } from "../../src/validation/generated/validators.js"
import type { PathError } from "../../src/validation/issue-to-errors.js"
import { inDocumentOrder } from "../../src/validation/run-validation.js"

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

describe("the generated check and validatePayload agree", () => {
  for (const id of ENDPOINT_IDS) {
    it(`${id}: on valid/invalid, on warnings, and on the whole result (${RUNS} inputs)`, () => {
      const generated = GENERATED_VALIDATORS[id]!
      const check = generated.make(generatedRefs(id).map((r) => r.value))
      const compiled = compileValidator(id, { input: "json" })
      let valid = 0
      fc.assert(
        fc.property(inputs(id), (input) => {
          const reference = validatePayload(id, input, context)
          const found: Array<PathError> = []
          const ok = check(input, found, context)
          expect(ok).toBe(reference.ok)
          if (ok) {
            valid++
            expect(inDocumentOrder(input, found)).toEqual(reference.warnings)
          }
          expect(compiled(input, context)).toEqual(reference)
        }),
        { numRuns: RUNS, seed: 12 }
      )
      // Both answers are drawn often.
      expect(valid).toBeGreaterThan(RUNS / 10)
      expect(valid).toBeLessThan(RUNS - RUNS / 10)
    })
  }
})
