/**
 * The real API's published example bodies (`test/fixtures/reference`, see its README) and the library's own example
 * payloads (`examples/payloads`) against `validatePayload`.
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { isEndpointId, POST_ENDPOINT_IDS, validatePayload } from "../../src/index.js"

const REFERENCE_DIR = new URL("../fixtures/reference/", import.meta.url)
const PAYLOADS_DIR = new URL("../../examples/payloads/", import.meta.url)

/** A clock after every date of the examples, so `transaction_in_future` never fires by accident. */
const NOW = new Date("2030-01-01T00:00:00Z")

const readJson = (url: URL): unknown => JSON.parse(readFileSync(url, "utf8"))

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The attrs (dot paths) of the fields present in `raw` but missing from `kept`, found by walking both
 * documents together.
 */
const removedAttrs = (raw: unknown, kept: unknown, path: ReadonlyArray<string> = []): Array<string> => {
  if (Array.isArray(raw) && Array.isArray(kept)) {
    return raw.flatMap((item: unknown, index) => removedAttrs(item, kept[index], [...path, String(index)]))
  }
  if (isRecord(raw) && isRecord(kept)) {
    return Object.keys(raw).flatMap((key) =>
      Object.hasOwn(kept, key) ? removedAttrs(raw[key], kept[key], [...path, key]) : [[...path, key].join(".")]
    )
  }
  return []
}

/** `value` without the fields at `attrs` (used to check that the two documents differ only by removals). */
const withoutAttrs = (value: unknown, attrs: ReadonlySet<string>, path: ReadonlyArray<string> = []): unknown => {
  if (Array.isArray(value)) return value.map((item: unknown, index) => withoutAttrs(item, attrs, [...path, String(index)]))
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !attrs.has([...path, key].join(".")))
        .map(([key, child]) => [key, withoutAttrs(child, attrs, [...path, key])])
    )
  }
  return value
}

interface ReferencePair {
  readonly endpointId: string
  readonly name: string
  readonly raw: unknown
  readonly conformant: unknown
}

const referencePairs: Array<ReferencePair> = readdirSync(REFERENCE_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) => {
    const folder = new URL(`${dir.name}/`, REFERENCE_DIR)
    return readdirSync(folder)
      .filter((file) => /^request-.*\.spec-conformant\.json$/u.test(file))
      .sort()
      .map((file) => {
        const rawFile = file.replace(/\.spec-conformant\.json$/u, ".json")
        return {
          endpointId: dir.name,
          name: `${dir.name}/${file}`,
          raw: readJson(new URL(rawFile, folder)),
          conformant: readJson(new URL(file, folder))
        }
      })
  })

const rawRequestFiles: Array<string> = readdirSync(REFERENCE_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(new URL(`${dir.name}/`, REFERENCE_DIR))
      .filter((file) => /^request-.*\.json$/u.test(file) && !file.endsWith(".spec-conformant.json"))
      .map((file) => `${dir.name}/${file}`)
  )

const examplePayloads = readdirSync(PAYLOADS_DIR)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => ({ endpointId: file.replace(/\.json$/u, ""), input: readJson(new URL(file, PAYLOADS_DIR)) }))

describe("reference examples of the real API", () => {
  it("finds the request examples, each raw one paired with a spec-conformant one", () => {
    expect(referencePairs.length).toBeGreaterThanOrEqual(4)
    expect(rawRequestFiles.sort()).toEqual(
      referencePairs.map((p) => p.name.replace(/\.spec-conformant\.json$/u, ".json")).sort()
    )
    for (const pair of referencePairs) expect(isEndpointId(pair.endpointId), pair.endpointId).toBe(true)
  })

  it("includes at least one raw example that differs from its spec-conformant version", () => {
    expect(referencePairs.some((p) => removedAttrs(p.raw, p.conformant).length > 0)).toBe(true)
  })

  describe.each(referencePairs)("$name", ({ endpointId, raw, conformant }) => {
    it("the spec-conformant version validates", () => {
      if (!isEndpointId(endpointId)) throw new Error(`not an endpoint id: ${endpointId}`)
      const result = validatePayload(endpointId, conformant, { now: NOW })
      expect(result.ok ? [] : result.error.errors).toEqual([])
      expect(result.ok).toBe(true)
    })

    it("the raw version differs from it only by removed fields", () => {
      const removed = new Set(removedAttrs(raw, conformant))
      expect(withoutAttrs(raw, removed)).toEqual(conformant)
    })

    it("the raw version fails only with unknown_field, exactly at the removed fields (or validates when identical)", () => {
      if (!isEndpointId(endpointId)) throw new Error(`not an endpoint id: ${endpointId}`)
      const removed = removedAttrs(raw, conformant)
      const result = validatePayload(endpointId, raw, { now: NOW })
      if (removed.length === 0) {
        expect(raw).toEqual(conformant)
        expect(result.ok ? [] : result.error.errors).toEqual([])
        expect(result.ok).toBe(true)
        return
      }
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.errors.map((e) => e.code)).toEqual(removed.map(() => "unknown_field"))
      expect(result.error.errors.map((e) => e.attr).sort()).toEqual([...removed].sort())
    })
  })
})

describe("examples/payloads", () => {
  it("holds one payload per POST endpoint", () => {
    expect(examplePayloads.map((p) => p.endpointId).sort()).toEqual([...POST_ENDPOINT_IDS].sort())
  })

  it.each(examplePayloads)("the example of $endpointId validates with no errors and no warnings", ({ endpointId, input }) => {
    if (!isEndpointId(endpointId)) throw new Error(`not an endpoint id: ${endpointId}`)
    const result = validatePayload(endpointId, input, { now: NOW })
    expect(result.ok ? [] : result.error.errors).toEqual([])
    expect(result.ok).toBe(true)
    // The examples are the library's showcase: nothing in them should even be suspicious.
    expect(result.warnings).toEqual([])
  })
})

/**
 * The German guide pages' example payloads, which the reference gives as tables of fields and values
 * (real-api-notes.md, sections 2, 3 and 12: delivery-note, energy-amount, market-participant), written out
 * here; where a table gives a field's type but not its value (the participant's names and e-mail) a value of
 * that type stands in. The energy-amount example is cut after `qualifier` there; the part shown holds every
 * required field.
 * The fees example (section 13) is cut before `article_prices`, which the contract requires, so it is no
 * complete payload and is left out.
 */
describe("example payloads of the German guide pages", () => {
  const account = { import_supplier: "TENTACLE_ENERGY", external_account_number: "EXTERNAL-1234" }
  const amount = {
    period_start_at: "2023-01-01T00:00:00+01:00",
    period_end_at: "2023-01-31T23:59:59+01:00",
    product_identifier: "1-1:1.9.0",
    product_identifier_type: "SRW",
    quantity: "123.456789000",
    quantity_unit: "KWH",
    line_item_identifier: "A123"
  }
  it.each([
    ["delivery-note", {
      ...account,
      delivery_note: {
        malo_number: "12345678901",
        amounts: [amount],
        preceding_reference: "REF-001",
        cancelled: false,
        validation_status: true,
        last_validation_at: "2023-02-01T12:00:00+01:00",
        edifact_reference_number: "DOC-DN-123456789"
      }
    }],
    ["energy-amount", {
      ...account,
      energy_amount: {
        malo_number: "12345678901",
        ...amount,
        preceding_reference: "REF-001",
        cancelled: false,
        cancelled_at: null,
        cancelled_reference: null,
        qualifier: "Z18"
      }
    }],
    ["market-participant", {
      code: 9900123456789,
      code_type: "BDEW",
      name: "Netzbetreiber GmbH",
      role: "NETWORK_OPERATOR",
      energy: "ELECTRICITY",
      contact_details: [{ category: "Z10", name: "Netzabrechnung", email: "netzabrechnung@example.com", phone: "+49123456789", valid_from: "2024-01-01T00:00:00+01:00" }]
    }]
  ] as const)("the %s example validates with no errors and no warnings", (endpointId, input) => {
    const result = validatePayload(endpointId, input, { now: NOW })
    expect(result.ok ? [] : result.error.errors).toEqual([])
    expect(result.warnings).toEqual([])
  })
})
