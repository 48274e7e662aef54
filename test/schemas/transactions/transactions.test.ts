import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import { isTransactionDateInFuture, transactionInFuture } from "../../../src/schemas/transactions/transaction-date.js"
import {
  cross,
  deleteAt,
  errorsOf,
  exampleWith,
  exampleWithout,
  getAt,
  loadExample,
  MALFORMED_DATES,
  setAt,
  warningsOf
} from "../../support/payloads.js"
import { describeAccountIdentificationLimits } from "../../support/account-identification.js"

const ID = "transactions"
/** A fixed clock: 09:00 UTC on 2025-01-01 is 2025-01-01 in every zone from UTC-9 to UTC+14. */
const NOW = new Date("2025-01-01T09:00:00Z")
const validate = (input: unknown, now: Date = NOW) => validatePayload(ID, input, { now })

const SC = "transactions.2" // the SUPPLY_CHARGE of the example
const LINE = `${SC}.line_items.0`
const TAX = `${SC}.tax_items.0`

const NUMBERS = [
  "transactions.0.amount",
  `${LINE}.number_of_units`,
  `${LINE}.net_amount`,
  `${LINE}.price_per_unit`,
  `${LINE}.units.1`,
  `${TAX}.amount`,
  `${TAX}.value_taxed`,
  `${TAX}.rate`
]
const DATES = ["transactions.0.transaction_date", "transactions.3.transaction_date", `${LINE}.start_date`, `${LINE}.end_date`]

describe("transactions request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts a SUPPLY_CHARGE line item without its optional fields, and no tax_items", () => {
    const input = loadExample(ID)
    for (const attr of [`${LINE}.rate_band`, `${LINE}.price_per_unit`, `${LINE}.units`, `${SC}.tax_items`]) {
      deleteAt(input, attr)
    }
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  describe("required fields", () => {

    it("an empty transactions list → empty", () => {
      expect(errorsOf(validate(exampleWith(ID, "transactions", [])))).toStrictEqual([["transactions", "empty"]])
    })

    it("a SUPPLY_CHARGE without product_code and line_items → required at both", () => {
      const input = deleteAt(exampleWithout(ID, `${SC}.product_code`), `${SC}.line_items`)
      expect(errorsOf(validate(input))).toStrictEqual([
        [`${SC}.product_code`, "required"],
        [`${SC}.line_items`, "required"]
      ])
    })

    it("a SUPPLY_CHARGE with line_items: [] → empty, and no contradictory empty_optional warning", () => {
      const result = validate(exampleWith(ID, `${SC}.line_items`, []))
      expect(errorsOf(result)).toStrictEqual([[`${SC}.line_items`, "empty"]])
      expect(warningsOf(result)).toStrictEqual([])
    })

    it("product_code and line_items are not required of other types", () => {
      const input = deleteAt(deleteAt(exampleWith(ID, `${SC}.type`, "CHARGE"), `${SC}.line_items`), `${SC}.product_code`)
      deleteAt(input, `${SC}.tax_items`)
      expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", "account_number", "transactions.0.status", "transactions.1.currency", `${LINE}.vat`, `${TAX}.x`])(
      "%s → unknown_field",
      (attr) => {
        expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
      }
    )
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["transactions", {}, "not_a_list"],
      ["transactions", "BU-1", "not_a_list"],
      ["transactions.0", "BU-1", "invalid"],
      ["transactions.0", [], "invalid"],
      ["transactions.0.transaction_id", 118, "invalid"],
      ["transactions.0.amount", "86.0", "invalid"],
      ["transactions.0.amount", true, "invalid"],
      ["transactions.1.type", ["CHARGE"], "invalid"],
      [`${SC}.line_items`, {}, "not_a_list"],
      [`${SC}.line_items.0`, [], "invalid"],
      [`${LINE}.number_of_units`, "412.3", "invalid"],
      [`${LINE}.units`, "18234.1", "not_a_list"],
      [`${LINE}.units`, { from: 1, to: 2 }, "not_a_list"],
      [`${LINE}.units.0`, "18234.1", "invalid"],
      [`${SC}.tax_items`, { amount: 1 }, "not_a_list"],
      [`${SC}.tax_items.0`, "VAT", "invalid"],
      [`${TAX}.rate`, "0.19", "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })

    it.each(cross(NUMBERS, ["1,5", "1e3", "12.50"]))("%s = %j (a string, not a number) → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(NUMBERS)("%s accepts negative and integer JSON numbers", (attr) => {
      expect(validate(exampleWith(ID, attr, -3)).ok).toBe(true)
    })
  })

  describe("dates", () => {
    it.each(cross(DATES, MALFORMED_DATES))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it("a leap day is a real date", () => {
      expect(validate(exampleWith(ID, "transactions.1.transaction_date", "2024-02-29")).ok).toBe(true)
    })
  })

  describeAccountIdentificationLimits(ID)

  describe("line item dates", () => {
    it("start_date after end_date → start_date_later_than_end_date at end_date", () => {
      expect(errorsOf(validate(exampleWith(ID, `${LINE}.end_date`, "2023-04-30")))).toStrictEqual([
        [`${LINE}.end_date`, "start_date_later_than_end_date"]
      ])
    })

    it("a one-day line item (start_date = end_date) is accepted", () => {
      expect(validate(exampleWith(ID, `${LINE}.end_date`, "2023-05-01")).ok).toBe(true)
    })
  })

  describe("units", () => {
    it.each([[[1]], [[1, 2, 3]], [[]]])("units = %j → line_item_units_must_be_two_values at units", (units) => {
      expect(errorsOf(validate(exampleWith(ID, `${LINE}.units`, units)))).toStrictEqual([
        [`${LINE}.units`, "line_item_units_must_be_two_values"]
      ])
    })

    it("two values, in any order, are accepted", () => {
      expect(validate(exampleWith(ID, `${LINE}.units`, [18646.4, 18234.1])).ok).toBe(true)
    })
  })

  describe("duplicate transaction ids", () => {
    it("a repeated transaction_id → duplicate_transaction_ids at the later one", () => {
      const input = exampleWith(ID, "transactions.1.transaction_id", "BU-2024-000118")
      expect(errorsOf(validate(input))).toStrictEqual([["transactions.1.transaction_id", "duplicate_transaction_ids"]])
    })

    it("reports each later repetition, never the first occurrence", () => {
      const input = setAt(
        exampleWith(ID, "transactions.1.transaction_id", "BU-2024-000601"),
        "transactions.2.transaction_id",
        "BU-2024-000601"
      )
      expect(errorsOf(validate(input))).toStrictEqual([
        ["transactions.2.transaction_id", "duplicate_transaction_ids"],
        ["transactions.3.transaction_id", "duplicate_transaction_ids"]
      ])
    })

    it("ids that differ only in letter case are different ids", () => {
      expect(validate(exampleWith(ID, "transactions.1.transaction_id", "bu-2024-000118")).ok).toBe(true)
    })
  })

  describe("transaction_in_future", () => {
    it("a transaction_date after today → transaction_in_future at that date", () => {
      expect(errorsOf(validate(exampleWith(ID, "transactions.3.transaction_date", "2025-01-02")))).toStrictEqual([
        ["transactions.3.transaction_date", "transaction_in_future"]
      ])
    })

    it.each(["2025-01-01", "2024-12-31"])("%s (today or earlier) is not in the future", (date) => {
      expect(validate(exampleWith(ID, "transactions.3.transaction_date", date)).ok).toBe(true)
    })

    it("follows the clock given as an option", () => {
      const input = exampleWith(ID, "transactions.0.transaction_date", "2025-06-01")
      expect(validate(input, new Date("2025-06-01T09:00:00Z")).ok).toBe(true)
      expect(errorsOf(validate(input, new Date("2025-05-30T09:00:00Z")))).toStrictEqual([
        ["transactions.0.transaction_date", "transaction_in_future"]
      ])
    })

    it("uses the current time when no clock is given", () => {
      const input = exampleWith(ID, "transactions.0.transaction_date", "2999-01-01")
      expect(errorsOf(validatePayload(ID, input))).toStrictEqual([["transactions.0.transaction_date", "transaction_in_future"]])
      expect(validatePayload(ID, loadExample(ID)).ok).toBe(true)
    })

    it("is reported together with the other errors, in document order", () => {
      const input = setAt(exampleWith(ID, "transactions.3.transaction_date", "2026-01-01"), "transactions.3.amount", "40")
      expect(errorsOf(validate(input))).toStrictEqual([
        ["transactions.3.transaction_date", "transaction_in_future"],
        ["transactions.3.amount", "invalid"]
      ])
    })
  })

  describe("isTransactionDateInFuture", () => {
    it("takes today as the date at UTC+14: a date is in the future only once it is tomorrow everywhere", () => {
      // 10:00 UTC is midnight at UTC+14: from then on it is 1 July somewhere on Earth.
      expect(isTransactionDateInFuture("2024-07-01", new Date("2024-06-30T09:59:59.999Z"))).toBe(true)
      expect(isTransactionDateInFuture("2024-07-01", new Date("2024-06-30T10:00:00Z"))).toBe(false)
      expect(isTransactionDateInFuture("2024-07-02", new Date("2024-06-30T10:00:00Z"))).toBe(true)
      expect(isTransactionDateInFuture("2024-06-30", new Date("2024-06-30T00:00:00Z"))).toBe(false)
    })

    it("finds no date in the future without a clock, or from the year 10000 on", () => {
      expect(isTransactionDateInFuture("2024-07-01", new Date(Number.NaN))).toBe(false)
      expect(isTransactionDateInFuture("9999-12-31", new Date(Date.UTC(10_000, 0, 1) - 14 * 3_600_000))).toBe(false)
      expect(isTransactionDateInFuture("9999-12-31", new Date(Date.UTC(10_000, 0, 1) - 14 * 3_600_000 - 1))).toBe(false)
      expect(isTransactionDateInFuture("9999-12-31", new Date(Date.UTC(9999, 11, 30) - 14 * 3_600_000))).toBe(true)
      expect(isTransactionDateInFuture("9999-12-31", new Date(8.64e15))).toBe(false)
      expect(isTransactionDateInFuture("0001-01-01", new Date(-8.64e15))).toBe(true)
    })

    it("the rule reads a text date only: any other value is left to the field's own check", () => {
      const now = new Date("2024-06-30T00:00:00Z")
      for (const value of [["2999-01-01"], { toString: () => "2999-01-01" }, 29990101, undefined]) {
        expect(transactionInFuture.check({ transaction_date: value }, { now })).toStrictEqual([])
      }
      expect(transactionInFuture.check({ transaction_date: "2999-01-01" }, { now })).toStrictEqual([
        { path: ["transaction_date"], code: "transaction_in_future", detail: "The transaction date 2999-01-01 is in the future." }
      ])
    })
  })

  describe("details", () => {
    const detailsOf = (input: unknown): Array<[string, string]> => {
      const result = validate(input)
      return result.ok ? [] : result.error.errors.map((e): [string, string] => [e.attr, e.detail])
    }

    it("say what each transaction rule wants", () => {
      expect(detailsOf(exampleWith(ID, `${LINE}.units`, [1]))).toStrictEqual([[`${LINE}.units`, "units must hold exactly two values."]])
      expect(detailsOf(exampleWithout(ID, `${SC}.product_code`))).toStrictEqual([[`${SC}.product_code`, "A SUPPLY_CHARGE needs a product_code."]])
      expect(detailsOf(exampleWithout(ID, `${SC}.line_items`))).toStrictEqual([[`${SC}.line_items`, "A SUPPLY_CHARGE needs line_items."]])
      expect(detailsOf(exampleWith(ID, `${SC}.line_items`, []))).toStrictEqual([[`${SC}.line_items`, "A SUPPLY_CHARGE needs at least one line item."]])
      const id = getAt(loadExample(ID), "transactions.0.transaction_id")
      expect(detailsOf(exampleWith(ID, "transactions.1.transaction_id", id))).toStrictEqual([
        ["transactions.1.transaction_id", `transaction_id ${String(id)} occurs more than once.`]
      ])
    })

    it("of field_not_used_by_type name the types a field is for", () => {
      const input = loadExample(ID)
      setAt(input, "transactions.1.payment_type", "DIRECT_CREDIT")
      setAt(input, "transactions.1.product_code", "E1")
      const result = validate(input)
      const type = String(getAt(input, "transactions.1.type"))
      expect(result.warnings.map((w) => [w.attr, w.detail])).toStrictEqual([
        ["transactions.1.payment_type", `payment_type is documented for PAYMENT and REPAYMENT transactions, not for ${type}.`],
        ["transactions.1.product_code", `product_code is documented for SUPPLY_CHARGE transactions, not for ${type}.`]
      ])
    })
  })

  describe("warnings", () => {
    it("a type that is not text draws no field_not_used_by_type (its own error says enough)", () => {
      const input = exampleWith(ID, "transactions.1.payment_type", "DIRECT_CREDIT")
      setAt(input, "transactions.1.type", 5)
      const result = validate(input)
      expect(errorsOf(result)).toStrictEqual([["transactions.1.type", "invalid"]])
      expect(warningsOf(result)).toStrictEqual([])
    })

    it("payment_type on a CHARGE → field_not_used_by_type, still valid", () => {
      const result = validate(exampleWith(ID, "transactions.1.payment_type", "DIRECT_CREDIT"))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([["transactions.1.payment_type", "field_not_used_by_type"]])
    })

    it("SUPPLY_CHARGE fields on a PAYMENT → field_not_used_by_type for each", () => {
      const input = loadExample(ID)
      setAt(input, "transactions.0.product_code", getAt(input, `${SC}.product_code`))
      setAt(input, "transactions.0.line_items", getAt(input, `${SC}.line_items`))
      setAt(input, "transactions.0.tax_items", getAt(input, `${SC}.tax_items`))
      const result = validate(input)
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([
        ["transactions.0.product_code", "field_not_used_by_type"],
        ["transactions.0.line_items", "field_not_used_by_type"],
        ["transactions.0.tax_items", "field_not_used_by_type"]
      ])
    })

    it("reference, note and display_note may be sent with every type", () => {
      const input = loadExample(ID)
      setAt(input, "transactions.1.reference", "MAHN-1")
      setAt(input, "transactions.0.display_note", "Abschlag")
      setAt(input, `${SC}.reference`, "JVA-2024")
      setAt(input, "transactions.3.note", "Erstattung")
      expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
    })

    it.each<[string, string]>([
      ["transactions.1.type", "FEE"],
      ["transactions.1.reason", "LATE_FEE"],
      ["transactions.0.payment_type", "PAYPAL"],
      [`${LINE}.rate_band`, "PEAK"],
      [`${TAX}.tax_type`, "GST"],
      [`${TAX}.unit_type`, "CURRENCY_PER_KWH"]
    ])("%s = %j (not listed in the spec) → unknown_choice, still valid", (attr, value) => {
      const result = validate(exampleWith(ID, attr, value))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[attr, "unknown_choice"]])
    })

    it("tax_items: [] → empty_optional, still valid", () => {
      const result = validate(exampleWith(ID, `${SC}.tax_items`, []))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[`${SC}.tax_items`, "empty_optional"]])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      deleteAt(input, "import_supplier")
      setAt(input, "transactions.0.amount", "86.00")
      setAt(input, "transactions.1.type", "")
      setAt(input, `${LINE}.units`, "18234.1")
      setAt(input, `${TAX}.rate`, null)
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b5\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["transactions.0.amount", "invalid"],
        ["transactions.1.type", "blank"],
        [`${LINE}.units`, "not_a_list"],
        [`${TAX}.rate`, "null"],
        ["import_supplier", "required"]
      ])
    })
  })
})
