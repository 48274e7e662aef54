import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  cross,
  errorsOf,
  exampleWith,
  loadExample,
  ofLength,
  setAt,
  warningsOf
} from "../../support/payloads.js"

import { FIELDS } from "./fields.js"

const ID = "payment-instruction"
const validate = (input: unknown) => validatePayload(ID, input)

const { required: REQUIRED } = FIELDS[ID]

describe("payment-instruction request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  describe("required fields", () => {

    it("an empty object → required for each field, in schema order", () => {
      expect(errorsOf(validate({}))).toStrictEqual(REQUIRED.map((attr) => [attr, "required"]))
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", "instruction_reference", "account_number", "payment_instruction"])("%s → unknown_field", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
    })

    it("a nested object in place of a field is the wrong type, and its keys are not reported", () => {
      expect(errorsOf(validate(exampleWith(ID, "vendor", { name: "STRIPE", foo: 1 })))).toStrictEqual([["vendor", "invalid"]])
    })
  })

  describe("wrong JSON types", () => {
    it.each(cross(REQUIRED, [42, true, ["x"], {}]))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })
  })

  describe("max_length", () => {
    it.each<[string, number]>([
      ["import_supplier", 33],
      ["external_account_number", 129],
      ["reference", 513]
    ])("%s of %d characters → max_length", (attr, length) => {
      expect(errorsOf(validate(exampleWith(ID, attr, ofLength(length))))).toStrictEqual([[attr, "max_length"]])
    })

    it("import_supplier 32, external_account_number 128 and reference 512 characters are accepted", () => {
      const input = loadExample(ID)
      setAt(input, "import_supplier", ofLength(32))
      setAt(input, "external_account_number", ofLength(128))
      setAt(input, "reference", ofLength(512))
      expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
    })

    it("counts characters, not UTF-16 code units", () => {
      const input = loadExample(ID)
      setAt(input, "import_supplier", ofLength(32, "😀"))
      setAt(input, "external_account_number", ofLength(128, "ü"))
      setAt(input, "reference", ofLength(512, "𝄞"))
      expect(validate(input).ok).toBe(true)
      setAt(input, "reference", ofLength(513, "𝄞"))
      expect(errorsOf(validate(input))).toStrictEqual([["reference", "max_length"]])
    })

    it("vendor has no length limit", () => {
      expect(validate(exampleWith(ID, "vendor", ofLength(1000))).ok).toBe(true)
    })
  })

  describe("warnings", () => {
    it("a type other than CARD → unknown_choice, still valid", () => {
      const result = validate(exampleWith(ID, "type", "SEPA_DEBIT"))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([["type", "unknown_choice"]])
    })

    it("the type is compared exactly: card is not CARD", () => {
      expect(warningsOf(validate(exampleWith(ID, "type", "card")))).toStrictEqual([["type", "unknown_choice"]])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "import_supplier", ofLength(40))
      setAt(input, "vendor", "")
      setAt(input, "reference", 12)
      setAt(input, "type", null)
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b4\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["import_supplier", "max_length"],
        ["vendor", "blank"],
        ["reference", "invalid"],
        ["type", "null"]
      ])
    })

    it("lists errors in the payload's key order", () => {
      const input = { type: 1, reference: "", vendor: null, external_account_number: "KD-1", import_supplier: "S" }
      expect(errorsOf(validate(input))).toStrictEqual([
        ["type", "invalid"],
        ["reference", "blank"],
        ["vendor", "null"]
      ])
    })
  })
})
