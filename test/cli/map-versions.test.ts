/**
 * `data-import map` of MSCONS with re-sends, corrections and cancellations, through the built CLI and the
 * example mapping: the latest version of each quarter-hour is the one payload, across the files of one
 * run and across runs through the campaign's ledger. Fixtures and the expectations worked out by hand:
 * test/fixtures/market-messages/constructed/versions/README.md.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { loadSqlite } from "../../src/ledger/sqlite.js"
import { ROOT, runCli, tempDir } from "./run-cli.js"

const MAPPING = join(ROOT, "examples", "market-messages", "mscons-energy-amounts.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "versions")
const A = join(FIXTURES, "a-preliminary.edi")
const B = join(FIXTURES, "b-corrections.edi")
const C = join(FIXTURES, "c-cancellations.edi")
const D = join(FIXTURES, "d-cancelled.edi")
const dir = tempDir()

const lines = (text: string): Array<Record<string, unknown>> => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

type Amount = Record<string, string>
const amounts = (path: string): Array<Amount> => lines(readFileSync(path, "utf8")).map((p) => {
  expect(validatePayload("energy-amount", p).ok).toBe(true)
  return p["energy_amount"] as Amount
})

/** Sums of quantities per MaLo and OBIS, in thousandths (exact). */
const sums = (list: ReadonlyArray<Amount>): Record<string, number> => {
  const out: Record<string, number> = {}
  for (const a of list) {
    const key = `${a["malo_number"]} ${a["product_identifier"]}`
    out[key] = (out[key] ?? 0) + Math.round(Number(a["quantity"]) * 1000)
  }
  return out
}

/** A payload as (start, quantity, qualifier, document), enough to tell versions apart. */
const brief = (a: Amount): string => `${a["malo_number"]} ${a["period_start_at"]} ${a["quantity"]} ${a["qualifier"]} ${a["edifact_reference_number"]}`

/** The latest versions, worked out by hand (README of the fixtures). */
const LATEST = [
  "51238696781 2024-03-01T01:00:00+01:00 1.300 67 DOC-C",
  "51238696781 2024-03-01T01:15:00+01:00 1.450 220 DOC-C",
  "51238696781 2024-03-01T01:30:00+01:00 1.750 Z18 DOC-C",
  "51238696781 2024-03-01T01:45:00+01:00 2.000 Z18 DOC-A",
  "51481308456 2024-03-01T01:00:00+01:00 0.500 220 DOC-D",
  "51481308456 2024-03-01T01:15:00+01:00 0.750 220 DOC-D"
]

describe("map of MSCONS with re-sends, corrections and cancellations", () => {
  it("maps the latest version of each quarter-hour once, across the files of one run, whatever their order", async () => {
    for (const [name, inputs] of [["in-order", [A, B, C, D]], ["reversed", [D, C, B, A]]] as const) {
      const out = join(dir, `${name}.ndjson`)
      const rejects = join(dir, `${name}.rejects.ndjson`)
      const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, ...inputs])
      expect(run.code).toBe(0)
      const mapped = amounts(out)
      expect(mapped.map(brief).sort()).toEqual([...LATEST].sort())
      // No QTY writes a unit: each is kWh from its OBIS code.
      expect(mapped.every((a) => a["quantity_unit"] === "KWH")).toBe(true)
      // The correction carries its reason; the sums are those of the latest versions (6.5 and 1.25 kWh).
      expect(mapped.find((a) => a["quantity"] === "1.450")!["correction_reason"]).toBe("Z74")
      expect(sums(mapped)).toEqual({ "51238696781 1-1:1.29.0": 6500, "51481308456 1-1:1.29.0": 1250 })
      expect(readFileSync(rejects, "utf8")).toBe("")
      // Each file's rows: 6 of a (1 payload, 5 superseded), 5 of b, none of c (its cancellations), 2 of d (cancelled).
      expect(run.stderr).toContain(`${A}: 6 rows read = 1 in 1 payload (energy-amount) + 0 rejected + 5 excluded`)
      expect(run.stderr).toContain(`${B}: 5 rows read = 5 in 5 payloads (energy-amount) + 0 rejected\n`)
      expect(run.stderr).toContain(`${D}: 2 rows read = 0 in 0 payloads (energy-amount) + 0 rejected + 2 excluded`)
      expect(run.stderr).not.toContain(`no rows in ${C}`)
      // The orphan cancellation is a warning at its RFF+ACW.
      const warnings = run.stderr.split("\n").filter((l) => l.startsWith("warning: "))
      expect(warnings).toEqual([
        `warning: ${C}: message "2" (#2), segment 16 at byte 341: orphan_cancellation: the cancellation (BGM "STORNO-2", DTM+137 2024-03-06T07:00:00+01:00) names document "DOC-X" of sender "9900000000003", which is in no input of this run: nothing is cancelled`
      ])
    }
  })

  it("reads the interchanges from stdin once, and maps the same latest versions as from the files", async () => {
    const out = join(dir, "stdin.ndjson")
    const stdin = Buffer.concat([A, B, C, D].map((f) => readFileSync(f)))
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-"], { stdin })
    expect(run.code).toBe(0)
    expect(amounts(out).map(brief).sort()).toEqual([...LATEST].sort())
    // 6 + 5 + 2 QTYs of a, b and d: 6 payloads, the other 7 superseded or cancelled.
    expect(run.stderr).toContain("-: 13 rows read = 6 in 6 payloads (energy-amount) + 0 rejected + 7 excluded")
  })

  it("a latest version refused before its verdict (an unknown OBIS without a unit) is still named by the earlier one read after it", async () => {
    // The later DTM+137 comes first, without a unit for an OBIS code the table lacks; the earlier, with
    // its unit, comes after it in the run. A run without a ledger holds a latest version's raw text only
    // once a loser names it: the refused one must still be there to be named.
    const interchange = (ref: string, dated: string, qty: string) =>
      `UNA:+,? 'UNB+UNOC:3+9900000000003:500+9900000000010:500+240302:0600+${ref}'UNH+1+MSCONS:D:04B:UN:2.4c'BGM+Z48+DOC-${ref}+9'` +
      `DTM+137:${dated}?+00:303'RFF+Z13:13025'NAD+MS+9900000000003::293'NAD+MR+9900000000010::293'UNS+D'NAD+DP'LOC+172+51238696781'LIN+1'` +
      `PIA+5+1-1?:99.99.0:SRW'QTY+${qty}'DTM+163:202403010000?+00:303'DTM+164:202403010015?+00:303'UNT+15+1'UNZ+1+${ref}'`
    const later = join(dir, "later-no-unit.edi")
    const earlier = join(dir, "earlier-with-unit.edi")
    writeFileSync(later, interchange("W", "202403060600", "220:2,500"))
    writeFileSync(earlier, interchange("L", "202403050600", "220:1,500:KWH"))
    const [out, rejects, excluded] = ["refused.ndjson", "refused.rejects.ndjson", "refused.excluded.ndjson"].map((f) => join(dir, f))
    const run = await runCli(["map", "-m", MAPPING, "-o", out!, "-r", rejects!, "--excluded", excluded!, later, earlier])
    expect(run.code).toBe(1)
    expect(readFileSync(out!, "utf8")).toBe("")
    const rejected = lines(readFileSync(rejects!, "utf8"))
    expect(rejected.map((r) => r["file"])).toEqual([later])
    expect(JSON.stringify(rejected[0]!["errors"])).toContain('unknown_obis: the OBIS code \\"1-1:99.99.0\\"')
    const left = lines(readFileSync(excluded!, "utf8"))
    expect(left.map((x) => [x["file"], x["outcome"], x["reason"]])).toEqual([[earlier, "superseded", "superseded"]])
    expect(left[0]!["detail"]).toContain(`superseded by message "1" (#1) of ${later} (BGM "DOC-W", DTM+137 2024-03-06T07:00:00+01:00), segment 14: "QTY+220:2,500'DTM+163:202403010000?+00:303'DTM+164:202403010015?+00:303'"`)
  })

  it("without versions in the reader file, every version is an amount of its own (3.1 times too much in real archives)", async () => {
    const reader = JSON.parse(readFileSync(join(ROOT, "examples", "market-messages", "mscons-energy-amounts.reader.json"), "utf8")) as Record<string, unknown>
    delete reader["versions"]
    const readerPath = join(dir, "no-versions.reader.json")
    const mapping = JSON.parse(readFileSync(MAPPING, "utf8")) as Record<string, unknown>
    // The account table is named relative to the reader file.
    reader["accounts"] = { ...(reader["accounts"] as object), table: join(ROOT, "examples", "market-messages", "accounts.csv") }
    writeFileSync(readerPath, JSON.stringify(reader))
    const mappingPath = join(dir, "no-versions.mapping.json")
    writeFileSync(mappingPath, JSON.stringify({ ...mapping, reader: readerPath }))
    const out = join(dir, "no-versions.ndjson")
    const run = await runCli(["map", "-m", mappingPath, "-o", out, "--allow-empty", A, B, C, D])
    expect(run.code).toBe(0)
    expect(amounts(out).length).toBe(13)
  })

  it("through one ledger: an older version in a later run is superseded, a newer one with another value is a conflict listing both", async () => {
    // Corrections first, then the preliminary values: those already corrected are superseded, the one
    // quarter-hour never corrected maps.
    const ledger = join(dir, "newer-first.ledger")
    const first = await runCli(["map", "-m", MAPPING, "-o", join(dir, "newer-first-1.ndjson"), "--journal", ledger, "--new-ledger", B])
    expect(first.code).toBe(0)
    expect(amounts(join(dir, "newer-first-1.ndjson")).length).toBe(5)
    const secondOut = join(dir, "newer-first-2.ndjson")
    const second = await runCli(["map", "-m", MAPPING, "-o", secondOut, "-r", join(dir, "newer-first-2.rejects.ndjson"), "--journal", ledger, A])
    expect(second.code).toBe(0)
    expect(amounts(secondOut).map(brief)).toEqual(["51238696781 2024-03-01T01:45:00+01:00 2.000 Z18 DOC-A"])
    expect(second.stderr).toContain(`${A}: 6 rows read = 1 in 1 payload (energy-amount) + 0 rejected + 5 excluded`)
    // Both runs' payloads together are the latest versions.
    expect([...amounts(join(dir, "newer-first-1.ndjson")), ...amounts(secondOut)].map(brief).sort()).toEqual([...LATEST].sort())

    // The other way round: the preliminary values were mapped (and could have been sent); the corrections
    // of two of them are conflicts, the unchanged re-sends are left out, nothing maps twice.
    const other = join(dir, "older-first.ledger")
    const before = await runCli(["map", "-m", MAPPING, "-o", join(dir, "older-first-1.ndjson"), "--journal", other, "--new-ledger", A])
    expect(before.code).toBe(0)
    expect(amounts(join(dir, "older-first-1.ndjson")).length).toBe(6)
    const rejects = join(dir, "older-first-2.rejects.ndjson")
    const after = await runCli(["map", "-m", MAPPING, "-o", join(dir, "older-first-2.ndjson"), "-r", rejects, "--journal", other, B])
    expect(after.code).toBe(1)
    expect(readFileSync(join(dir, "older-first-2.ndjson"), "utf8")).toBe("")
    expect(after.stderr).toContain(`${B}: 5 rows read = 0 in 0 payloads (energy-amount) + 2 rejected + 3 excluded`)
    const rejected = lines(readFileSync(rejects, "utf8")) as Array<{ lines: Array<number>; errors: Array<{ detail: string }> }>
    expect(rejected.map((r) => r.lines)).toEqual([[14], [17]])
    expect(rejected[0]!.errors[0]!.detail).toBe(
      `${B}: message "1" (#1), segment 14 at byte 284: version_conflict: this value (message "1" (#1) of ${B} (BGM "DOC-C", DTM+137 2024-03-05T07:00:00+01:00): ` +
        `"QTY+67:1,300'DTM+163:202403010000?+00:303'DTM+164:202403010015?+00:303'") corrects the version mapped in run 1 from ${A} ` +
        `(BGM "DOC-A", DTM+137 2024-03-02T07:00:00+01:00: "QTY+Z18:1,250'DTM+163:202403010000?+00:303'DTM+164:202403010015?+00:303'"): ` +
        "the API has no update, so the earlier amount stays; correct it in the platform, or map this one in a campaign of its own"
    )
    expect(rejected[1]!.errors[0]!.detail).toContain(`"QTY+220:1,450'`)
    expect(rejected[1]!.errors[0]!.detail).toContain(`"QTY+Z18:1,500'`)
    // The ledger holds each quarter-hour's mapped version once: the six of the first run.
    const db = new (loadSqlite().DatabaseSync)(other, { readOnly: true })
    try {
      const rows = db.prepare("SELECT run, document, raw FROM map_versions ORDER BY key").all() as Array<{ run: number; document: string; raw: string }>
      expect(rows.length).toBe(6)
      expect(new Set(rows.map((r) => `${r.run} ${r.document}`))).toEqual(new Set(["1 DOC-A", "1 DOC-B"]))
    } finally {
      db.close()
    }
    // Mapping the first file again maps the same versions again (send's ledger knows them as sent).
    const again = await runCli(["map", "-m", MAPPING, "-o", join(dir, "older-first-3.ndjson"), "--journal", other, A])
    expect(again.code).toBe(0)
    expect(amounts(join(dir, "older-first-3.ndjson")).length).toBe(6)
  })

  it("a cancellation whose document was mapped in an earlier run is a located warning, not an orphan", async () => {
    const ledger = join(dir, "cancel-later.ledger")
    expect((await runCli(["map", "-m", MAPPING, "-o", join(dir, "cancel-1.ndjson"), "--journal", ledger, "--new-ledger", D])).code).toBe(0)
    const run = await runCli(["map", "-m", MAPPING, "-o", join(dir, "cancel-2.ndjson"), "--journal", ledger, C])
    expect(run.code).toBe(0)
    const warnings = run.stderr.split("\n").filter((l) => l.startsWith("warning: "))
    expect(warnings.length).toBe(2)
    expect(warnings[0]).toContain(`${C}: message "1" (#1), segment 7 at byte 165: `)
    expect(warnings[0]).toContain(`cancels_mapped_document: the cancellation (BGM "STORNO-1", DTM+137 2024-03-06T07:00:00+01:00) cancels document "DOC-E" of sender "9900000000003", whose values were mapped in run 1 from ${D}`)
    expect(warnings[1]).toContain("orphan_cancellation")
    expect(warnings[1]).toContain("nor in the ledger")
  })
})
