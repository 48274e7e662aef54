/**
 * The error bodies of the spec: the 400 body `{ detail, code, errors: [{ detail, code, attr }] }` (every
 * item names what, a code and where) and the `{ detail }` answers.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { ApiError, DetailBody, NotFoundErrorBody, ValidationErrorBody } from "../../src/schemas/errors.js"

const is = (schema: Schema.Top, value: unknown): boolean => Schema.is(schema as Schema.Codec<unknown>)(value)

describe("ApiError and ValidationErrorBody", () => {
  const item = { detail: "This field is required.", code: "required", attr: "notes.0.body" }

  it("take an item with detail, code and attr, all strings", () => {
    expect(is(ApiError, item)).toBe(true)
    expect(is(ValidationErrorBody, { detail: "Invalid input.", code: "invalid", errors: [item] })).toBe(true)
  })

  it("refuse an item without one of its three fields, or with one that is not a string", () => {
    for (const key of ["detail", "code", "attr"] as const) {
      const { [key]: _, ...without } = item
      expect(is(ApiError, without), `without ${key}`).toBe(false)
      expect(is(ApiError, { ...item, [key]: 1 }), `${key}: 1`).toBe(false)
      expect(is(ValidationErrorBody, { detail: "Invalid input.", code: "invalid", errors: [without] }), `an item without ${key}`).toBe(false)
    }
    expect(is(ValidationErrorBody, { detail: "Invalid input.", code: "invalid" })).toBe(false)
  })
})

describe("the bodies of 404 and of the answers every endpoint may give", () => {
  it("NotFoundErrorBody is { error }, DetailBody is { detail }", () => {
    expect(is(NotFoundErrorBody, { error: "Account not found." })).toBe(true)
    expect(is(NotFoundErrorBody, { detail: "Not found." })).toBe(false)
    expect(is(DetailBody, { detail: "Authentication credentials were not provided." })).toBe(true)
    expect(is(DetailBody, { error: "x" })).toBe(false)
  })
})
