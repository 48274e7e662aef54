/**
 * Edges of the contract found by adversarial testing: what goes on the wire, the year range, document
 * paths, phone numbers and e-mail addresses, datetime fractions, warnings next to errors, responses of two
 * shapes, and attrs of keys that hold a dot. Each case names the behaviour the contract asks for.
 */
import { describe, expect, it } from "vitest"
import { compileValidator, validatePayload, validateResponse } from "../../src/index.js"
import { compareDateTimes } from "../../src/schemas/instant.js"
import { type AttrCode, errorsOf, exampleWith, loadExample, setAt, warningsOf } from "../support/payloads.js"

const notesWith = (note: unknown) => ({ import_supplier: "S", external_account_number: "1", notes: [note] })

describe("only own data counts (what JSON.stringify would send)", () => {
  it("a note whose body is a getter of its class is no body: JSON sends {}", () => {
    const note = new (class {
      get body(): string {
        return "hello"
      }
    })()
    expect(JSON.stringify(notesWith(note))).toContain(`"notes":[{}]`)
    expect(errorsOf(validatePayload("notes", notesWith(note)))).toEqual([["notes.0", "note_body_or_document_path_not_found"]])
  })

  it("an inherited body is no body either", () => {
    const note = Object.create({ body: "hello" }) as object
    expect(errorsOf(validatePayload("notes", notesWith(note)))).toEqual([["notes.0", "note_body_or_document_path_not_found"]])
  })

  it("an inherited required field is missing, an inherited undocumented one does not exist", () => {
    const payload = Object.assign(Object.create({ import_supplier: "S", extra: 1 }) as object, {
      external_account_number: "1",
      notes: [{ body: "x" }]
    })
    expect(errorsOf(validatePayload("notes", payload))).toEqual([["import_supplier", "required"]])
  })

  it("an own getter is invalid at its attr: validation checks data, and a getter may answer differently when sent", () => {
    const note = Object.defineProperty({}, "body", { get: () => "hello", enumerable: true })
    const result = validatePayload("notes", notesWith(note))
    expect(errorsOf(result)).toEqual([["notes.0.body", "invalid"]])
    expect(compileValidator("notes")(notesWith(note))).toEqual(result)
  })

  it("a getter in a list is invalid at its index", () => {
    const payload = loadExample("energy-amount")
    const list = ["Z01"]
    Object.defineProperty(list, 0, { get: () => "Z01", enumerable: true })
    setAt(payload, "energy_amount.plausibility_indications", list)
    const result = validatePayload("energy-amount", payload)
    expect(errorsOf(result)).toEqual([["energy_amount.plausibility_indications.0", "invalid"]])
    expect(compileValidator("energy-amount")(payload)).toEqual(result)
  })

  it("a class instance with own data fields is sent as its fields, and accepted", () => {
    class Note {
      constructor(readonly body: string) {}
    }
    expect(validatePayload("notes", notesWith(new Note("hello"))).ok).toBe(true)
  })
})

describe("dates and datetimes lie in the years 0001 to 9999", () => {
  const statementWith = (path: string, value: string) => exampleWith("historical-statements", path, value)
  const amountWith = (path: string, value: string) => exampleWith("energy-amount", path, value)

  it.each(["0000-02-29", "0000-01-01"])("the date %s is invalid", (date) => {
    expect(errorsOf(validatePayload("historical-statements", statementWith("statements.0.bill_period_from_date", date))))
      .toContainEqual(["statements.0.bill_period_from_date", "invalid"])
  })

  it.each(["0001-01-01", "9999-12-31"])("the date %s is valid", (date) => {
    const payload = statementWith("statements.0.bill_period_from_date", date)
    setAt(payload, "statements.0.bill_period_to_date", "9999-12-31")
    expect(errorsOf(validatePayload("historical-statements", payload))).toEqual([])
  })

  it.each([
    ["0000-12-31T23:00:00Z", "the year 0000"],
    ["9999-12-31T23:59:59-01:00", "UTC 10000-01-01T00:59:59"],
    ["0001-01-01T00:30:00+01:00", "UTC 0000-12-31T23:30"]
  ])("the datetime %s is invalid (%s)", (datetime) => {
    expect(errorsOf(validatePayload("energy-amount", amountWith("energy_amount.period_start_at", datetime))))
      .toContainEqual(["energy_amount.period_start_at", "invalid"])
  })

  it.each(["0001-01-01T00:00:00Z", "0001-01-01T01:00:00+01:00", "9999-12-31T23:59:59Z", "9999-12-31T22:59:59-01:00"])(
    "the datetime %s is valid",
    (datetime) => {
      const payload = amountWith("energy_amount.period_start_at", "0001-01-01T00:00:00Z")
      setAt(payload, "energy_amount.period_end_at", datetime)
      expect(errorsOf(validatePayload("energy-amount", payload))).toEqual([])
    }
  )
})

describe("document paths", () => {
  const pathOf = (documentPath: string): Array<AttrCode> =>
    errorsOf(validatePayload("notes", notesWith({ document_paths: [{ document_path: documentPath }] })))
  const refused: Array<AttrCode> = [["notes.0.document_paths.0.document_path", "invalid_document_path"]]

  it.each([
    ["file:/etc/passwd", "a scheme without //"],
    ["mailto:a@b.de", "a scheme without //"],
    ["x:y.pdf", "a path that starts with a scheme is a URI (RFC 3986, 3.1)"],
    ["Akte:2024/x.pdf", "a path that starts with a scheme is a URI (RFC 3986, 3.1)"],
    ["%2e%2e/x", "a percent-encoded dot segment"],
    ["notes/%2E/x", "a percent-encoded dot segment"],
    ["notes/.%2e/x", "a half-encoded dot segment"],
    ["\uff0e\uff0e/x", "fullwidth dots (NFKC: ..)"],
    ["notes/\u2025/x", "a two dot leader (NFKC: ..)"],
    ["notes/\ufe52/x", "a small full stop (NFKC: .)"],
    ["notes/\ud800.pdf", "a lone surrogate"],
    ["notes/\udc00x.pdf", "a lone low surrogate"],
    ["notes/gpj.\u202epdf", "a right-to-left override"],
    ["notes/\u2066x\u2069.pdf", "bidi isolates"],
    ["notes/\u200fx.pdf", "a right-to-left mark"]
  ])("%j is refused (%s)", (documentPath) => {
    expect(pathOf(documentPath)).toEqual(refused)
  })

  it.each([
    ["notes/x:y.pdf", "a colon inside a later segment"],
    ["scan 10:42.png", "a colon that does not end a scheme"],
    ["2024:01.pdf", "a scheme starts with a letter"],
    ["notes/2024-01-01T10:00:00.pdf", "colons of a time in a file name"],
    ["notes/%20x.pdf", "a percent sign that is not a dot"],
    ["notes/...", "three dots are a name, not a dot segment"],
    ["notes/\ud83d\ude00.pdf", "a paired surrogate (an emoji)"],
    ["notes/rechnung-\u00fcber.pdf", "letters outside ASCII"]
  ])("%j is accepted (%s)", (documentPath) => {
    expect(pathOf(documentPath)).toEqual([])
  })
})

describe("phone numbers and e-mail addresses", () => {
  const participantWith = (path: string, value: string) => exampleWith("market-participant", path, value)

  it.each(["+49\n30\t1234567", "+49\u00a030 1234567", "+49\u200330 1234567", "+49 30 1234567\n"])(
    "the phone number %j is refused: only spaces, dashes, dots and parentheses separate digits",
    (phone) => {
      expect(errorsOf(validatePayload("market-participant", participantWith("contact_details.0.phone", phone))))
        .toEqual([["contact_details.0.phone", "invalid_phone_number"]])
    }
  )

  it.each(["+49 (30) 123.456-7", "+4930123456789"])("the phone number %j is accepted", (phone) => {
    expect(errorsOf(validatePayload("market-participant", participantWith("contact_details.0.phone", phone)))).toEqual([])
  })

  it.each(["a\u0000@b.de", "a@b\u0007.de", "a\u0085b@c.de", "a@b.d\u007fe", "a\u00a0b@c.de", "a@b.de\ufeff"])(
    "the e-mail address %j is refused",
    (email) => {
      expect(errorsOf(validatePayload("market-participant", participantWith("contact_details.0.email", email))))
        .toEqual([["contact_details.0.email", "invalid"]])
    }
  )
})

describe("datetime fractions of any length", () => {
  it("a fraction of 12 digits is accepted", () => {
    const payload = exampleWith("energy-amount", "energy_amount.period_start_at", "2024-10-01T00:00:00.123456789012+02:00")
    expect(errorsOf(validatePayload("energy-amount", payload))).toEqual([])
  })

  it("instants are compared exactly beyond nine digits", () => {
    expect(compareDateTimes("2024-01-01T00:00:00.1234567891Z", "2024-01-01T00:00:00.1234567890Z")).toBeGreaterThan(0)
    expect(compareDateTimes("2024-01-01T00:00:00.1234567890000000000001Z", "2024-01-01T00:00:00.123456789Z")).toBeGreaterThan(0)
    expect(compareDateTimes("2024-01-01T00:00:00.12345678901234567891Z", "2024-01-01T00:00:00.1234567890123456789Z")).toBeGreaterThan(0)
    expect(compareDateTimes("2024-01-01T00:00:00.50Z", "2024-01-01T00:00:00.5Z")).toBe(0)
    expect(compareDateTimes("2024-01-01T00:00:00.09Z", "2024-01-01T00:00:00.1Z")).toBeLessThan(0)
  })

  it("a start one 10^-12 s after its end is reported", () => {
    const payload = exampleWith("energy-amount", "energy_amount.period_start_at", "2024-10-31T23:59:59.000000000001+01:00")
    setAt(payload, "energy_amount.period_end_at", "2024-10-31T23:59:59+01:00")
    expect(errorsOf(validatePayload("energy-amount", payload))).toEqual([["energy_amount.period_end_at", "start_date_later_than_end_date"]])
  })
})

describe("a warning never contradicts an error", () => {
  it("definitions: [] and rolled_out_definitions: [] → definitions_required, without empty_optional warnings", () => {
    const result = validatePayload("market-participant-definitions", {
      network_operator_code: "9900123456789",
      definitions: [],
      rolled_out_definitions: []
    })
    expect(errorsOf(result)).toEqual([["non_field_errors", "definitions_required"]])
    expect(warningsOf(result)).toEqual([])
  })

  it("a note with only document_paths: [] → the note's error, without an empty_optional warning", () => {
    const result = validatePayload("notes", notesWith({ document_paths: [] }))
    expect(errorsOf(result)).toEqual([["notes.0", "note_body_or_document_path_not_found"]])
    expect(warningsOf(result)).toEqual([])
  })

  it("an is_pinned that is not a boolean → its error, without unpin_at_without_pin (the note may be meant pinned)", () => {
    for (const isPinned of ["true", 1, null, { value: true }]) {
      const result = validatePayload("notes", notesWith({ body: "x", is_pinned: isPinned, unpin_at: "2024-06-01T00:00:00Z" }))
      expect(errorsOf(result).map(([attr]) => attr)).toEqual(["notes.0.is_pinned"])
      expect(warningsOf(result), JSON.stringify(isPinned)).toEqual([])
    }
    // Not pinned, as said or by default: the warning stays.
    expect(warningsOf(validatePayload("notes", notesWith({ body: "x", is_pinned: false, unpin_at: "2024-06-01T00:00:00Z" }))))
      .toEqual([["notes.0.unpin_at", "unpin_at_without_pin"]])
    expect(warningsOf(validatePayload("notes", notesWith({ body: "x", unpin_at: "2024-06-01T00:00:00Z" }))))
      .toEqual([["notes.0.unpin_at", "unpin_at_without_pin"]])
  })

  it("a blank transaction type → blank, without field_not_used_by_type for the fields of the unknown type", () => {
    const payment = { transaction_id: "ZA-1", transaction_date: "2024-01-15", amount: 86, payment_type: "DD_REGULAR_COLLECTION" }
    for (const type of ["", " ", "\u3000"]) {
      const result = validatePayload("transactions", { import_supplier: "S", external_account_number: "K", transactions: [{ ...payment, type }] })
      expect(errorsOf(result)).toEqual([["transactions.0.type", "blank"]])
      expect(warningsOf(result)).toEqual([])
    }
    const charge = validatePayload("transactions", { import_supplier: "S", external_account_number: "K", transactions: [{ ...payment, type: "CHARGE" }] })
    expect(warningsOf(charge)).toEqual([["transactions.0.payment_type", "field_not_used_by_type"]])
  })

  it("a warning elsewhere in the same payload stays", () => {
    const result = validatePayload("notes", { ...notesWith({ document_paths: [] }), notes: [{ document_paths: [] }, { body: "x", document_paths: [] }] })
    expect(errorsOf(result)).toEqual([["notes.0", "note_body_or_document_path_not_found"]])
    expect(warningsOf(result)).toEqual([["notes.1.document_paths", "empty_optional"]])
  })
})

describe("a response of two documented shapes is reported against the closer one", () => {
  const importError = {
    status: "TRANSACTION_IMPORT_ERROR",
    error_detail: "The transaction is not within the open statement period.",
    transaction_data: { transaction_id: "BU-1", transaction_date: "2024-01-15", amount: "86.00", type: "PAYMENT" }
  }

  it("both shapes are accepted as they are", () => {
    expect(validateResponse("transactions", 400, importError).ok).toBe(true)
    expect(validateResponse("transactions", 400, { detail: "d", code: "c", errors: [] }).ok).toBe(true)
  })

  it("a TransactionImportError with one wrong field → only that field's error", () => {
    const result = validateResponse("transactions", 400, { ...importError, error_detail: 5 })
    expect(errorsOf(result)).toEqual([["error_detail", "invalid"]])
  })

  it("a validation error body with one wrong field → only that field's error", () => {
    const result = validateResponse("transactions", 400, { detail: "d", code: 1, errors: [] })
    expect(errorsOf(result)).toEqual([["code", "invalid"]])
  })
})

describe("an attr names one place", () => {
  it("a root key named energy_amount.quantity has another attr than the nested field", () => {
    const payload = { ...loadExample("energy-amount"), "energy_amount.quantity": "1" }
    const nested = exampleWith("energy-amount", "energy_amount.quantity", 1)
    const [rootKey] = errorsOf(validatePayload("energy-amount", payload))
    const [nestedField] = errorsOf(validatePayload("energy-amount", nested))
    expect(rootKey).toEqual(["energy_amount\\.quantity", "unknown_field"])
    expect(nestedField).toEqual(["energy_amount.quantity", "invalid"])
  })

  it("a backslash in a key is escaped too, so every attr reads back to one path", () => {
    const payload = { ...loadExample("energy-amount"), "a\\": 1, "a\\.b": 2 }
    expect(errorsOf(validatePayload("energy-amount", payload))).toEqual([
      ["a\\\\", "unknown_field"],
      ["a\\\\\\.b", "unknown_field"]
    ])
  })
})
