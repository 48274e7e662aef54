/**
 * The PRICAT example (examples/market-messages/pricat-market-participant-fees.{mapping,reader}.json) on
 * generated price catalogues: a message with N articles is one price sheet with N article prices, each
 * price in cents exactly, whichever decimal mark the UNA names; or, where one article cannot be an article
 * price, the sheet is rejected whole, never sent with the others alone.
 */
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingSpec, mapRecords } from "../../src/index.js"
import { type EdifactRecord, type EdifactRecordItem, type EdifactRecordOptions, readEdifactRecords } from "../../src/readers/edifact/records.js"

const EXAMPLES = new URL("../../examples/market-messages/", import.meta.url)
const json = (name: string): unknown => JSON.parse(readFileSync(new URL(name, EXAMPLES), "utf8"))
const mapping = defineMapping(json("pricat-market-participant-fees.mapping.json") as MappingSpec<"market-participant-fees">)
const { pids: _, ...reader } = json("pricat-market-participant-fees.reader.json") as EdifactRecordOptions & { pids: Array<string> }

interface Article {
  readonly id: string
  /** The price's digits before and after the point (`undefined`: no PRI, an article without a price). */
  readonly price: { readonly whole: string; readonly fraction: string } | undefined
}

/** One PRICAT 27003 message of the given articles, with `mark` as the UNA's decimal mark. */
const interchange = (articles: ReadonlyArray<Article>, mark: "." | ","): string => {
  const segments = [
    "UNH+M1+PRICAT:D:20B:UN:2.0c", "BGM+Z64+DOC-1", "DTM+137:202312150930?+00:303", "DTM+157:202312312300?+00:303", "RFF+Z13:27003",
    "NAD+MR+9900456000001::293", "NAD+MS+9900123000003::293", "CUX+2:EUR:8", "PGI+9",
    ...articles.flatMap((a, i) => [`LIN+${i + 1}++${a.id}:Z09`, ...(a.price === undefined ? [] : [`PRI+CAL:${a.price.whole}${a.price.fraction === "" ? "" : mark + a.price.fraction}`])])
  ]
  return `UNA:+${mark}? 'UNB+UNOC:3+9900123000003:500+9900456000001:500+231215:0930+IC1'${segments.join("'")}'UNT+${segments.length + 1}+M1'UNZ+1+IC1'`
}

/** The cents of a price, worked out on its digits: the point moved two places, leading zeros dropped. */
const centsOf = ({ whole, fraction }: { readonly whole: string; readonly fraction: string }): string => {
  const digits = whole + fraction.padEnd(2, "0")
  const intPart = digits.slice(0, whole.length + 2).replace(/^0+(?=[0-9])/u, "")
  const rest = digits.slice(whole.length + 2)
  return rest === "" ? intPart : `${intPart}.${rest}`
}

const run = async (text: string) => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([text], reader)) items.push(item)
  const records = items.filter((i): i is EdifactRecord => i.kind === "record")
  return { items, result: mapRecords(mapping, records.map((r) => r.record)) }
}

const articleArb: fc.Arbitrary<Article> = fc.record({
  id: fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 999 }))
    .map(([a, b, c, d]) => `${a}-${String(b).padStart(2, "0")}-${c}-${String(d).padStart(3, "0")}`),
  price: fc.record({
    whole: fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9][0-9]{0,7}$/u)),
    // Up to 11 decimals (AHB format [946]).
    fraction: fc.stringMatching(/^[0-9]{0,11}$/u)
  })
})

describe("PRICAT example mapping on generated price catalogues", () => {
  it("a message with N priced articles is one price sheet with N article prices, each exactly its cents, with either decimal mark", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(articleArb, { minLength: 1, maxLength: 12 }), fc.constantFrom<"." | ",">(".", ","), async (articles, mark) => {
        const { items, result } = await run(interchange(articles, mark))
        expect(items.every((i) => i.kind === "record")).toBe(true)
        expect(result.rejected).toEqual([])
        expect(result.payloads.length).toBe(1)
        const sheets = result.payloads[0]!.payload.price_sheets
        expect(sheets.length).toBe(1)
        expect(sheets[0]!.document_number).toBe("DOC-1")
        expect(sheets[0]!.article_prices).toEqual(articles.map((a) => ({ article_id: a.id, price_cents: centsOf(a.price!) })))
      }),
      { numRuns: 100 }
    )
  })

  it("an article without a price rejects its sheet whole: every row of it, none in a payload", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(articleArb, { minLength: 1, maxLength: 8 }), fc.nat(), async (articles, pick) => {
        const without = articles.map((a, i) => (i === pick % articles.length ? { ...a, price: undefined } : a))
        const { result } = await run(interchange(without, "."))
        expect(result.payloads).toEqual([])
        // The BGM's row and one row per LIN.
        expect(result.rejected.flatMap((r) => r.sourceRows).sort((a, b) => a - b)).toEqual([0, ...without.map((_, i) => i + 1)])
      }),
      { numRuns: 50 }
    )
  })
})
