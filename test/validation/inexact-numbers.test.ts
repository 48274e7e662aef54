/**
 * inexact_number from the raw text: every number a double cannot hold exactly is found, at its attr, and
 * no other; the fast scan never hides one.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { validatePayload, withExactNumbers } from "../../src/index.js"
import { inexactNumberErrors } from "../../src/validation/inexact-numbers.js"

/** A decimal text as (significand, power of ten), trailing zeros removed: an oracle independent of the code. */
const exactValue = (text: string): readonly [bigint, number] => {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/u.exec(text)!
  let digits = `${m[2]}${m[3] ?? ""}`.replace(/^0+/u, "")
  let exponent = Number(m[4] ?? 0) - (m[3] ?? "").length
  if (digits === "") return [0n, 0]
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1)
    exponent++
  }
  return [BigInt(`${m[1]}${digits}`), exponent]
}
/** Whether JSON.stringify of the parsed double says the same value as the text. */
const oracleExact = (text: string): boolean => {
  const sent = JSON.stringify(Number(text))
  if (sent === "null") return false
  const [a, b] = [exactValue(text), exactValue(sent)]
  return (a[0] === b[0] && a[1] === b[1]) || (a[0] === 0n && b[0] === 0n)
}

const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[1-9]\d{0,24}$/u), fc.option(fc.stringMatching(/^\d{1,12}$/u), { nil: undefined }))
  .map(([neg, int, frac]) => `${neg ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}`)

const body = (amount: string): string =>
  `{"import_supplier":"S","external_account_number":"KD-1","transactions":[{"transaction_id":"A","transaction_date":"2024-01-15","amount":12.5,"type":"CREDIT"},{"transaction_id":"B","transaction_date":"2024-01-15","amount":${amount},"type":"CREDIT"}]}`

describe("inexactNumberErrors", () => {
  it("the issue's example: 12345678901234567.89 as an amount", () => {
    expect(inexactNumberErrors(body("12345678901234567.89"))).toEqual([{
      attr: "transactions.1.amount",
      code: "inexact_number",
      detail: "12345678901234567.89 cannot be sent as a JSON number without changing it (it would become 12345678901234568)."
    }])
  })

  it("property: an amount is reported exactly when a double cannot hold it (oracle: the value JSON.stringify sends)", () => {
    fc.assert(fc.property(decimalText, (amount) => {
      const found = inexactNumberErrors(body(amount)).map((e) => e.attr)
      expect(found).toEqual(oracleExact(amount) ? [] : ["transactions.1.amount"])
    }), { numRuns: 2000 })
  })

  it("property: numbers of at most 15 digits, and any double JSON.stringify writes, are never reported", () => {
    const short = fc.stringMatching(/^-?(?:0|[1-9]\d{0,14})$/u)
    const json = fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d))
    fc.assert(fc.property(fc.oneof(short, json), (amount) => {
      expect(inexactNumberErrors(body(amount))).toEqual([])
    }), { numRuns: 1000 })
  })

  it("exponents and out-of-range numbers: 1e400 (Infinity), 1e-400 (0) and 1.00000000000000001e2 are found; 1e2 and 2.5E-3 are not", () => {
    for (const bad of ["1e400", "-1E400", "1e-400", "1.00000000000000001e2"]) expect(inexactNumberErrors(body(bad)).map((e) => e.code)).toEqual(["inexact_number"])
    for (const good of ["1e2", "2.5E-3", "0e10"]) expect(inexactNumberErrors(body(good))).toEqual([])
  })

  it("numbers anywhere: in arrays (first and later items), nested objects, keys with dots (escaped), with whitespace", () => {
    const text = '{"a":[1,{"b.c":12345678901234567890}],"d":{"e":[0.30000000000000000001]},"f":[1, 2,\n 1.00000000000000000001]}'
    expect(inexactNumberErrors(text).map((e) => e.attr)).toEqual(["a.1.b\\.c", "d.e.0", "f.2"])
  })

  it("a number at the root is no payload (validation says invalid at non_field_errors): not looked at", () => {
    expect(inexactNumberErrors("12345678901234567890")).toEqual([])
  })

  it("long digit runs inside strings are not numbers; text that is not JSON gives nothing", () => {
    expect(inexactNumberErrors('{"malo":"12345678901234567890","x":"a:12345678901234567890"}')).toEqual([])
    expect(inexactNumberErrors('{"a":12345678901234567890')).toEqual([])
  })
})

describe("withExactNumbers", () => {
  const now = new Date("2025-01-01T00:00:00Z")
  it("a valid result becomes invalid with the error; the errors stay in document order", () => {
    const text = body("12345678901234567.89").replace('"transaction_id":"A"', '"transaction_id":""')
    const value: unknown = JSON.parse(text)
    const result = withExactNumbers(text, value, validatePayload("transactions", value, { now }))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.errors.map((e) => `${e.attr} ${e.code}`)).toEqual(["transactions.0.transaction_id blank", "transactions.1.amount inexact_number"])
    expect(result.error.detail).toBe("The payload failed validation with 2 errors.")
  })

  it("an exact text leaves the result as it is", () => {
    const text = body("1204.5")
    const value: unknown = JSON.parse(text)
    const result = validatePayload("transactions", value, { now })
    expect(withExactNumbers(text, value, result)).toBe(result)
  })

  it("a place with an error of its own keeps it alone (an amount_total beyond 2^53 is invalid, not also inexact)", () => {
    const text = '{"import_supplier":"S","external_account_number":"K","market_participant_invoice":{"amount_total":12345678901234567891}}'
    const value: unknown = JSON.parse(text)
    const result = withExactNumbers(text, value, validatePayload("market-participant-invoice", value))
    expect(result.ok).toBe(false)
    if (result.ok) return
    const atTotal = result.error.errors.filter((e) => e.attr === "market_participant_invoice.amount_total").map((e) => e.code)
    expect(atTotal).toEqual(["invalid"])
  })
})
