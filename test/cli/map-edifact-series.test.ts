/**
 * `data-import map` of MSCONS series as archives hold them, through the built CLI: irregular intervals,
 * a gap, an overlap, a quarter-hour twice with different values, a period running backwards or empty
 * (located warnings and rejects); both clock changes in DTM formats 303 and 203 (`ambiguous` in the
 * reader file); an amount whose period spans a supplier change. Fixtures:
 * test/fixtures/market-messages/constructed/series (README.md there names the facts they reproduce).
 */
import { copyFileSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const EXAMPLES = join(ROOT, "examples", "market-messages")
const MAPPING = join(EXAMPLES, "mscons-energy-amounts.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "series")
const dir = tempDir()

/**
 * The example mapping with its reader file changed by `change`, beside a copy of the account table.
 */
const mappingWith = (name: string, change: (reader: Record<string, unknown>) => void): string => {
  const reader = JSON.parse(readFileSync(join(EXAMPLES, "mscons-energy-amounts.reader.json"), "utf8")) as Record<string, unknown>
  change(reader)
  copyFileSync(join(EXAMPLES, "accounts.csv"), join(dir, "accounts.csv"))
  write(dir, `${name}.reader.json`, JSON.stringify(reader))
  const mapping = JSON.parse(readFileSync(MAPPING, "utf8")) as Record<string, unknown>
  return write(dir, `${name}.mapping.json`, JSON.stringify({ ...mapping, reader: `${name}.reader.json` }))
}

const map = async (mapping: string, fixture: string, name: string, extra: ReadonlyArray<string> = []) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const run = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, ...extra, join(FIXTURES, fixture)])
  const payloads = lines(readFileSync(out, "utf8"))
  for (const p of payloads) expect(validatePayload("energy-amount", p).ok).toBe(true)
  return { run, payloads, rejects: lines(readFileSync(rejects, "utf8")) }
}

const amountOf = (payload: Record<string, unknown>): Record<string, string> => payload["energy_amount"] as Record<string, string>

/** The warnings printed on stderr as they come: segment, code, and the rest of the line. */
const printedWarnings = (stderr: string): Array<{ segment: number; code: string; text: string }> =>
  [...stderr.matchAll(/^warning: .*?: message "1" \(#1\), segment (\d+) at byte \d+: ([a-z_]+): (.*)$/gmu)].map((m) => ({ segment: Number(m[1]), code: m[2]!, text: m[3]! }))

// irregular-quarter-hours.edi: UNA … PIA are segments 1–15; the n-th QTY group (0-based) of the first series
// has its QTY at segment 16 + 3n (QTY, DTM+163, DTM+164). Day: 2024-06-10 in Berlin (+02:00).
const qty = (group: number): number => 16 + 3 * group
const SERIES = 'series of location "51238696781", product "1-1:1.29.0": '

describe("map of an irregular quarter-hour series", () => {
  it("names each irregular interval, the gap, both overlaps and the repeat, located; rejects the backwards and the empty period", async () => {
    const { run, payloads, rejects } = await map(MAPPING, "irregular-quarter-hours.edi", "irregular")
    expect(run.code).toBe(1)
    // 94 QTYs in the first series (two of them rejected), 96 in the regular second series.
    expect(run.stderr).toContain("irregular-quarter-hours.edi: 190 rows read = 187 in 187 payloads (energy-amount) + 2 rejected + 1 excluded; 9 warnings")
    const warnings = printedWarnings(run.stderr)
    const resolution = "not the series' resolution of 15 minutes (87 of its 92 intervals in this message)"
    expect(warnings).toEqual([
      { segment: qty(4), code: "irregular_interval", text: `${SERIES}the interval 2024-06-10T01:00:00+02:00 – 2024-06-10T01:14:00+02:00 is 14 minutes long, ${resolution}` },
      { segment: qty(5), code: "irregular_interval", text: `${SERIES}the interval 2024-06-10T01:14:00+02:00 – 2024-06-10T01:30:00+02:00 is 16 minutes long, ${resolution}` },
      { segment: qty(8), code: "irregular_interval", text: `${SERIES}the interval 2024-06-10T02:00:00+02:00 – 2024-06-10T02:25:00+02:00 is 25 minutes long, ${resolution}` },
      { segment: qty(9), code: "irregular_interval", text: `${SERIES}the interval 2024-06-10T02:25:00+02:00 – 2024-06-10T02:30:00+02:00 is 5 minutes long, ${resolution}` },
      { segment: qty(12), code: "irregular_interval", text: `${SERIES}the interval 2024-06-10T03:00:00+02:00 – 2024-06-10T04:15:00+02:00 is 75 minutes long, ${resolution}` },
      // Group 16 is the quarter-hour 05:15; 05:00–05:15 is missing after group 15 (04:45–05:00).
      { segment: qty(16), code: "series_gap", text: `${SERIES}no interval from 2024-06-10T05:00:00+02:00 (the end of segment ${qty(15)}) to 2024-06-10T05:15:00+02:00, the start of this one: a gap of 15 minutes` },
      { segment: qty(20), code: "interval_overlap", text: `${SERIES}the interval 2024-06-10T06:05:00+02:00 – 2024-06-10T06:20:00+02:00 overlaps the interval 2024-06-10T06:00:00+02:00 – 2024-06-10T06:15:00+02:00 (segment ${qty(19)}) by 10 minutes` },
      { segment: qty(21), code: "interval_overlap", text: `${SERIES}the interval 2024-06-10T06:15:00+02:00 – 2024-06-10T06:30:00+02:00 overlaps the interval 2024-06-10T06:05:00+02:00 – 2024-06-10T06:20:00+02:00 (segment ${qty(20)}) by 5 minutes` },
      // Quantities are 1 + n/8 for group n: 4.000 and 4.125.
      { segment: qty(25), code: "repeated_interval", text: `${SERIES}the interval 2024-06-10T07:00:00+02:00 – 2024-06-10T07:15:00+02:00 is sent twice in this message with different values: quantity 4, qualifier 220 (segment ${qty(24)}), then quantity 4.125, qualifier 220 (segment ${qty(25)})` }
    ])
    expect(run.stderr).toContain("warnings by code (9):\n  irregular_interval 5\n  interval_overlap 2\n  repeated_interval 1\n  series_gap 1\n")
    // The backwards (08:30 → 08:15) and the empty (09:15 → 09:15) period: rejected, and no gap around them.
    expect(rejects.map((r) => r["lines"])).toEqual([[qty(30)], [qty(34)]])
    expect(JSON.stringify(rejects[0])).toContain(`irregular-quarter-hours.edi: message \\"1\\" (#1), segment ${qty(30)} at byte `)
    expect(JSON.stringify(rejects[0])).toContain("interval_backwards: the period 2024-06-10T08:30:00+02:00 – 2024-06-10T08:15:00+02:00 ends before it starts (15 minutes earlier)")
    expect(JSON.stringify(rejects[1])).toContain("interval_empty: the period 2024-06-10T09:15:00+02:00 – 2024-06-10T09:15:00+02:00 ends when it starts")
    // Warnings cost nothing: the irregular intervals and the overlapping one go out; of the repeat, the
    // later version (the earlier is superseded, counted as excluded).
    expect(payloads.filter((p) => amountOf(p)["period_start_at"] === "2024-06-10T07:00:00+02:00" && amountOf(p)["product_identifier"] === "1-1:1.29.0").map((p) => amountOf(p)["quantity"])).toEqual(["4.125"])
  })

  it("counts the warnings in --format json and files them in the ledger under the record's account", async () => {
    const ledger = join(dir, "series.ledger")
    const out = join(dir, "json.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", join(dir, "json.rejects.ndjson"), "--format", "json", "--journal", ledger, "--new-ledger", join(FIXTURES, "irregular-quarter-hours.edi")])
    expect(run.code).toBe(1)
    const summary = JSON.parse(run.stdout) as Record<string, unknown>
    expect(summary).toMatchObject({ rowsRead: 190, payloads: 187, rowsRejected: 2, warnings: 9, warningsByCode: { irregular_interval: 5, interval_overlap: 2, repeated_interval: 1, series_gap: 1 } })
    expect((summary["firstWarnings"] as Array<Record<string, unknown>>)[0]).toMatchObject({ line: qty(4), lines: [qty(4)], code: "irregular_interval" })
    const db = new (loadSqlite().DatabaseSync)(ledger, { readOnly: true })
    try {
      const rows = db.prepare("SELECT first_line, code, supplier, account, raw FROM map_warnings ORDER BY first_line").all()
      expect(rows.map((r) => [r["first_line"], r["code"]])).toEqual([
        [qty(4), "irregular_interval"], [qty(5), "irregular_interval"], [qty(8), "irregular_interval"], [qty(9), "irregular_interval"], [qty(12), "irregular_interval"],
        [qty(16), "series_gap"], [qty(20), "interval_overlap"], [qty(21), "interval_overlap"], [qty(25), "repeated_interval"]
      ])
      // accounts.csv: 51238696781 is KD-3003; the supplier is the mapping's constant.
      for (const r of rows) expect([r["supplier"], r["account"]]).toEqual(["STADTWERKE_NORD", "KD-3003"])
      expect(rows[0]!["raw"]).toBe("QTY+220:1.500:KWH'DTM+163:202406092300?+00:303'DTM+164:202406092314?+00:303'")
    } finally {
      db.close()
    }
  })
})

describe("map of both clock changes", () => {
  it("format 303 in UTC: 92 and 100 consecutive quarter-hours, each with Berlin's offset, no warning", async () => {
    const { run, payloads, rejects } = await map(MAPPING, "clock-changes-303.edi", "dst-303")
    expect(run.code).toBe(0)
    expect(run.stderr).not.toContain("warning")
    expect(rejects).toEqual([])
    expect(payloads).toHaveLength(192)
    const periods = payloads.map((p) => [amountOf(p)["period_start_at"], amountOf(p)["period_end_at"]])
    // Spring: 01:45+01:00 is followed by 03:00+02:00 (quarter-hours 7 and 8).
    expect(periods.slice(7, 9)).toEqual([["2024-03-31T01:45:00+01:00", "2024-03-31T03:00:00+02:00"], ["2024-03-31T03:00:00+02:00", "2024-03-31T03:15:00+02:00"]])
    // Autumn (from payload 92): 02:45+02:00 is followed by 02:00+01:00 (quarter-hours 11 and 12).
    expect(periods.slice(92 + 11, 92 + 13)).toEqual([["2024-10-27T02:45:00+02:00", "2024-10-27T02:00:00+01:00"], ["2024-10-27T02:00:00+01:00", "2024-10-27T02:15:00+01:00"]])
    expect(periods[191]).toEqual(["2024-10-27T23:45:00+01:00", "2024-10-28T00:00:00+01:00"])
  })

  it("format 203 without ambiguous: the nine quarter-hours touching the repeated hour are rejected, located", async () => {
    const { run, payloads, rejects } = await map(MAPPING, "clock-changes-203.edi", "dst-203-reject")
    expect(run.code).toBe(1)
    expect(payloads).toHaveLength(183)
    // Message 1 is UNH (3) to PIA (15), 92 QTY groups (16–291) and its UNT (292); message 2's UNH is 293,
    // its first QTY 306; quarter-hours 7 (01:45 → 02:00) to 15 (02:45 → 03:00) are rejected: 8 to 10 are
    // written as 12 to 14 are, and a date left unread names no version, so neither pass supersedes the other.
    expect(rejects.map((r) => r["lines"])).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15].map((n) => [306 + 3 * n]))
    for (const r of rejects) expect(JSON.stringify(r)).toContain("unreadable_time")
  })

  it("format 203 with ambiguous by-order: 100 consecutive quarter-hours in autumn, 92 in spring, no warning", async () => {
    const { run, payloads, rejects } = await map(mappingWith("by-order", (r) => (r["ambiguous"] = "by-order")), "clock-changes-203.edi", "dst-203-by-order")
    expect(run.code).toBe(0)
    expect(run.stderr).not.toContain("warning")
    expect(rejects).toEqual([])
    expect(payloads).toHaveLength(192)
    const periods = payloads.map((p) => [amountOf(p)["period_start_at"], amountOf(p)["period_end_at"]])
    expect(periods.slice(7, 9)).toEqual([["2024-03-31T01:45:00+01:00", "2024-03-31T03:00:00+02:00"], ["2024-03-31T03:00:00+02:00", "2024-03-31T03:15:00+02:00"]])
    expect(periods.slice(92 + 7, 92 + 17)).toEqual([
      ["2024-10-27T01:45:00+02:00", "2024-10-27T02:00:00+02:00"],
      ["2024-10-27T02:00:00+02:00", "2024-10-27T02:15:00+02:00"],
      ["2024-10-27T02:15:00+02:00", "2024-10-27T02:30:00+02:00"],
      ["2024-10-27T02:30:00+02:00", "2024-10-27T02:45:00+02:00"],
      ["2024-10-27T02:45:00+02:00", "2024-10-27T02:00:00+01:00"],
      ["2024-10-27T02:00:00+01:00", "2024-10-27T02:15:00+01:00"],
      ["2024-10-27T02:15:00+01:00", "2024-10-27T02:30:00+01:00"],
      ["2024-10-27T02:30:00+01:00", "2024-10-27T02:45:00+01:00"],
      ["2024-10-27T02:45:00+01:00", "2024-10-27T03:00:00+01:00"],
      ["2024-10-27T03:00:00+01:00", "2024-10-27T03:15:00+01:00"]
    ])
  })

  it("format 203 with ambiguous earlier: the repeat is read as the first hour again, which the series check names", async () => {
    const { run, payloads, rejects } = await map(mappingWith("earlier", (r) => (r["ambiguous"] = "earlier")), "clock-changes-203.edi", "dst-203-earlier")
    expect(run.code).toBe(1)
    // 02:45 → 02:00 both in summer time runs backwards; 02:00, 02:15 and 02:30 of the repeat are the
    // quarter-hours of the first pass again (other values); 02:45+02:00 → 03:00+01:00 is 75 minutes.
    expect(rejects.map((r) => r["lines"])).toEqual([[306 + 3 * 11]])
    expect(JSON.stringify(rejects[0])).toContain("interval_backwards: the period 2024-10-27T02:45:00+02:00 – 2024-10-27T02:00:00+02:00 ends before it starts (45 minutes earlier)")
    expect(payloads).toHaveLength(188)
    expect([...run.stderr.matchAll(/message "2" \(#2\), segment (\d+) at byte \d+: ([a-z_]+):/gu)].map((m) => [Number(m[1]), m[2]])).toEqual([
      [306 + 3 * 12, "repeated_interval"], [306 + 3 * 13, "repeated_interval"], [306 + 3 * 14, "repeated_interval"], [306 + 3 * 15, "irregular_interval"]
    ])
  })

  it("refuses an ambiguous that is none of the converter's", async () => {
    const run = await runCli(["map", "-m", mappingWith("bad-ambiguous", (r) => (r["ambiguous"] = "first")), "-o", join(dir, "never.ndjson"), join(FIXTURES, "clock-changes-203.edi")])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('ambiguous: which instant a DTM of format 203 in the hour the autumn clock change repeats means: "reject", "earlier", "later", "by-order"')
  })
})

describe("map of an amount whose period spans a supplier change", () => {
  // accounts.csv: 51481308448 is KD-1001 until 15 March 2022 (Berlin midnight), KD-2002 from then.
  it("rejects the March amount naming both accounts and the change; the months before and after, and the quarter-hours either side, are booked", async () => {
    const { run, payloads, rejects } = await map(MAPPING, "supplier-change.edi", "change")
    expect(run.code).toBe(1)
    expect(rejects).toHaveLength(1)
    // Message 1: UNH 3 … PIA 15, the March QTY is the second group: segment 19.
    expect(rejects[0]!["lines"]).toEqual([19])
    expect(JSON.stringify(rejects[0])).toContain(
      'account_change_in_period: the period 2022-03-01T00:00:00+01:00 – 2022-04-01T00:00:00+02:00 of location \\"51481308448\\" spans a change of account in the account table on 2022-03-15T00:00:00+01:00: KD-1001 before, KD-2002 from then on'
    )
    expect(payloads.map((p) => [amountOf(p)["period_start_at"], p["external_account_number"]])).toEqual([
      ["2022-02-01T00:00:00+01:00", "KD-1001"],
      ["2022-04-01T00:00:00+02:00", "KD-2002"],
      ["2022-03-14T23:45:00+01:00", "KD-1001"],
      ["2022-03-15T00:00:00+01:00", "KD-2002"]
    ])
    // Months are regular in a series of months: no warning.
    expect(run.stderr).not.toContain("irregular_interval")
  })

  it("books it to the account at its start where the reader file's accounts say acrossChange: start", async () => {
    const mapping = mappingWith("across-start", (r) => ((r["accounts"] as Record<string, unknown>)["acrossChange"] = "start"))
    const { run, payloads, rejects } = await map(mapping, "supplier-change.edi", "change-start")
    expect(run.code).toBe(0)
    expect(rejects).toEqual([])
    expect(payloads.map((p) => p["external_account_number"])).toEqual(["KD-1001", "KD-1001", "KD-2002", "KD-1001", "KD-2002"])
  })

  it("refuses acrossChange without end, and a value it does not know", async () => {
    const noEnd = mappingWith("no-end", (r) => {
      const accounts = r["accounts"] as Record<string, unknown>
      delete accounts["end"]
      accounts["acrossChange"] = "start"
    })
    const run = await runCli(["map", "-m", noEnd, "-o", join(dir, "never.ndjson"), join(FIXTURES, "supplier-change.edi")])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("accounts: acrossChange needs end, the cell with the period's end (DTM+164)")
    const bad = mappingWith("bad-across", (r) => ((r["accounts"] as Record<string, unknown>)["acrossChange"] = "end"))
    const refused = await runCli(["map", "-m", bad, "-o", join(dir, "never.ndjson"), join(FIXTURES, "supplier-change.edi")])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('accounts: acrossChange is "reject"')
  })

  it("BO4E: an Energiemenge whose Verbrauch spans the change is rejected the same way, located at its path", async () => {
    const reader = JSON.parse(readFileSync(join(EXAMPLES, "bo4e-energiemenge.reader.json"), "utf8")) as Record<string, unknown>
    ;(reader["accounts"] as Record<string, unknown>)["table"] = "accounts.csv"
    copyFileSync(join(EXAMPLES, "accounts.csv"), join(dir, "accounts.csv"))
    // The mapping's value tables (messwertstatus, statuses), beside it as in the examples.
    for (const table of ["bo4e-messwertstatus.json", "bo4e-status.json"]) copyFileSync(join(EXAMPLES, table), join(dir, table))
    write(dir, "bo4e-change.reader.json", JSON.stringify(reader))
    const mapping = JSON.parse(readFileSync(join(EXAMPLES, "bo4e-energiemenge.mapping.json"), "utf8")) as Record<string, unknown>
    const mappingPath = write(dir, "bo4e-change.mapping.json", JSON.stringify({ ...mapping, reader: "bo4e-change.reader.json" }))
    const verbrauch = (start: string, end: string, wert: string) => `{"startdatum":"${start}","enddatum":"${end}","obiskennzahl":"1-1:1.9.0","einheit":"KWH","wert":${wert}}`
    const input = write(dir, "change.json", `{"boTyp":"ENERGIEMENGE","lokationsId":"51481308448","energieverbrauch":[${verbrauch("2022-02-28T23:00:00Z", "2022-03-31T22:00:00Z", "10.5")},${verbrauch("2022-03-31T22:00:00Z", "2022-04-30T22:00:00Z", "11.5")}]}`)
    const out = join(dir, "bo4e-change.ndjson")
    const rejectsPath = join(dir, "bo4e-change.rejects.ndjson")
    const run = await runCli(["map", "-m", mappingPath, "-o", out, "-r", rejectsPath, input])
    expect(run.code).toBe(1)
    const rejects = lines(readFileSync(rejectsPath, "utf8"))
    expect(rejects).toHaveLength(1)
    expect(JSON.stringify(rejects[0])).toContain("change.json: document 1 (line 1), energieverbrauch[0]: account_change_in_period: the period 2022-02-28T23:00:00Z – 2022-03-31T22:00:00Z")
    expect(JSON.stringify(rejects[0])).toContain("on 2022-03-15T00:00:00+01:00: KD-1001 before, KD-2002 from then on")
    expect(lines(readFileSync(out, "utf8")).map((p) => p["external_account_number"])).toEqual(["KD-2002"])
  })
})
