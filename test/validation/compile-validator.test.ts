/**
 * `compileValidator` must answer exactly as `validatePayload`: same errors, warnings and order, for valid
 * payloads, broken ones and anything else. Checked on the example payloads, on generated payloads of the
 * testing kit (valid, with warnings, and broken), on mutations of the examples, and on hostile values.
 * `compileBodyCheck` (the pre-check of response bodies) may say "clean" only where `validateResponse`
 * finds no error and no warning.
 */
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  compileValidator,
  ENDPOINT_IDS,
  type EndpointId,
  endpoints,
  POST_ENDPOINT_IDS,
  type PostEndpointId,
  validatePayload,
  validateResponse
} from "../../src/index.js"
import { arbitraryInvalidPayload, arbitraryPayload, arbitraryResponse } from "../../src/testing/index.js"
import { compileBodyCheck } from "../../src/validation/compile-validator.js"

type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }
type Step = string | number

const NOW = new Date("2025-06-15T12:00:00Z")

const example = (id: PostEndpointId): Json =>
  JSON.parse(readFileSync(new URL(`../../examples/payloads/${id}.json`, import.meta.url), "utf8")) as Json

/** A valid input per endpoint: the example payloads, and path parameters for the GET endpoints. */
const VALID: ReadonlyArray<readonly [EndpointId, Json]> = ENDPOINT_IDS.map((id) => [
  id,
  endpoints[id].method === "POST"
    ? example(id as PostEndpointId)
    : Object.fromEntries(endpoints[id].pathParameters.map((name) => [name, name === "import_supplier_code" ? "STADTWERKE_NORD" : "KD-0045127"]))
])

/** Every path into a JSON value, the root first. */
const pathsOf = (value: Json, path: Array<Step> = []): Array<Array<Step>> => {
  const here = [path]
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => pathsOf(item, [...path, i]))]
  if (value !== null && typeof value === "object") return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, k]))]
  return here
}

const parentAndKey = (root: Json, path: ReadonlyArray<Step>): [Record<Step, Json>, Step] | undefined => {
  if (path.length === 0) return undefined
  let node: Json = root
  for (const step of path.slice(0, -1)) node = (node as Record<Step, Json>)[step] as Json
  return [node as Record<Step, Json>, path[path.length - 1]!]
}

const REPLACEMENTS: ReadonlyArray<Json> = [
  null, "", " ", "x", "kWh", "KWH", "1,5", "-0.5", "2024-02-30", "2024-13-01", "2999-01-01", "2024-10-01T00:00:00",
  "2024-10-01T00:00:00+02:00", "1999-01-01T00:00:00Z", "/abs/path.pdf", "+49 30 1234567", 0, -1, 1.5, 1e21, 1234567890123,
  true, false, [], [null], {}, { extra: 1 }, "SUPPLY_CHARGE", "PAYMENT", "CHARGE"
]

/** One change at one place of a payload: replace, delete, add an unknown key, empty or double a list. */
const mutation = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom("replace", "delete", "unknown-key", "empty-list", "duplicate-item", "swap-with-sibling"),
  replacement: fc.constantFrom(...REPLACEMENTS)
})

const mutate = (root: Json, m: { pick: number; kind: string; replacement: Json }): Json => {
  const copy = structuredClone(root)
  const paths = pathsOf(copy)
  const path = paths[m.pick % paths.length]!
  const target = parentAndKey(copy, path)
  switch (m.kind) {
    case "replace":
      if (target === undefined) return m.replacement
      target[0][target[1]] = m.replacement
      return copy
    case "delete":
      if (target === undefined) return copy
      if (Array.isArray(target[0])) target[0].splice(target[1] as number, 1)
      else delete target[0][target[1]]
      return copy
    case "unknown-key": {
      let node: Json = copy
      for (const step of path) node = (node as Record<Step, Json>)[step] as Json
      if (node !== null && typeof node === "object" && !Array.isArray(node)) node["zaehlernummer"] = "1ESY"
      return copy
    }
    case "empty-list":
    case "duplicate-item": {
      let node: Json = copy
      for (const step of path) node = (node as Record<Step, Json>)[step] as Json
      if (Array.isArray(node)) {
        if (m.kind === "empty-list") node.length = 0
        else if (node.length > 0) node.push(structuredClone(node[0]!))
      }
      return copy
    }
    default: {
      // Two values of the same object swap places (start and end dates, say).
      if (target === undefined || Array.isArray(target[0])) return copy
      const keys = Object.keys(target[0])
      const other = keys[(keys.indexOf(String(target[1])) + 1) % keys.length]!
      const held = target[0][target[1]]!
      target[0][target[1]] = target[0][other]!
      target[0][other] = held
      return copy
    }
  }
}

/** The fast path answers as validatePayload; for JSON text, also the validator that trusts its input to be JSON. */
const agree = (id: EndpointId, input: unknown, now: Date = NOW): void => {
  const full = validatePayload(id, input, { now })
  expect(compileValidator(id)(input, { now })).toEqual(full)
  let text: string | undefined
  try {
    text = JSON.stringify(input)
  } catch {
    text = undefined // a getter that throws: not JSON
  }
  if (text !== undefined) {
    const parsed: unknown = JSON.parse(text)
    expect(compileValidator(id, { input: "json" })(parsed, { now })).toEqual(validatePayload(id, parsed, { now }))
  }
}

describe("compileValidator", () => {
  it("answers the example payloads as validatePayload does, through the fast path (the input itself is the value)", () => {
    for (const [id, input] of VALID) {
      const result = compileValidator(id)(input, { now: NOW })
      expect(result).toEqual(validatePayload(id, input, { now: NOW }))
      expect(result.ok).toBe(true)
      if (result.ok) expect(result.value).toBe(input)
    }
  })

  it("agrees with validatePayload on one to three mutations of every example", () => {
    for (const [id, input] of VALID) {
      fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        agree(id, mutations.reduce(mutate, input))
      }), { numRuns: 150, seed: 7 })
    }
  })

  it("agrees on generated valid payloads, with and without warnings", () => {
    for (const id of POST_ENDPOINT_IDS) {
      fc.assert(fc.property(arbitraryPayload(id, { withWarnings: true }), (payload) => {
        agree(id, payload)
      }), { numRuns: 40, seed: 11 })
    }
  })

  it("agrees on generated broken payloads", () => {
    for (const id of POST_ENDPOINT_IDS) {
      fc.assert(fc.property(arbitraryInvalidPayload(id), ({ payload }) => {
        agree(id, payload)
      }), { numRuns: 40, seed: 13 })
    }
  })

  it("agrees on the clock rule: a transaction date after today is an error only from the fast path's fallback", () => {
    const input = example("transactions") as { transactions: Array<{ transaction_date: string }> }
    for (const date of ["2025-06-15", "2025-06-16", "2025-06-17", "2030-01-01"]) {
      const changed = structuredClone(input)
      changed.transactions[0]!.transaction_date = date
      agree("transactions", changed)
      agree("transactions", changed, new Date("2040-01-01T00:00:00Z"))
    }
  })

  it("agrees on values that are not plain JSON: symbol keys, inherited keys, null prototypes, getters", () => {
    const base = example("energy-amount") as Record<string, unknown>
    const withSymbol = { ...base, [Symbol("s")]: 1 }
    const nested = { ...base, energy_amount: Object.assign({ [Symbol.for("x")]: 1 }, base["energy_amount"]) }
    const inherited = Object.assign(Object.create({ zaehlernummer: "1" }) as object, base)
    const nullPrototype = Object.assign(Object.create(null) as object, base)
    const throwing = Object.defineProperty({ ...base }, "import_supplier", { enumerable: true, get: () => { throw new Error("boom") } })
    for (const input of [withSymbol, nested, inherited, nullPrototype, throwing, new Date(), [base], "text", 42, null]) {
      agree("energy-amount", input)
    }
  })

  it("agrees on arbitrary values", () => {
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withObjectString: true, maxDepth: 3 }), (input) => {
      for (const id of ["energy-amount", "notes", "account-transfer-status"] as const) agree(id, input)
    }), { numRuns: 300, seed: 17 })
  })

  it("stays right when Object.prototype has an enumerable key", () => {
    const input = example("energy-amount")
    Object.defineProperty(Object.prototype, "zaehlernummer", { value: "x", enumerable: true, configurable: true, writable: true })
    let fast: unknown
    let full: unknown
    try {
      fast = compileValidator("energy-amount")(input, { now: NOW })
      full = validatePayload("energy-amount", input, { now: NOW })
    } finally {
      delete (Object.prototype as Record<string, unknown>)["zaehlernummer"]
    }
    expect(fast).toEqual(full)
  })

  it("answers an unknown endpoint id as validatePayload does", () => {
    const id = "no-such-endpoint" as EndpointId
    expect(compileValidator(id)({})).toEqual(validatePayload(id, {}))
  })
})

/** Every documented status of every endpoint, with its body schema. */
const RESPONSES = ENDPOINT_IDS.flatMap((id) =>
  Object.entries(endpoints[id].responses as Readonly<Record<string, { readonly schema: Parameters<typeof compileBodyCheck>[0] }>>)
    .map(([status, response]) => ({ id, status: Number(status), schema: response.schema })))

/** "Clean" from the pre-check means valid without warnings for validateResponse, in both modes. */
const cleanOnlyIfClean = (id: EndpointId, status: number, schema: Parameters<typeof compileBodyCheck>[0], body: unknown): boolean => {
  const parsed: unknown = JSON.parse(JSON.stringify(body) ?? "null")
  const clean = compileBodyCheck(schema)(body)
  expect(compileBodyCheck(schema, { input: "json" })(parsed)).toBe(compileBodyCheck(schema)(parsed))
  if (clean) {
    for (const mode of ["warn", "error"] as const) {
      const full = validateResponse(id, status, body, { additionalFields: mode })
      expect(full.ok && full.warnings.length === 0, `${id} ${status} ${mode}: ${JSON.stringify(full)}`).toBe(true)
    }
  }
  return clean
}

describe("compileBodyCheck", () => {
  it("says clean only where validateResponse finds nothing, on generated bodies of every documented status and their mutations", () => {
    let clean = 0
    for (const { id, status, schema } of RESPONSES) {
      fc.assert(fc.property(arbitraryResponse(id, status as never), mutation, fc.boolean(), (body, m, mutated) => {
        if (cleanOnlyIfClean(id, status, schema, mutated ? mutate(body as Json, m) : body)) clean++
      }), { numRuns: 15, seed: 14 })
    }
    // The pre-check is taken, not only safe: most unmutated generated bodies are clean.
    expect(clean).toBeGreaterThan(RESPONSES.length * 3)
  })

  it("the echo of every example payload (the 201 of its endpoint): clean only if validateResponse agrees; for energy amounts clean, and not with an extra field", () => {
    for (const id of POST_ENDPOINT_IDS) {
      const response = (endpoints[id].responses as Readonly<Record<number, { readonly schema: Parameters<typeof compileBodyCheck>[0] }>>)[201]
      if (response === undefined) continue
      cleanOnlyIfClean(id, 201, response.schema, example(id))
      cleanOnlyIfClean(id, 201, response.schema, { ...(example(id) as object), kraken_account_number: "A-1" })
    }
    const schema = endpoints["energy-amount"].responses[201].schema
    expect(compileBodyCheck(schema, { input: "json" })(example("energy-amount"))).toBe(true)
    expect(compileBodyCheck(schema, { input: "json" })({ ...(example("energy-amount") as object), kraken_account_number: "A-1" })).toBe(false)
  })

  it("is never clean for values that are not plain JSON, unless told the input is JSON", () => {
    const schema = endpoints["energy-amount"].responses[201].schema
    const body = example("energy-amount") as Record<string, Json>
    const withGetter = Object.defineProperty({ ...body }, "import_supplier", { get: () => "STADTWERKE_NORD", enumerable: true })
    expect(cleanOnlyIfClean("energy-amount", 201, schema, withGetter)).toBe(false)
    expect(compileBodyCheck(schema)(Object.assign(Object.create({ inherited: 1 }) as object, body))).toBe(false)
  })
})
