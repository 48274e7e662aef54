import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  cross,
  deleteAt,
  errorsOf,
  exampleWith,
  exampleWithout,
  loadExample,
  MALFORMED_DATES,
  MALFORMED_DATETIMES,
  setAt,
  warningsOf
} from "../../support/payloads.js"

const ID = "market-participant-definitions"
const validate = (input: unknown) => validatePayload(ID, input)

const DEF = "definitions.0"
const ROLLED = "rolled_out_definitions.0"
const entry = (i: number) => `${ROLLED}.entries.${i}`
const DATETIMES = [
  `${DEF}.version_datetime`,
  `${ROLLED}.version_datetime`,
  `${ROLLED}.validity_period_start`,
  `${ROLLED}.validity_period_end`,
  `${entry(1)}.period_start`,
  `${entry(1)}.period_end`
]

describe("market-participant-definitions (time definitions) request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it.each(["definitions", "rolled_out_definitions"])("accepts the example without %s (one of the two is enough)", (attr) => {
    const input = exampleWithout(ID, attr)
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  it("accepts definitions with only their required fields", () => {
    const input = loadExample(ID)
    for (const attr of [`${DEF}.status`, `${DEF}.transmission_frequency`, `${DEF}.registers`, `${ROLLED}.recurrence`]) {
      deleteAt(input, attr)
    }
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  it("takes no account identification: it is a pre-account import", () => {
    expect(errorsOf(validate(exampleWith(ID, "import_supplier", "STADTWERKE_NORD")))).toStrictEqual([
      ["import_supplier", "unknown_field"]
    ])
  })

  describe("required fields", () => {

    it("an empty entries list → empty", () => {
      expect(errorsOf(validate(exampleWith(ID, `${ROLLED}.entries`, [])))).toStrictEqual([[`${ROLLED}.entries`, "empty"]])
    })
  })

  describe("definitions_required", () => {
    it("neither definitions nor rolled_out_definitions → definitions_required at non_field_errors", () => {
      const input = deleteAt(exampleWithout(ID, "definitions"), "rolled_out_definitions")
      expect(errorsOf(validate(input))).toStrictEqual([["non_field_errors", "definitions_required"]])
    })

    it("the error names both lists, so the sender knows what to add", () => {
      const result = validate(deleteAt(exampleWithout(ID, "definitions"), "rolled_out_definitions"))
      expect(result.ok).toBe(false)
      const detail = result.ok ? "" : (result.error.errors[0]?.detail ?? "")
      expect(detail).toMatch(/(^|[^_])definitions\b/u)
      expect(detail).toContain("rolled_out_definitions")
    })

    it("two empty lists count as neither (and the error speaks for them: no empty_optional warning)", () => {
      const input = setAt(exampleWith(ID, "definitions", []), "rolled_out_definitions", [])
      const result = validate(input)
      expect(errorsOf(result)).toStrictEqual([["non_field_errors", "definitions_required"]])
      expect(warningsOf(result)).toStrictEqual([])
    })

    it("one empty list and the other absent → definitions_required", () => {
      const input = setAt(exampleWithout(ID, "rolled_out_definitions"), "definitions", [])
      expect(errorsOf(validate(input))).toStrictEqual([["non_field_errors", "definitions_required"]])
    })

    it("one empty list next to a non-empty one → valid, with empty_optional", () => {
      const result = validate(exampleWith(ID, "rolled_out_definitions", []))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([["rolled_out_definitions", "empty_optional"]])
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", `${DEF}.foo`, `${DEF}.registers.1.is_default`, `${ROLLED}.timezone`, `${entry(2)}.x`])(
      "%s → unknown_field",
      (attr) => {
        expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
      }
    )
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["definitions", {}, "not_a_list"],
      ["rolled_out_definitions", "DAILY", "not_a_list"],
      [DEF, [], "invalid"],
      [ROLLED, "x", "invalid"],
      [`${DEF}.registers`, { register_code: "1-1:1.8.1" }, "not_a_list"],
      [`${DEF}.registers.0`, "1-1:1.8.1", "invalid"],
      [`${DEF}.registers.0.low_load_capable`, "false", "invalid"],
      [`${DEF}.registers.1.low_load_capable`, 1, "invalid"],
      [`${DEF}.definition_code`, 2024, "invalid"],
      [`${ROLLED}.entries`, {}, "not_a_list"],
      [entry(0), [], "invalid"],
      [`${entry(0)}.active_register_code`, 181, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("network_operator_code", () => {
    it.each(["990012345678", "99001234567890", 9900123456789, "99001234567ab", " 9900123456789", "9900123456789\n"])(
      "%j → invalid (a string of 13 digits)",
      (value) => {
        expect(errorsOf(validate(exampleWith(ID, "network_operator_code", value)))).toStrictEqual([
          ["network_operator_code", "invalid"]
        ])
      }
    )

    it("keeps leading zeros: 0000000000001 is 13 digits", () => {
      expect(validate(exampleWith(ID, "network_operator_code", "0000000000001")).ok).toBe(true)
    })
  })

  describe("dates and datetimes", () => {
    it.each(MALFORMED_DATES)("valid_from %j → invalid", (value) => {
      expect(errorsOf(validate(exampleWith(ID, `${DEF}.valid_from`, value)))).toStrictEqual([[`${DEF}.valid_from`, "invalid"]])
    })

    it.each(cross(DATETIMES, MALFORMED_DATETIMES))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })
  })

  describe("periods", () => {
    it("validity_period_start after validity_period_end → start_date_later_than_end_date at the end", () => {
      expect(errorsOf(validate(exampleWith(ID, `${ROLLED}.validity_period_end`, "2024-03-30T00:00:00+01:00")))).toStrictEqual([
        [`${ROLLED}.validity_period_end`, "start_date_later_than_end_date"]
      ])
    })

    it("an entry's period_start after its period_end → start_date_later_than_end_date at period_end", () => {
      expect(errorsOf(validate(exampleWith(ID, `${entry(1)}.period_end`, "2024-03-31T05:59:59+02:00")))).toStrictEqual([
        [`${entry(1)}.period_end`, "start_date_later_than_end_date"]
      ])
    })

    it("compares instants across the DST change: 03:00+02:00 is before 02:30+01:00, the reverse is not", () => {
      const valid = setAt(
        exampleWith(ID, `${entry(0)}.period_start`, "2024-03-31T03:00:00+02:00"),
        `${entry(0)}.period_end`,
        "2024-03-31T02:30:00+01:00"
      )
      expect(validate(valid).ok).toBe(true)
      const invalid = setAt(
        exampleWith(ID, `${entry(0)}.period_start`, "2024-03-31T02:30:00+01:00"),
        `${entry(0)}.period_end`,
        "2024-03-31T03:00:00+02:00"
      )
      expect(errorsOf(validate(invalid))).toStrictEqual([[`${entry(0)}.period_end`, "start_date_later_than_end_date"]])
    })

    it("reports each faulty entry, not only the first", () => {
      const input = loadExample(ID)
      setAt(input, `${entry(0)}.period_start`, "2024-03-31T07:00:00+02:00")
      setAt(input, `${entry(2)}.period_end`, "2024-03-31T21:00:00+02:00")
      expect(errorsOf(validate(input))).toStrictEqual([
        [`${entry(0)}.period_end`, "start_date_later_than_end_date"],
        [`${entry(2)}.period_end`, "start_date_later_than_end_date"]
      ])
    })
  })

  describe("warnings", () => {
    it("registers: [] → empty_optional, still valid", () => {
      const result = validate(exampleWith(ID, `${DEF}.registers`, []))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[`${DEF}.registers`, "empty_optional"]])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "network_operator_code", 9900123456789)
      setAt(input, `${DEF}.valid_from`, "2024-02-30")
      setAt(input, `${DEF}.registers.1.low_load_capable`, null)
      deleteAt(input, `${ROLLED}.definition_code`)
      setAt(input, `${entry(2)}.active_register_code`, "")
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b5\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["network_operator_code", "invalid"],
        [`${DEF}.valid_from`, "invalid"],
        [`${DEF}.registers.1.low_load_capable`, "null"],
        [`${ROLLED}.entries.2.active_register_code`, "blank"],
        [`${ROLLED}.definition_code`, "required"]
      ])
    })
  })
})
