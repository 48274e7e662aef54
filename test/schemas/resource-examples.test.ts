/**
 * What each POST endpoint's entry declares beside its schemas, checked against its examples and its
 * responses, for every endpoint of the catalogue alike: an example payload (`examples/payloads/<id>.json`)
 * that validates without warnings, an example mapping (`examples/mappings/*.mapping.json`) naming it, the
 * fields `--documents` looks up found in the example, and the item statuses its answer may carry.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EndpointDefinition, endpoints, POST_ENDPOINT_IDS, validatePayload } from "../../src/index.js"
import { arbitraryResponse } from "../../src/testing/index.js"
import { documentReferencesOf } from "../../src/validation/file-store.js"
import { loadExample } from "../support/payloads.js"

const EXAMPLES = new URL("../../examples/", import.meta.url)

/** The endpoint each example mapping names. */
const mappedEndpoints = readdirSync(new URL("mappings/", EXAMPLES))
  .filter((name) => name.endsWith(".mapping.json"))
  .map((name) => (JSON.parse(readFileSync(new URL(`mappings/${name}`, EXAMPLES), "utf8")) as { endpoint: string }).endpoint)

describe.each(POST_ENDPOINT_IDS)("%s", (id) => {
  const entry: EndpointDefinition = endpoints[id]

  it("has an example payload that validates without warnings, and an example mapping", () => {
    expect(existsSync(new URL(`payloads/${id}.json`, EXAMPLES)), `examples/payloads/${id}.json`).toBe(true)
    const result = validatePayload(id, loadExample(id))
    expect(result.ok ? [] : result.error.errors).toEqual([])
    expect(result.warnings).toEqual([])
    expect(mappedEndpoints, `a mapping in examples/mappings with "endpoint": "${id}"`).toContain(id)
  })

  it("names its document, and its example names a file at each of its document-path fields", () => {
    expect(entry.documentName?.trim() ?? "").not.toBe("")
    const references = documentReferencesOf(id, loadExample(id))
    for (const field of entry.documentPaths ?? []) {
      const pattern = new RegExp(`^${field.replaceAll(".", "\\.").replaceAll("[]", "\\.\\d+")}$`, "u")
      expect(references.some((r) => pattern.test(r.attr)), field).toBe(true)
    }
    if (entry.documentPaths === undefined) expect(references).toEqual([])
  })
})

const PER_ITEM = POST_ENDPOINT_IDS.filter((id) => (endpoints[id] as EndpointDefinition).itemResults !== undefined)

describe("endpoints that answer per item", () => {
  it("are some", () => {
    expect(PER_ITEM.length).toBeGreaterThan(0)
  })

  it.each(PER_ITEM)("%s: answers the items of its natural key, and reads every status its 201 may carry and no other", (id) => {
    const entry: EndpointDefinition = endpoints[id]
    const results = entry.itemResults!
    expect(entry.naturalKey?.items).toBeDefined()
    const seen = new Set<string>()
    for (const body of fc.sample(arbitraryResponse(id, 201 as never), { numRuns: 200, seed: 44 })) {
      const list = (results.in === "body" ? body : (body as { results: unknown }).results) as ReadonlyArray<{ status: string }>
      for (const item of list) seen.add(item.status)
    }
    expect([...seen].sort()).toEqual(Object.keys(results.statuses).sort())
  })
})
