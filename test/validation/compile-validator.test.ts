/**
 * `compileValidator` must answer exactly as `validatePayload`: same errors, warnings and order, for valid
 * payloads, broken ones and anything else. Checked on the example payloads, on generated payloads of the
 * testing kit (valid, with warnings, and broken), on mutations of the examples, and on hostile values.
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
  validatePayload
} from "../../src/index.js"
import { arbitraryInvalidPayload, arbitraryPayload } from "../../src/testing/index.js"

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
