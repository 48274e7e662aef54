/**
 * The shared conventions say what is wrong in words a migration engineer acts on: each check's code and
 * detail, as the 400 body carries them (the details are the API's wording where the reference shows it).
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  DecimalString,
  DocumentPath,
  EmailAddress,
  ExternalAccountNumber,
  ImportSupplierCode,
  IsoDate,
  IsoDateTime,
  JsonInteger,
  MarketParticipantCode,
  NetworkOperatorCode,
  NonBlankString,
  nonEmptyArray,
  PhoneNumber
} from "../../src/schemas/conventions.js"
import { issueToPathErrors } from "../../src/validation/issue-to-errors.js"

/** The `[code, detail]` of every error of `value` against `schema`. */
const findings = (schema: Schema.Top, value: unknown): Array<[string, string]> => {
  const result = Schema.decodeUnknownResult(schema as Schema.Codec<unknown>)(value, { errors: "all" })
  return result._tag === "Success" ? [] : issueToPathErrors(result.failure.issue, value).map((e): [string, string] => [e.code, e.detail])
}

describe("the conventions' codes and details", () => {
  it.each<[string, Schema.Top, unknown, [string, string]]>([
    ["a blank text", NonBlankString, " \t", ["blank", "This field may not be blank."]],
    ["an import supplier over 32 characters", ImportSupplierCode, "S".repeat(33), ["max_length", "Ensure this field has no more than 32 characters."]],
    ["an account number over 128 characters", ExternalAccountNumber, "K".repeat(129), ["max_length", "Ensure this field has no more than 128 characters."]],
    ["a decimal with a comma", DecimalString, "1,5", ["invalid", "A valid decimal string is required (digits, an optional '-' and '.', no exponent or comma)."]],
    ["a date in another format", IsoDate, "01.02.2024", ["invalid", "Date has wrong format. Use YYYY-MM-DD."]],
    ["a date the calendar does not have", IsoDate, "2023-02-29", ["invalid", "This date does not exist in the calendar."]],
    ["a datetime without its zone", IsoDateTime, "2024-02-01T10:00:00", ["invalid", "Datetime has wrong format. Use YYYY-MM-DDTHH:MM:SS with Z or an offset like +01:00."]],
    ["a datetime on a day the calendar does not have", IsoDateTime, "2024-04-31T10:00:00Z", ["invalid", "This date does not exist in the calendar."]],
    ["a datetime after 9999 in UTC", IsoDateTime, "9999-12-31T23:30:00-01:00", ["invalid", "This datetime lies outside the years 0001 to 9999 in UTC."]],
    ["an absolute document path", DocumentPath, "/letters/1.pdf", ["invalid_document_path", "A relative path below the document root is required (no leading '/', '..', scheme or backslash)."]],
    ["a phone number of letters", PhoneNumber, "call me", ["invalid_phone_number", "Enter a valid phone number."]],
    ["an email address without a domain", EmailAddress, "kunde@", ["invalid", "Enter a valid email address."]],
    ["an integer with a fraction", JsonInteger, 1.5, ["invalid", "A valid integer is required."]],
    ["a market participant code with a fraction", MarketParticipantCode, 9_900_000_000_003.5, ["invalid", "A 13-digit market participant code is required."]],
    ["a market participant code of 12 digits", MarketParticipantCode, 990_000_000_000, ["invalid", "A 13-digit market participant code is required."]],
    ["a network operator code of 12 digits", NetworkOperatorCode, "990000000000", ["invalid", "A 13-digit network operator code is required."]],
    ["an empty list", nonEmptyArray(Schema.String), [], ["empty", "This list may not be empty."]]
  ])("%s", (_, schema, value, expected) => {
    expect(findings(schema, value)).toStrictEqual([expected])
  })

  it("an integer past the safe ones fails both checks of JsonInteger, each saying so", () => {
    expect(findings(JsonInteger, 2 ** 53)).toStrictEqual([["invalid", "A valid integer is required."], ["invalid", "A valid integer is required."]])
  })

  it("take the values next to those limits", () => {
    expect(findings(ImportSupplierCode, "S".repeat(32))).toStrictEqual([])
    expect(findings(ExternalAccountNumber, "K".repeat(128))).toStrictEqual([])
    expect(findings(IsoDate, "2024-02-29")).toStrictEqual([])
    expect(findings(IsoDateTime, "9999-12-31T23:30:00Z")).toStrictEqual([])
    expect(findings(DocumentPath, "letters/1.pdf")).toStrictEqual([])
    expect(findings(JsonInteger, 2)).toStrictEqual([])
    expect(findings(JsonInteger, Number.MAX_SAFE_INTEGER)).toStrictEqual([])
    expect(findings(MarketParticipantCode, 9_900_000_000_003)).toStrictEqual([])
    expect(findings(NetworkOperatorCode, "9900000000003")).toStrictEqual([])
    expect(findings(nonEmptyArray(Schema.String), ["a"])).toStrictEqual([])
  })
})
