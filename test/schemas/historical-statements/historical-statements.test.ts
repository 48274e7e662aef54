import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  cross,
  deleteAt,
  errorsOf,
  exampleWith,
  INVALID_DOCUMENT_PATHS,
  loadExample,
  MALFORMED_DATES,
  setAt,
  warningsOf
} from "../../support/payloads.js"
import { describeAccountIdentificationLimits } from "../../support/account-identification.js"

import { FIELDS } from "./fields.js"

const ID = "historical-statements"
const validate = (input: unknown) => validatePayload(ID, input)
const { optional: OPTIONAL } = FIELDS[ID]

const DATES = [
  "statements.0.bill_period_from_date",
  "statements.0.bill_period_to_date",
  "statements.0.issued_date",
  "statements.1.bill_period_to_date"
]

describe("historical-statements request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    expect(validate(loadExample(ID))).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("accepts a statement with only its required fields (statement_path is optional)", () => {
    const input = loadExample(ID)
    for (const attr of OPTIONAL) deleteAt(input, attr)
    expect(validate(input)).toStrictEqual({ ok: true, value: input, warnings: [] })
  })

  describe("required fields", () => {

    it("an empty statements list → empty", () => {
      expect(errorsOf(validate(exampleWith(ID, "statements", [])))).toStrictEqual([["statements", "empty"]])
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", "statement", "statements.0.pdf_url", "statements.1.total_consumption"])("%s → unknown_field", (attr) => {
      expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
    })
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["statements", {}, "not_a_list"],
      ["statements", "JA-2023", "not_a_list"],
      ["statements.0", [], "invalid"],
      ["statements.0", "JA-2023", "invalid"],
      ["statements.0.statement_id", 2023, "invalid"],
      ["statements.0.number", 118842, "invalid"],
      ["statements.0.gross_amount", "1342.17", "invalid"],
      ["statements.0.gross_amount", "1342,17", "invalid"],
      ["statements.0.gross_amount", "1e3", "invalid"],
      ["statements.0.gross_amount", [1342.17], "invalid"],
      ["statements.0.statement_path", { path: "a.pdf" }, "invalid"],
      ["statements.0.is_annulled", "false", "invalid"],
      ["statements.0.supply_type", 1, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("dates", () => {
    it.each(cross(DATES, MALFORMED_DATES))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })
  })

  describeAccountIdentificationLimits(ID)

  describe("statement_path", () => {
    it.each(INVALID_DOCUMENT_PATHS)("%j → invalid_document_path", (path) => {
      expect(errorsOf(validate(exampleWith(ID, "statements.1.statement_path", path)))).toStrictEqual([
        ["statements.1.statement_path", "invalid_document_path"]
      ])
    })

    it.each(["JA-2024.pdf", "statements/2024/Jahresabrechnung Müller.pdf"])("%j is a valid relative path", (path) => {
      expect(validate(exampleWith(ID, "statements.1.statement_path", path)).ok).toBe(true)
    })
  })

  describe("bill period", () => {
    it("bill_period_from_date after bill_period_to_date → start_date_later_than_end_date at the to date", () => {
      expect(errorsOf(validate(exampleWith(ID, "statements.1.bill_period_to_date", "2023-04-30")))).toStrictEqual([
        ["statements.1.bill_period_to_date", "start_date_later_than_end_date"]
      ])
    })

    it("a one-day bill period is accepted", () => {
      expect(validate(exampleWith(ID, "statements.0.bill_period_to_date", "2022-05-01")).ok).toBe(true)
    })
  })

  describe("warnings", () => {
    it("supply_type outside the listed values → unknown_choice, still valid", () => {
      const result = validate(exampleWith(ID, "statements.1.supply_type", "GAS"))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([["statements.1.supply_type", "unknown_choice"]])
    })
  })

  describe("duplicate statement ids", () => {
    it("a repeated statement_id → duplicate_statement_ids at the later one", () => {
      const input = loadExample(ID)
      const first = (input as { statements: Array<{ statement_id: string }> }).statements[0]!.statement_id
      setAt(input, "statements.1.statement_id", first)
      expect(errorsOf(validate(input))).toStrictEqual([["statements.1.statement_id", "duplicate_statement_ids"]])
    })

    it("reports every later repetition, never the first occurrence; letter case makes ids differ", () => {
      const input = loadExample(ID)
      const statements = (input as { statements: Array<Record<string, unknown>> }).statements
      statements.push({ ...statements[0]!, statement_id: "ST-9" }, { ...statements[1]!, statement_id: "ST-9" }, { ...statements[1]!, statement_id: "st-9" })
      setAt(input, "statements.1.statement_id", "ST-9")
      expect(errorsOf(validate(input))).toStrictEqual([
        ["statements.2.statement_id", "duplicate_statement_ids"],
        ["statements.3.statement_id", "duplicate_statement_ids"]
      ])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "statements.0.issued_date", "2023-02-30")
      setAt(input, "statements.0.statement_path", "/statements/a.pdf")
      setAt(input, "statements.1.gross_amount", "-87,40")
      deleteAt(input, "statements.1.statement_id")
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b4\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["statements.0.issued_date", "invalid"],
        ["statements.0.statement_path", "invalid_document_path"],
        ["statements.1.gross_amount", "invalid"],
        ["statements.1.statement_id", "required"]
      ])
    })
  })
})
