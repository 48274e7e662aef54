/**
 * Examples of what a payload of one row leaves out: the straight path knows most fields compact as
 * built, and these are the cases where it must still compact (or must not set a key at all).
 */
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingSpec, mapRecords } from "../../src/index.js"

const base = {
  endpoint: "energy-amount",
  fields: {
    import_supplier: { value: "STADTWERKE_NORD" },
    external_account_number: "Konto",
    "energy_amount.malo_number": "MaLo",
    "energy_amount.period_start_at": { column: "Von", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } },
    "energy_amount.period_end_at": { column: "Bis", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm", timeZone: "Europe/Berlin" } },
    "energy_amount.product_identifier": "OBIS",
    "energy_amount.product_identifier_type": { value: "SRW" },
    "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locale: "de" } },
    "energy_amount.quantity_unit": "Einheit"
  }
} as const satisfies MappingSpec

const row = { Konto: "KD-1", MaLo: "51238696781", Von: "01.01.2024 00:00", Bis: "02.01.2024 00:00", OBIS: "1-1:1.8.0", Menge: "1.234,5", Einheit: "KWH" }

/** The one payload of `rows` mapped with `fields` added to the base mapping (and `groupBy`, when given), its `energy_amount`'s keys. */
const energyAmountKeys = (fields: MappingSpec["fields"], rows: ReadonlyArray<Record<string, string>>, groupBy?: ReadonlyArray<string>): Array<string> => {
  const mapping = defineMapping({ ...base, fields: { ...base.fields, ...fields }, ...(groupBy !== undefined ? { groupBy } : {}) })
  const result = mapRecords(mapping, rows)
  expect(result.rejected).toEqual([])
  expect(result.payloads).toHaveLength(1)
  return Object.keys((result.payloads[0]!.payload as { readonly energy_amount: object }).energy_amount)
}

describe("a payload of one row", () => {
  it("leaves out an optional field whose constant carries no data", () => {
    expect(energyAmountKeys({ "energy_amount.qualifier": { value: "" } }, [row])).not.toContain("qualifier")
    expect(energyAmountKeys({ "energy_amount.qualifier": { value: "  " } }, [row])).not.toContain("qualifier")
    expect(energyAmountKeys({ "energy_amount.qualifier": { value: "Z18" } }, [row])).toContain("qualifier")
  })

  it("leaves out a list that is empty once its blanks are dropped", () => {
    const plausi = { "energy_amount.plausibility_indications": { column: "Plausi", convert: "list", options: { separator: "," } } } as const
    expect(energyAmountKeys(plausi, [{ ...row, Plausi: " , " }])).not.toContain("plausibility_indications")
    expect(energyAmountKeys(plausi, [{ ...row, Plausi: "Z57, ,Z84" }])).toContain("plausibility_indications")
  })

  it("sets no key at all for a blank cell (not even one holding undefined)", () => {
    const keys = energyAmountKeys({ "energy_amount.qualifier": "Qualifier" }, [{ ...row, Qualifier: "  " }])
    expect(keys).not.toContain("qualifier")
    expect(keys).toEqual(["malo_number", "period_start_at", "period_end_at", "product_identifier", "product_identifier_type", "quantity", "quantity_unit"])
  })

  it("is compacted on the general path too (a mapping with groupBy)", () => {
    const plausi = { "energy_amount.plausibility_indications": { column: "Plausi", convert: "list", options: { separator: "," } } } as const
    expect(energyAmountKeys(plausi, [{ ...row, Plausi: " , " }], ["Konto"])).not.toContain("plausibility_indications")
    expect(energyAmountKeys({ "energy_amount.qualifier": { value: "" } }, [row], ["Konto"])).not.toContain("qualifier")
  })
})
