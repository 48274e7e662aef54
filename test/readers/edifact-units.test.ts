/**
 * The OBIS unit table (src/readers/edifact/obis-units.ts) and the reader file's `units` (quantity-units.ts):
 * a QTY without a unit gets the unit its OBIS code implies, a given unit is kept or converted exactly, and
 * what is no energy amount is a reject that says why.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MEASURES, OBIS_UNITS, obisUnit, patternGroups, shiftDecimal, UNIT_CODES } from "../../src/readers/edifact/obis-units.js"
import { type QuantityUnits, quantityUnitOf, quantityUnitsProblems } from "../../src/readers/edifact/quantity-units.js"

describe("the OBIS unit table", () => {
  it("knows what each code measures and its unit, whatever its F group or dash", () => {
    // code → [measure, unit], from the EDI@Energy OBIS code list (value groups C and D) and the unit codes.
    const cases: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ["1-1:1.29.0", "active energy", "KWH"],
      ["1-1:2.29.0", "active energy", "KWH"],
      ["1-1:1.9.0", "active energy", "KWH"],
      ["1-1:1.9.3", "active energy", "KWH"],
      ["1-1:2.9.0", "active energy", "KWH"],
      ["1-1:1.10.0", "active energy", "KWH"],
      ["1-0:1.8.0*255", "active energy reading", "KWH"],
      ["1\u20130:1.8.1", "active energy reading", "KWH"],
      ["1-1:2.8.2", "active energy reading", "KWH"],
      ["1-1:3.29.0", "reactive energy", "K3"],
      ["1-1:4.29.0", "reactive energy", "K3"],
      ["1-1:8.29.0", "reactive energy", "K3"],
      ["1-1:5.9.0", "reactive energy", "K3"],
      ["1-66:13.9.0", "reactive energy", "K3"],
      ["1-1:3.8.0", "reactive energy reading", "K3"],
      ["1-1:1.6.0", "active power maximum", "KWT"],
      ["1-1:2.6.0", "active power maximum", "KWT"],
      ["1-1:1.4.0", "active power", "KWT"],
      ["1-1:1.7.0", "active power", "KWT"],
      ["1-1:3.6.0", "reactive power maximum", "KVR"],
      ["7-0:3.21.0", "gas volume", "MTQ"],
      ["7-20:13.21.0", "gas volume", "MTQ"],
      ["7-0:3.0.0", "gas volume reading", "MTQ"],
      ["7-1:99.23.15", "gas volume", "MTQ"],
      ["7-20:99.33.17", "gas energy", "KWH"],
      ["7-0:33.86.0", "gas energy", "KWH"],
      ["7-0:33.47.0", "gas energy maximum", "KWH"],
      ["7-0:54.0.22", "calorific value", undefined],
      ["7-0:52.0.22", "state number", undefined],
      [" 1-1:1.29.0 ", "active energy", "KWH"]
    ]
    expect(cases.map(([code]) => [code, obisUnit(code)?.measure, obisUnit(code)?.unit])).toEqual(cases)
    for (const unknown of ["1-1:9.99.0", "1-1:1.99.0", "7-0:41.0.0", "AUA", "1-1:1.29", "1.8.0", "", "1-1:256.8.0", "1-1?:1.29.0"]) expect(obisUnit(unknown)).toBeUndefined()
  })

  it("is consistent: every pattern reads, no code matches two lines, each unit measures what its measure does", () => {
    const compiled = OBIS_UNITS.map((line) => patternGroups(line.obis))
    compiled.forEach((a, i) => {
      for (let j = i + 1; j < compiled.length; j++) {
        const b = compiled[j]!
        const overlap = a.every((g, k) => g === undefined || b[k] === undefined || g === b[k])
        expect(overlap ? `${OBIS_UNITS[i]!.obis} overlaps ${OBIS_UNITS[j]!.obis}` : "").toBe("")
      }
    })
    for (const line of OBIS_UNITS) {
      if (line.unit === undefined) expect(MEASURES[line.measure]).toHaveProperty("notAnAmount")
      else expect([line.obis, UNIT_CODES[line.unit]?.dimension]).toEqual([line.obis, MEASURES[line.measure].dimension])
    }
    for (const code of Object.values(UNIT_CODES)) expect(MEASURES[code.measure].dimension).toBe(code.dimension)
  })
})

/** A decimal as an integer and its number of fraction digits. */
const scaled = (text: string): { readonly n: bigint; readonly scale: number } => {
  const [whole, fraction = ""] = text.split(".") as [string, string?]
  return { n: BigInt(`${whole}${fraction}`), scale: fraction.length }
}

describe("shiftDecimal", () => {
  const decimal = fc.tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,25}$/u), fc.option(fc.stringMatching(/^[0-9]{1,25}$/u), { nil: undefined }))
    .map(([minus, whole, fraction]) => `${minus ? "-" : ""}${whole}${fraction === undefined ? "" : `.${fraction}`}`)

  it("multiplies by a power of ten exactly, keeping every digit, for any decimal", () => {
    fc.assert(fc.property(decimal, fc.integer({ min: -12, max: 12 }), (text, places) => {
      const shifted = shiftDecimal(text, places)!
      expect(shifted).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/u)
      const a = scaled(text)
      const b = scaled(shifted)
      // text × 10^places = shifted, as integers: a.n × 10^(places + b.scale) = b.n × 10^(a.scale).
      const left = places >= 0 ? a.n * 10n ** BigInt(places + b.scale) : a.n * 10n ** BigInt(b.scale)
      const right = places >= 0 ? b.n * 10n ** BigInt(a.scale) : b.n * 10n ** BigInt(a.scale - places)
      expect(left).toBe(right)
      expect(b.scale).toBe(Math.max(0, a.scale - places))
      expect(scaled(shiftDecimal(shifted, -places)!)).toEqual({ n: a.n * 10n ** BigInt(Math.max(0, places - a.scale)), scale: Math.max(a.scale, places) })
    }), { numRuns: 500 })
  })

  it("turns MWh into kWh exactly for any decimal, through the reader file's convert", () => {
    const options: QuantityUnits = { obis: "PIA+5.2.1", unit: "QTY.1.3", quantity: "QTY.1.2", accept: ["active energy"], convert: { MWH: "KWH" } }
    fc.assert(fc.property(decimal, (text) => {
      const verdict = quantityUnitOf({ "PIA+5.2.1": "1-1:1.9.0", "QTY.1.2": text, "QTY.1.3": "MWH" }, options)
      expect(verdict.ok && verdict.unit).toBe("KWH")
      const kwh = scaled(verdict.ok ? verdict.quantity! : "")
      const mwh = scaled(text)
      expect(kwh.n * 10n ** BigInt(mwh.scale)).toBe(mwh.n * 1000n * 10n ** BigInt(kwh.scale))
    }), { numRuns: 300 })
  })

  it("is worked out by hand for a few", () => {
    expect(["12.3456789", "0.0001", "5", "-1.5", "1.500", "0"].map((t) => shiftDecimal(t, 3))).toEqual(["12345.6789", "0.1", "5000", "-1500", "1500", "0"])
    expect(["1500", "12.5", "0.5", "-7"].map((t) => shiftDecimal(t, -3))).toEqual(["1.500", "0.0125", "0.0005", "-0.007"])
    expect(["1,5", "1e3", ".5", ""].map((t) => shiftDecimal(t, 3))).toEqual([undefined, undefined, undefined, undefined])
    // As the `decimal` converter reads it: an explicit plus sign is a positive number.
    expect(shiftDecimal("+1", 3)).toBe("1000")
  })
})

describe("the unit of a quantity (the reader file's units)", () => {
  const options: QuantityUnits = { obis: "PIA+5.2.1", unit: "QTY.1.3", quantity: "QTY.1.2", accept: ["active energy", "reactive energy"], convert: { MWH: "KWH" } }
  const of = (obis: string | undefined, quantity: string, unit?: string, opts: QuantityUnits = options) =>
    quantityUnitOf({ ...(obis !== undefined ? { "PIA+5.2.1": obis } : {}), "QTY.1.2": quantity, ...(unit !== undefined ? { "QTY.1.3": unit } : {}) }, opts)

  it("takes the unit the OBIS code implies when none is given, and keeps a given one", () => {
    expect(of("1-1:1.29.0", "1.25")).toEqual({ ok: true, unit: "KWH", quantity: "1.25", measure: "active energy" })
    expect(of("1-1:3.29.0", "0.312")).toEqual({ ok: true, unit: "K3", quantity: "0.312", measure: "reactive energy" })
    expect(of("1-1:1.29.0", "1.25", "KWH")).toEqual({ ok: true, unit: "KWH", quantity: "1.25", measure: "active energy" })
    // A product that is no OBIS code (redispatch's Medium AUA) with its unit: measured by the unit.
    expect(of("AUA", "3", "KWH")).toEqual({ ok: true, unit: "KWH", quantity: "3", measure: "active energy" })
    // Converted only where convert asks: GWH is kept.
    expect(of("1-1:1.9.0", "0.5", "GWH")).toEqual({ ok: true, unit: "GWH", quantity: "0.5", measure: "active energy" })
    expect(of("1-1:1.9.0", "0.5", "MWH")).toEqual({ ok: true, unit: "KWH", quantity: "500", measure: "active energy" })
    const { convert: _, ...withoutConvert } = options
    expect(of("1-1:1.9.0", "0.5", "MWH", withoutConvert)).toEqual({ ok: true, unit: "MWH", quantity: "0.5", measure: "active energy" })
  })

  it("rejects, naming the code and why: unknown OBIS, unknown unit, a contradiction, a measure not taken", () => {
    expect(of("1-1:9.99.0", "3.5")).toEqual({ ok: false, code: "unknown_obis", detail: `the OBIS code "1-1:9.99.0" (PIA+5.2.1) is not in the OBIS unit table, and QTY.1.3 gives no unit: its unit is not known` })
    expect(of(undefined, "3.5")).toEqual({ ok: false, code: "unknown_obis", detail: "PIA+5.2.1 is empty, and QTY.1.3 gives no unit: its unit is not known" })
    expect(of("1-1:1.29.0", "1", "kWh")).toEqual({ ok: false, code: "unknown_unit", detail: `the unit "kWh" (QTY.1.3) of the OBIS code "1-1:1.29.0" is not a unit code the table knows (KWH, MWH, GWH, K3, KWT, MAW, KVR, MTQ, D54, MTS)` })
    expect(of("1-1:4.29.0", "5", "KWH")).toEqual({
      ok: false,
      code: "unit_contradicts_obis",
      detail: `the unit "KWH" (QTY.1.3, kilowatt hour: energy) contradicts the OBIS code "1-1:4.29.0", which measures reactive energy negative (Q-), load profile (Zeitintegral 5) (reactive energy, in K3); which of the two is wrong is not known`
    })
    expect(of("1-1:1.6.0", "42.5")).toEqual({
      ok: false,
      code: "measure_not_accepted",
      detail: `the OBIS code "1-1:1.6.0" measures active power maximum (active power import (+), maximum, in KWT): a maximum is not an energy amount (this reader takes active energy, reactive energy)`
    })
    expect(of("1-1:1.6.0", "42.5", "KWT")).toMatchObject({ ok: false, code: "measure_not_accepted" })
    expect(of("1-1:1.8.0", "10234")).toMatchObject({ ok: false, code: "measure_not_accepted", detail: expect.stringContaining(": a meter reading is not an energy amount") })
    expect(of("7-0:3.21.0", "123.4")).toEqual({
      ok: false,
      code: "measure_not_accepted",
      detail: `the OBIS code "7-0:3.21.0" measures gas volume (operating volume, withdrawal, difference of meter readings, in MTQ): gas volume is not among the measures taken (this reader takes active energy, reactive energy)`
    })
    expect(of("AUA", "3", "KWT")).toEqual({ ok: false, code: "measure_not_accepted", detail: `the product "AUA" measures active power (by its unit KWT): a power is not an energy amount (this reader takes active energy, reactive energy)` })
    // A calorific value taken: the table has no unit code for it, so one must be given.
    expect(of("7-0:54.0.22", "11.234", undefined, { ...options, accept: ["calorific value"] })).toEqual({
      ok: false,
      code: "no_unit",
      detail: `the OBIS code "7-0:54.0.22" measures calorific value (Brennwert, kWh/m³), average, for which the table has no unit code, and QTY.1.3 gives none`
    })
    expect(of("1-1:1.9.0", "1.2.3", "MWH")).toEqual({ ok: false, code: "unconvertible_quantity", detail: `the quantity "1.2.3" (QTY.1.2) in MWH is no decimal, so it cannot be converted to KWH` })
  })

  it("refuses a units option that cannot work, one problem a line", () => {
    expect(quantityUnitsProblems({ obis: "PIA+5.2.1", unit: "QTY.1.3", quantity: "QTY.1.2", accept: ["active energy"], convert: { MWH: "KWH" } })).toEqual([])
    expect(quantityUnitsProblems({ obis: "", quantity: "QTY.1.2", accept: [], convert: { MWH: "KWT", XYZ: "KWH" }, extra: 1 })).toEqual([
      `units: unknown key "extra" (known: obis, unit, quantity, accept, convert)`,
      "units.obis: the cell of the OBIS code (PIA+5.2.1)",
      `units.accept: the measures taken, a list of ${Object.keys(MEASURES).join(", ")}`,
      "units.convert: MWH (energy) cannot become KWT (power)",
      "units.convert: XYZ → KWH: unit codes of the table (KWH, MWH, GWH, K3, KWT, MAW, KVR, MTQ, D54, MTS)"
    ])
    expect(quantityUnitsProblems({ obis: "PIA+5.2.1", quantity: "QTY.1.2", accept: ["energy"] })).toEqual([`units.accept: "energy" is not a measure (active energy, active energy reading, reactive energy, …)`])
    expect(quantityUnitsProblems("KWH")).toEqual(["units: { obis, unit?, quantity, accept, convert? }"])
  })
})
