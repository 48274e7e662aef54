/**
 * Differential property: the check generated ahead of time and `validatePayload` agree on every input:
 * valid or not, the same warnings for a valid one, and through `compileValidator` the same result (so the
 * same set of errors, in the same order). The generated error collector, wherever it answers, gives the
 * reference's errors exactly (the same list, in the same order, with the same details) and its warnings;
 * the generated warning collector finds exactly what `collectWarnings` finds, on every input. Generated valid payloads (with warnings), broken ones of the
 * testing kit, and arbitrary JSON: whole values, and valid payloads with parts replaced by arbitrary JSON.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compileValidator, ENDPOINT_IDS, type EndpointId, endpoints, type PostEndpointId, validatePayload } from "../../src/index.js"
import { arbitraryInvalidPayload, arbitraryPayload, DEFAULT_NOW, type Json } from "../../src/testing/index.js"
import { generatedRefs } from "../../src/validation/generate-validators.js"
import { GENERATED_VALIDATORS } from "../../src/validation/generated/validators.js"
import { collectWarnings } from "../../src/validation/collect-warnings.js"
import type { PathError } from "../../src/validation/issue-to-errors.js"
import { inDocumentOrder, reportValidation } from "../../src/validation/run-validation.js"

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

describe("the generated check, the generated error collector and validatePayload agree", () => {
  for (const id of ENDPOINT_IDS) {
    it(`${id}: on valid/invalid, on warnings, and on the whole result (${RUNS} inputs)`, () => {
      const generated = GENERATED_VALIDATORS[id]!
      const refs = generatedRefs(id).map((r) => r.value)
      const check = generated.make(refs)
      const errors = generated.errors(refs)
      const warnings = generated.warnings(refs)
      const ast = endpoints[id].request.ast
      const compiled = compileValidator(id, { input: "json" })
      // Inputs drawn: RUNS, or fewer in a mutation run (test/support/capped-fast-check.ts).
      let drawn = 0
      let valid = 0
      let invalidObjects = 0
      let collected = 0
      fc.assert(
        fc.property(inputs(id), (input) => {
          drawn++
          const reference = validatePayload(id, input, context)
          const found: Array<PathError> = []
          const ok = check(input, found, context)
          expect(ok).toBe(reference.ok)
          if (ok) {
            valid++
            expect(inDocumentOrder(input, found)).toEqual(reference.warnings)
          }
          expect(compiled(input, context)).toEqual(reference)
          // The warning collector finds what collectWarnings finds, in its order, in any input.
          const warned: Array<PathError> = []
          warnings(input, warned)
          expect(warned).toStrictEqual(collectWarnings(ast, input))
          if (input === null || typeof input !== "object" || Array.isArray(input)) return
          const decodeErrors: Array<PathError> = []
          const answer = errors(input, decodeErrors)
          // No error where the reference finds none; the collector answers false exactly when it found some.
          if (reference.ok) expect(decodeErrors).toEqual([])
          expect(answer === false).toBe(decodeErrors.length > 0)
          if (reference.ok) return
          invalidObjects++
          if (answer !== false) return
          collected++
          const report = reportValidation(ast, input, decodeErrors, undefined, context.now, warned)
          expect(report.ok).toBe(false)
          if (report.ok) return
          expect(report.error.errors).toStrictEqual(reference.error.errors)
          expect(report.warnings).toStrictEqual(reference.warnings)
          expect(report).toStrictEqual(reference)
        }),
        { numRuns: RUNS, seed: 12 }
      )
      // Both answers are drawn often.
      expect(valid).toBeGreaterThan(drawn / 10)
      expect(valid).toBeLessThan(drawn - drawn / 10)
      // The collector answers for nearly every invalid object (not for a rule of the clock alone).
      expect(invalidObjects).toBeGreaterThan(drawn / 10)
      expect(collected).toBeGreaterThan(invalidObjects * 0.9)
    })
  }
})
