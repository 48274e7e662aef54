/**
 * What validation reads of an input (`src/validation/wire-data.ts`): what `JSON.stringify` would send, own
 * enumerable data properties. Accessors are refused with their own detail, holes of a list are items
 * (JSON sends `null` for them), a cyclic or very deep input is read to a bounded depth, and an error at a
 * getter in a sparse list keeps document order. Expected errors are worked out from those rules by hand.
 */
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { errorsOf } from "../support/payloads.js"

const GETTER_DETAIL = "A getter is not data: JSON.stringify would call it when sending. Pass the value itself."
const notesWith = (...notes: Array<unknown>) => ({ import_supplier: "S", external_account_number: "1", notes })
/** `target` with an enumerable own getter `key`. */
const withGetter = <T extends object>(target: T, key: string, get: () => unknown = () => "x"): T =>
  Object.defineProperty(target, key, { get, enumerable: true, configurable: true })

describe("accessors are refused with their own detail", () => {
  it("an own getter of a note's body is invalid with the getter detail, not as a value of the wrong type", () => {
    const result = validatePayload("notes", notesWith(withGetter({}, "body")))
    expect(result.ok ? [] : result.error.errors).toEqual([{ detail: GETTER_DETAIL, code: "invalid", attr: "notes.0.body" }])
  })

  it("an own setter without a getter is refused the same way (JSON.stringify would send nothing for it)", () => {
    const note = Object.defineProperty({}, "body", { set: () => undefined, enumerable: true, configurable: true })
    const result = validatePayload("notes", notesWith(note))
    expect(result.ok ? [] : result.error.errors).toEqual([{ detail: GETTER_DETAIL, code: "invalid", attr: "notes.0.body" }])
    // Also at the root of a payload that is otherwise valid.
    const deep = notesWith({ body: "x", created_at: "2024-01-01T00:00:00Z" })
    Object.defineProperty(deep, "import_supplier", { set: () => undefined, enumerable: true, configurable: true })
    expect(errorsOf(validatePayload("notes", deep))).toEqual([["import_supplier", "invalid"]])
  })

  it("a non-enumerable own field of an input that is copied (it has a getter) is not sent, so it is missing", () => {
    const payload = withGetter({ external_account_number: "1", notes: [{ body: "x" }] }, "extra", () => 1)
    Object.defineProperty(payload, "import_supplier", { value: "S", enumerable: false })
    // A missing field sorts after the fields present.
    expect(errorsOf(validatePayload("notes", payload))).toEqual([["extra", "invalid"], ["import_supplier", "required"]])
  })
})

describe("holes of a list are items", () => {
  it("a trailing hole of a plain list is an item (JSON sends null for it)", () => {
    const notes = [{ body: "x" }, ,]
    expect(notes.length).toBe(2)
    expect(JSON.stringify(notes)).toBe(`[{"body":"x"},null]`)
    expect(errorsOf(validatePayload("notes", { ...notesWith(), notes }))).toEqual([["notes.1", "invalid"]])
  })

  it("a trailing hole of a list inside a null-prototype payload is an item too", () => {
    const payload = Object.assign(Object.create(null) as object, notesWith(), { notes: [{ body: "x" }, ,] })
    expect(errorsOf(validatePayload("notes", payload))).toEqual([["notes.1", "invalid"]])
  })

  it("an error at a getter deep in a sparse list sorts by its index, after the errors of earlier items", () => {
    // 104 notes: holes at 1 and 2, a broken body at 102, a getter body at 103.
    const notes: Array<unknown> = Array.from({ length: 104 }, () => ({ body: "x" }))
    delete notes[1]
    delete notes[2]
    notes[102] = { body: 1 }
    notes[103] = withGetter({}, "body")
    expect(errorsOf(validatePayload("notes", { ...notesWith(), notes }))).toEqual([
      ["notes.1", "invalid"],
      ["notes.2", "invalid"],
      ["notes.102.body", "invalid"],
      ["notes.103.body", "invalid"]
    ])
  })

  it("a getter on a list's own key that is no index is refused at that key, not at a number", () => {
    const notes = [{ body: "x" }]
    withGetter(notes, "x1")
    withGetter(notes, "1x")
    expect(errorsOf(validatePayload("notes", { ...notesWith(), notes }))).toEqual([["notes.x1", "invalid"], ["notes.1x", "invalid"]])
  })
})

/** A note with an unknown field `extra` holding objects nested `a` in `a`, the innermost at `depth` (the payload is 0). */
const deepNote = (depth: number, innermost: object): { note: object; attr: string } => {
  // payload 0, notes 1, the note 2, extra 3, each `a` one more.
  let inner: object = innermost
  for (let d = depth; d > 3; d--) inner = { a: inner }
  const steps = Array.from({ length: depth - 3 }, () => "a")
  return { note: { body: "x", extra: inner }, attr: ["notes", "0", "extra", ...steps].join(".") }
}

describe("the depth to which an input is read", () => {
  it("a getter in an object at depth 64 is found; below that, values are passed on as they are", () => {
    const at64 = deepNote(64, withGetter({}, "g"))
    expect(errorsOf(validatePayload("notes", notesWith(at64.note)))).toEqual([["notes.0.extra", "unknown_field"], [`${at64.attr}.g`, "invalid"]])
    const at65 = deepNote(65, withGetter({}, "g"))
    expect(errorsOf(validatePayload("notes", notesWith(at65.note)))).toEqual([["notes.0.extra", "unknown_field"]])
  })

  it("a cyclic input is read to a bounded depth: its unknown field is reported, no internal failure", () => {
    const note: Record<string, unknown> = { body: "x" }
    note["self"] = note
    expect(errorsOf(validatePayload("notes", notesWith(note)))).toEqual([["notes.0.self", "unknown_field"]])
  })

  it("a cyclic input with a getter is copied to depth 64: one getter error per copied level", () => {
    const note: Record<string, unknown> = { body: "x" }
    note["self"] = note
    withGetter(note, "g")
    const result = validatePayload("notes", notesWith(note))
    // The note is at depth 2 and each `self` one deeper: the copies at depths 2 to 64 hold the getter.
    const getterAttrs = Array.from({ length: 63 }, (_, k) => ["notes", "0", ...Array<string>(k).fill("self"), "g"].join("."))
    const errors = errorsOf(result)
    expect(errors[0]).toEqual(["notes.0.self", "unknown_field"])
    expect(errors.slice(1).map(([attr]) => attr).sort()).toEqual([...getterAttrs].sort())
    expect(errors.slice(1).every(([, code]) => code === "invalid")).toBe(true)
  })
})

describe("a key added to Object.prototype", () => {
  it("does not lend a note the body it lacks (JSON.stringify sends no inherited key)", () => {
    Object.defineProperty(Object.prototype, "body", { value: "inherited", enumerable: true, configurable: true, writable: true })
    try {
      // Another field is broken, so the note's rule runs on what validation reads of the input.
      const payload = { import_supplier: 1, external_account_number: "1", notes: [{}] }
      expect(errorsOf(validatePayload("notes", payload))).toEqual([
        ["import_supplier", "invalid"],
        ["notes.0", "note_body_or_document_path_not_found"]
      ])
    } finally {
      delete (Object.prototype as Record<string, unknown>)["body"]
    }
    expect(Object.hasOwn(Object.prototype, "body")).toBe(false)
  })
})
