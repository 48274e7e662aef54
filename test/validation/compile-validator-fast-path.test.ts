/**
 * `compileValidator` reads an input through its compiled check only when the input is what `JSON.parse`
 * makes (plain objects and arrays of own, enumerable data properties; its "fast path"); anything else is
 * validated in full. Either way it answers as `validatePayload`; on the fast path, the value of a valid
 * payload is the input itself, not a copy. These tests pin the edges of that choice: lists of many items,
 * keys a list does not send, null prototypes, deep nesting, setters, hidden properties, a list's own
 * prototype, fields given as `undefined`, inputs said to be JSON (whose descriptors are not walked), and
 * `compileBodyCheck`'s like option; and that a validator is compiled once.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { compileValidator, endpoints, type PostEndpointId, validatePayload } from "../../src/index.js"
import { compileBodyCheck } from "../../src/validation/compile-validator.js"
import { validateRequest } from "../../src/validation/validate-payload.js"

type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }

const NOW = new Date("2025-06-15T12:00:00Z")

const example = (id: PostEndpointId): { [key: string]: Json } =>
  JSON.parse(readFileSync(new URL(`../../examples/payloads/${id}.json`, import.meta.url), "utf8")) as { [key: string]: Json }

/** `value` nested in `{ n: … }` objects until the innermost object sits `depth` levels below the root. */
const nestedTo = (depth: number, value: Json): Json => {
  let node: Json = value
  for (let i = 0; i < depth; i++) node = { n: node }
  return node
}

describe("compileValidator: the value of a valid payload", () => {
  it("is the input itself on the fast path, also for a list of more than ten items", () => {
    const input = example("notes")
    const notes = input["notes"] as Array<Json>
    while (notes.length < 12) notes.push(structuredClone(notes[notes.length % 3]!))
    const result = compileValidator("notes")(input, { now: NOW })
    expect(result).toEqual(validatePayload("notes", input, { now: NOW }))
    expect(result.ok && result.value).toBe(input)
  })

  it("is the input itself without options, for an endpoint with a rule of the clock", () => {
    const input = example("transactions")
    const result = compileValidator("transactions")(input)
    expect(result.ok && result.value).toBe(input)
  })

  it("is the input itself for objects without a prototype (as a copy of wire data is made)", () => {
    const toNullPrototype = (value: Json): unknown => Array.isArray(value)
      ? value.map(toNullPrototype)
      : value !== null && typeof value === "object"
        ? Object.assign(Object.create(null) as object, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toNullPrototype(v)])))
        : value
    const input = toNullPrototype(example("energy-amount"))
    const result = compileValidator("energy-amount")(input, { now: NOW })
    expect(result).toEqual(validatePayload("energy-amount", input, { now: NOW }))
    expect(result.ok && result.value).toBe(input)
  })

  it("is the input itself for an item of undocumented shape nested to the depth bound (64 levels), and a copy beyond it", () => {
    const payload = (depth: number) => {
      const input = example("market-participant-invoice")
      // The root is level 0, the invoice 1, its list 2, the item 3: the innermost object is at `depth`.
      ;(input["market_participant_invoice"] as { [key: string]: Json })["paid_in_advance_amounts"] = [{ n: nestedTo(depth - 3, "deep") }]
      return input
    }
    const validate = compileValidator("market-participant-invoice")
    for (const [depth, itself] of [[64, true], [65, false]] as const) {
      const input = payload(depth)
      const result = validate(input, { now: NOW })
      expect(result).toEqual(validatePayload("market-participant-invoice", input, { now: NOW }))
      expect(result.ok).toBe(true)
      expect(result.ok && (result.value as unknown) === input).toBe(itself)
    }
  })

  it("holds a list's items only, not a key of the list JSON would not send", () => {
    for (const key of ["x0", "1x", "x"]) {
      const input = example("notes")
      const notes = input["notes"] as Array<Json> & Record<string, Json>
      notes[key] = "not sent"
      const result = compileValidator("notes")(input, { now: NOW })
      expect(result).toEqual(validatePayload("notes", input, { now: NOW }))
      expect(result.ok).toBe(true)
      if (result.ok) expect(Object.keys(result.value.notes)).toEqual(["0", "1", "2"])
    }
  })

  it("holds no hidden (not enumerable) key, which JSON.stringify would not send", () => {
    const input = Object.defineProperty(example("energy-amount"), "zaehlernummer", { value: "1ESY", enumerable: false })
    const result = compileValidator("energy-amount")(input, { now: NOW })
    expect(result).toEqual(validatePayload("energy-amount", input, { now: NOW }))
    expect(result.ok && Object.getOwnPropertyNames(result.value)).toEqual(["import_supplier", "external_account_number", "energy_amount"])
  })
})

describe("compileValidator on inputs that are not what JSON.parse makes", () => {
  const agree = (input: unknown): void => {
    expect(compileValidator("energy-amount")(input, { now: NOW })).toEqual(validatePayload("energy-amount", input, { now: NOW }))
  }

  it("reports an unknown key defined by a setter alone as a getter, as validatePayload does", () => {
    const input = Object.defineProperty(example("energy-amount"), "zaehlernummer", { set: () => undefined, enumerable: true })
    agree(input)
    const result = validatePayload("energy-amount", input, { now: NOW })
    expect(!result.ok && result.error.errors.map((e) => [e.attr, e.code])).toEqual([["zaehlernummer", "invalid"]])
  })

  it("answers as validatePayload for a list whose prototype fills a hole", () => {
    const input = example("energy-amount")
    const amount = input["energy_amount"] as { [key: string]: Json }
    const classifications = [] as Array<Json>
    classifications[1] = "Z86"
    Object.setPrototypeOf(classifications, Object.assign(Object.create(Array.prototype) as object, { 0: "Z84" }))
    amount["measurement_classifications"] = classifications
    agree(input)
  })

  it("answers as validatePayload when a field given as undefined follows a wrong one", () => {
    const input = { ...example("energy-amount"), import_supplier: 5, external_account_number: undefined }
    agree(input)
  })
})

/** energy-amount's example with `import_supplier` defined by the getter `get`. */
const withGetter = (get: () => unknown) => Object.defineProperty(example("energy-amount"), "import_supplier", { get, enumerable: true })

describe("told the input is JSON", () => {
  it("reads a getter as the value it gives, as JSON.stringify would: the answer of that JSON", () => {
    for (const value of ["STADTWERKE_NORD", 5]) {
      const input = withGetter(() => value)
      const result = compileValidator("energy-amount", { input: "json" })(input, { now: NOW })
      const ofJson = validatePayload("energy-amount", JSON.parse(JSON.stringify(input)), { now: NOW })
      expect(result.ok).toBe(ofJson.ok)
      expect(result.ok ? result.warnings : result.error).toEqual(ofJson.ok ? ofJson.warnings : ofJson.error)
    }
  })

  it("answers an input it cannot take the fast path for as the validation told the input is JSON (no walk for getters)", () => {
    for (const get of [() => undefined, () => { throw new Error("boom") }]) {
      const input = withGetter(get)
      const result = compileValidator("energy-amount", { input: "json" })(input, { now: NOW })
      expect(result).toEqual(validateRequest("energy-amount", input, { now: NOW }, true))
      // Not the getter error of the walk, which the default mode reports.
      expect(result.ok || result.error.errors.some((e) => e.detail.startsWith("A getter is not data"))).toBe(false)
    }
  })

  it("the body pre-check reads a getter as data too, and says not clean where reading it throws", () => {
    const schema = endpoints["energy-amount"].responses[201].schema
    const body = withGetter(() => "STADTWERKE_NORD")
    expect(compileBodyCheck(schema)(JSON.parse(JSON.stringify(body)))).toBe(true)
    expect(compileBodyCheck(schema, { input: "json" })(body)).toBe(true)
    expect(compileBodyCheck(schema)(body)).toBe(false)
    expect(compileBodyCheck(schema, { input: "json" })(withGetter(() => { throw new Error("boom") }))).toBe(false)
  })
})

describe("compiling once", () => {
  it("gives the validator made before for the same endpoint and input mode, another for the other mode", () => {
    expect(compileValidator("notes")).toBe(compileValidator("notes"))
    expect(compileValidator("notes", { input: "json" })).toBe(compileValidator("notes", { input: "json" }))
    expect(compileValidator("notes", { input: "json" })).not.toBe(compileValidator("notes"))
  })

  it("gives the body pre-check made before for the same schema and input mode", () => {
    const schema = endpoints["notes"].responses[201].schema
    expect(compileBodyCheck(schema)).toBe(compileBodyCheck(schema))
    expect(compileBodyCheck(schema, { input: "json" })).toBe(compileBodyCheck(schema, { input: "json" }))
    expect(compileBodyCheck(schema, { input: "json" })).not.toBe(compileBodyCheck(schema))
  })
})
