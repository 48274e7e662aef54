import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { defineMapping, type MappingSpec, mapRecords } from "../../src/index.js"
import { type QuantityUnits, withQuantityUnits } from "../../src/readers/edifact/quantity-units.js"
import { type EdifactRecord, type EdifactRecordItem, readEdifactRecords } from "../../src/readers/edifact/records.js"
import { readAccountTable, withAccounts } from "../../src/readers/lookup/accounts.js"
import { fixtureBytes } from "./edifact-fixtures.js"

const EXAMPLES = new URL("../../examples/market-messages/", import.meta.url)
const json = (name: string): unknown => JSON.parse(readFileSync(new URL(name, EXAMPLES), "utf8"))
const mapping = defineMapping(json("mscons-energy-amounts.mapping.json") as MappingSpec<"energy-amount">)
const reader = json("mscons-energy-amounts.reader.json") as { record: string; groups: Array<string>; messages: Array<string>; zone: string; units: QuantityUnits }
const { periods } = readAccountTable(readFileSync(new URL("accounts.csv", EXAMPLES), "utf8"))

type EnergyPayload = { external_account_number: string; energy_amount: { malo_number: string; quantity: string; period_start_at: string; period_end_at: string } }

const run = async (bytes: Uint8Array | string, segmentCount: "check" | "warn" = "check") => {
  const items: Array<EdifactRecordItem> = []
  // As map runs the reader file: each quantity's unit, then its account.
  const measured = withQuantityUnits(readEdifactRecords([bytes], { ...reader, segmentCount }), reader.units)
  for await (const item of withAccounts(measured, periods, { location: "LOC+172.2.1", at: "DTM+163", into: "@account" })) items.push(item)
  const records = items.filter((i): i is EdifactRecord => i.kind === "record")
  const result = mapRecords(mapping, records.map((r) => r.record))
  return { items, records, rejects: items.filter((i) => i.kind === "reject"), result }
}

/** Independent reading of the text: per QTY, the location before it and its quantity, scaled to thousandths. */
const independent = (text: string, decimal = ".") => {
  const perMalo = new Map<string, bigint>()
  let malo = ""
  let qtys = 0
  for (const segment of text.split("'")) {
    const s = segment.trim()
    if (s.startsWith("LOC+172+")) malo = s.slice(8).split(/[+:]/u)[0]!
    if (s.startsWith("QTY+")) {
      qtys++
      const [whole, fraction = ""] = s.split(":")[1]!.split(decimal) as [string, string?]
      perMalo.set(malo, (perMalo.get(malo) ?? 0n) + BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, "0")))
    }
  }
  return { perMalo, qtys }
}

const scaled = (quantity: string): bigint => {
  const [whole, fraction = ""] = quantity.split(".") as [string, string?]
  return BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, "0"))
}

describe("MSCONS to energy amounts (examples/market-messages)", () => {
  it("maps every QTY of the real German sample, with exact sums per MaLo, Berlin offsets and lineage", async () => {
    const bytes = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz")
    const text = bytes.toString("latin1")
    const expected = independent(text)
    const { records, rejects, result } = await run(bytes)
    expect(result.rejected).toEqual([])
    // Every QTY in one payload or one reject: the supplier change on 15 March 2022 splits the first MaLo.
    expect(result.payloads.length + rejects.length).toBe(expected.qtys)
    expect(rejects).toEqual([])
    const sums = new Map<string, bigint>()
    for (const { payload } of result.payloads) {
      const p = payload as unknown as EnergyPayload
      sums.set(p.energy_amount.malo_number, (sums.get(p.energy_amount.malo_number) ?? 0n) + scaled(p.energy_amount.quantity))
    }
    expect(sums).toEqual(expected.perMalo)
    for (const { payload, sourceRows } of result.payloads) {
      const p = (payload as unknown as EnergyPayload).energy_amount
      const start = Date.parse(p.period_start_at)
      // Berlin: +01:00 before 27 March 2022 01:00 UTC, +02:00 from then on.
      expect(p.period_start_at.endsWith(start < Date.UTC(2022, 2, 27, 1) ? "+01:00" : "+02:00")).toBe(true)
      expect(Date.parse(p.period_end_at) - start).toBe(15 * 60 * 1000)
      // Lineage: the payload's record points at the QTY segment it came from.
      const record = records[sourceRows[0]!]!
      const segment = text.slice(record.at.offset, text.indexOf("'", record.at.offset))
      expect(segment.startsWith("QTY+")).toBe(true)
      expect(scaled(segment.split(":")[1]!)).toBe(scaled(p.quantity))
      const account = (payload as unknown as EnergyPayload).external_account_number
      expect(account).toBe(p.malo_number === "51481308456" ? "KD-4004" : start < Date.parse("2022-03-14T23:00:00Z") ? "KD-1001" : "KD-2002")
    }
    // The spring-forward day has 92 quarter hours per MaLo (independent: 23 hours × 4).
    const springDay = result.payloads.filter(({ payload }) => (payload as unknown as EnergyPayload).energy_amount.period_start_at.startsWith("2022-03-27"))
    expect(springDay.length).toBe(2 * 23 * 4)
  })

  it("maps the real German sample wrapped at 80 columns to the same payloads as the sample", async () => {
    const text = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz").toString("latin1").trimEnd()
    const lines: Array<string> = []
    for (let i = 9; i < text.length; i += 80) lines.push(text.slice(i, i + 80))
    const wrapped = `${text.slice(0, 9)}\r\n${lines.join("\r\n")}\r\n`
    const plain = await run(text)
    const { result, rejects } = await run(wrapped)
    expect(rejects).toEqual([])
    expect(result.rejected).toEqual([])
    expect(result.payloads.map((p) => p.payload)).toEqual(plain.result.payloads.map((p) => p.payload))
    expect(result.payloads.length).toBe(independent(text).qtys)
  })

  it("maps the Swiss 2.2e sample once its wrong UNT count is let through, and refuses it otherwise", async () => {
    const bytes = fixtureBytes("ch-2019-loadprofile-2.2e-pid13008.edi")
    const expected = independent(bytes.toString("latin1"))
    const strict = await run(bytes)
    expect(strict.rejects.map((r) => r.kind === "reject" && r.code)).toEqual(Array(expected.qtys).fill("segment_count_mismatch"))
    const lenient = await run(bytes, "warn")
    expect(lenient.items.filter((i) => i.kind === "warning").length).toBe(1)
    // Its MaLo is a 33-character Swiss metering point with no account in the table: each QTY is a located reject.
    expect(lenient.rejects.length).toBe(expected.qtys)
    expect(new Set(lenient.rejects.map((r) => r.code))).toEqual(new Set(["no_account_for_location"]))
  })

  it("refuses the old D.99A sample as an unsupported format, each of its QTYs located", async () => {
    const bytes = fixtureBytes("ch-2014-loadprofile-d99a-1.6.edi")
    const { qtys } = independent(bytes.toString("latin1"))
    const { rejects, records } = await run(bytes)
    expect(records).toEqual([])
    expect(rejects.length).toBe(qtys)
    for (const r of rejects) {
      expect(r.code).toBe("unsupported_format")
      expect(r.detail).toContain("unsupported format: MSCONS:D:99A 1.6")
      expect(r.raw.startsWith("QTY+")).toBe(true)
    }
  })

  it("a QTY whose DTM+163 cannot be read is not said to have no account: the time is named as the reason", async () => {
    const message = (start: string) => [
      "UNA:+.? '", "UNB+UNOC:3+4012345678901:14+4012345678901:14+220101:1200+IC1'", "UNH+1+MSCONS:D:04B:UN:2.4c'", "BGM+7+MSI1+9'",
      "UNS+D'", "NAD+DP'", "LOC+172+51238696781'", "LIN+1'", "PIA+5+1-1?:1.29.1:SRW'",
      "QTY+220:1.5:KWH'", `DTM+163:${start}'`, "DTM+164:202210300100?+00:303'", "UNT+11+1'", "UNZ+1+IC1'"
    ].join("")
    const readable = await run(message("202210300045?+00:303"))
    expect(readable.records.map((r) => r.record["@account"])).toEqual(["KD-3003"])
    // 02:30 on 30 October 2022 is a wall time the clock change repeats in Berlin: the reader leaves it as written.
    for (const start of ["202210300230:203", "202202302300?+00:303"]) {
      const { rejects } = await run(message(start))
      expect(rejects).toHaveLength(1)
      const reject = rejects[0]!
      expect(reject.kind === "reject" && reject.code).toBe("unreadable_time")
      expect(reject.kind === "reject" && reject.detail).toContain(`DTM+163 ${JSON.stringify(start.split(":")[0]!.replace("?", ""))} is not a date-time`)
    }
  })

  const damaged = (change: (message2: string) => string, where: 1 | 2): string => {
    const text = fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz").toString("latin1")
    const cut = text.indexOf("UNH+", text.indexOf("UNH+") + 1)
    return where === 2 ? text.slice(0, cut) + change(text.slice(cut)) : change(text.slice(0, cut)) + text.slice(cut)
  }

  it.each([
    ["truncated", (m: string) => m.slice(0, m.length / 2), 2, "truncated"],
    ["wrong UNT count", (m: string) => m.replace(/UNT\+\d+/u, "UNT+7"), 1, "segment_count_mismatch"],
    ["bad release character", (m: string) => m.replace("PIA+5+AUA:Z08", "PIA+5+AUA?Z08"), 1, "invalid_release"]
  ] as const)("a copy with a %s message loses that message only", async (_, change, where, code) => {
    const text = damaged(change, where)
    const whole = independent(fixtureBytes("de-2024-redispatch-2.4b-two-malos.edi.gz").toString("latin1"))
    const { rejects, result } = await run(text)
    const messages = text.split(/(?=UNH\+)/u).slice(1)
    const kept = independent(messages[where === 1 ? 1 : 0]!)
    const lost = independent(messages[where - 1]!)
    expect(result.payloads.length).toBe(kept.qtys)
    expect(rejects.length).toBe(lost.qtys)
    expect(kept.qtys + lost.qtys).toBe(where === 2 ? independent(text).qtys : whole.qtys)
    for (const r of rejects) expect(r.kind === "reject" && r.code).toBe(code)
    // Each reject names its message and its QTY segment.
    for (const r of rejects) expect(r.at.message).toBe(where)
  })
})
