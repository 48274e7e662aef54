/**
 * invoice_totals_mismatch: an invoice's lines' amount_net plus its tax_amounts' tax_amount against its
 * amount_total. A warning (the spec states no such rule), from validatePayload and the compiled validator.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compileValidator, validatePayload } from "../../../src/index.js"
import { exampleWith, type JsonObject, loadExample, warningsOf } from "../../support/payloads.js"

const ID = "market-participant-invoice"
const compiled = compileValidator(ID, { input: "json" })
const AT = "market_participant_invoice.amount_total"
const CODE = "invoice_totals_mismatch"

/** The warnings of both validators, which must agree. */
const totalsWarnings = (payload: JsonObject): Array<{ attr: string; detail: string }> => {
  const a = validatePayload(ID, payload)
  const b = compiled(JSON.parse(JSON.stringify(payload)))
  expect(a.ok).toBe(true)
  expect(b.warnings).toStrictEqual(a.warnings)
  return a.warnings.filter((w) => w.code === CODE).map((w) => ({ attr: w.attr, detail: w.detail }))
}

/** The example invoice with these lines (net, tax rate) and tax amounts, and the given total. */
const invoiceWith = (lines: ReadonlyArray<readonly [number, string]>, taxes: ReadonlyArray<number> | undefined, total: number): JsonObject => {
  const payload = loadExample(ID)
  const invoice = payload["market_participant_invoice"] as Record<string, unknown>
  const [line] = invoice["line_items"] as Array<Record<string, unknown>>
  const [tax] = invoice["tax_amounts"] as Array<Record<string, unknown>>
  invoice["line_items"] = lines.map(([net, rate], i) => ({ ...line, position: i + 1, amount_net: net, tax_rate: rate }))
  if (taxes === undefined) delete invoice["tax_amounts"]
  else invoice["tax_amounts"] = taxes.map((amount) => ({ ...tax, tax_amount: amount }))
  invoice["amount_total"] = total
  invoice["amount_due"] = total
  return payload
}

const cents = fc.integer({ min: -5_000_000, max: 50_000_000 })
const taxedLines = fc.array(fc.tuple(cents, fc.constantFrom("19.00", "7", "19")), { minLength: 1, maxLength: 6 })
const taxes = fc.array(fc.integer({ min: 0, max: 9_500_000 }), { minLength: 1, maxLength: 3 })
const delta = fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((d) => d !== 0)
const sum = (values: ReadonlyArray<number>): number => values.reduce((a, b) => a + b, 0)

describe("invoice_totals_mismatch", () => {
  it("the example invoice adds up (2107 + 794 net, 551 tax, 3452 total): no warning", () => {
    expect(totalsWarnings(loadExample(ID))).toStrictEqual([])
  })

  it("the example with amount_total 3500: one warning at amount_total naming the three figures; still valid", () => {
    const payload = exampleWith(ID, "market_participant_invoice.amount_total", 3500)
    expect(validatePayload(ID, payload).ok).toBe(true)
    expect(warningsOf(validatePayload(ID, payload))).toStrictEqual([[AT, CODE]])
    expect(totalsWarnings(payload)).toStrictEqual([{
      attr: AT,
      detail: "The line items' amount_net add up to 2901 and the tax_amounts' tax_amount to 551, together 3452, but amount_total is 3500."
    }])
  })

  it("property: lines and taxes that add up to amount_total never warn", () => {
    fc.assert(fc.property(taxedLines, taxes, (lines, tax) => {
      const total = sum(lines.map(([net]) => net)) + sum(tax)
      expect(totalsWarnings(invoiceWith(lines, tax, total))).toStrictEqual([])
    }), { numRuns: 200 })
  })

  it("property: changing one figure (the total, a line's amount_net or a tax_amount) always warns, with the new figures", () => {
    fc.assert(fc.property(taxedLines, taxes, delta, fc.nat(), fc.constantFrom("total", "line", "tax"), (lines, tax, d, pick, which) => {
      let total = sum(lines.map(([net]) => net)) + sum(tax)
      const nets = lines.map(([net]) => net)
      const taxAmounts = [...tax]
      if (which === "total") total += d
      else if (which === "line") nets[pick % nets.length]! += d
      else taxAmounts[pick % taxAmounts.length]! += d
      const payload = invoiceWith(nets.map((net, i) => [net, lines[i]![1]] as const), taxAmounts, total)
      const [net, taxSum] = [sum(nets), sum(taxAmounts)]
      expect(totalsWarnings(payload)).toStrictEqual([{
        attr: AT,
        detail: `The line items' amount_net add up to ${net} and the tax_amounts' tax_amount to ${taxSum}, together ${net + taxSum}, but amount_total is ${total}.`
      }])
    }), { numRuns: 200 })
  })

  it("property: without tax_amounts, lines all at tax rate 0 are compared alone", () => {
    const zeroLines = fc.array(fc.tuple(cents, fc.constantFrom("0", "0.00", "0.0")), { minLength: 1, maxLength: 5 })
    fc.assert(fc.property(zeroLines, fc.oneof(fc.constant(0), delta), (lines, d) => {
      const net = sum(lines.map(([n]) => n))
      const found = totalsWarnings(invoiceWith(lines, undefined, net + d))
      expect(found).toStrictEqual(d === 0 ? [] : [{
        attr: AT,
        detail: `The line items' amount_net add up to ${net} and no tax_amounts (every line at tax rate 0) to 0, together ${net}, but amount_total is ${net + d}.`
      }])
    }), { numRuns: 150 })
  })

  it("property: without tax_amounts, a taxed line means the taxes are not itemised: never a warning", () => {
    fc.assert(fc.property(taxedLines, fc.integer({ min: -100_000_000, max: 100_000_000 }), (lines, total) => {
      expect(totalsWarnings(invoiceWith(lines, undefined, total))).toStrictEqual([])
    }), { numRuns: 150 })
  })

  it("an empty tax_amounts counts as none (and draws empty_optional)", () => {
    const payload = invoiceWith([[1000, "0"]], [], 1001)
    expect(warningsOf(validatePayload(ID, payload))).toStrictEqual([[AT, CODE], ["market_participant_invoice.tax_amounts", "empty_optional"]])
  })

  it("a malformed figure is an error of its own, and the totals are not compared", () => {
    const payload = invoiceWith([[1000, "19"]], [190], 1190)
    setLineNet(payload, "10.5")
    const result = validatePayload(ID, payload)
    expect(result.ok).toBe(false)
    expect(result.warnings.filter((w) => w.code === CODE)).toStrictEqual([])
  })
})

const setLineNet = (payload: JsonObject, value: unknown): void => {
  const invoice = payload["market_participant_invoice"] as Record<string, unknown>
  ;(invoice["line_items"] as Array<Record<string, unknown>>)[0]!["amount_net"] = value
}
