/**
 * `arbitraryPayload`: every generated payload is one the contract accepts (and encodes back to itself),
 * the generators reach every field the schemas declare, the values are realistic, the options work, and a
 * counterexample shrinks to the smallest valid payload.
 */
import { Schema, SchemaAST } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { endpoints, POST_ENDPOINT_IDS, type PostEndpointId, validatePayload, WARNING_CODES } from "../../src/index.js"
import { CROSS_FIELD_RULE, type CrossFieldRule } from "../../src/schemas/conventions.js"
import { arbitraryInvalidPayload, arbitraryPayload } from "../../src/testing/index.js"

const SEED = 20_250_101
const RUNS = 1_000

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
const isObject = (u: unknown): u is { readonly [key: string]: Json } => typeof u === "object" && u !== null && !Array.isArray(u)

/** A schema path: keys, and `*` for "any item of the list". */
const schemaPath = (path: ReadonlyArray<string | number>): string => path.map((s) => (typeof s === "number" ? "*" : s)).join(".")

interface Declared {
  readonly optional: boolean
  readonly nullable: boolean
  readonly list: boolean
}

/** Every key path the request schema declares (independently of the kit's own AST walker). */
const declaredPaths = (ast: SchemaAST.AST): ReadonlyMap<string, Declared> => {
  const out = new Map<string, Declared>()
  const walk = (node: SchemaAST.AST, prefix: string): void => {
    if (node._tag === "Union") {
      for (const member of node.types) walk(member, prefix)
    } else if (node._tag === "Objects" && node.indexSignatures.length === 0) {
      for (const p of node.propertySignatures) {
        const path = prefix === "" ? String(p.name) : `${prefix}.${String(p.name)}`
        const type = p.type
        const members = type._tag === "Union" ? type.types : [type]
        out.set(path, {
          optional: SchemaAST.isOptional(type),
          nullable: members.some((m) => m._tag === "Null"),
          list: members.some((m) => m._tag === "Arrays")
        })
        walk(type, path)
      }
    } else if (node._tag === "Arrays") {
      const item = node.rest[0]
      if (item !== undefined) walk(item, `${prefix}.*`)
    }
  }
  walk(ast, "")
  return out
}

/** Every node of a JSON value with its path. */
const nodesOf = (value: Json, path: ReadonlyArray<string | number> = []): Array<{ path: ReadonlyArray<string | number>; value: Json }> => {
  const here = [{ path, value }]
  if (Array.isArray(value)) return [...here, ...value.flatMap((item: Json, i) => nodesOf(item, [...path, i]))]
  if (isObject(value)) return [...here, ...Object.entries(value).flatMap(([k, v]) => nodesOf(v, [...path, k]))]
  return here
}

const sample = (id: PostEndpointId, options?: Parameters<typeof arbitraryPayload>[1], numRuns = RUNS) =>
  fc.sample(arbitraryPayload(id, options), { numRuns, seed: SEED }) as ReadonlyArray<Json>

/** The MaLo check digit, computed here from its definition (BDEW): odd positions once, even ones twice. */
const maloCheckDigitOk = (malo: string): boolean => {
  const digits = [...malo].map(Number)
  const sum = digits.slice(0, 10).reduce((acc, d, i) => acc + (i % 2 === 0 ? d : 2 * d), 0)
  return /^[1-9]\d{10}$/u.test(malo) && (10 - (sum % 10)) % 10 === digits[10]
}

/** Epoch milliseconds of a zoned datetime (Date.parse handles offsets; the fraction beyond ms is cut). */
const instantOf = (datetime: string): number => Date.parse(datetime.replace(/(\.\d{3})\d+/u, "$1"))

describe.each(POST_ENDPOINT_IDS)("arbitraryPayload(%s)", (id) => {
  const schema = endpoints[id].request as Schema.Codec<unknown, unknown>

  it("1,000 generated payloads validate, without warnings, and decode then encode to the same JSON", () => {
    fc.assert(
      fc.property(arbitraryPayload(id), (payload) => {
        const json = JSON.parse(JSON.stringify(payload)) as unknown
        expect(json).toStrictEqual(payload) // plain JSON: no undefined, no symbols, no special objects
        const result = validatePayload(id, payload)
        if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.error.errors)}`)
        expect(result.warnings).toEqual([])
        const encoded: unknown = Schema.encodeUnknownSync(schema)(Schema.decodeUnknownSync(schema)(json))
        expect(JSON.stringify(encoded)).toBe(JSON.stringify(payload))
      }),
      { numRuns: RUNS, seed: SEED }
    )
  })

  it("reaches every declared field: each present, each optional one absent, each nullable one null, lists of one and of several", () => {
    const declared = declaredPaths(schema.ast)
    const present = new Set<string>()
    const nulls = new Set<string>()
    const lengths = new Map<string, Set<number>>()
    const absentUnderPresentParent = new Set<string>()
    for (const payload of [...sample(id), ...sample(id, { withWarnings: true })]) {
      const parents = new Set<string>()
      for (const { path, value } of nodesOf(payload)) {
        const p = schemaPath(path)
        if (typeof path[path.length - 1] === "string") present.add(p)
        if (value === null) nulls.add(p)
        if (Array.isArray(value)) lengths.set(p, (lengths.get(p) ?? new Set()).add(Math.min(value.length, 2)))
        if (isObject(value)) {
          parents.add(p)
          for (const [key, d] of declared) {
            const parent = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : ""
            const name = key.slice(key.lastIndexOf(".") + 1)
            if (parent === p && d.optional && !Object.hasOwn(value, name)) absentUnderPresentParent.add(key)
          }
        }
      }
    }
    const missing = [...declared.keys()].filter((p) => !present.has(p))
    const neverAbsent = [...declared].filter(([p, d]) => d.optional && !absentUnderPresentParent.has(p)).map(([p]) => p)
    const neverNull = [...declared].filter(([p, d]) => d.nullable && !nulls.has(p)).map(([p]) => p)
    const listsNotVaried = [...declared].filter(([p, d]) => d.list && (lengths.get(p)?.size ?? 0) < 2 && !p.endsWith("units"))
      .map(([p]) => p)
    expect({ missing, neverAbsent, neverNull, listsNotVaried }).toEqual({ missing: [], neverAbsent: [], neverNull: [], listsNotVaried: [] })
  })

  it("with { withWarnings: true } still validates", () => {
    for (const payload of sample(id, { withWarnings: true }, 300)) {
      const result = validatePayload(id, payload)
      expect(result.ok ? [] : result.error.errors, JSON.stringify(payload)).toEqual([])
    }
  })

  it("{ maxItems: 1 } gives lists of exactly one item", () => {
    let lists = 0
    for (const payload of sample(id, { maxItems: 1 }, 200)) {
      for (const { path, value } of nodesOf(payload)) {
        if (Array.isArray(value) && !schemaPath(path).endsWith("units")) {
          expect(value.length, schemaPath(path)).toBe(1)
          lists++
        }
      }
    }
    // Some list was checked, unless the endpoint declares none (payment-instruction).
    const declaresLists = [...declaredPaths(schema.ast)].some(([p, d]) => d.list && !p.endsWith("units"))
    expect(lists > 0).toBe(declaresLists)
  })

  it("{ maxItems: 1, withWarnings: true } gives lists of at most one item", () => {
    const longer = sample(id, { maxItems: 1, withWarnings: true }, 200).flatMap((payload) =>
      nodesOf(payload).filter(({ path, value }) => Array.isArray(value) && value.length > 1 && !schemaPath(path).endsWith("units"))
        .map(({ path }) => schemaPath(path))
    )
    expect([...new Set(longer)]).toEqual([])
  })

  it("an always-failing property shrinks to the smallest valid payload: one item per list, no optional key that no rule needs", () => {
    const details = fc.check(fc.property(arbitraryPayload(id), () => false), { seed: SEED, numRuns: 10 })
    const shrunk = details.counterexample?.[0] as Json | undefined
    if (shrunk === undefined) throw new Error("the property did not fail")
    expect(validatePayload(id, shrunk).ok).toBe(true)
    // The optional keys a cross-field rule asks for (a note's body, one of the two definition lists) may stay.
    const neededByRules = new Set<string>()
    const collectRules = (ast: SchemaAST.AST): void => {
      for (const check of ast.checks ?? []) {
        const rule = (check.annotations as Record<string, unknown> | undefined)?.[CROSS_FIELD_RULE] as CrossFieldRule | undefined
        if (rule !== undefined) for (const field of rule.fields) neededByRules.add(field)
      }
      if (ast._tag === "Objects") for (const p of ast.propertySignatures) collectRules(p.type)
      if (ast._tag === "Arrays") for (const item of ast.rest) collectRules(item)
      if (ast._tag === "Union") for (const member of ast.types) collectRules(member)
    }
    collectRules(schema.ast)
    const declared = declaredPaths(schema.ast)
    const optionalPresent = nodesOf(shrunk).map((n) => schemaPath(n.path)).filter((p) => declared.get(p)?.optional === true)
    expect(optionalPresent.filter((p) => !neededByRules.has(p.slice(p.lastIndexOf(".") + 1)))).toEqual([])
    for (const { value } of nodesOf(shrunk)) if (Array.isArray(value)) expect(value.length).toBe(1)
    expect(JSON.stringify(shrunk).length).toBeLessThan(1_000)
  })
})

describe("warnings", () => {
  it("{ withWarnings: true } draws every warning code over the endpoints; the default draws none", () => {
    const drawn = new Set<string>()
    for (const id of POST_ENDPOINT_IDS) {
      for (const payload of sample(id, { withWarnings: true }, 300)) {
        for (const w of validatePayload(id, payload).warnings) drawn.add(w.code)
      }
    }
    expect([...drawn].sort()).toEqual(Object.keys(WARNING_CODES).sort())
  })
})

describe("realistic values", () => {
  const all = POST_ENDPOINT_IDS.flatMap((id) => sample(id, undefined, 300).flatMap((p) => nodesOf(p)))
  const valuesOf = (key: string): Array<Json> => all.filter((n) => n.path[n.path.length - 1] === key).map((n) => n.value)
  const strings = (key: string): Array<string> => valuesOf(key).filter((v): v is string => typeof v === "string")

  it("MaLo ids have 11 digits and a valid check digit", () => {
    const malos = strings("malo_number")
    expect(malos.length).toBeGreaterThan(100)
    expect(malos.filter((m) => !maloCheckDigitOk(m))).toEqual([])
  })

  it("market participant codes have 13 digits (as numbers, and as text for network operators)", () => {
    const codes = [...valuesOf("code"), ...valuesOf("market_participant_code"), ...valuesOf("sender_id"), ...valuesOf("recipient_id")]
    expect(codes.length).toBeGreaterThan(100)
    expect(codes.filter((c) => typeof c !== "number" || !/^\d{13}$/u.test(String(c)))).toEqual([])
    expect(strings("network_operator_code").filter((c) => !/^\d{13}$/u.test(c))).toEqual([])
  })

  it("datetimes come with Z, with offsets east and west, with and without fractions", () => {
    const datetimes = all.map((n) => n.value).filter((v): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/u.test(v))
    expect(datetimes.some((d) => d.endsWith("Z"))).toBe(true)
    expect(datetimes.some((d) => /\+0[12]:00$/u.test(d))).toBe(true)
    expect(datetimes.some((d) => /-\d{2}:\d{2}$/u.test(d))).toBe(true)
    expect(datetimes.some((d) => /:\d{2}\.\d{9}/u.test(d))).toBe(true)
    expect(datetimes.some((d) => /:\d{2}(?:Z|[+-])/u.test(d))).toBe(true)
  })

  it("e-mail addresses include what the contract accepts and strict ASCII checks refuse: IDN domains, apostrophes", () => {
    const emails = strings("email")
    expect(emails.length).toBeGreaterThan(100)
    expect(emails.some((e) => /@.*[^\x00-\x7f]/u.test(e))).toBe(true)
    expect(emails.some((e) => /^[^@]*'/u.test(e))).toBe(true)
  })

  it("phone numbers reach both limits of the contract: 7 and 15 digits", () => {
    const digitCounts = new Set(strings("phone").map((p) => p.replace(/[^0-9]/gu, "").length))
    expect(digitCounts).toContain(7)
    expect(digitCounts).toContain(15)
    expect([...digitCounts].filter((n) => n < 7 || n > 15)).toEqual([])
  })

  it("free text holds what breaks text handling: backslashes, line separators JSON leaves unescaped, decomposed umlauts", () => {
    const texts = [...strings("body"), ...strings("note"), ...strings("display_note")]
    expect(texts.length).toBeGreaterThan(300)
    expect(texts.some((t) => t.includes("\\"))).toBe(true)
    // JSON.stringify writes U+2028 and U+0085 as they are: a reader that splits NDJSON with Python's
    // splitlines() or a Unicode-aware line reader cuts the record there.
    expect(texts.some((t) => t.includes("\u2028"))).toBe(true)
    expect(texts.some((t) => t.includes("\u0085"))).toBe(true)
    // "Müller" as u + combining diaeresis (macOS file names, some exports): not equal to its NFC form.
    expect(texts.some((t) => t !== t.normalize("NFC"))).toBe(true)
  })

  it("dates reach the days where date handling goes wrong: leap days and the turn of the year", () => {
    const dates = all.map((n) => n.value).filter((v): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/u.test(v))
    expect(dates.length).toBeGreaterThan(1_000)
    // Uniform days would make a leap day one date in 1,461; every date field should meet them now and then.
    const share = (re: RegExp) => dates.filter((d) => re.test(d)).length / dates.length
    expect(share(/-02-29$/u)).toBeGreaterThan(0.01)
    expect(share(/-12-31$/u)).toBeGreaterThan(0.01)
    expect(share(/-01-01$/u)).toBeGreaterThan(0.01)
  })

  it("datetimes reach the Berlin clock changes, written in Berlin's offset on both sides of them", () => {
    // The last Sunday of March and of October (EU summer time), computed here with Date.
    const lastSunday = (year: number, month: number): string => {
      const last = new Date(Date.UTC(year, month, 0))
      return new Date(last.getTime() - last.getUTCDay() * 86_400_000).toISOString().slice(0, 10)
    }
    const seen = new Set<string>()
    for (const { value } of all) {
      const m = typeof value === "string" ? /^(\d{4})-(\d{2}-\d{2})T(\d{2}):\d{2}:\d{2}(?:\.\d+)?(\+0[12]:00)$/u.exec(value) : null
      if (m === null) continue
      const [, year, day, hour, offset] = m
      if (`${year}-${day}` === lastSunday(Number(year), 3)) seen.add(`March ${hour}${offset}`)
      if (`${year}-${day}` === lastSunday(Number(year), 10)) seen.add(`October ${hour}${offset}`)
    }
    // Spring: 01:xx is still +01:00, 03:xx already +02:00 (02:xx does not happen in Berlin). Autumn: the
    // hour 02:xx happens twice, first +02:00, then +01:00.
    for (const wanted of ["March 01+01:00", "March 03+02:00", "October 02+02:00", "October 02+01:00"]) expect(seen).toContain(wanted)
  })

  it("start/end pairs are ordered as instants, and some are not ordered as text (offsets matter)", () => {
    let reversedAsText = 0
    let equal = 0
    for (const { value } of all) {
      if (!isObject(value)) continue
      const start = value["period_start_at"] ?? value["validity_period_start"] ?? value["period_start"]
      const end = value["period_end_at"] ?? value["validity_period_end"] ?? value["period_end"]
      if (typeof start !== "string" || typeof end !== "string") continue
      expect(instantOf(start), `${start} .. ${end}`).toBeLessThanOrEqual(instantOf(end))
      if (start > end) reversedAsText++
      if (instantOf(start) === instantOf(end)) equal++
    }
    expect(reversedAsText).toBeGreaterThan(0)
    expect(equal).toBeGreaterThan(0)
  })

  it("decimal strings vary in scale and sign", () => {
    const decimals = [...strings("quantity"), ...strings("price"), ...strings("price_cents")]
    expect(decimals.some((d) => d.startsWith("-"))).toBe(true)
    expect(decimals.some((d) => !d.includes("."))).toBe(true)
    expect(decimals.some((d) => /\.\d{3,}$/u.test(d))).toBe(true)
    expect(decimals.some((d) => /\.\d*0$/u.test(d))).toBe(true)
  })

  it("some decimal strings hold more digits than a double keeps (they must not travel as JSON numbers)", () => {
    const decimals = [...strings("quantity"), ...strings("price"), ...strings("price_cents")]
    // A double keeps 15 significant digits for sure, and prints at most 17: with 18 or more (the last one
    // not 0), String(Number(d)) cannot give d back.
    const tooPrecise = decimals.filter((d) => d.replace(/^-?0*|\./gu, "").replace(/^0+/u, "").length >= 18 && !/0$/u.test(d))
    expect(tooPrecise.length).toBeGreaterThan(0)
    for (const d of tooPrecise) expect(String(Number(d))).not.toBe(d)
  })

  it("transactions carry the fields of their type, and their ids are unique", () => {
    for (const payload of sample("transactions", undefined, 300)) {
      const list = (payload as { transactions: ReadonlyArray<Record<string, Json>> }).transactions
      expect(new Set(list.map((t) => t["transaction_id"])).size).toBe(list.length)
      for (const t of list) {
        if (t["type"] === "SUPPLY_CHARGE") expect(t).toHaveProperty("line_items")
        else expect(t).not.toHaveProperty("line_items")
        if (t["payment_type"] !== undefined) expect(["PAYMENT", "REPAYMENT"]).toContain(t["type"])
      }
    }
  })
})

describe("limits", () => {
  /** The limits of the contract (contract-decisions.md), in characters: Unicode code points. */
  const LIMITS = [
    ["notes", "import_supplier", 32],
    ["energy-amount", "external_account_number", 128],
    ["payment-instruction", "reference", 512]
  ] as const

  it.each(LIMITS)("%s: %s reaches its limit of %i code points, with characters outside the BMP", (id, key, limit) => {
    const values = sample(id, undefined, 300).map((p) => (p as Record<string, Json>)[key]).filter((v): v is string => typeof v === "string")
    // Exactly at the limit in code points, and longer than it in UTF-16 units: a tool that counts
    // `length` would refuse a valid value.
    const atLimit = values.filter((v) => [...v].length === limit && v.length > limit)
    expect(atLimit.length).toBeGreaterThan(0)
    expect(values.filter((v) => [...v].length > limit)).toEqual([])
  })
})

describe("options", () => {
  it("{ now } keeps every transaction on or before that day", () => {
    const now = new Date("2019-06-15T10:00:00Z")
    for (const payload of sample("transactions", { now }, 300)) {
      for (const t of (payload as { transactions: ReadonlyArray<{ transaction_date: string }> }).transactions) {
        expect(t.transaction_date <= "2019-06-15").toBe(true)
      }
      expect(validatePayload("transactions", payload, { now }).ok).toBe(true)
    }
  })

  it("refuses a GET endpoint and an invalid clock", () => {
    expect(() => arbitraryPayload("account-transfer-status" as PostEndpointId)).toThrow(TypeError)
    expect(() => arbitraryPayload("nope" as PostEndpointId)).toThrow(TypeError)
    expect(() => arbitraryPayload("notes", { now: new Date(Number.NaN) })).toThrow(RangeError)
    // A list size that is no finite number is refused when the arbitrary is made, not deep in fast-check.
    for (const maxItems of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => arbitraryPayload("notes", { maxItems })).toThrow(RangeError)
      expect(() => arbitraryInvalidPayload("notes", { maxItems })).toThrow(RangeError)
    }
  })
})
