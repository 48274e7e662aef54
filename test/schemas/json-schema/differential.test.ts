/**
 * Differential test: ajv (draft 2020-12, formats asserted) compiled from `toJsonSchema` agrees with
 * `validatePayload` on generated valid and broken payloads, for every rule JSON Schema can express. The
 * rules it cannot express are those that declare no JSON Schema fragment; for those, ajv must accept the
 * broken payload (so the declaration is exact: a rule that JSON Schema starts to express fails this test
 * until it declares its fragment).
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { POST_ENDPOINT_IDS, toJsonSchema, validatePayload, WARNING_CODES } from "../../../src/index.js"
import { arbitraryInvalidPayload } from "../../../src/testing/index.js"
import { toAttr } from "../../../src/validation/path.js"
import { brokenSamples, NOT_EXPRESSIBLE, SEED, validSamples } from "./differential-payloads.js"

// ajv-formats is CommonJS with `exports.default`: under Node's ESM interop the plugin sits one level down.
type Plugin = (ajv: Ajv2020) => unknown
const addFormats: Plugin = (addFormatsModule as unknown as { default?: Plugin }).default ?? (addFormatsModule as unknown as Plugin)

/**
 * Warnings are not errors, so JSON Schema has nothing to say about them: a payload that draws one is
 * valid for both validators.
 */
const WARNINGS_NOT_EXPRESSED = Object.keys(WARNING_CODES)

/** The `attr`s an ajv error points at (the missing or unexpected key itself, for those keywords). */
const attrsOf = (errors: ReadonlyArray<ErrorObject>): Set<string> =>
  new Set(errors.map((e) => {
    const steps = e.instancePath.split("/").slice(1).map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    if (e.keyword === "required") steps.push(String((e.params as { missingProperty: string }).missingProperty))
    if (e.keyword === "additionalProperties") steps.push(String((e.params as { additionalProperty: string }).additionalProperty))
    return toAttr(steps)
  }))

describe.each(POST_ENDPOINT_IDS)("ajv from toJsonSchema(%s) against validatePayload", (id) => {
  const ajv = new Ajv2020({ allErrors: true, strict: true })
  addFormats(ajv)
  const validate = ajv.compile(toJsonSchema(id))

  it("both accept 500 generated valid payloads, with and without warnings", () => {
    for (const payload of validSamples(id)) {
      const result = validatePayload(id, payload)
      expect(result.ok).toBe(true)
      for (const warning of result.warnings) expect(WARNINGS_NOT_EXPRESSED).toContain(warning.code)
      if (!validate(payload)) throw new Error(`ajv rejects ${JSON.stringify(payload)}: ${JSON.stringify(validate.errors)}`)
    }
  })

  it("on 1,000 broken payloads: ajv rejects each at the same attr, unless the rule is one JSON Schema cannot express", () => {
    const notExpressible = new Set<string>(NOT_EXPRESSIBLE)
    const seen = { expressed: 0, notExpressed: new Set<string>() }
    for (const broken of brokenSamples(id)) {
      const result = validatePayload(id, broken.payload)
      expect(result.ok).toBe(false)
      const accepted = validate(broken.payload)
      if (notExpressible.has(broken.expected.code)) {
        seen.notExpressed.add(broken.expected.code)
        if (!accepted) throw new Error(`${broken.description}: ajv rejects it, so ${broken.expected.code} is expressible`)
      } else {
        seen.expressed++
        if (accepted) throw new Error(`${broken.description}: ajv accepts it (expected ${JSON.stringify(broken.expected)})`)
        const attrs = attrsOf(validate.errors ?? [])
        if (!attrs.has(broken.expected.attr)) {
          throw new Error(`${broken.description}: ajv reports ${[...attrs].join(", ")}, not ${broken.expected.attr}`)
        }
      }
    }
    expect(seen.expressed).toBeGreaterThan(500)
  })
})

describe("the lists of what JSON Schema cannot express", () => {
  it("each error code occurs among the generated broken payloads (no stale entry)", () => {
    const occurring = new Set<string>()
    for (const id of POST_ENDPOINT_IDS) {
      for (const broken of fc.sample(arbitraryInvalidPayload(id), { numRuns: 300, seed: SEED })) occurring.add(broken.expected.code)
    }
    for (const code of NOT_EXPRESSIBLE) expect(occurring, code).toContain(code)
  })
})
