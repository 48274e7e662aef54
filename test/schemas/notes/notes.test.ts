import { describe, expect, it } from "vitest"
import { validatePayload } from "../../../src/index.js"
import {
  cross,
  errorsOf,
  exampleWith,
  exampleWithout,
  INVALID_DOCUMENT_PATHS,
  loadExample,
  MALFORMED_DATETIMES,
  ofLength,
  setAt,
  warningsOf
} from "../../support/payloads.js"

const ID = "notes"
const validate = (input: unknown) => validatePayload(ID, input)

const DATETIMES = ["notes.0.created_at", "notes.0.unpin_at", "notes.1.created_at"]

describe("notes request", () => {
  it("accepts the example unchanged, with no errors and no warnings", () => {
    const input = loadExample(ID)
    expect(validate(input)).toStrictEqual({ ok: true, value: loadExample(ID), warnings: [] })
  })

  it("does not modify its input", () => {
    const input = exampleWith(ID, "notes.0.body", 5)
    validate(input)
    expect(input).toStrictEqual(exampleWith(ID, "notes.0.body", 5))
  })

  describe("required fields", () => {

    it("an empty notes list → empty", () => {
      expect(errorsOf(validate(exampleWith(ID, "notes", [])))).toStrictEqual([["notes", "empty"]])
    })

    it("no single field of a note is required: a body alone is enough", () => {
      const result = validate({ import_supplier: "S", external_account_number: "A", notes: [{ body: "only a body" }] })
      expect(result.ok).toBe(true)
    })
  })

  describe("unknown fields", () => {
    it.each(["foo", "account_number", "notes.0.foo", "notes.2.status", "notes.1.document_paths.0.x"])(
      "%s → unknown_field",
      (attr) => {
        expect(errorsOf(validate(exampleWith(ID, attr, "x")))).toStrictEqual([[attr, "unknown_field"]])
      }
    )
  })

  describe("wrong JSON types", () => {
    it.each<[string, unknown, string]>([
      ["import_supplier", 42, "invalid"],
      ["external_account_number", ["KD-1"], "invalid"],
      ["notes", { body: "x" }, "not_a_list"],
      ["notes", "x", "not_a_list"],
      ["notes.0", [], "invalid"],
      ["notes.0", "a note", "invalid"],
      ["notes.0.body", 5, "invalid"],
      ["notes.0.body", { text: "x" }, "invalid"],
      ["notes.0.is_pinned", "true", "invalid"],
      ["notes.0.is_pinned", 1, "invalid"],
      ["notes.0.created_at", 1711613700, "invalid"],
      ["notes.1.document_paths", { document_path: "a.pdf" }, "not_a_list"],
      ["notes.1.document_paths", "a.pdf", "not_a_list"],
      ["notes.1.document_paths.0", "a.pdf", "invalid"],
      ["notes.1.document_paths.0", ["a.pdf"], "invalid"],
      ["notes.1.document_paths.0.document_path", 5, "invalid"]
    ])("%s = %j → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })
  })

  describe("datetimes", () => {
    it.each(cross(DATETIMES, MALFORMED_DATETIMES))("%s = %j → invalid", (attr, value) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, "invalid"]])
    })

    it.each(["2024-03-28T09:15:00Z", "2024-03-28T09:15:00.123456+01:00", "2024-03-28T04:15:00-04:00"])(
      "created_at = %s is accepted",
      (value) => {
        expect(validate(exampleWith(ID, "notes.1.created_at", value)).ok).toBe(true)
      }
    )
  })

  describe("limits of the account identification", () => {
    it.each<[string, string, string]>([
      ["import_supplier", ofLength(33), "max_length"],
      ["external_account_number", ofLength(129), "max_length"]
    ])("%s one character over the limit → %s", (attr, value, code) => {
      expect(errorsOf(validate(exampleWith(ID, attr, value)))).toStrictEqual([[attr, code]])
    })

    it("accepts import_supplier of 32 and external_account_number of 128 characters", () => {
      const input = setAt(exampleWith(ID, "import_supplier", ofLength(32)), "external_account_number", ofLength(128))
      expect(validate(input).ok).toBe(true)
    })
  })

  describe("document paths", () => {
    it.each(INVALID_DOCUMENT_PATHS)("%j → invalid_document_path", (path) => {
      const attr = "notes.1.document_paths.0.document_path"
      expect(errorsOf(validate(exampleWith(ID, attr, path)))).toStrictEqual([[attr, "invalid_document_path"]])
    })

    it.each(["a.pdf", "notes/2024/Zählerprotokoll 1.pdf", "notes/.hidden/a.pdf", "notes/file..v2.pdf", "rechnungen/Rechnung:2024.pdf"])(
      "%j is a valid relative path",
      (path) => {
        expect(validate(exampleWith(ID, "notes.2.document_paths.0.document_path", path)).ok).toBe(true)
      }
    )
  })

  describe("body or document paths", () => {
    it("a note with neither → note_body_or_document_path_not_found at the note", () => {
      const result = validate(exampleWithout(ID, "notes.2.document_paths"))
      expect(errorsOf(result)).toStrictEqual([["notes.2", "note_body_or_document_path_not_found"]])
    })

    it("a note with an empty document_paths list and no body counts as neither", () => {
      const result = validate(exampleWith(ID, "notes.2.document_paths", []))
      expect(errorsOf(result)).toStrictEqual([["notes.2", "note_body_or_document_path_not_found"]])
    })

    it("a note with only created_at and is_pinned → the error at that note's index", () => {
      const input = exampleWith(ID, "notes.1", { created_at: "2024-06-12T14:02:31+02:00", is_pinned: true })
      expect(errorsOf(validate(input))).toStrictEqual([["notes.1", "note_body_or_document_path_not_found"]])
    })

    it("document paths without a body are enough (the third example note)", () => {
      expect(validate(exampleWithout(ID, "notes.1.body")).ok).toBe(true)
    })
  })

  describe("unpin_at and created_at", () => {
    it("unpin_at before created_at → note_unpin_at_earlier_than_creation_date at unpin_at", () => {
      const result = validate(exampleWith(ID, "notes.0.unpin_at", "2024-03-01T00:00:00+01:00"))
      expect(errorsOf(result)).toStrictEqual([["notes.0.unpin_at", "note_unpin_at_earlier_than_creation_date"]])
    })

    it("unpin_at equal to created_at is accepted", () => {
      expect(validate(exampleWith(ID, "notes.0.unpin_at", "2024-03-28T09:15:00+01:00")).ok).toBe(true)
    })

    it("compares instants, not text: 03:00+02:00 is before 02:30+01:00", () => {
      const valid = setAt(
        exampleWith(ID, "notes.0.created_at", "2024-03-31T03:00:00+02:00"),
        "notes.0.unpin_at",
        "2024-03-31T02:30:00+01:00"
      )
      expect(validate(valid).ok).toBe(true)
      const invalid = setAt(
        exampleWith(ID, "notes.0.created_at", "2024-03-31T02:30:00+01:00"),
        "notes.0.unpin_at",
        "2024-03-31T03:00:00+02:00"
      )
      expect(errorsOf(validate(invalid))).toStrictEqual([
        ["notes.0.unpin_at", "note_unpin_at_earlier_than_creation_date"]
      ])
    })

    it("unpin_at without created_at has nothing to be compared with", () => {
      expect(validate(exampleWithout(ID, "notes.0.created_at")).ok).toBe(true)
    })
  })

  describe("what each rule says", () => {
    // The details a person fixing an export reads; the codes alone are tested above.
    it("says what a note needs, when unpin_at is too early, and what an unpinned unpin_at does", () => {
      const neither = validate(exampleWithout(ID, "notes.2.document_paths"))
      expect(neither.ok ? [] : neither.error.errors.map((e) => e.detail)).toStrictEqual(["A note needs a body or at least one document path."])
      const early = validate(exampleWith(ID, "notes.0.unpin_at", "2024-03-01T00:00:00+01:00"))
      expect(early.ok ? [] : early.error.errors.map((e) => e.detail)).toStrictEqual(["unpin_at must not be earlier than created_at."])
      const unpinned = validate(exampleWithout(ID, "notes.0.is_pinned"))
      expect(unpinned.warnings.map((w) => w.detail)).toStrictEqual(["unpin_at has no effect on a note that is not pinned."])
    })
  })

  describe("warnings", () => {
    it("unpin_at on a note that is not pinned → unpin_at_without_pin, still valid", () => {
      for (const input of [exampleWithout(ID, "notes.0.is_pinned"), exampleWith(ID, "notes.0.is_pinned", false)]) {
        const result = validate(input)
        expect(result.ok).toBe(true)
        expect(warningsOf(result)).toStrictEqual([["notes.0.unpin_at", "unpin_at_without_pin"]])
      }
    })

    it("an empty optional document_paths next to a body → empty_optional, still valid", () => {
      const result = validate(exampleWith(ID, "notes.1.document_paths", []))
      expect(result.ok).toBe(true)
      expect(warningsOf(result)).toStrictEqual([["notes.1.document_paths", "empty_optional"]])
    })

    it("warnings are reported next to errors without changing them", () => {
      const input = setAt(exampleWithout(ID, "notes.0.is_pinned"), "notes.1.body", "")
      const result = validate(input)
      expect(errorsOf(result)).toStrictEqual([["notes.1.body", "blank"]])
      expect(warningsOf(result)).toStrictEqual([["notes.0.unpin_at", "unpin_at_without_pin"]])
    })
  })

  describe("the error body", () => {
    it("collects every error, in document order, under payload_failed_validation", () => {
      const input = loadExample(ID)
      setAt(input, "import_supplier", "")
      setAt(input, "notes.0.body", 5)
      setAt(input, "notes.1.document_paths.0.document_path", "/abs.pdf")
      setAt(input, "notes.2.foo", 1)
      const result = validate(input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe("payload_failed_validation")
      expect(result.error.detail).toMatch(/\b4\b/)
      expect(errorsOf(result)).toStrictEqual([
        ["import_supplier", "blank"],
        ["notes.0.body", "invalid"],
        ["notes.1.document_paths.0.document_path", "invalid_document_path"],
        ["notes.2.foo", "unknown_field"]
      ])
      for (const e of result.error.errors) expect(e.detail).not.toBe("")
    })

    it("orders errors by the payload's own key order, missing required fields last", () => {
      const input = {
        notes: [{ body: 5 }],
        external_account_number: "",
        zzz: true
      }
      expect(errorsOf(validate(input))).toStrictEqual([
        ["notes.0.body", "invalid"],
        ["external_account_number", "blank"],
        ["zzz", "unknown_field"],
        ["import_supplier", "required"]
      ])
    })

    it("one error gives a detail with the count 1", () => {
      const result = validate(exampleWith(ID, "notes.0.body", ""))
      expect(result.ok ? "" : result.error.detail).toMatch(/\b1\b/)
    })
  })
})
