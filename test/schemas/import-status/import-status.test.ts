import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { type GetEndpointId, validatePayload } from "../../../src/index.js"
import { ImportSupplierStatus } from "../../../src/schemas/import-status/import-status.js"
import { BLANKS, cross, errorsOf, NOT_OBJECTS, ofLength } from "../../support/payloads.js"

/** The GET endpoints: `validatePayload` checks their path parameters, given as an object. */
const LIST_IDS: ReadonlyArray<GetEndpointId> = [
  "all-account-import-processes",
  "pending-account-import-processes",
  "imported-account-import-processes"
]
const STATUS_ID = "account-transfer-status" satisfies GetEndpointId
const ALL_IDS: ReadonlyArray<GetEndpointId> = [STATUS_ID, ...LIST_IDS]

/** Valid path parameters of each GET endpoint. */
const paramsOf = (id: GetEndpointId): Record<string, unknown> =>
  id === STATUS_ID
    ? { import_supplier_code: "STADTWERKE_NORD", external_account_number: "KD-0045127" }
    : { import_supplier_code: "STADTWERKE_NORD" }

const REQUIRED_OF = (id: GetEndpointId): Array<string> =>
  id === STATUS_ID ? ["import_supplier_code", "external_account_number"] : ["import_supplier_code"]

const withParam = (id: GetEndpointId, attr: string, value: unknown) => ({ ...paramsOf(id), [attr]: value })
const withoutParam = (id: GetEndpointId, attr: string) => {
  const params = paramsOf(id)
  delete params[attr]
  return params
}

describe("status endpoints: path parameters", () => {
  it.each(ALL_IDS)("%s accepts its parameters unchanged, with no warnings", (id) => {
    expect(validatePayload(id, paramsOf(id))).toStrictEqual({ ok: true, value: paramsOf(id), warnings: [] })
  })

  describe("required parameters", () => {
    it.each(ALL_IDS.flatMap((id) => REQUIRED_OF(id).map((attr): [GetEndpointId, string] => [id, attr])))(
      "%s without %s → required",
      (id, attr) => {
        expect(errorsOf(validatePayload(id, withoutParam(id, attr)))).toStrictEqual([[attr, "required"]])
      }
    )

    it("account-transfer-status with no parameters → required for both, in path order", () => {
      expect(errorsOf(validatePayload(STATUS_ID, {}))).toStrictEqual([
        ["import_supplier_code", "required"],
        ["external_account_number", "required"]
      ])
    })
  })

  describe("unknown parameters", () => {
    it.each(LIST_IDS)("%s takes no external_account_number → unknown_field", (id) => {
      expect(errorsOf(validatePayload(id, withParam(id, "external_account_number", "KD-0045127")))).toStrictEqual([
        ["external_account_number", "unknown_field"]
      ])
    })

    it.each(ALL_IDS)("%s: an undocumented parameter → unknown_field", (id) => {
      expect(errorsOf(validatePayload(id, withParam(id, "import_supplier", "STADTWERKE_NORD")))).toStrictEqual([
        ["import_supplier", "unknown_field"]
      ])
    })
  })

  describe("values", () => {
    const rows = ALL_IDS.flatMap((id) => REQUIRED_OF(id).map((attr): [GetEndpointId, string] => [id, attr]))

    it.each(rows)("%s: %s = null → null", (id, attr) => {
      expect(errorsOf(validatePayload(id, withParam(id, attr, null)))).toStrictEqual([[attr, "null"]])
    })

    it.each(rows.flatMap(([id, attr]) => [42, true, ["x"], { code: "x" }].map((v): [GetEndpointId, string, unknown] => [id, attr, v])))(
      "%s: %s = %j → invalid",
      (id, attr, value) => {
        expect(errorsOf(validatePayload(id, withParam(id, attr, value)))).toStrictEqual([[attr, "invalid"]])
      }
    )

    it.each(rows.flatMap(([id, attr]) => BLANKS.map((v): [GetEndpointId, string, string] => [id, attr, v])))(
      "%s: %s = %j → blank",
      (id, attr, value) => {
        expect(errorsOf(validatePayload(id, withParam(id, attr, value)))).toStrictEqual([[attr, "blank"]])
      }
    )

    it.each(cross(ALL_IDS, [33, 100]))("%s: import_supplier_code of %d characters → max_length", (id, length) => {
      const endpoint = id as GetEndpointId
      const params = withParam(endpoint, "import_supplier_code", ofLength(length as number))
      expect(errorsOf(validatePayload(endpoint, params))).toStrictEqual([["import_supplier_code", "max_length"]])
    })

    it.each(ALL_IDS)("%s: import_supplier_code of 32 characters is accepted", (id) => {
      expect(validatePayload(id, withParam(id, "import_supplier_code", ofLength(32))).ok).toBe(true)
    })

    it("external_account_number of 129 characters → max_length; 128 is accepted", () => {
      expect(errorsOf(validatePayload(STATUS_ID, withParam(STATUS_ID, "external_account_number", ofLength(129))))).toStrictEqual([
        ["external_account_number", "max_length"]
      ])
      expect(validatePayload(STATUS_ID, withParam(STATUS_ID, "external_account_number", ofLength(128))).ok).toBe(true)
    })

    it("accepts characters that need encoding in a path (the path builder encodes them)", () => {
      const params = { import_supplier_code: "STADTWERKE NORD", external_account_number: "KD/0045127?x=1#ä" }
      expect(validatePayload(STATUS_ID, params).ok).toBe(true)
    })
  })

  describe("the error body", () => {
    it.each(cross(ALL_IDS, NOT_OBJECTS))("%s: parameters %j → one invalid error at non_field_errors", (id, root) => {
      expect(errorsOf(validatePayload(id as GetEndpointId, root))).toStrictEqual([["non_field_errors", "invalid"]])
    })

    it("collects every error under payload_failed_validation, in the object's key order", () => {
      const result = validatePayload(STATUS_ID, { external_account_number: "", import_supplier_code: ofLength(33) })
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b2\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["external_account_number", "blank"],
        ["import_supplier_code", "max_length"]
      ])
    })
  })
})

describe("ImportSupplierStatus", () => {
  it("is one of the three states an operator sets, spelled as the spec does", () => {
    for (const status of ["Ongoing", "Paused", "Complete"]) expect(Schema.is(ImportSupplierStatus)(status)).toBe(true)
    for (const status of ["", "ongoing", "PAUSED", "Completed", "COMPLETE"]) expect(Schema.is(ImportSupplierStatus)(status)).toBe(false)
  })
})
