/**
 * The generated validators (`src/validation/generated/validators.ts`) are what the schemas give today:
 * the file is written again in memory and compared. After a change to a schema, `npm run generate`.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS } from "../../src/index.js"
import { generatedRefs, generateValidatorsSource } from "../../src/validation/generate-validators.js"
import { GENERATED_VALIDATORS } from "../../src/validation/generated/validators.js"

describe("generated validators", () => {
  it("are up to date with the schemas (else run npm run generate)", () => {
    const onDisk = readFileSync(new URL("../../src/validation/generated/validators.ts", import.meta.url), "utf8")
    expect(onDisk === generateValidatorsSource()).toBe(true)
  })

  it("say they are generated and how to regenerate them", () => {
    const onDisk = readFileSync(new URL("../../src/validation/generated/validators.ts", import.meta.url), "utf8")
    expect(onDisk.split("\n").slice(0, 3).join("\n")).toMatch(/do not edit by hand[\s\S]*npm run generate/u)
  })

  it("cover every endpoint and call the rules the schemas declare, in the order they expect", () => {
    expect(Object.keys(GENERATED_VALIDATORS).sort()).toEqual([...ENDPOINT_IDS].sort())
    for (const id of ENDPOINT_IDS) expect(GENERATED_VALIDATORS[id]!.refs).toEqual(generatedRefs(id).map((r) => r.label))
  })

  it("need the clock only where a rule does (transactions)", () => {
    expect(ENDPOINT_IDS.filter((id) => GENERATED_VALIDATORS[id]!.clock)).toEqual(["transactions"])
  })
})
