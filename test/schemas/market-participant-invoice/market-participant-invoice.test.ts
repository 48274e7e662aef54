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
import { describeAccountIdentificationLimits } from "../../support/account-identification.js"

const ID = "market-participant-invoice"
const validate = (input: unknown) => validatePayload(ID, input)

const INV = "market_participant_invoice"
const LINE = `${INV}.line_items.0`
const TAX = `${INV}.tax_amounts.0`
const at = (...fields: Array<string>) => (prefix: string) => fields.map((f) => `${prefix}.${f}`)

/** The fields the spec types "or null", with a valid non-null value for each. */
const NULLABLE: ReadonlyArray<[string, unknown]> = [
  [`${INV}.melo_number`, "DE0001234567890000000000000123456"],
  [`${INV}.balancing_period_start_at`, "2024-10-01T00:00:00+02:00"],
  [`${INV}.supply_period_end_at`, "2024-10-31T23:59:59+01:00"],
  [`${INV}.service_conducted_at`, "2024-10-31T23:59:59+01:00"],
  [`${INV}.amount_discount`, 120],
  [`${INV}.reference_invoice_number`, "NNR-2024-09-551002"],
  [`${INV}.reference_document`, "INVOIC-240930-77"],
  [`${INV}.reference_invoice_issued_at`, "2024-10-04T10:00:00+02:00"],
  [`${LINE}.quantity_correction_factor`, "0.9763"],
  [`${LINE}.service_conducted_at`, "2024-10-31T23:59:59+01:00"],
  [`${LINE}.amount_adjustment`, -12],
  [`${LINE}.price_interval`, "MONTH"],
  [`${TAX}.amount_paid_in_advance`, 2500],
  [`${TAX}.tax_amount_paid_in_advance`, 475]
]
const DECIMALS = [
  `${LINE}.quantity`,
  `${LINE}.quantity_interval`,
  `${LINE}.quantity_correction_factor`,
  `${LINE}.price`,
  `${LINE}.tax_rate`,
  `${INV}.line_items.1.price`,
  `${TAX}.tax_rate`
]
const INTEGERS = [
  ...at("amount_total", "amount_due", "amount_discount")(INV),
  ...at("position", "amount_net", "amount_adjustment")(LINE),
  ...at("tax_amount_assessment_basis", "tax_amount", "amount_paid_in_advance", "tax_amount_paid_in_advance")(TAX)
]
const DATETIMES = [
  ...at(
    "issued_at",
    "due_at",
    "period_start_at",
    "period_end_at",
    "balancing_period_start_at",
    "supply_period_end_at",
    "service_conducted_at",
    "reference_invoice_issued_at"
  )(INV),
  ...at("period_start_at", "period_end_at", "service_conducted_at")(LINE)
]

describe("market-participant-invoice request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts every nullable field with a value, and paid_in_advance_amounts with a warning per item", () => {
    const input = loadExample(ID)
    for (const [attr, value] of NULLABLE) setAt(input, attr, value)
    setAt(input, `${INV}.paid_in_advance_amounts`, [{ amount: 2500, period: "2024-10" }, {}])
    expect(validate(input)).toStrictEqual({
      ok: true,
      value: input,
      warnings: [
        expect.objectContaining({ attr: `${INV}.paid_in_advance_amounts.0`, code: "undocumented_shape" }),
        expect.objectContaining({ attr: `${INV}.paid_in_advance_amounts.1`, code: "undocumented_shape" })
      ]
    })
  })

  it("accepts the invoice with only its required fields", () => {
    const input = loadExample(ID)
    const optional = [
      ...at(
        "invoice_sub_type",
        "invoice_document_type",
        "status",
        "due_at",
        "melo_number",
        "balancing_period_start_at",
        "supply_period_end_at",
        "service_conducted_at",
        "amount_discount",
        "is_reverse_charge",
        "is_duplicate",
        "was_prepaid",
        "reference_invoice_number",
        "reference_document",
        "reference_invoice_issued_at",
        "interchange_reference",
        "external_id",
        "sender_address",
        "recipient_address",
        "tax_amounts"
      )(INV),
      ...at(
        "article_type",
        "quantity_unit",
        "quantity_interval",
        "quantity_interval_type",
        "quantity_correction_factor",
        "service_conducted_at",
        "amount_adjustment",
        "price_interval",
        "tax_rate_type",
        "external_id"
      )(LINE),
      ...at("article_type", "tax_rate_type")(`${INV}.line_items.1`)
    ]
    for (const attr of optional) deleteAt(input, attr)
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  describe("required fields", () => {

    it("an empty line_items list → empty", () => {
      expect(errorsOf(validate(exampleWith(ID, `${INV}.line_items`, [])))).toStrictEqual([[`${INV}.line_items`, "empty"]])
    })
  })

  describe("null", () => {

    it.each(NULLABLE.map(([attr]) => attr))("%s = null is accepted (the spec says \"or null\")", (attr) => {
      const input = loadExample(ID)
      for (const [other, value] of NULLABLE) setAt(input, other, value)
      setAt(input, attr, null)
      expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
    })
  })

  describe("unknown fields", () => {
    it.each([
      "foo",
      `${INV}.foo`,
      `${INV}.sender_address.iban`,
      `${INV}.recipient_address.x`,
      `${LINE}.vat`,
      `${INV}.line_items.1.foo`,
      `${TAX}.foo`
    ])("%s → unknown_field", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
    })

    it("fields inside a paid_in_advance_amounts item are not checked (its shape is not documented)", () => {
      const result = validate(exampleWith(ID, `${INV}.paid_in_advance_amounts`, [{ anything: { nested: [1] } }]))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[`${INV}.paid_in_advance_amounts.0`, "undocumented_shape"]])
    })
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      [INV, [], "invalid"],
      [INV, "NNR-2024-10-558213", "invalid"],
      [`${INV}.malo_number`, 51238696781, "invalid"],
      [`${INV}.melo_number`, 1, "invalid"],
      [`${INV}.is_duplicate`, "false", "invalid"],
      [`${INV}.was_prepaid`, null, "null"],
      [`${INV}.sender_address`, [], "invalid"],
      [`${INV}.sender_address`, "Kiel", "invalid"],
      [`${INV}.recipient_address.postcode`, 24768, "invalid"],
      [`${INV}.line_items`, {}, "not_a_list"],
      [`${INV}.line_items`, "1", "not_a_list"],
      [`${INV}.line_items.0`, [], "invalid"],
      [`${INV}.tax_amounts`, { tax_rate: "19.00" }, "not_a_list"],
      [`${INV}.tax_amounts.0`, 551, "invalid"],
      [`${INV}.paid_in_advance_amounts`, {}, "not_a_list"],
      [`${LINE}.article`, 9990001000053, "invalid"],
      [`${LINE}.price_interval`, 1, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })

    it.each<[unknown]>([[1], ["x"], [[]], [null]])("a paid_in_advance_amounts item %j that is not an object → its own error", (item) => {
      const attr = `${INV}.paid_in_advance_amounts.0`
      const result = validate(exampleWith(ID, `${INV}.paid_in_advance_amounts`, [item]))
      expect(errorsOf(result)).toStrictEqual([[attr, item === null ? "null" : "invalid"]])
    })
  })

  describe("amounts, codes, decimals and datetimes", () => {
    it.each(cross(INTEGERS, [34.52, "3452", "34,52", true, 1e20]))("%s = %j → invalid (an integer of cents)", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(INTEGERS)("%s accepts zero and negative integers", (attr) => {
      expect(validate(exampleWith(ID, attr, -100)).ok).toBe(true)
      expect(validate(exampleWith(ID, attr, 0)).ok).toBe(true)
    })

    it.each(cross([`${INV}.sender_id`, `${INV}.recipient_id`], INVALID_PARTICIPANT_CODES))(
      "%s = %j → invalid (a 13-digit integer)",
      (attr, value) => {
        expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
      }
    )

    it.each([1000000000000, 9999999999999])("sender_id %d (13 digits) is accepted", (code) => {
      expect(validate(exampleWith(ID, `${INV}.sender_id`, code)).ok).toBe(true)
    })

    it.each(cross(DECIMALS, MALFORMED_DECIMALS))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(cross(DATETIMES, MALFORMED_DATETIMES))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })
  })

  describeAccountIdentificationLimits(ID)

  describe("periods", () => {
    it("invoice period start after end → start_date_later_than_end_date at period_end_at", () => {
      expect(errorsOf(validate(exampleWith(ID, `${INV}.period_end_at`, "2024-09-30T00:00:00+02:00")))).toStrictEqual([
        [`${INV}.period_end_at`, "start_date_later_than_end_date"]
      ])
    })

    it("line item period start after end → start_date_later_than_end_date at its period_end_at", () => {
      const attr = `${INV}.line_items.1.period_end_at`
      expect(errorsOf(validate(exampleWith(ID, attr, "2024-09-30T23:59:59+02:00")))).toStrictEqual([
        [attr, "start_date_later_than_end_date"]
      ])
    })

    it("compares instants: 03:00+02:00 is before 02:30+01:00, the reverse is not", () => {
      for (const prefix of [INV, LINE]) {
        const valid = setAt(
          exampleWith(ID, `${prefix}.period_start_at`, "2024-03-31T03:00:00+02:00"),
          `${prefix}.period_end_at`,
          "2024-03-31T02:30:00+01:00"
        )
        expect(errorsOf(validate(valid))).toStrictEqual([])
        const invalid = setAt(
          exampleWith(ID, `${prefix}.period_start_at`, "2024-03-31T02:30:00+01:00"),
          `${prefix}.period_end_at`,
          "2024-03-31T03:00:00+02:00"
        )
        expect(errorsOf(validate(invalid))).toStrictEqual([[`${prefix}.period_end_at`, "start_date_later_than_end_date"]])
      }
    })
  })

  describe("warnings", () => {
    it.each<[string, string]>([
      [`${INV}.status`, "OPEN"],
      [`${INV}.sender_address.tax_number_type`, "ST"],
      [`${LINE}.tax_rate_type`, "Z"],
      [`${TAX}.tax_rate_type`, "E"]
    ])("%s = %j (not listed in the spec) → unknown_choice, still valid", (attr, value) => {
      const result = validate(exampleWith(ID, attr, value))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[attr, "unknown_choice"]])
    })

    it.each([`${INV}.tax_amounts`, `${INV}.paid_in_advance_amounts`])("%s sent as [] → empty_optional, still valid", (attr) => {
      const result = validate(exampleWith(ID, attr, []))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([[attr, "empty_optional"]])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, `${INV}.amount_total`, 34.52)
      setAt(input, `${INV}.sender_id`, "9900123456789")
      setAt(input, `${INV}.recipient_id`, 990765432109)
      setAt(input, `${INV}.sender_address`, null)
      setAt(input, `${LINE}.price`, "7,998")
      setAt(input, `${TAX}.tax_amount`, "551")
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b6\b/)
      expect(errorsOf(result)).toStrictEqual([
        [`${INV}.amount_total`, "invalid"],
        [`${INV}.sender_id`, "invalid"],
        [`${INV}.recipient_id`, "invalid"],
        [`${INV}.sender_address`, "null"],
        [`${LINE}.price`, "invalid"],
        [`${TAX}.tax_amount`, "invalid"]
      ])
    })
  })
})
