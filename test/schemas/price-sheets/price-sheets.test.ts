import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  cross,
  deleteAt,
  errorsOf,
  exampleWith,
  INVALID_PARTICIPANT_CODES,
  loadExample,
  MALFORMED_DATETIMES,
  MALFORMED_DECIMALS,
  setAt,
  warningsOf
} from "../../support/payloads.js"

import { FIELDS } from "./fields.js"

const ID = "market-participant-fees"
const validate = (input: unknown) => validatePayload(ID, input)
const { optional: OPTIONAL } = FIELDS[ID]

const SHEET = "price_sheets.0"
const PRICE = `${SHEET}.article_prices.0`
const ZONE = `${PRICE}.interval_zone`

describe("market-participant-fees (price sheets) request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts a price sheet with only its required fields", () => {
    const input = loadExample(ID)
    for (const attr of OPTIONAL) deleteAt(input, attr)
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  it("takes no account identification: it is a pre-account import", () => {
    expect(errorsOf(validate(exampleWith(ID, "external_account_number", "KD-1")))).toStrictEqual([
      ["external_account_number", "unknown_field"]
    ])
  })

  describe("required fields", () => {

    it.each(["price_sheets", `${SHEET}.article_prices`])("%s = [] → empty", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, [])))).toStrictEqual([[attr, "empty"]])
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", `${SHEET}.currency`, `${PRICE}.price_euros`, `${ZONE}.unit`])("%s → unknown_field", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
    })
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["price_sheets", {}, "not_a_list"],
      ["price_sheets", "Z64", "not_a_list"],
      [SHEET, [], "invalid"],
      [`${SHEET}.article_prices`, {}, "not_a_list"],
      [PRICE, [], "invalid"],
      [ZONE, [0, 100000], "invalid"],
      [ZONE, "0-100000", "invalid"],
      [`${ZONE}.lower_bound`, "0", "invalid"],
      [`${ZONE}.upper_bound`, true, "invalid"],
      [`${SHEET}.is_price_sheet_unused`, "false", "invalid"],
      [`${SHEET}.document_number`, 1, "invalid"],
      [`${PRICE}.article_id`, 9990001000053, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("codes, decimals and datetimes", () => {
    it.each(INVALID_PARTICIPANT_CODES)("market_participant_code = %j → invalid", (value) => {
      const attr = `${SHEET}.market_participant_code`
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(cross([`${PRICE}.price_cents`, `${SHEET}.article_prices.1.price_cents`], MALFORMED_DECIMALS))(
      "%s = %j → invalid",
      (attr, value) => {
        expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
      }
    )

    it.each(["0", "-1.5", "7.99800"])("price_cents %j is a decimal string", (value) => {
      expect(validate(exampleWith(ID, `${PRICE}.price_cents`, value)).ok).toBe(true)
    })

    it.each(MALFORMED_DATETIMES)("active_from %j → invalid", (value) => {
      expect(errorsOf(validate(exampleWith(ID, `${SHEET}.active_from`, value)))).toStrictEqual([
        [`${SHEET}.active_from`, "invalid"]
      ])
    })
  })

  describe("interval zone", () => {
    it("lower_bound above upper_bound → lower_bound_greater_than_upper_bound at upper_bound", () => {
      expect(errorsOf(validate(exampleWith(ID, ZONE, { lower_bound: 100001, upper_bound: 100000 })))).toStrictEqual([
        [`${ZONE}.upper_bound`, "lower_bound_greater_than_upper_bound"]
      ])
    })

    it("says which bound is wrong in the error's detail", () => {
      const result = validate(exampleWith(ID, ZONE, { lower_bound: 2, upper_bound: 1 }))
      expect(result.ok ? [] : result.error.errors.map((e) => e.detail)).toStrictEqual(["lower_bound must not be greater than upper_bound."])
    })

    it.each([
      { lower_bound: 100, upper_bound: 100 },
      { lower_bound: -5.5, upper_bound: 0 },
      { lower_bound: 0.25, upper_bound: 0.5 }
    ])("%j is accepted (lower ≤ upper)", (zone) => {
      expect(validate(exampleWith(ID, ZONE, zone)).ok).toBe(true)
    })

    it("compares the bounds as numbers, not as text", () => {
      expect(errorsOf(validate(exampleWith(ID, ZONE, { lower_bound: 10, upper_bound: 9.5 })))).toStrictEqual([
        [`${ZONE}.upper_bound`, "lower_bound_greater_than_upper_bound"]
      ])
      expect(validate(exampleWith(ID, ZONE, { lower_bound: 0.5, upper_bound: 10 })).ok).toBe(true)
    })
  })

  describe("warnings", () => {
    it("price_sheet_type is a plain string in the spec: any value, no unknown_choice", () => {
      const result = validate(exampleWith(ID, `${SHEET}.price_sheet_type`, "Z99"))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, `${SHEET}.market_participant_code`, 9900123456789.5)
      setAt(input, `${SHEET}.active_from`, "2024-01-01T00:00:00")
      setAt(input, `${PRICE}.price_cents`, "7,998")
      setAt(input, `${SHEET}.article_prices.1.price_cents`, 794)
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b4\b/)
      expect(errorsOf(result)).toStrictEqual([
        [`${SHEET}.market_participant_code`, "invalid"],
        [`${SHEET}.active_from`, "invalid"],
        [`${PRICE}.price_cents`, "invalid"],
        [`${SHEET}.article_prices.1.price_cents`, "invalid"]
      ])
    })
  })
})
