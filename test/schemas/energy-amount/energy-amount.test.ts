import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  cross,
  deleteAt,
  errorsOf,
  exampleWith,
  loadExample,
  MALFORMED_DATETIMES,
  MALFORMED_DECIMALS,
  setAt,
  warningsOf
} from "../../support/payloads.js"
import { describeAccountIdentificationLimits } from "../../support/account-identification.js"

import { FIELDS } from "./fields.js"

const ID = "energy-amount"
const validate = (input: unknown) => validatePayload(ID, input)
const { optional: OPTIONAL_NOT_NULLABLE } = FIELDS[ID]

const EA = "energy_amount"
/** The two fields the spec types "or null". */
const NULLABLE = [`${EA}.cancelled_at`, `${EA}.cancelled_reference`]

describe("energy-amount request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts the example with every optional field removed", () => {
    const input = loadExample(ID)
    for (const attr of [...NULLABLE, ...OPTIONAL_NOT_NULLABLE]) deleteAt(input, attr)
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  it("accepts correction_reason and a cancelled amount with its datetime and reference", () => {
    const input = loadExample(ID)
    setAt(input, `${EA}.correction_reason`, "Z34")
    setAt(input, `${EA}.cancelled`, true)
    setAt(input, `${EA}.cancelled_at`, "2024-11-10T08:00:00Z")
    setAt(input, `${EA}.cancelled_reference`, "MSCONS-241110-000002")
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  describe("null", () => {

    it.each(NULLABLE)("%s = null is accepted (the spec says \"or null\")", (attr) => {
      expect(validate(exampleWith(ID, attr, null)).ok).toBe(true)
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", `${EA}.foo`, `${EA}.energy_amount`, `${EA}.amounts`])("%s → unknown_field", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, { bar: 1 })))).toStrictEqual([[attr, "unknown_field"]])
    })
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      [EA, [], "invalid"],
      [EA, [loadExample(ID)[EA]], "invalid"],
      [EA, "x", "invalid"],
      [`${EA}.malo_number`, 51238696781, "invalid"],
      [`${EA}.cancelled`, "false", "invalid"],
      [`${EA}.cancelled`, 0, "invalid"],
      [`${EA}.cancelled_at`, 5, "invalid"],
      [`${EA}.cancelled_at`, false, "invalid"],
      [`${EA}.cancelled_reference`, 7, "invalid"],
      [`${EA}.plausibility_indications`, "Z57", "not_a_list"],
      [`${EA}.plausibility_indications`, { 0: "Z57" }, "not_a_list"],
      [`${EA}.measurement_classifications.0`, 84, "invalid"],
      [`${EA}.measurement_classifications.1`, ["Z86"], "invalid"],
      [`${EA}.qualifier`, 18, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("datetimes and decimals", () => {
    it.each(cross([`${EA}.period_start_at`, `${EA}.period_end_at`, `${EA}.cancelled_at`], MALFORMED_DATETIMES))(
      "%s = %j → invalid",
      (attr, value) => {
        expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
      }
    )

    it.each(MALFORMED_DECIMALS)("quantity = %j → invalid", (value) => {
      expect(errorsOf(validate(exampleWith(ID, `${EA}.quantity`, value)))).toStrictEqual([[`${EA}.quantity`, "invalid"]])
    })

    it.each(["0", "-12.5", "263.4175000"])("quantity %j is a decimal string", (value) => {
      expect(validate(exampleWith(ID, `${EA}.quantity`, value)).ok).toBe(true)
    })
  })

  describe("blank strings", () => {

    it("a blank cancelled_reference is blank, not null", () => {
      expect(errorsOf(validate(exampleWith(ID, `${EA}.cancelled_reference`, " ")))).toStrictEqual([
        [`${EA}.cancelled_reference`, "blank"]
      ])
    })
  })

  describeAccountIdentificationLimits(ID)

  describe("period", () => {
    it("start after end → start_date_later_than_end_date at period_end_at", () => {
      const input = exampleWith(ID, `${EA}.period_end_at`, "2024-09-30T23:59:59+02:00")
      expect(errorsOf(validate(input))).toStrictEqual([[`${EA}.period_end_at`, "start_date_later_than_end_date"]])
    })

    it("compares instants: 03:00+02:00 is before 02:30+01:00, the reverse is not", () => {
      const valid = setAt(
        exampleWith(ID, `${EA}.period_start_at`, "2024-03-31T03:00:00+02:00"),
        `${EA}.period_end_at`,
        "2024-03-31T02:30:00+01:00"
      )
      expect(validate(valid).ok).toBe(true)
      const invalid = setAt(
        exampleWith(ID, `${EA}.period_start_at`, "2024-03-31T02:30:00+01:00"),
        `${EA}.period_end_at`,
        "2024-03-31T03:00:00+02:00"
      )
      expect(errorsOf(validate(invalid))).toStrictEqual([[`${EA}.period_end_at`, "start_date_later_than_end_date"]])
    })

    it("the same instant written in two zones is not start after end", () => {
      const input = setAt(
        exampleWith(ID, `${EA}.period_start_at`, "2024-10-31T23:00:00Z"),
        `${EA}.period_end_at`,
        "2024-11-01T00:00:00+01:00"
      )
      expect(validate(input).ok).toBe(true)
    })
  })

  describe("warnings", () => {
    it.each([`${EA}.plausibility_indications`, `${EA}.measurement_classifications`])(
      "%s sent as [] → empty_optional, still valid",
      (attr) => {
        const result = validate(exampleWith(ID, attr, []))
        expect(result.ok).toBe(true)
        expect(warningsOf(result)).toStrictEqual([[attr, "empty_optional"]])
      }
    )

    it("values outside the listed product_identifier_type and quantity_unit → unknown_choice", () => {
      const input = setAt(exampleWith(ID, `${EA}.product_identifier_type`, "OBIS"), `${EA}.quantity_unit`, "kWh")
      const result = validate(input)
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([
        [`${EA}.product_identifier_type`, "unknown_choice"],
        [`${EA}.quantity_unit`, "unknown_choice"]
      ])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "import_supplier", "")
      setAt(input, `${EA}.quantity`, "1e3")
      setAt(input, `${EA}.cancelled`, null)
      setAt(input, `${EA}.foo`, 1)
      deleteAt(input, `${EA}.malo_number`)
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b5\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["import_supplier", "blank"],
        [`${EA}.quantity`, "invalid"],
        [`${EA}.cancelled`, "null"],
        [`${EA}.foo`, "unknown_field"],
        [`${EA}.malo_number`, "required"]
      ])
    })
  })
})
