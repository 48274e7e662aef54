/**
 * UTILTS → time definitions (`market-participant-definitions`), through the built CLI, with the example
 * mapping `examples/market-messages/utilts-market-participant-definitions.{mapping,reader}.json` on the
 * constructed interchanges of test/fixtures/market-messages/constructed/utilts (UTILTS MIG 1.1e, AHB 1.0;
 * their README names the facts each reproduces). Every expected payload is worked out by hand from the
 * fixture: a 25004 overview gives one payload with its definitions and their registers, a 25005 rolled-out
 * definition one with its entries, each entry ending where the next begins and the last at the end of the
 * validity. Instants are Berlin wall times with their offsets, across both clock changes of 2025.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const MAPPING = join(ROOT, "examples", "market-messages", "utilts-market-participant-definitions.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "utilts")
const ORDINARY = join(FIXTURES, "ordinary-25004-25005.edi")
const REPLACEMENT = join(FIXTURES, "replacement-25004.edi")
const DAMAGED = join(FIXTURES, "damaged-beside-intact.edi")
const OTHER = join(FIXTURES, "other-kinds.edi")
const NOT_A_DAY = join(FIXTURES, "one-transaction-not-at-day-start.edi")
const MAKO = join(ROOT, "test", "fixtures", "market-messages", "mako-utilts-pid_25006.edi")

const lines = (text: string): Array<Record<string, unknown>> => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

/** Maps `inputs` into fresh output, rejects, excluded and lineage files. */
const map = async (name: string, inputs: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const excluded = join(dir, `${name}.excluded.ndjson`)
  const lineage = join(dir, `${name}.lineage.ndjson`)
  const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, "--lineage", lineage, ...extra, ...inputs])
  return {
    run,
    out,
    payloads: lines(readFileSync(out, "utf8")),
    rejects: lines(readFileSync(rejects, "utf8")),
    excluded: lines(readFileSync(excluded, "utf8")),
    lineage: lines(readFileSync(lineage, "utf8"))
  }
}

const NB = "9900123456789"

/** M1 of the ordinary interchange: the overview of 25004, valid from 1 January 2025 (DTM+157 202412312300 UTC). */
const OVERVIEW = {
  network_operator_code: NB,
  definitions: [
    {
      valid_from: "2025-01-01",
      version_datetime: "2024-12-15T10:55:30+01:00", // DTM+293 20241215095530 UTC, format 304
      status: "Z45", // STS+Z36+Z45: definitions are used
      definition_type: "ZAEHLZEIT",
      definition_code: "HTNT",
      transmission_frequency: "Z34", // CAV+ZE0 Z34: rolled out every year
      registers: [
        { register_code: "HT", low_load_capable: false }, // CCI+Z10 Z59
        { register_code: "NT", low_load_capable: true } // CCI+Z10 Z60
      ]
    },
    {
      valid_from: "2025-01-01",
      version_datetime: "2024-12-15T10:55:30+01:00",
      status: "Z45",
      definition_type: "ZAEHLZEIT",
      definition_code: "WP01",
      transmission_frequency: "Z33", // rolled out once
      registers: [
        { register_code: "WP", low_load_capable: true },
        { register_code: "NWP", low_load_capable: false }
      ]
    }
  ]
}

/**
 * M2: the rolled-out HTNT of 2025. The change times are UTC in the message (DTM+Z33 format 303); Berlin
 * is +01:00 until 30 March 01:00 UTC, +02:00 until 26 October 01:00 UTC, then +01:00 again.
 */
const ROLLED_OUT = {
  network_operator_code: NB,
  rolled_out_definitions: [
    {
      definition_type: "ZAEHLZEIT",
      definition_code: "HTNT", // LOC+Z09
      version_datetime: "2024-12-15T10:55:30+01:00",
      validity_period_start: "2025-01-01T00:00:00+01:00", // DTM+Z34 202412312300 UTC
      validity_period_end: "2026-01-01T00:00:00+01:00", // DTM+Z35 202512312300 UTC
      entries: [
        { period_start: "2025-01-01T00:00:00+01:00", period_end: "2025-03-30T01:00:00+01:00", active_register_code: "NT" },
        // 00:00 and 02:00 UTC on the day of the spring change: two hours, 01:00 CET to 04:00 CEST.
        { period_start: "2025-03-30T01:00:00+01:00", period_end: "2025-03-30T04:00:00+02:00", active_register_code: "HT" },
        { period_start: "2025-03-30T04:00:00+02:00", period_end: "2025-10-26T02:00:00+02:00", active_register_code: "NT" },
        // 00:00 and 01:00 UTC on the day of the autumn change: the first 02:00 to the second, one hour.
        { period_start: "2025-10-26T02:00:00+02:00", period_end: "2025-10-26T02:00:00+01:00", active_register_code: "HT" },
        { period_start: "2025-10-26T02:00:00+01:00", period_end: "2026-01-01T00:00:00+01:00", active_register_code: "NT" }
      ]
    }
  ]
}

/** The replacing overview of 10 January 2025: HTNT again, same validity, a later version, a third register. */
const REPLACING = {
  network_operator_code: NB,
  definitions: [
    {
      valid_from: "2025-01-01",
      version_datetime: "2025-01-10T09:00:00+01:00", // DTM+293 20250110080000 UTC
      status: "Z45",
      definition_type: "ZAEHLZEIT",
      definition_code: "HTNT",
      transmission_frequency: "Z34",
      registers: [
        { register_code: "HT", low_load_capable: false },
        { register_code: "NT", low_load_capable: true },
        { register_code: "SLT", low_load_capable: true }
      ]
    }
  ]
}

const instant = (iso: string): number => Date.parse(iso)

describe("map of UTILTS time definitions (25004, 25005)", () => {
  it("maps an overview with its registers and a rolled-out definition with its entries, each payload valid", async () => {
    const { run, out, payloads, rejects, excluded, lineage } = await map("ordinary", [ORDINARY])
    expect(run.code).toBe(0)
    expect(payloads).toEqual([OVERVIEW, ROLLED_OUT])
    expect(rejects).toEqual([])
    expect(excluded).toEqual([])
    // One segment a line (UNA is line 1): the definitions' SEQ+Z42 at 13 and 20, the registers' SEQ+Z41 at
    // 27, 31, 35, 39; the entries' SEQ+Z43 at 55, 58, 61, 64, 67.
    expect(lineage.map((l) => l["lines"])).toEqual([[13, 20, 27, 31, 35, 39], [55, 58, 61, 64, 67]])
    expect(run.stderr).toContain(`${ORDINARY}: 11 rows read = 11 in 2 payloads (market-participant-definitions) + 0 rejected`)
    const validate = await runCli(["validate", "-e", "market-participant-definitions", out])
    expect(validate.code).toBe(0)
    expect(validate.stdout).toContain("records 2  valid 2  invalid 0")
  })

  it("entries tile the validity without gap or overlap: 365 days of 2025, 8,760 hours across both changes", async () => {
    // A check that owes nothing to the mapping: the entries' lengths, by instant, add up to the validity's,
    // and each entry begins where the one before ends.
    const { payloads } = await map("tiling", [ORDINARY])
    const rolled = (payloads[1]!["rolled_out_definitions"] as Array<Record<string, unknown>>)[0]!
    const entries = rolled["entries"] as Array<{ period_start: string; period_end: string }>
    const hours = entries.reduce((sum, e) => sum + (instant(e.period_end) - instant(e.period_start)) / 3_600_000, 0)
    expect(hours).toBe(8760)
    expect(instant(rolled["validity_period_end"] as string) - instant(rolled["validity_period_start"] as string)).toBe(8760 * 3_600_000)
    entries.slice(1).forEach((e, i) => expect(instant(e.period_start)).toBe(instant(entries[i]!.period_end)))
    expect(entries.map((e) => (instant(e.period_end) - instant(e.period_start)) / 3_600_000).slice(1, 4)).toEqual([2, 5038, 1])
  })

  it("a replaced overview (same code and validity, a later version time) is a payload of its own with its version", async () => {
    // Decision: versions are kept, not chosen: each overview is a document with its version time, as the
    // API's version_datetime holds it; the ledger's natural key makes the later one a listed conflict.
    const { run, payloads, rejects } = await map("replacement", [ORDINARY, REPLACEMENT])
    expect(run.code).toBe(0)
    expect(payloads).toEqual([OVERVIEW, ROLLED_OUT, REPLACING])
    expect(rejects).toEqual([])
  })

  it("the same messages again in a second interchange of the file are refused as duplicates, never merged", async () => {
    // Both interchanges' messages are M1 and M2 with the same BGM numbers: grouped by interchange too, each
    // message is its own document, and the repeat an identical payload.
    const text = readFileSync(ORDINARY, "latin1")
    const again = text.slice(text.indexOf("UNB")).replaceAll("UT-0001", "UT-0009")
    const file = write(dir, "twice.edi", text + again)
    const { run, payloads, rejects } = await map("twice", [file])
    expect(run.code).toBe(1)
    expect(payloads).toEqual([OVERVIEW, ROLLED_OUT])
    // The second interchange's UNB is line 72, 70 lines after the first's (line 2): its SEQs 70 lines later.
    expect(rejects.map((r) => [r["lines"], (r["errors"] as Array<{ code: string }>)[0]!.code])).toEqual([
      [[83, 90, 97, 101, 105, 109], "duplicate_payload"],
      [[125, 128, 131, 134, 137], "duplicate_payload"]
    ])
  })

  it("a register naming no definition of its overview, or without its low-load capability, fails the overview whole", async () => {
    const text = readFileSync(ORDINARY, "latin1")
    // WP01's registers (SEQ+Z41 at 35 and 39) name "WP1": a definitions item of their own, without a code.
    const typo = await map("typo", [write(dir, "typo.edi", text.replaceAll("RFF+Z27:WP01", "RFF+Z27:WP1"))])
    expect(typo.payloads).toEqual([ROLLED_OUT])
    expect(typo.rejects.map((r) => [r["lines"], (r["errors"] as Array<{ code: string; attr?: string }>).map((e) => [e.attr, e.code])])).toEqual([
      [[13, 20, 27, 31], [[undefined, "document_incomplete"]]],
      [[35, 39], [["definitions.2.definition_code", "required"]]]
    ])
    // A register without CCI+Z10 (allowed where the sender is not the grid operator): never false by default.
    const noCapability = await map("no-capability", [write(dir, "no-capability.edi", text.replace("CCI+Z38++NT'\nCCI+Z10++Z60'\n", "CCI+Z38++NT'\n").replace("UNT+41+M1'", "UNT+40+M1'"))])
    expect(noCapability.payloads).toEqual([ROLLED_OUT])
    const failing = noCapability.rejects.find((r) => (r["errors"] as Array<{ code: string }>)[0]!.code !== "document_incomplete")!
    // The register fails its definition (HTNT: SEQ+Z42 at 13, its registers at 27 and 31), and the
    // definition its overview: the rest is document_incomplete.
    expect(failing["lines"]).toEqual([13, 27, 31])
    expect(failing["errors"]).toMatchObject([{ attr: "definitions.0.registers.1.low_load_capable", code: "required" }])
  })

  it("a damaged message costs only itself; the intact one beside it, under a decimal comma, gives the same payload", async () => {
    const { run, payloads, rejects } = await map("damaged", [DAMAGED])
    expect(run.code).toBe(1)
    // The intact 25004 equals the ordinary file's, whose UNA names the point: no number in either.
    expect(payloads).toEqual([OVERVIEW])
    // Message 1's record segments (its IDE at 8, its SEQ+Z43 at 14, 17, 20, 23, 26) are rejected with it:
    // "?T" releases an ordinary character in its RFF+Z28 at lines 19 and 25.
    expect(rejects.map((r) => r["lines"])).toEqual([[8], [14], [17], [20], [23], [26]])
    const detailOf = (r: Record<string, unknown>): string => (r["errors"] as Array<{ detail: string }>)[0]!.detail
    for (const r of rejects) expect(detailOf(r)).toContain(`${DAMAGED}: message "1" (#1), segment ${(r["lines"] as Array<number>)[0]!} at byte `)
    for (const r of rejects) expect(detailOf(r)).toContain(`invalid_release: the release character "?" at byte ${readFileSync(DAMAGED, "latin1").indexOf("?T")} precedes an ordinary character`)
    expect(run.stderr).toContain(`${DAMAGED}: 12 rows read = 6 in 1 payload (market-participant-definitions) + 6 rejected`)
  })

  it("an overview is whole or not at all: a transaction whose validity is no day's start rejects the whole message", async () => {
    const { run, payloads, rejects } = await map("not-a-day", [NOT_A_DAY])
    expect(run.code).toBe(1)
    // M2: one definition HTNT, valid from DTM+157 202503312200 UTC = 1 April 2025 00:00 in Berlin (summer
    // time), version time DTM+293 20250301095530 UTC = 10:55:30 in Berlin (winter time).
    expect(payloads).toEqual([{
      network_operator_code: NB,
      definitions: [{
        valid_from: "2025-04-01",
        version_datetime: "2025-03-01T10:55:30+01:00",
        status: "Z45",
        definition_type: "ZAEHLZEIT",
        definition_code: "HTNT",
        transmission_frequency: "Z34",
        registers: [{ register_code: "HT", low_load_capable: false }, { register_code: "NT", low_load_capable: true }]
      }]
    }])
    // M1's second transaction (IDE at 28) is valid from 202503311200 UTC, 14:00 in Berlin: its definition
    // (SEQ+Z42 at 33) and registers (SEQ+Z41 at 40, 44) are refused for it, and with them the first
    // transaction's (13, 20, 24), which alone would be an overview short of a definition.
    expect(rejects.map((r) => r["lines"])).toEqual([[13], [20], [24], [33], [40], [44]])
    const detailOf = (r: Record<string, unknown>): string => (r["errors"] as Array<{ detail: string }>)[0]!.detail
    for (const r of rejects.slice(0, 3)) expect(detailOf(r)).toContain("document_incomplete: the message is one document, and its segment 33 was rejected (not_a_day_start)")
    for (const r of rejects.slice(3)) expect(detailOf(r)).toContain('not_a_day_start: DTM+157 "2025-03-31T14:00:00+02:00" is not the start of a day')
    expect(run.stderr).toContain(`${NOT_A_DAY}: 9 rows read = 3 in 1 payload (market-participant-definitions) + 6 rejected`)
  })

  it("other kinds: a Schaltzeit overview is a listed skip by PID; no definitions and a daily pattern are located rejects", async () => {
    const { run, payloads, rejects, excluded } = await map("other", [OTHER])
    expect(run.code).toBe(1)
    expect(payloads).toEqual([])
    // S1's transaction holds a definition (SEQ+Z69 at 13): the definition is the record, skipped by its PID.
    expect(excluded.map((e) => [e["lines"], e["outcome"], e["reason"]])).toEqual([[[13], "skipped", "PID 25006"]])
    expect(excluded[0]!["detail"]).toContain("PID 25006 (Übermittlung Übersicht Schaltzeitdefinitionen) is not among the PIDs the reader file takes (25004, 25005)")
    // S2 (STS+Z36+Z46: definitions not used) has no SEQ: its transaction (IDE at 23) is the record, and
    // carries no definition the API could take.
    // S3, a 25005 with times of day (DTM+Z33 format 401, a once-sent definition): the API's entries are
    // instants, so the whole rolled-out definition is refused, naming its rows and the cell.
    expect(rejects.map((r) => r["lines"])).toEqual([[23], [40, 43, 46]])
    expect((rejects[0]!["errors"] as Array<Record<string, unknown>>)[0]).toMatchObject({ code: "unmatched_row" })
    expect((rejects[1]!["errors"] as Array<Record<string, unknown>>)[0]).toMatchObject({ attr: "rolled_out_definitions.0.entries.0.period_start", code: "invalid", column: "DTM+Z33", cell: "0000" })
    expect(run.stderr).toContain(`${OTHER}: 5 rows read = 0 in 0 payloads (market-participant-definitions) + 4 rejected + 1 excluded`)
  })

  it("the synthetic 25006 of hupe1980/mako (a transaction without SEQ) is a listed skip by its PID", async () => {
    const { run, payloads, rejects, excluded } = await map("mako", [MAKO], ["--allow-empty"])
    expect(run.code).toBe(0)
    expect(payloads).toEqual([])
    expect(rejects).toEqual([])
    // One segment a line: its IDE+24 is line 7 (UNB is line 1, no UNA).
    expect(excluded.map((e) => [e["lines"], e["outcome"], e["reason"]])).toEqual([[[7], "skipped", "PID 25006"]])
    expect(excluded[0]!["raw"]).toBe("IDE+24+Vorgang001'STS+Z23+Z04+25006'RFF+Z13:25006'")
    expect(run.stderr).toContain(`${MAKO}: 1 row read = 0 in 0 payloads (market-participant-definitions) + 0 rejected + 1 excluded`)
  })

  it("a reader file whose derived cells are not usable is refused before anything is read", async () => {
    const reader = write(dir, "bad.reader.json", JSON.stringify({
      source: "edifact",
      record: ["IDE", "SEQ"],
      groups: ["IDE", "SEQ"],
      detail: "UNH",
      messages: ["UTILTS:D:18A"],
      cells: { definition: { first: ["CCI+Z39.3.1"] }, "@end": { next: "DTM+Z33", until: "DTM+Z35" } }
    }))
    const mapping = write(dir, "bad.mapping.json", JSON.stringify({ ...JSON.parse(readFileSync(MAPPING, "utf8")) as object, reader }))
    const run = await runCli(["map", "-m", mapping, "-o", join(dir, "bad.ndjson"), ORDINARY])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`cells: "definition": a derived cell's name starts with "@"`)
    expect(run.stderr).toContain(`cells: "@end": unknown key "until" (known: next, within, last)`)
  })

  it("property: a rolled-out definition of N change times is one payload of N entries, each ending where the next begins", async () => {
    // Hours into 2025 (UTC), distinct and sorted, the first at the validity's start: each an entry.
    const arbitrary = fc.uniqueArray(fc.integer({ min: 1, max: 8759 }), { minLength: 0, maxLength: 12 }).map((hours) => [0, ...hours.sort((a, b) => a - b)])
    await fc.assert(
      fc.asyncProperty(arbitrary, async (hours) => {
        const utc = (h: number) => new Date(Date.UTC(2024, 11, 31, 23) + h * 3_600_000).toISOString()
        const dtm = (h: number) => utc(h).replace(/[-:T]/gu, "").slice(0, 12)
        const body = [
          "BGM+Z59+AZD-P'", "DTM+137:202412151000?+00:303'", `NAD+MS+${NB}::293'`, "NAD+MR+9912345678901::293'",
          "IDE+24+VG-P'", "LOC+Z09+HTNT'", "DTM+Z34:202412312300?+00:303'", "DTM+Z35:202512312300?+00:303'",
          "DTM+293:20241215095530?+00:304'", "RFF+Z13:25005'",
          ...hours.flatMap((h, i) => ["SEQ+Z43'", `DTM+Z33:${dtm(h)}?+00:303'`, `RFF+Z28:${i % 2 === 0 ? "NT" : "HT"}'`])
        ]
        const text = ["UNA:+.? '", `UNB+UNOC:3+${NB}:500+9912345678901:500+241215:1100+P1'`, "UNH+1+UTILTS:D:18A:UN:1.1e'", ...body, `UNT+${body.length + 2}+1'`, "UNZ+1+P1'"].join("\n")
        const file = write(dir, "property.edi", text)
        const { run, payloads } = await map("property", [file])
        expect(run.code).toBe(0)
        expect(payloads).toHaveLength(1)
        const entries = ((payloads[0]!["rolled_out_definitions"] as Array<Record<string, unknown>>)[0]!["entries"]) as Array<{ period_start: string; period_end: string; active_register_code: string }>
        expect(entries.map((e) => instant(e.period_start))).toEqual(hours.map((h) => instant(utc(h))))
        expect(entries.map((e) => instant(e.period_end))).toEqual([...hours.slice(1).map((h) => instant(utc(h))), instant("2026-01-01T00:00:00+01:00")])
        expect(entries.map((e) => e.active_register_code)).toEqual(hours.map((_, i) => (i % 2 === 0 ? "NT" : "HT")))
      }),
      { numRuns: 8 }
    )
  })
})
