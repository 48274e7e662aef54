/**
 * The INVOIC example (examples/market-messages/invoic-market-participant-invoices.*) on generated
 * invoices: an invoice of N lines is one payload of N line items whose sums add up, or, when its message
 * is damaged, every one of its records is rejected. The account is a constant here (the CLI test looks it
 * up); the amounts are computed from the generated numbers, never read back from the reader.
 */
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingSpec, mapRecords, validatePayload } from "../../src/index.js"
import { type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const EXAMPLES = new URL("../../examples/market-messages/", import.meta.url)
const json = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(name, EXAMPLES), "utf8")) as Record<string, unknown>
const spec = json("invoic-market-participant-invoices.mapping.json")
const mapping = defineMapping({ ...spec, fields: { ...(spec["fields"] as object), external_account_number: { value: "KD-3003" } } } as unknown as MappingSpec<"market-participant-invoice">)
const { accounts: _a, pids: _p, source: _s, ...reader } = json("invoic-market-participant-invoices.reader.json")

interface Line {
  readonly milli: number
  readonly priceHundredThousandths: number
}

/** `n / 10^scale` as EDIFACT writes it with `mark`. */
const decimal = (n: number, scale: number, mark: string): string => {
  const text = String(n).padStart(scale + 1, "0")
  return `${text.slice(0, -scale)}${mark}${text.slice(-scale)}`
}
/** Cents of quantity × price, half up (both positive). */
const lineCents = (line: Line): number => Number((BigInt(line.milli) * BigInt(line.priceHundredThousandths) + 5_000_000n) / 10_000_000n)

const invoice = (lines: ReadonlyArray<Line>, mark: string, damaged: boolean): string => {
  const net = lines.reduce((sum, line) => sum + lineCents(line), 0)
  const tax = Math.floor((net * 19 + 50) / 100)
  const body = [
    "UNH+1+INVOIC:D:06A:UN:2.8e", "BGM+380+NNR-1+9", "DTM+137:202411050900?+00:303", "IMD++ABR+Z06", "RFF+Z13:31002",
    "NAD+MS+9900123456789::293", "NAD+MR+9907654321098::293", "NAD+DP", "LOC+172+51238696781", "PYT+3", "DTM+265:202411192300?+00:303",
    ...lines.flatMap((line, i) => [
      `LIN+${i + 1}++99900010${String(i).padStart(5, "0")}:Z09`, `QTY+47:${decimal(line.milli, 3, mark)}:KWH`,
      "DTM+155:202409302200?+00:303", "DTM+156:202410312300?+00:303",
      `MOA+203:${decimal(lineCents(line), 2, mark)}`, `PRI+CAL:${decimal(line.priceHundredThousandths, 5, mark)}`, "TAX+7+VAT+++:::19+S"
    ]),
    "UNS+S", `MOA+77:${decimal(net + tax, 2, mark)}`, `MOA+9:${decimal(net + tax, 2, mark)}`,
    "TAX+7+VAT+++:::19+S", `MOA+125:${decimal(net, 2, mark)}`, `MOA+161:${decimal(tax, 2, mark)}`
  ]
  const segments = [`UNB+UNOC:3+9900123456789:500+9907654321098:500+241105:1000+I1`, ...body, `UNT+${body.length + (damaged ? 2 : 1)}+1`, "UNZ+1+I1"]
  return `UNA:+${mark}? '${segments.map((s) => `${s}'`).join("")}`
}

describe("INVOIC to a market participant invoice (property)", () => {
  it("maps an invoice of N lines to one payload of N items whose sums add up, or rejects all of its records", async () => {
    const lineArb = fc.record({ milli: fc.integer({ min: 1, max: 99_999_999 }), priceHundredThousandths: fc.integer({ min: 1, max: 9_999_999 }) })
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.constantFrom(".", ","), fc.boolean(), async (lines, mark, damaged) => {
        const items: Array<EdifactRecordItem> = []
        for await (const item of readEdifactRecords([invoice(lines, mark, damaged)], reader as unknown as EdifactRecordOptions)) items.push(item)
        const records = items.flatMap((i) => (i.kind === "record" ? [i.record] : []))
        const rejects = items.filter((i) => i.kind === "reject")
        if (damaged) {
          // Each line, each line's tax and the summary's tax: rejected, none mapped.
          expect(records).toEqual([])
          expect(rejects).toHaveLength(2 * lines.length + 1)
          return
        }
        expect(rejects).toEqual([])
        const result = mapRecords(mapping, records)
        expect(result.rejected).toEqual([])
        expect(result.payloads).toHaveLength(1)
        const payload = result.payloads[0]!.payload
        expect(validatePayload("market-participant-invoice", payload).ok).toBe(true)
        const invoiced = payload.market_participant_invoice
        if (invoiced.tax_amounts === undefined || invoiced.tax_amounts === null) throw new Error("no tax amounts")
        expect(invoiced.line_items.map((l) => [l.position, l.amount_net])).toEqual(lines.map((line, i) => [i + 1, lineCents(line)]))
        const net = lines.reduce((sum, line) => sum + lineCents(line), 0)
        expect(invoiced.tax_amounts.map((t) => t.tax_amount)).toEqual([Math.floor((net * 19 + 50) / 100)])
        expect(invoiced.line_items.reduce((s, l) => s + l.amount_net, 0) + invoiced.tax_amounts.reduce((s, t) => s + t.tax_amount, 0)).toBe(invoiced.amount_total)
      }),
      { numRuns: 60 }
    )
  })
})
