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

const ID = "delivery-note"
const validate = (input: unknown) => validatePayload(ID, input)
const { optional: OPTIONAL } = FIELDS[ID]

const DATETIMES = [
  "delivery_note.amounts.0.period_start_at",
  "delivery_note.amounts.0.period_end_at",
  "delivery_note.amounts.1.period_end_at",
  "delivery_note.last_validation_at"
]
const DECIMALS = ["delivery_note.amounts.0.quantity", "delivery_note.amounts.1.quantity"]

describe("delivery-note request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts the example with every optional field removed", () => {
    const input = loadExample(ID)
    for (const attr of [...OPTIONAL, "delivery_note.amounts.1.line_item_identifier"]) deleteAt(input, attr)
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  describe("required fields", () => {

    it("an empty amounts list → empty", () => {
      expect(errorsOf(validate(exampleWith(ID, "delivery_note.amounts", [])))).toStrictEqual([
        ["delivery_note.amounts", "empty"]
      ])
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", "delivery_note.foo", "delivery_note.amounts.1.unit_price", "delivery_note.amounts.0.x"])(
      "%s → unknown_field",
      (attr) => {
        expect(errorsOf(validate(exampleWith(ID, attr, 1)))).toStrictEqual([[attr, "unknown_field"]])
      }
    )
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["delivery_note", [], "invalid"],
      ["delivery_note", "DN-1", "invalid"],
      ["delivery_note.malo_number", 51238696781, "invalid"],
      ["delivery_note.amounts", {}, "not_a_list"],
      ["delivery_note.amounts", "x", "not_a_list"],
      ["delivery_note.amounts.0", [], "invalid"],
      ["delivery_note.amounts.0", 1, "invalid"],
      ["delivery_note.amounts.0.product_identifier", 180, "invalid"],
      ["delivery_note.amounts.0.quantity_unit", ["KWH"], "invalid"],
      ["delivery_note.amounts.0.line_item_identifier", 1, "invalid"],
      ["delivery_note.cancelled", "false", "invalid"],
      ["delivery_note.validation_status", 1, "invalid"],
      ["delivery_note.edifact_reference_number", {}, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("datetimes and decimals", () => {
    it.each(cross(DATETIMES, MALFORMED_DATETIMES))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(cross(DECIMALS, MALFORMED_DECIMALS))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(["0", "-0.25", "123.456789000", "0812.5"])("quantity %j is a decimal string", (value) => {
      expect(validate(exampleWith(ID, "delivery_note.amounts.0.quantity", value)).ok).toBe(true)
    })
  })

  describeAccountIdentificationLimits(ID)

  describe("period of an amount", () => {
    it("start after end → start_date_later_than_end_date at period_end_at", () => {
      const input = exampleWith(ID, "delivery_note.amounts.1.period_end_at", "2024-03-30T23:59:59+01:00")
      expect(errorsOf(validate(input))).toStrictEqual([
        ["delivery_note.amounts.1.period_end_at", "start_date_later_than_end_date"]
      ])
    })

    it("start equal to end is accepted", () => {
      const input = exampleWith(ID, "delivery_note.amounts.0.period_end_at", "2024-01-01T00:00:00+01:00")
      expect(validate(input).ok).toBe(true)
    })

    it("compares instants: 03:00+02:00 is before 02:30+01:00, the reverse is not", () => {
      const start = "delivery_note.amounts.0.period_start_at"
      const end = "delivery_note.amounts.0.period_end_at"
      const valid = setAt(exampleWith(ID, start, "2024-03-31T03:00:00+02:00"), end, "2024-03-31T02:30:00+01:00")
      expect(validate(valid).ok).toBe(true)
      const invalid = setAt(exampleWith(ID, start, "2024-03-31T02:30:00+01:00"), end, "2024-03-31T03:00:00+02:00")
      expect(errorsOf(validate(invalid))).toStrictEqual([[end, "start_date_later_than_end_date"]])
    })

    it("compares fractions of a second", () => {
      const start = "delivery_note.amounts.0.period_start_at"
      const end = "delivery_note.amounts.0.period_end_at"
      const input = setAt(exampleWith(ID, start, "2024-01-01T00:00:00.5Z"), end, "2024-01-01T00:00:00.25Z")
      expect(errorsOf(validate(input))).toStrictEqual([[end, "start_date_later_than_end_date"]])
    })
  })

  describe("warnings", () => {
    it("values outside the listed product_identifier_type and quantity_unit → unknown_choice, still valid", () => {
      const input = setAt(
        exampleWith(ID, "delivery_note.amounts.1.product_identifier_type", "OBIS"),
        "delivery_note.amounts.1.quantity_unit",
        "MWH"
      )
      const result = validate(input)
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([
        ["delivery_note.amounts.1.product_identifier_type", "unknown_choice"],
        ["delivery_note.amounts.1.quantity_unit", "unknown_choice"]
      ])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "external_account_number", null)
      setAt(input, "delivery_note.amounts.0.quantity", "1,5")
      setAt(input, "delivery_note.amounts.1.period_start_at", "2024-03-31T00:00:00")
      setAt(input, "delivery_note.cancelled", "no")
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b4\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["external_account_number", "null"],
        ["delivery_note.amounts.0.quantity", "invalid"],
        ["delivery_note.amounts.1.period_start_at", "invalid"],
        ["delivery_note.cancelled", "invalid"]
      ])
    })
  })
})
