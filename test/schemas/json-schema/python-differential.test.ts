/**
 * Differential test with a second engine outside JavaScript: Python's jsonschema (draft 2020-12, formats
 * asserted) reads the exported JSON Schemas and judges the same generated valid and broken payloads as the
 * ajv test (`differential-payloads.ts`). It catches what JavaScript alone cannot: a pattern that means
 * something else in another regular expression engine (`\d` matching "١٢٣", `$` matching before "\n").
 *
 * It runs `/usr/bin/python3` with the `jsonschema` module (Debian: `apt-get install python3-jsonschema`),
 * all payloads in one process, as NDJSON. Where the module is missing the comparison cannot run; CI
 * installs it and sets REQUIRE_PYTHON_JSONSCHEMA=1, under which its absence fails the run.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { POST_ENDPOINT_IDS, type PostEndpointId, toJsonSchema, validatePayload } from "../../../src/index.js"
import type { InvalidPayload, JsonObject } from "../../../src/testing/index.js"
import { toAttr } from "../../../src/validation/path.js"
import { brokenSamples, NOT_EXPRESSIBLE, validSamples } from "./differential-payloads.js"

const PYTHON = "/usr/bin/python3"
const SCRIPT = fileURLToPath(new URL("./jsonschema-check.py", import.meta.url))
const REQUIRED = process.env["REQUIRE_PYTHON_JSONSCHEMA"] === "1"

/** Whether Python's jsonschema can be run here, and if not, what Python said (or why it did not start). */
const probe = (): { readonly available: boolean; readonly why: string } => {
  const run = spawnSync(PYTHON, ["-c", "import jsonschema"], { encoding: "utf8" })
  return { available: run.status === 0, why: run.error !== undefined ? String(run.error) : run.stderr }
}

interface Verdict {
  readonly valid: boolean
  readonly attrs: ReadonlySet<string>
}

/** Judges every payload with one Python process; the verdicts come back in input order. */
const judge = (items: ReadonlyArray<{ readonly id: PostEndpointId; readonly payload: JsonObject }>): Array<Verdict> => {
  const schemas = Object.fromEntries(POST_ENDPOINT_IDS.map((id) => [id, toJsonSchema(id)]))
  const input = [JSON.stringify({ schemas }), ...items.map((item) => JSON.stringify(item))].join("\n") + "\n"
  const run = spawnSync(PYTHON, [SCRIPT], { input, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" })
  if (run.status !== 0) throw new Error(`${PYTHON} ${SCRIPT} failed (${String(run.status)}): ${run.stderr}`)
  const lines = run.stdout.trimEnd().split("\n")
  expect(lines.length).toBe(items.length)
  return lines.map((line) => {
    const verdict = JSON.parse(line) as { valid: boolean; paths: Array<Array<string | number>> }
    return { valid: verdict.valid, attrs: new Set(verdict.paths.map(toAttr)) }
  })
}

describe("Python jsonschema on toJsonSchema against validatePayload", () => {
  const { available: isAvailable, why } = probe()

  it(REQUIRED ? "is installed (REQUIRE_PYTHON_JSONSCHEMA=1)" : "is installed, or truly missing where it is not required", () => {
    expect(isAvailable || !REQUIRED, `${PYTHON} cannot import jsonschema, and REQUIRE_PYTHON_JSONSCHEMA=1: ${why}`).toBe(true)
    // Off CI the comparison may be missing, but only for want of Python or of the module: a probe that
    // fails for another reason would hide the comparison everywhere.
    if (!isAvailable) expect(why).toMatch(/No module named '?jsonschema'?|ENOENT/u)
  })

  if (!isAvailable) return

  const valid = POST_ENDPOINT_IDS.flatMap((id) => validSamples(id).map((payload) => ({ id, payload })))
  const broken = POST_ENDPOINT_IDS.flatMap((id) => brokenSamples(id).map((b): { id: PostEndpointId; payload: JsonObject; broken: InvalidPayload } => ({ id, payload: b.payload, broken: b })))
  const verdicts = judge([...valid, ...broken])

  it(`accepts the ${valid.length} generated valid payloads that validatePayload accepts`, () => {
    valid.forEach(({ id, payload }, i) => {
      expect(validatePayload(id, payload).ok).toBe(true)
      if (!verdicts[i]!.valid) throw new Error(`jsonschema rejects ${JSON.stringify(payload)} (${[...verdicts[i]!.attrs].join(", ")})`)
    })
  })

  it(`on ${broken.length} broken payloads: rejects each at the same attr, unless JSON Schema cannot express the rule`, () => {
    const notExpressible = new Set<string>(NOT_EXPRESSIBLE)
    let expressed = 0
    broken.forEach(({ id, payload, broken: { expected, description } }, i) => {
      const verdict = verdicts[valid.length + i]!
      expect(validatePayload(id, payload).ok).toBe(false)
      if (notExpressible.has(expected.code)) {
        if (!verdict.valid) throw new Error(`${description}: jsonschema rejects it, so ${expected.code} is expressible`)
        return
      }
      expressed++
      if (verdict.valid) throw new Error(`${id}: ${description}: jsonschema accepts it (expected ${JSON.stringify(expected)})`)
      if (!verdict.attrs.has(expected.attr)) {
        throw new Error(`${id}: ${description}: jsonschema reports ${[...verdict.attrs].join(", ")}, not ${expected.attr}`)
      }
    })
    expect(expressed).toBeGreaterThan(5_000)
  })
})
