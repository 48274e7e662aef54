/**
 * `samplePayloads`: plain generated payloads (what `data-import sample` prints): as many as asked, the
 * same ones for the same seed, valid ones that validate without warnings, and broken ones with exactly
 * the one error they name.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { POST_ENDPOINT_IDS, type PostEndpointId, validatePayload } from "../../src/index.js"
import { samplePayloads } from "../../src/testing/index.js"

const SEED = 20_250_106

describe("samplePayloads", () => {
  it("gives count payloads, the same ones for the same seed, and valid ones validate without warnings", () => {
    fc.assert(
      fc.property(fc.constantFrom(...POST_ENDPOINT_IDS), fc.integer({ min: 1, max: 5 }), fc.integer(), (id, count, seed) => {
        const samples = samplePayloads(id, { count, seed })
        expect(samples).toHaveLength(count)
        expect(samplePayloads(id, { count, seed })).toEqual(samples)
        for (const { payload, expected } of samples) {
          expect(expected).toBeUndefined()
          const result = validatePayload(id, payload)
          expect(result.ok ? result.warnings : result.error.errors).toEqual([])
        }
      }),
      { numRuns: 40, seed: SEED }
    )
  })

  it("with invalid: true, each payload has exactly the one error it names", () => {
    fc.assert(
      fc.property(fc.constantFrom(...POST_ENDPOINT_IDS), fc.integer(), (id, seed) => {
        for (const { payload, expected } of samplePayloads(id, { count: 3, seed, invalid: true })) {
          const result = validatePayload(id, payload)
          expect(result.ok ? [] : result.error.errors.map((e) => ({ attr: e.attr, code: e.code }))).toEqual([expected])
        }
      }),
      { numRuns: 40, seed: SEED }
    )
  })

  it("refuses a count that is not a whole number of at least 1, instead of answering with more or none", () => {
    for (const count of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => samplePayloads("notes", { count }), String(count)).toThrow(RangeError)
    }
    expect(() => samplePayloads("nope" as PostEndpointId, { count: 1 })).toThrow(TypeError)
  })
})
