/**
 * The generated payloads both differential tests (ajv, Python jsonschema) run through the exported JSON
 * Schemas: the same seed and counts, so the two engines are judged on the same inputs.
 */
import * as fc from "fast-check"
import type { PostEndpointId } from "../../../src/index.js"
import type { CrossFieldRule } from "../../../src/schemas/cross-field-rule.js"
import registry from "../../../src/schemas/registry.js"
import { arbitraryInvalidPayload, arbitraryPayload, type InvalidPayload, type JsonObject } from "../../../src/testing/index.js"

/** The seed of every sample. */
export const SEED = 20_250_104

/** 250 valid payloads without warnings, then 250 that may draw warnings. */
export const validSamples = (id: PostEndpointId): Array<JsonObject> =>
  // Plain JSON, as generated; the payload types are narrower than JsonObject only on paper.
  [{}, { withWarnings: true }].flatMap((options) => fc.sample(arbitraryPayload(id, options), { numRuns: 250, seed: SEED }) as Array<JsonObject>)

/** 1,000 payloads, each broken in one way. */
export const brokenSamples = (id: PostEndpointId): Array<InvalidPayload> =>
  fc.sample(arbitraryInvalidPayload(id), { numRuns: 1_000, seed: SEED })

/**
 * What JSON Schema cannot express, by error code: the rules that declare no JSON Schema fragment. They
 * compare two values of a payload (a start and an end, compared as instants across offsets; `unpin_at`
 * and `created_at`; the bounds of an interval zone), ask that one field be unique across list items
 * (`uniqueItems` compares whole items), or read the clock. The differential tests hold each rule to its
 * declaration: one with a fragment is rejected by both engines at the same attr, one without is accepted.
 */
export const NOT_EXPRESSIBLE: ReadonlyArray<string> = [
  ...new Set((registry.rules.crossField as ReadonlyArray<CrossFieldRule>).filter((rule) => rule.jsonSchema === undefined).map((rule) => rule.name))
]
