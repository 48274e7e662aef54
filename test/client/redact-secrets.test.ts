/**
 * `redactSecrets`: no string and no key of the copy holds a secret, wherever it was; everything else
 * comes out as it went in, and the input is not changed.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { redactSecrets } from "../../src/index.js"

const SECRET = "tok-4f9a1c2e7b"

describe("redactSecrets", () => {
  it("replaces each occurrence in strings and keys, at any depth, and leaves other values alone", () => {
    const value = {
      status: 401,
      ok: false,
      none: null,
      body: { detail: `Invalid token ${SECRET}; token ${SECRET}!`, list: [SECRET, 7, [`x${SECRET}y`]] },
      [`key-${SECRET}`]: "v"
    }
    expect(redactSecrets(value, [SECRET])).toEqual({
      status: 401,
      ok: false,
      none: null,
      body: { detail: "Invalid token [redacted]; token [redacted]!", list: ["[redacted]", 7, ["x[redacted]y"]] },
      "key-[redacted]": "v"
    })
  })

  it("a string, a number or null on its own", () => {
    expect(redactSecrets(`Bearer ${SECRET}`, [SECRET])).toBe("Bearer [redacted]")
    expect(redactSecrets(42, [SECRET])).toBe(42)
    expect(redactSecrets(null, [SECRET])).toBeNull()
    expect(redactSecrets(undefined, [SECRET])).toBeUndefined()
  })

  it("several secrets, one inside another: the longer one goes whole; empty secrets are ignored", () => {
    expect(redactSecrets(["abc-123-xyz and 123 alone"], ["123", "abc-123-xyz", ""])).toEqual(["[redacted] and [redacted] alone"])
    expect(redactSecrets({ a: "text" }, [""])).toEqual({ a: "text" })
    expect(redactSecrets({ a: "text" }, [])).toEqual({ a: "text" })
  })

  it("a secret that the marker would bring back (part of it, or across its edge) is removed outright", () => {
    expect(redactSecrets("xdactx", ["dact"])).toBe("x[reed]x")
    expect(redactSecrets("d]xx", ["d]x"])).not.toContain("d]x")
  })

  it("returns a new value and does not change the input", () => {
    const input = { body: { detail: `token ${SECRET}` }, list: [SECRET] }
    const before = JSON.stringify(input)
    const output = redactSecrets(input, [SECRET])
    expect(JSON.stringify(input)).toBe(before)
    expect(output).not.toBe(input)
    expect(output.body).not.toBe(input.body)
  })

  it("a key __proto__ stays an own key of the copy, and no prototype changes", () => {
    const input = JSON.parse(`{"__proto__": {"detail": "${SECRET}"}}`) as Record<string, unknown>
    const output = redactSecrets(input, [SECRET])
    expect(Object.hasOwn(output, "__proto__")).toBe(true)
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype)
    expect(JSON.stringify(output)).toBe(`{"__proto__":{"detail":"[redacted]"}}`)
  })

  it("objects that are not plain (a date, a map) are returned as they are", () => {
    const date = new Date(0)
    const map = new Map([["k", SECRET]])
    const output = redactSecrets({ date, map }, [SECRET])
    expect(output.date).toBe(date)
    expect(output.map).toBe(map)
  })
})

/** Where the secret goes in a template string: a character no filler and no secret holds. */
const HOLE = "\u0000"

/**
 * Filler text: printable, with quotes and backslashes, but without lowercase letters, digits and brackets,
 * so it cannot overlap a secret (lowercase letters and digits) or the marker `[redacted]`.
 */
const filler = fc.string({ unit: fc.constantFrom(..."ABCXYZ -_.:,;!?\"\\{}/ÄÖÜ€", HOLE), maxLength: 12 })

/** JSON templates: values whose strings and keys may hold holes. Numbers stay short, so no secret is in them. */
const template = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -999, max: 999 }),
    filler,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(filler, tie("value"), { maxKeys: 4 })
  )
})).value

/** The template with each hole filled with `text`. */
const fill = (value: unknown, text: string): unknown =>
  typeof value === "string"
    ? value.replaceAll(HOLE, text)
    : Array.isArray(value)
    ? value.map((v) => fill(v, text))
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll(HOLE, text), fill(v, text)]))
    : value

/** A token-like secret, long enough that its occurrences are the only text it matches. */
const secret = fc.stringMatching(/^[a-z0-9]{8,24}$/u)

describe("redactSecrets (property)", () => {
  it("for any JSON value with the secret anywhere in its strings and keys, its JSON text holds no secret, and nothing else changed", () => {
    fc.assert(
      fc.property(template, secret, (shape, s) => {
        const output = redactSecrets(fill(shape, s), [s])
        expect(JSON.stringify(output) ?? "").not.toContain(s)
        expect(output).toEqual(fill(shape, "[redacted]"))
      }),
      { numRuns: 300, seed: 14 }
    )
  })

  it("a JSON value without the secret comes out deep-equal", () => {
    fc.assert(
      fc.property(fc.jsonValue(), secret, (value, s) => {
        fc.pre(!JSON.stringify(value).includes(s))
        expect(redactSecrets(value, [s])).toEqual(value)
      }),
      { numRuns: 300, seed: 14 }
    )
  })
})

describe("redactSecrets: the spellings of a secret", () => {
  const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64")
  /** How services spell a key or token in a message, worked out with Node's own encoders. */
  const spelled = (s: string): Record<string, string> => ({
    "URL-encoded": encodeURIComponent(s),
    "URL-encoded, lower-case hex": encodeURIComponent(s).replace(/%[0-9A-F]{2}/gu, (e) => e.toLowerCase()),
    "form-encoded": new URLSearchParams({ k: s }).toString().slice(2),
    base64: b64(s),
    "base64 without padding": b64(s).replace(/=+$/u, ""),
    base64url: Buffer.from(s, "utf8").toString("base64url"),
    "JSON-escaped": JSON.stringify(s).slice(1, -1),
    "JSON-escaped with \\/": JSON.stringify(s).slice(1, -1).replaceAll("/", "\\/")
  })
  /** What a header can carry: printable ASCII, as keys and tokens are. */
  const headerSafe = fc.stringMatching(/^[\x21-\x7e]{8,48}$/u)

  it("property: each spelling of a key in a message is redacted whole", () => {
    fc.assert(
      fc.property(headerSafe, fc.constantFrom(...Object.keys(spelled("x"))), (key, how) => {
        const text = `refused: <${spelled(key)[how]!}> (try again)`
        const out = redactSecrets(text, [key])
        expect(out).toBe("refused: <[redacted]> (try again)")
      }),
      { numRuns: 400, seed: 14 }
    )
  })

  it("property: base64 of a longer text holding the key keeps at most 2 of the key's bytes on either side", () => {
    fc.assert(
      fc.property(headerSafe, fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (key, before, after) => {
        const out = redactSecrets(b64(`${before}${key}${after}`), [key])
        const pieces = out.split("[redacted]")
        expect(pieces).toHaveLength(2)
        // Each piece is whole base64 groups: decoded, it is the text around the key and at most 2 of its bytes.
        const [head, tail] = pieces.map((p) => Buffer.from(p, "base64").length)
        expect(head).toBeLessThanOrEqual(Buffer.byteLength(before) + 2)
        expect(tail).toBeLessThanOrEqual(Buffer.byteLength(after) + 2)
      }),
      { numRuns: 300, seed: 14 }
    )
  })
})
