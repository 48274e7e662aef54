/**
 * The integrity rules of the mappers, as properties: exact numbers against BigDecimal, the mapping
 * format's checks against random misspellings, the repeated hour by row order against every autumn
 * change, and batches that never cut an item.
 */
import { BigDecimal } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CONVERTERS, defineMapping, mapRecords } from "../../src/index.js"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { byOrderMapping } from "./by-order-mapping.js"
import { CONVERTER_NAMES } from "../../src/mappers/converters.js"
import { isExactJsonNumber } from "../../src/mappers/is-exact-json-number.js"

const decimalArb = fc.tuple(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{0,24}$|^0$/u), fc.option(fc.stringMatching(/^[0-9]{1,20}$/u), { nil: undefined }))
  .map(([negative, integer, fraction]) => `${negative ? "-" : ""}${integer}${fraction !== undefined ? `.${fraction}` : ""}`)

describe("isExactJsonNumber", () => {
  it("is true exactly when the JSON number sent has the same decimal value (BigDecimal as the oracle)", () => {
    fc.assert(
      fc.property(fc.oneof(decimalArb, fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => BigDecimal.format(BigDecimal.fromNumberUnsafe(d)))), (decimal) => {
        const sent = BigDecimal.fromStringUnsafe(JSON.stringify(Number(decimal)))
        const exact = Number.isFinite(Number(decimal)) && BigDecimal.equals(BigDecimal.fromStringUnsafe(decimal), sent)
        expect(isExactJsonNumber(decimal)).toBe(exact)
      }),
      { numRuns: 3000 }
    )
  })

  it("accepts every double written as a plain decimal, and refuses the issue's example", () => {
    expect(isExactJsonNumber("9007199254740993.01")).toBe(false)
    expect(isExactJsonNumber("9007199254740993")).toBe(false)
    expect(isExactJsonNumber("12.50")).toBe(true)
    expect(isExactJsonNumber("-0.000")).toBe(true)
  })
})

const BASE = {
  endpoint: "notes",
  groupBy: ["Konto"],
  fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
  collections: [{ path: "notes", fields: { body: "Text", created_at: { column: "Zeit", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm" } } } }]
}

describe("the mapping format", () => {
  it("finds a misspelt key at any depth, once, at its place, with the key that was meant", () => {
    const places: ReadonlyArray<{ readonly at: string; readonly key: string; readonly meant: string; readonly put: (m: any, key: string) => void }> = [
      { at: "", key: "groupBy", meant: "groupBy", put: (m, k) => (m[k] = ["Konto"]) },
      { at: "", key: "batchSize", meant: "batchSize", put: (m, k) => (m[k] = 5) },
      { at: "collections.0", key: "groupBy", meant: "groupBy", put: (m, k) => (m.collections[0][k] = ["Nr"]) },
      { at: "collections.0.fields.created_at.options", key: "format", meant: "format", put: (m, k) => (m.collections[0].fields.created_at.options[k] = "dd.MM.yyyy HH:mm") },
      { at: "collections.0.fields.created_at.options", key: "ambiguous", meant: "ambiguous", put: (m, k) => (m.collections[0].fields.created_at.options[k] = "later") },
      { at: "collections.0.fields.created_at.options", key: "timeZone", meant: "timeZone", put: (m, k) => (m.collections[0].fields.created_at.options[k] = "Europe/Berlin") }
    ]
    fc.assert(
      fc.property(fc.constantFrom(...places), fc.nat(), fc.constantFrom("swap", "drop", "double", "snake"), (place, position, how) => {
        const i = position % (place.key.length - 1)
        const typo = how === "swap"
          ? `${place.key.slice(0, i)}${place.key[i + 1]}${place.key[i]}${place.key.slice(i + 2)}`
          : how === "drop"
          ? `${place.key.slice(0, i)}${place.key.slice(i + 1)}`
          : how === "double"
          ? `${place.key.slice(0, i)}${place.key[i]}${place.key.slice(i)}`
          : place.key.replace(/[A-Z]/gu, (c) => `_${c.toLowerCase()}`)
        fc.pre(typo !== place.key)
        const mapping = structuredClone(BASE) as any
        if (place.key === "groupBy" && place.at === "") delete mapping.groupBy
        place.put(mapping, typo)
        const problems = mappingProblems(mapping)
        expect(problems).toEqual([{ at: place.at === "" ? typo : `${place.at}.${typo}`, code: "unknown_key", detail: expect.stringContaining(`(did you mean ${place.meant}?)`) }])
      }),
      { numRuns: 300 }
    )
  })

  it("accepts every converter with each of its options, and refuses an option of another converter", () => {
    const sample: Record<string, unknown> = {
      locale: "de", scale: 2, rounding: "half-up", digits: 2, format: undefined, timeZone: "Europe/Berlin", ambiguous: "by-order",
      offsetColumn: "Zone", output: "utc", trueValues: ["J"], falseValues: ["N"], separator: ","
    }
    for (const name of CONVERTER_NAMES) {
      const options = Object.fromEntries(Object.keys(CONVERTERS[name].options.fields).filter((k) => sample[k] !== undefined).map((k) => [k, sample[k]]))
      const mapping = { ...BASE, collections: [{ path: "notes", fields: { body: { column: "Text", convert: name, ...(Object.keys(options).length > 0 ? { options } : {}) } } }] }
      expect(mappingProblems(mapping), name).toEqual([])
      const foreign = name === "list" ? "locale" : "separator"
      const wrong = { ...BASE, collections: [{ path: "notes", fields: { body: { column: "Text", convert: name, options: { [foreign]: "x" } } } }] }
      expect(mappingProblems(wrong).map((p) => p.at), name).toEqual([`collections.0.fields.body.options${name === "string" ? "" : `.${foreign}`}`])
    }
  })
})

describe("by-order date-times", () => {
  const mapping = byOrderMapping

  // The last Sunday of October, 2020-2030: Berlin's repeated hour is 02:00-03:00.
  const autumnSundays = Array.from({ length: 11 }, (_, i) => {
    const year = 2020 + i
    const day = 31 - new Date(Date.UTC(year, 9, 31)).getUTCDay()
    return { year, day }
  })
  const wall = (year: number, day: number, minutes: number) =>
    `${String(day).padStart(2, "0")}.10.${year} ${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

  it("turns a series written in wall times across any autumn change into consecutive intervals", () => {
    fc.assert(
      fc.property(fc.constantFrom(...autumnSundays), fc.constantFrom(5, 10, 15, 30, 60), fc.integer({ min: 1, max: 3 }), ({ year, day }, step, meters) => {
        // Wall times from 01:00 to 04:00 with the hour 02:00-03:00 written twice, for several meters in a row.
        const walls: Array<number> = []
        for (let m = 60; m < 180; m += step) walls.push(m)
        for (let m = 120; m <= 240; m += step) walls.push(m)
        const rows = Array.from({ length: meters }, (_, meter) =>
          walls.slice(0, -1).map((from, i) => ({ Konto: `KD-${meter}`, Von: wall(year, day, from), Bis: wall(year, day, walls[i + 1]!), Menge: `${meter}.${i}` }))).flat()
        const { payloads, rejected } = mapRecords(mapping, rows)
        expect(rejected).toEqual([])
        expect(payloads.map((p) => p.sourceRows)).toEqual(rows.map((_, i) => [i]))
        const periods = payloads.map((p) => (p.payload as { energy_amount: { period_start_at: string; period_end_at: string } }).energy_amount)
        periods.forEach((p, i) => {
          expect(Date.parse(p.period_end_at) - Date.parse(p.period_start_at), `row ${i}`).toBe(step * 60_000)
          if (i % (walls.length - 1) !== 0) expect(p.period_start_at).toBe(periods[i - 1]!.period_end_at)
        })
      }),
      { numRuns: 60 }
    )
  })
})

describe("batches", () => {
  it("never cut an item, keep every row once, and hold at most batchSize items", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (items, batchSize) => {
        // Each item is a SUPPLY_CHARGE of 1-4 line rows; the items of one account, in order.
        const rows = items.flatMap(([, lines], n) => Array.from({ length: lines }, (_, l) => ({
          Konto: "KD-1", Nr: `B-${n}`, Von: `0${l + 1}.01.2024`, Bis: `0${l + 1}.01.2024`
        })))
        const mapping = defineMapping({
          endpoint: "transactions",
          groupBy: ["Konto"],
          batchSize,
          fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
          collections: [{
            path: "transactions",
            groupBy: ["Nr"],
            fields: { transaction_id: "Nr", transaction_date: { value: "2024-01-31" }, amount: { value: 1 }, type: { value: "SUPPLY_CHARGE" }, product_code: { value: "STROM" } },
            collections: [{
              path: "line_items",
              fields: {
                rate_band: { value: "CONSUMPTION_STANDARD" },
                start_date: { column: "Von", convert: "date" },
                end_date: { column: "Bis", convert: "date" },
                number_of_units: { value: 1 },
                net_amount: { value: 1 },
                price_per_unit: { value: 1 }
              }
            }]
          }]
        })
        const { payloads, rejected } = mapRecords(mapping, rows)
        expect(rejected).toEqual([])
        expect(payloads.flatMap((p) => p.sourceRows).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i))
        const seen = new Map<string, number>()
        for (const p of payloads) {
          const transactions = p.payload.transactions
          expect(transactions.length).toBeLessThanOrEqual(batchSize)
          for (const t of transactions) {
            expect(seen.has(t.transaction_id)).toBe(false)
            seen.set(t.transaction_id, t.line_items?.length ?? 0)
          }
        }
        expect([...seen.values()]).toEqual(items.map(([, lines]) => lines))
      }),
      { numRuns: 200 }
    )
  })
})

describe("rows in two collections", () => {
  it("a row whose item fails in one collection is rejected once, though it also built an item in another", () => {
    const mapping = defineMapping({
      endpoint: "market-participant-invoice",
      groupBy: ["Rechnung"],
      fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
      collections: [
        { path: "market_participant_invoice.line_items", fields: { position: { column: "Pos", convert: "integer" } } },
        { path: "market_participant_invoice.tax_amounts", fields: { tax_rate: { column: "Satz", convert: "decimal" } } }
      ]
    })
    const rows = [
      { Rechnung: "R-1", Konto: "KD-1", Pos: "1", Satz: "19" },
      { Rechnung: "R-1", Konto: "KD-1", Pos: "x", Satz: "7" },
      { Rechnung: "R-1", Konto: "KD-1", Pos: "3", Satz: "0" }
    ]
    const { payloads, rejected } = mapRecords(mapping, rows)
    const rejectedRows = rejected.flatMap((r) => r.sourceRows)
    expect(rejectedRows.filter((i) => i === 1)).toHaveLength(1)
    expect(rejected.find((r) => r.sourceRows.includes(1))!.errors.map((e) => e.code)).toContain("invalid")
    // The rest is an incomplete invoice, rejected by validation: each row still ends exactly once.
    const settled = [...payloads.flatMap((p) => p.sourceRows), ...rejectedRows].sort((a, b) => a - b)
    expect(settled).toEqual([0, 1, 2])
  })
})
