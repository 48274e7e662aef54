import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  deleteAt,
  errorsOf,
  exampleWith,
  exampleWithout,
  INVALID_PARTICIPANT_CODES,
  loadExample,
  MALFORMED_DATETIMES,
  setAt,
  warningsOf
} from "../../support/payloads.js"

const ID = "market-participant"
const validate = (input: unknown) => validatePayload(ID, input)

const CONTACT = "contact_details.0"

describe("market-participant request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts a participant without contacts, and a contact with only its category", () => {
    const bare = exampleWithout(ID, "contact_details")
    expect(validate(bare)).toStrictEqual({ ok: true, value: bare, warnings: [] })
    const minimal = exampleWith(ID, "contact_details", [{ category: "Z10" }, { category: "Z03", phone: "+49 431 9988776" }])
    expect(validate(minimal)).toStrictEqual({ ok: true, value: minimal, warnings: [] })
  })

  it("takes no account identification: it is a pre-account import", () => {
    expect(errorsOf(validate(exampleWith(ID, "import_supplier", "STADTWERKE_NORD")))).toStrictEqual([
      ["import_supplier", "unknown_field"]
    ])
  })

  describe("unknown fields", () => {
    it.each(["foo", "contact", `${CONTACT}.fax`, `${CONTACT}.valid_to`])("%s → unknown_field", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
    })
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["name", 42, "invalid"],
      ["role", ["NETWORK_OPERATOR"], "invalid"],
      ["energy", true, "invalid"],
      ["contact_details", {}, "not_a_list"],
      ["contact_details", "Z10", "not_a_list"],
      [CONTACT, [], "invalid"],
      [CONTACT, "Z10", "invalid"],
      [`${CONTACT}.category`, 10, "invalid"],
      [`${CONTACT}.phone`, 494311234560, "invalid"],
      [`${CONTACT}.email`, {}, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("code", () => {
    it.each(INVALID_PARTICIPANT_CODES)("code = %j → invalid (a positive integer of 13 digits)", (value) => {
      expect(errorsOf(validate(exampleWith(ID, "code", value)))).toStrictEqual([["code", "invalid"]])
    })

    it.each([1000000000000, 4033872000058, 9999999999999])("code = %d is accepted", (value) => {
      expect(validate(exampleWith(ID, "code", value)).ok).toBe(true)
    })
  })

  describe("contact fields", () => {
    it.each([
      "0431 123456",
      "49431123456",
      "+49 431",
      "+123456",
      "+1234567890123456",
      "+49 431 ABC",
      "tel:+494311234560",
      "+49/431/123456"
    ])("phone %j → invalid_phone_number", (phone) => {
      expect(errorsOf(validate(exampleWith(ID, `${CONTACT}.phone`, phone)))).toStrictEqual([
        [`${CONTACT}.phone`, "invalid_phone_number"]
      ])
    })

    it.each(["+1234567", "+123456789012345", "+49 (431) 123.456-0", "+494311234560"])("phone %j is accepted", (phone) => {
      expect(validate(exampleWith(ID, `${CONTACT}.phone`, phone)).ok).toBe(true)
    })

    it.each(["netz", "netz@", "@netz-nord.example", "netz@netz-nord", "netz abrechnung@netz-nord.example"])(
      "email %j → invalid",
      (email) => {
        expect(errorsOf(validate(exampleWith(ID, `${CONTACT}.email`, email)))).toStrictEqual([[`${CONTACT}.email`, "invalid"]])
      }
    )

    // Contract decisions, error codes: a malformed e-mail is `invalid`. What is left of a list, a display
    // name or brackets around the address is no address; neither are empty dot-atoms (RFC 5322, 3.4.1) or
    // a domain label a host name cannot have (RFC 1123, 2.1).
    it.each([
      "netz@netz-nord.example,",
      "netz@netz-nord.example;",
      "<netz@netz-nord.example>",
      "Netz<netz@netz-nord.example>",
      "netz;info@netz-nord.example",
      ".netz@netz-nord.example",
      "netz.@netz-nord.example",
      "ne..tz@netz-nord.example",
      "netz@netz_nord.example",
      "netz@[netz-nord].example",
      "netz@-netz-nord.example",
      "netz@netz-nord-.example"
    ])("email %j → invalid", (email) => {
      expect(errorsOf(validate(exampleWith(ID, `${CONTACT}.email`, email)))).toStrictEqual([[`${CONTACT}.email`, "invalid"]])
    })

    it.each([
      "m.mueller@netz-nord.example",
      "kundenservice+import@netz-nord.example",
      "o'brien@netz-nord.example",
      "zoë@netz-nord.example",
      "netz@bücher.example",
      "netz@xn--bcher-kva.example",
      "netz@netz-nord.co.example",
      "\"netz.nord\"@netz-nord.example"
    ])("email %j is accepted", (email) => {
      expect(validate(exampleWith(ID, `${CONTACT}.email`, email)).ok).toBe(true)
    })

    it.each(MALFORMED_DATETIMES)("valid_from %j → invalid", (value) => {
      expect(errorsOf(validate(exampleWith(ID, `${CONTACT}.valid_from`, value)))).toStrictEqual([
        [`${CONTACT}.valid_from`, "invalid"]
      ])
    })
  })

  describe("warnings", () => {
    it.each<[string, string]>([
      ["code_type", "DVGW"],
      ["role", "METERING_POINT_OPERATOR"],
      ["energy", "GAS"]
    ])("%s = %j (not listed in the spec) → unknown_choice, still valid", (attr, value) => {
      const result = validate(exampleWith(ID, attr, value))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[attr, "unknown_choice"]])
    })

    it("contact_details: [] → empty_optional, still valid", () => {
      const result = validate(exampleWith(ID, "contact_details", []))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([["contact_details", "empty_optional"]])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "code", 990012345678)
      setAt(input, "name", " ")
      setAt(input, `${CONTACT}.email`, "netz@")
      setAt(input, `${CONTACT}.phone`, "0431 123456")
      deleteAt(input, `${CONTACT}.category`)
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b5\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["code", "invalid"],
        ["name", "blank"],
        [`${CONTACT}.email`, "invalid"],
        [`${CONTACT}.phone`, "invalid_phone_number"],
        [`${CONTACT}.category`, "required"]
      ])
    })
  })
})
