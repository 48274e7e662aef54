/**
 * `preview`, the rendering of an input in an error's detail: short, and never throwing, for every kind of
 * value a caller may pass. `guard`, which turns a converter's exception into `invalid`.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { guard, preview, succeed } from "../../src/mappers/conversion-result.js"

describe("preview", () => {
  it.each<[string, unknown, string]>([
    ["a string, quoted", "1.234", '"1.234"'],
    ["a number", 12.5, "12.5"],
    ["a boolean", false, "false"],
    ["undefined", undefined, "undefined"],
    ["null", null, "null"],
    ["a bigint, with its n", 12n, "12n"],
    ["a negative bigint", -7n, "-7n"],
    ["a symbol", Symbol("s"), "a symbol"],
    ["a function", () => 1, "a function"],
    ["an array", [1, 2], "an array"],
    ["an object", { a: 1 }, "an object"],
    ["an object without prototype", Object.create(null) as unknown, "an object"]
  ])("%s", (_, value, expected) => {
    expect(preview(value)).toBe(expected)
  })

  it("keeps a string of 40 characters whole and cuts a longer one to 40 and an ellipsis", () => {
    const forty = "x".repeat(40)
    expect(preview(forty)).toBe(JSON.stringify(forty))
    expect(preview(`${forty}y`)).toBe(JSON.stringify(`${forty}…`))
    expect(preview(`${"1".repeat(45)}`)).toBe(`"${"1".repeat(40)}…"`)
  })

  it("cuts a long bigint's digits the same way, without quotes", () => {
    const big = 10n ** 50n
    expect(preview(big)).toBe(`${String(big).slice(0, 40)}…n`)
  })

  it("answers a revoked proxy without throwing", () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(preview(proxy)).toBe("an object")
  })

  it("renders any string as JSON text, cut after 40 characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-ascii", maxLength: 200 }), (text) => {
        const shown = preview(text)
        expect(shown).toBe(JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text))
      }),
      { numRuns: 300, seed: 3 }
    )
  })
})

describe("guard", () => {
  it("passes a result through and turns an exception into invalid", () => {
    expect(guard(() => succeed(1))).toEqual({ ok: true, value: 1 })
    expect(guard(() => {
      throw new Error("boom")
    })).toEqual({ ok: false, error: { code: "invalid", detail: "value could not be converted" } })
  })
})
