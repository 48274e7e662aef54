/**
 * Quantities as EDIFACT writes them (ISO 9735: digits, the decimal mark the UNA names, a leading minus;
 * no thousands separator, no plus sign, no exponent), through the example mapping: a number is taken
 * exactly, with either decimal mark; anything else is a located reject, never a value read some other way.
 */
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingSpec, mapRecords } from "../../src/index.js"
import { mappingColumns } from "../../src/mappers/compile-mapping.js"
import { type QuantityUnits, quantityUnitFinder, unitColumns } from "../../src/readers/edifact/quantity-units.js"
import { type EdifactRecordItem, readEdifactRecords } from "../../src/readers/edifact/records.js"
import { readSegments, type SegmentItem } from "../../src/readers/edifact/segments.js"
import { fixtureBytes } from "./edifact-fixtures.js"

const EXAMPLES = new URL("../../examples/market-messages/", import.meta.url)
const json = (name: string): unknown => JSON.parse(readFileSync(new URL(name, EXAMPLES), "utf8"))
const mapping = defineMapping(json("mscons-energy-amounts.mapping.json") as MappingSpec<"energy-amount">)
const { accounts: _, units, ...reader } = json("mscons-energy-amounts.reader.json") as { record: string; groups: Array<string>; messages: Array<string>; accounts: unknown; units: QuantityUnits }
// The reader file's unit pass, as map runs it: a record gets its unit and quantity cells.
const measure = quantityUnitFinder<unknown>(units)

/** One message with one QTY per value (values written as they go into the segment, released where needed). */
const interchange = (values: ReadonlyArray<string>, decimal: "." | "," | undefined): string => {
  const segments = ["UNH+1+MSCONS:D:04B:UN:2.4c", "BGM+7+MSI1+9", "UNS+D", "NAD+DP", "LOC+172+51238696781", "LIN+1", "PIA+5+1-1?:1.29.1:SRW",
    ...values.flatMap((v) => [`QTY+220:${v}:KWH`, "DTM+163:202210300045?+00:303", "DTM+164:202210300100?+00:303"])]
  return `${decimal === undefined ? "" : `UNA:+${decimal}? '`}UNB+UNOC:3+S:14+R:14+220101:1200+IC1'${segments.join("'")}'UNT+${segments.length + 1}+1'UNZ+1+IC1'`
}

/**
 * Each QTY's outcome, in order: the payload's quantity, or the reject's code (reader or mapping); the
 * same whether the reader makes all cells or only the mapping's (as `map` does).
 */
const outcomes = async (text: string): Promise<Array<string>> => {
  const all = await outcomesWith(text, reader)
  expect(await outcomesWith(text, { ...reader, columns: [...mappingColumns(mapping), ...unitColumns(units)] })).toEqual(all)
  return all
}

const outcomesWith = async (text: string, options: Parameters<typeof readEdifactRecords>[1]): Promise<Array<string>> => {
  const items: Array<EdifactRecordItem> = []
  for await (const item of readEdifactRecords([Buffer.from(text, "latin1")], options)) items.push(item)
  const out: Array<string> = []
  for (const read of items) {
    const item = read.kind === "record" ? measure(read) : read
    if (item.kind === "reject") out.push(`reject ${item.code}`)
    if (item.kind !== "record") continue
    const result = mapRecords(mapping, [{ ...item.record, "@account": "KD-1" }])
    out.push(result.payloads.length === 1 ? (result.payloads[0]!.payload as { energy_amount: { quantity: string } }).energy_amount.quantity : `mapping ${result.rejected[0]!.errors.map((e) => e.code).join(",")}`)
  }
  return out
}

/** The decimal a text means, as a scaled bigint pair, read without the library: `undefined` if not an EDIFACT number. */
const meaning = (text: string, mark: string): string | undefined => {
  const m = /^(-?)([0-9]+)(?:([.,])([0-9]+))?$/u.exec(text)
  if (m === null || (m[3] !== undefined && m[3] !== mark)) return undefined
  const fraction = m[4] ?? ""
  const digits = BigInt(m[2]! + fraction)
  return `${m[1] === "-" && digits !== 0n ? "-" : ""}${digits}e-${fraction.length}`
}

const scaledOf = (quantity: string): string => {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/u.exec(quantity)!
  const fraction = m[3] ?? ""
  const digits = BigInt(m[2]! + fraction)
  return `${m[1] === "-" && digits !== 0n ? "-" : ""}${digits}e-${fraction.length}`
}

describe("EDIFACT quantities through the example mapping", () => {
  it("takes three decimals after either decimal mark as written, not as a thousands grouping", async () => {
    expect(await outcomes(interchange(["12.345", "1.234", "0.5", "-7"], undefined))).toEqual(["12.345", "1.234", "0.5", "-7"])
    expect(await outcomes(interchange(["12,345", "1,234", "4250,465"], ","))).toEqual(["12.345", "1.234", "4250.465"])
    expect(await outcomes(interchange(["123456789012345678901234567890,123456789"], ","))).toEqual(["123456789012345678901234567890.123456789"])
  })

  it("rejects what is not a number in the interchange's notation, at its QTY, instead of reading it another way", async () => {
    // "1,234" in an interchange whose decimal mark is ".": 1.234 or 1234? Neither is guessed.
    const bad = ["1,234", "1,234.5", "1.234,5", "?+5", "1E3", " 5", ".5", "5.", "1 234"]
    expect(await outcomes(interchange(bad, "."))).toEqual(bad.map(() => "reject invalid_number"))
    expect(await outcomes(interchange(["1.234", "1.234,5"], ","))).toEqual(["reject invalid_number", "reject invalid_number"])
    const items: Array<EdifactRecordItem> = []
    for await (const item of readEdifactRecords([interchange(["1", "1,234"], ".")], reader)) items.push(item)
    expect(items[1]).toMatchObject({ kind: "reject", code: "invalid_number", at: { segment: 13, message: 1 }, raw: "QTY+220:1,234:KWH'DTM+163:202210300045?+00:303'DTM+164:202210300100?+00:303'" })
    expect(items[1]!.kind === "reject" && items[1]!.detail).toContain(`QTY.1.2 "1,234"`)
  })

  it("reads the synthetic sample by its UNA's decimal comma: its quantities written with a point are refused", async () => {
    // UNA:+,? ' — the first message writes 4250.465, the second 4250,465: only the second is in the UNA's notation.
    const text = fixtureBytes("synthetic-2.4c-una-comma-two-messages.edi").toString("latin1")
    const written = [...text.matchAll(/^QTY\+220:([^:]+):/gmu)].map((m) => m[1])
    expect(written).toEqual(["4250.465", "4250.465", "4250,465", "4250,465"])
    const items: Array<EdifactRecordItem> = []
    for await (const item of readEdifactRecords([text], { ...reader, segmentCount: "warn" })) items.push(item)
    expect(items.filter((i) => i.kind !== "warning").map((i) => (i.kind === "record" ? i.record["QTY.1.2"] : i.kind === "reject" ? i.code : ""))).toEqual(["invalid_number", "invalid_number", "4250.465", "4250.465"])
  })

  it("refuses a UNA whose decimal mark is neither a point nor a comma, or is also a separator", async () => {
    for (const una of ["UNA:+5? '", "UNA:+x? '", "UNA,+,? '"]) {
      const items: Array<SegmentItem> = []
      for await (const item of readSegments([`${una}QTY+220:15'`])) items.push(item)
      expect(items[0]).toMatchObject({ kind: "problem", code: "invalid_una" })
    }
  })

  it("gives every value exactly what it means, or a reject when it is not an EDIFACT number", async () => {
    const valueArb = fc.array(fc.constantFrom(..."0123456789", "0123456789", ".", ",", "-", "?+", "E", " "), { minLength: 1, maxLength: 30 }).map((cs) => cs.join(""))
    await fc.assert(
      fc.asyncProperty(fc.array(valueArb, { minLength: 1, maxLength: 5 }), fc.constantFrom<"." | "," | undefined>(".", ",", undefined), async (values, decimal) => {
        const got = await outcomes(interchange(values, decimal))
        expect(got).toHaveLength(values.length)
        values.forEach((value, i) => {
          const expected = meaning(value.replaceAll("?+", "+"), decimal ?? ".")
          if (expected === undefined) expect(got[i]).toBe("reject invalid_number")
          else expect(scaledOf(got[i]!)).toBe(expected)
        })
      }),
      { numRuns: 300 }
    )
  })

  it("reads a range's bounds (RNG C280, a PRICAT zone) as numbers with the UNA's decimal mark, or rejects them", async () => {
    const zone = (una: string, rng: string): string =>
      `${una}UNB+UNOC:3+S:500+R:500+240101:1200+IC1'UNH+1+PRICAT:D:20B:UN:2.0c'BGM+Z70+D1'PGI+Z01'LIN+1++A-1:Z09'PRI+CAL:0,5'${rng}'UNT+7+1'UNZ+1+IC1'`
    const read = async (text: string, columns?: ReadonlyArray<string>): Promise<Array<unknown>> => {
      const items: Array<EdifactRecordItem> = []
      const options = { record: "LIN", groups: ["PGI", "LIN"], messages: ["PRICAT:D:20B"], ...(columns !== undefined ? { columns } : {}) }
      for await (const item of readEdifactRecords([text], options)) items.push(item)
      return items.map((i) => (i.kind === "record" ? [i.record["RNG+10.2.2"], i.record["RNG+10.2.3"], i.record["RNG.2.1"]] : i.kind === "reject" ? i.code : i.kind))
    }
    for (const columns of [undefined, ["RNG+10.2.2", "RNG+10.2.3", "RNG.2.1"]]) {
      expect(await read(zone("UNA:+,? '", "RNG+10+KWH:2500,5:50000"), columns)).toEqual([["2500.5", "50000", "KWH"]])
      // A point where the UNA names a comma: 2500.5 or 25005? Not guessed.
      expect(await read(zone("UNA:+,? '", "RNG+10+KWH:2500.5:50000"), columns)).toEqual(["invalid_number"])
    }
  })
})
