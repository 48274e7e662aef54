/**
 * What every POST endpoint's request does with a root that is no object, a missing required field, a
 * `null` where none is allowed and a blank string, checked alike for all of them from their field tables (fields.ts), on each
 * endpoint's example payload.
 */
import { describe, expect, it } from "vitest"
import { POST_ENDPOINT_IDS, validatePayload } from "../../src/index.js"
import { BLANKS, cross, errorsOf, exampleWith, exampleWithout, NOT_OBJECTS } from "../support/payloads.js"
import { FIELDS } from "./fields.js"

describe("the field tables", () => {
  it("hold one table for each POST endpoint, in its resource's test folder (test/schemas/<resource>/fields.ts)", () => {
    expect(Object.keys(FIELDS).sort()).toEqual([...POST_ENDPOINT_IDS].sort())
  })
})

describe.each(POST_ENDPOINT_IDS.map((id) => [id, FIELDS[id] ?? { required: [], optional: [], notNull: [], strings: [] }] as const))("%s request", (id, fields) => {
  it.each(NOT_OBJECTS)("a root of %j → one invalid error at non_field_errors", (root) => {
    expect(errorsOf(validatePayload(id, root))).toStrictEqual([["non_field_errors", "invalid"]])
  })

  it.each(fields.required)("%s removed → required", (attr) => {
    expect(errorsOf(validatePayload(id, exampleWithout(id, attr)))).toStrictEqual([[attr, "required"]])
  })

  it.each([...fields.required, ...fields.optional, ...fields.notNull])("%s = null → null", (attr) => {
    expect(errorsOf(validatePayload(id, exampleWith(id, attr, null)))).toStrictEqual([[attr, "null"]])
  })

  it.each(cross(fields.strings, BLANKS))("%s = %j → blank", (attr, value) => {
    expect(errorsOf(validatePayload(id, exampleWith(id, attr, value)))).toStrictEqual([[attr, "blank"]])
  })
})
