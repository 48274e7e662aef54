/**
 * `data-import map` keeps every legacy row: run as a child process on exports broken the ways real ones
 * are (stray quotes, typos in the mapping, repeated hours, imprecise numbers, duplicates), each case
 * checks that every data line ends in exactly one payload or one rejection, with its reason.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write, WORKERS_ALWAYS } from "./run-cli.js"

const dir = tempDir()
const ndjson = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)
const readNdjson = (path: string): Array<Record<string, unknown>> => ndjson(readFileSync(path, "utf8"))
const json = (value: unknown): string => JSON.stringify(value)

const EA_HEADER = "Kundennummer;MaLo;Zeitraum_von;Zeitraum_bis;OBIS;Menge;Einheit;Storniert;Qualifier;Plausi"
/** A valid energy-amount row whose quantity makes it unique. */
const eaRow = (n: number, qualifier = "Z18"): string =>
  `KD-${1000 + n};51238696781;01.10.2024 00:00;31.10.2024 23:59;1-1:1.8.0;${n},5;KWH;;${qualifier};Z57`
const eaMapping = join(ROOT, "examples", "mappings", "energy-amounts.mapping.json")

const mappingFile = (name: string, mapping: unknown): string => write(dir, `${name}.mapping.json`, json(mapping))

/** Runs map with --out, --rejects and --lineage; returns the three files read back. */
const mapWithFiles = async (name: string, mapping: string, csv: string, extra: ReadonlyArray<string> = []) => {
  const input = write(dir, `${name}.csv`, csv)
  const out = join(dir, `${name}.out.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const lineage = join(dir, `${name}.lineage.ndjson`)
  // With --jobs 2 (or the default on two cores), through the workers as a long input would go.
  const run = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, "--lineage", lineage, ...extra, input], { env: WORKERS_ALWAYS })
  const read = (path: string) => (existsSync(path) ? readNdjson(path) : [])
  return { run, input, out, rejects, lineage, payloads: read(out), rejected: read(rejects), lineageLines: read(lineage) }
}

/** Every line in lineage and rejects, each once, and exactly the expected data lines. */
const expectConserved = (result: { lineageLines: ReadonlyArray<Record<string, unknown>>; rejected: ReadonlyArray<Record<string, unknown>> }, dataLines: ReadonlyArray<number>): void => {
  const settled = [...result.lineageLines.flatMap((l) => l["lines"] as Array<number>), ...result.rejected.flatMap((r) => r["lines"] as Array<number>)]
  expect([...settled].sort((a, b) => a - b)).toEqual([...dataLines].sort((a, b) => a - b))
}

const range = (from: number, to: number): Array<number> => Array.from({ length: to - from + 1 }, (_, i) => from + i)

/** Notes grouped by account: a payload per `Konto`, a note per row's `Text`. */
const NOTES_BY_ACCOUNT = { endpoint: "notes", groupBy: ["Konto"], fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" }, collections: [{ path: "notes", fields: { body: "Text" } }] }

describe("map: a broken line costs only itself", () => {
  it("an unclosed quote on line 11 and a quote inside a field on line 500 cost line 11 alone, of 2,000 rows", async () => {
    const rows = range(1, 2000).map((n) => eaRow(n))
    rows[9] = eaRow(10).replace(";Z18;", ";\"Z18;") // line 11
    rows[498] = eaRow(499, "Zähler \"defekt\"") // line 500
    const result = await mapWithFiles("stray-quote", eaMapping, `${EA_HEADER}\n${rows.join("\n")}\n`)
    expect(result.run.code).toBe(1)
    expect(result.payloads).toHaveLength(1999)
    expect(result.rejected).toEqual([expect.objectContaining({ lines: [11], rows: [rows[9]], errors: [expect.objectContaining({ code: "invalid_csv" })] })])
    expect(result.payloads[497]).toMatchObject({ energy_amount: { qualifier: "Zähler \"defekt\"" } })
    expectConserved(result, range(2, 2001))
    expect(result.run.stderr).toContain("2,000 rows read = 1,999 in 1,999 payloads (energy-amount) + 1 rejected")
  })

  it("an unclosed quote never swallows whole rows, even when a later stray quote would close it", async () => {
    const rows = range(1, 6).map((n) => eaRow(n))
    rows[1] = eaRow(2).replace(";Z18;", ";\"Z18;") // line 3: opens a quote at the start of a field
    rows[4] = eaRow(5).replace(";Z18;", ";Z18\";") // line 6: a quote that would close it, followed by ;
    const result = await mapWithFiles("swallow", eaMapping, `${EA_HEADER}\n${rows.join("\n")}\n`)
    expect(result.lineageLines.map((l) => l["lines"])).toEqual([[2], [4], [5], [6], [7]])
    expect(result.rejected.map((r) => r["lines"])).toEqual([[3]])
  })

  it("reports the right line far into a file (several read chunks), with CRLF, LF and mixed line ends", async () => {
    const rows = range(1, 40_000).map((n) => eaRow(n))
    rows[39_989] = "KD-X;\"broken" // line 39,991
    const body = rows.map((r, i) => `${r}${i % 3 === 0 ? "\r\n" : "\n"}`).join("")
    const result = await mapWithFiles("far", eaMapping, `${EA_HEADER}\r\n${body}`, ["--jobs", "2"])
    expect(result.rejected.map((r) => r["lines"])).toEqual([[39_991]])
    expect(result.payloads).toHaveLength(39_999)
    expect(result.payloads[39_998]).toMatchObject({ external_account_number: "KD-41000" })
    expectConserved(result, range(2, 40_001))
  })

  it("keeps a well-formed quoted field over several lines, and refuses a wrong column count, a NUL byte and bad UTF-8 line by line", async () => {
    // Line 2 holds a character outside ASCII in good UTF-8: the bad bytes of line 6 are damage, not another encoding.
    const bytes = Buffer.concat([
      Buffer.from("Konto;Text\nKD-1;\"Zeile ä\nZeile zwei; mit Semikolon\"\nKD-1;kurz;zu;viele\nKD-2;a\u0000b\nKD-3;"),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("\nKD-4;gut\n")
    ])
    const input = write(dir, "lines.csv", bytes)
    const rejects = join(dir, "lines.rejects.ndjson")
    const lineage = join(dir, "lines.lineage.ndjson")
    const run = await runCli(["map", "-m", mappingFile("lines", NOTES_BY_ACCOUNT), "-r", rejects, "--lineage", lineage, input])
    expect(ndjson(run.stdout)).toEqual([
      { import_supplier: "SW", external_account_number: "KD-1", notes: [{ body: "Zeile ä\nZeile zwei; mit Semikolon" }] },
      { import_supplier: "SW", external_account_number: "KD-4", notes: [{ body: "gut" }] }
    ])
    expect(readNdjson(lineage)).toEqual([{ payload: 0, lines: [2, 3] }, { payload: 1, lines: [7] }])
    expect(readNdjson(rejects).map((r) => [r["lines"], (r["errors"] as Array<{ code: string }>)[0]!.code])).toEqual([
      [[4], "invalid_csv"],
      [[5], "invalid_csv"],
      [[6], "invalid_encoding"]
    ])
  })

  it("tolerates an empty trailing column on data rows (SAP), and skips a preamble with --skip-lines", async () => {
    const rows = [eaRow(1), eaRow(2)].map((r) => `${r};`)
    const result = await mapWithFiles("trailing", eaMapping, `Report: Zählerstände 2024\nerstellt 01.11.2024\n${EA_HEADER}\n${rows.join("\n")}\n`, ["--skip-lines", "2"])
    expect(result.run.code).toBe(0)
    expect(result.payloads).toHaveLength(2)
    expect(result.lineageLines).toEqual([{ payload: 0, lines: [4] }, { payload: 1, lines: [5] }])
    expect(result.run.stderr).toContain("header on line 3")
  })

  it("resolves a run of repeated wall times (by-order) that crosses a batch of rows, the same with one job or two", async () => {
    // Rows 1–998 are ordinary; rows 999–1006 read the repeated hour of 27.10.2024 in Europe/Berlin twice
    // (02:00, 02:15, 02:30, 02:45, then again): the first pass is summer time (+02:00), the repeat winter
    // time (+01:00). The run starts before row 1,000 (where a batch ends) and ends after it.
    const repeated = ["02:00", "02:15", "02:30", "02:45", "02:00", "02:15", "02:30", "02:45"]
    const rows = range(1, 1006).map((n) => n < 999 ? eaRow(n) : `KD-${1000 + n};51238696781;27.10.2024 ${repeated[n - 999]};27.10.2024 04:00;1-1:1.8.0;${n},5;KWH;;Z18;Z57`)
    const csv = `${EA_HEADER}\n${rows.join("\n")}\n`
    const expected = repeated.map((time, i) => `2024-10-27T${time}:00${i < 4 ? "+02:00" : "+01:00"}`)
    for (const jobs of ["1", "2"]) {
      const result = await mapWithFiles(`by-order-${jobs}`, eaMapping, csv, ["--jobs", jobs])
      expect(result.rejected).toEqual([])
      expect(result.payloads.slice(998).map((p) => (p["energy_amount"] as Record<string, unknown>)["period_start_at"])).toEqual(expected)
      expectConserved(result, range(2, 1007))
    }
  })

  it("writes rejects in input order, the same with one worker or two", async () => {
    const rows = range(1, 3000).map((n) => (n % 700 === 0 ? `${eaRow(n)};x;y` : n % 450 === 0 ? eaRow(n).replace("31.10.2024", "31.02.2024") : eaRow(n)))
    const csv = `${EA_HEADER}\n${rows.join("\n")}\n`
    const one = await mapWithFiles("order-1", eaMapping, csv, ["--jobs", "1"])
    const two = await mapWithFiles("order-2", eaMapping, csv, ["--jobs", "2"])
    const order = (r: ReadonlyArray<Record<string, unknown>>) => r.map((x) => (x["lines"] as Array<number>)[0]!)
    expect(order(one.rejected)).toEqual([451, 701, 901, 1351, 1401, 1801, 2101, 2251, 2701, 2801])
    expect(order(two.rejected)).toEqual(order(one.rejected))
  })
})

describe("map: the mapping is checked before any row is read (exit 2, no output)", () => {
  const base = JSON.parse(readFileSync(eaMapping, "utf8")) as { fields: Record<string, unknown> }
  const csv = `${EA_HEADER}\n${eaRow(1)}\n`

  const refused = async (name: string, mapping: unknown, input = csv) => {
    const result = await mapWithFiles(name, mappingFile(name, mapping), input)
    expect(result.run.code).toBe(2)
    expect(existsSync(result.out)).toBe(false)
    expect(existsSync(result.rejects)).toBe(false)
    return result.run.stderr
  }

  it("a mapped column missing from the header names the nearest one and the header", async () => {
    const stderr = await refused("typo", { ...base, fields: { ...base.fields, "energy_amount.qualifier": "Qualifer" } })
    expect(stderr).toContain("column \"Qualifer\" is not in the header (did you mean \"Qualifier\"?)")
    expect(stderr).toContain("\"Kundennummer\", \"MaLo\"")
    // One sentence that names the mapping, the header's line and the export.
    expect(stderr).toMatch(/^data-import: the mapping \S+typo\.mapping\.json does not fit the header \(line 1\) of \S+typo\.csv:\n {2}column "Qualifer"/u)
  })

  it("a --delimiter the header does not use: the message names the one it holds", async () => {
    const input = write(dir, "wrong-delimiter.csv", csv)
    for (const [given, shown] of [[",", "\",\""], ["\\t", "tab"]] as const) {
      const run = await runCli(["map", "-m", eaMapping, "-d", given, input])
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`the header is one column: its names are separated by ";", not ${shown}; run again with --delimiter ';' or without it`)
    }
  })

  it("a mapped column named twice in the header", async () => {
    const stderr = await refused("twice", base, `${EA_HEADER};Menge\n${eaRow(1)};1\n`)
    expect(stderr).toContain("column \"Menge\" appears 2 times in the header (columns 6, 11)")
  })

  it("an unknown converter, misspelt options and an unknown key, each with the name that was meant", async () => {
    expect(await refused("converter", { ...base, fields: { ...base.fields, "energy_amount.quantity": { column: "Menge", convert: "dezimal" } } }))
      .toContain("fields[\"energy_amount.quantity\"].convert: unknown converter \"dezimal\" (did you mean decimal?)")
    expect(await refused("locael", { ...base, fields: { ...base.fields, "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locael: "de" } } } }))
      .toContain("unknown key \"locael\" (did you mean locale?)")
    expect(await refused("fromat", { ...base, fields: { ...base.fields, "energy_amount.period_start_at": { column: "Zeitraum_von", convert: "datetime", options: { fromat: "dd.MM.yyyy HH:mm" } } } }))
      .toContain("unknown key \"fromat\" (did you mean format?)")
    expect(await refused("ambigous", { ...base, fields: { ...base.fields, "energy_amount.period_start_at": { column: "Zeitraum_von", convert: "datetime", options: { ambigous: "later" } } } }))
      .toContain("unknown key \"ambigous\" (did you mean ambiguous?)")
    expect(await refused("group_by", { ...base, group_by: ["Kundennummer"] })).toContain("group_by: unknown key \"group_by\" (did you mean groupBy?)")
    expect(await refused("option-value", { ...base, fields: { ...base.fields, "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locale: "fr" } } } }))
      .toContain("fields[\"energy_amount.quantity\"].options.locale")
  })

  it("a groupBy or when column that is not in the header", async () => {
    expect(await refused("group-column", { ...base, groupBy: ["Konto"] })).toContain("column \"Konto\" is not in the header")
    const notes = { endpoint: "notes", groupBy: ["Kundennummer"], fields: { import_supplier: { value: "SW" }, external_account_number: "Kundennummer" }, collections: [{ path: "notes", when: { column: "Typ", equals: "NOTE" }, fields: { body: "Qualifier" } }] }
    expect(await refused("when-column", notes)).toContain("column \"Typ\" is not in the header")
  })

  it("an output that is an input is refused before anything is written, and the input is kept", async () => {
    const input = write(dir, "self.csv", csv)
    const run = await runCli(["map", "-m", eaMapping, "-o", input, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("is the input")
    expect(readFileSync(input, "utf8")).toBe(csv)
    const rejectsOverMapping = await runCli(["map", "-m", eaMapping, "-r", eaMapping, input])
    expect(rejectsOverMapping.code).toBe(2)
  })
})

describe("map: nothing silently wrong", () => {
  it("resolves the repeated autumn hour by row order: 9 consecutive quarter hours", async () => {
    const walls = ["01:45", "02:00", "02:15", "02:30", "02:45", "02:00", "02:15", "02:30", "02:45", "03:00"]
    const rows = walls.slice(0, -1).map((from, i) => `KD-1;51238696781;27.10.2024 ${from};27.10.2024 ${walls[i + 1]};1-1:1.8.0;${i},25;KWH;;Z18;`)
    const result = await mapWithFiles("dst", eaMapping, `${EA_HEADER}\n${rows.join("\n")}\n`)
    expect(result.run.code).toBe(0)
    const periods = result.payloads.map((p) => p["energy_amount"] as { period_start_at: string; period_end_at: string })
    expect(periods).toHaveLength(9)
    const start = Date.parse("2024-10-26T23:45:00Z")
    periods.forEach((p, i) => {
      expect(Date.parse(p.period_start_at)).toBe(start + i * 15 * 60_000)
      expect(Date.parse(p.period_end_at)).toBe(start + (i + 1) * 15 * 60_000)
    })
    expect(periods[4]).toMatchObject({ period_start_at: "2024-10-27T02:45:00+02:00", period_end_at: "2024-10-27T02:00:00+01:00" })
  })

  it("reads the offset from a column, and joins a date column and a time column", async () => {
    const mapping = {
      endpoint: "notes",
      groupBy: ["Konto"],
      fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
      collections: [{ path: "notes", fields: { body: "Text", created_at: { columns: ["Datum", "Uhrzeit"], convert: "datetime", options: { offsetColumn: "Zeit" } } } }]
    }
    const csv = "Konto;Datum;Uhrzeit;Zeit;Text\nKD-1;27.10.2024;02:30;MEZ;eins\nKD-1;27.10.2024;02:30;MESZ;zwei\nKD-1;27.10.2024;12:00;;drei\nKD-2;01.07.2024;12:00;MEZ;falsch\n"
    const result = await mapWithFiles("offset-column", mappingFile("offset-column", mapping), csv)
    expect(result.payloads[0]).toMatchObject({
      notes: [
        { body: "eins", created_at: "2024-10-27T02:30:00+01:00" },
        { body: "zwei", created_at: "2024-10-27T02:30:00+02:00" },
        { body: "drei", created_at: "2024-10-27T12:00:00+01:00" }
      ]
    })
    expect(result.rejected).toEqual([expect.objectContaining({ lines: [5], errors: [expect.objectContaining({ code: "offset_mismatch" })] })])
  })

  it("refuses a number that a JSON number cannot hold exactly", async () => {
    const mapping = JSON.parse(readFileSync(join(ROOT, "examples", "mappings", "transactions.mapping.json"), "utf8")) as unknown
    const csv = "Konto;Buchungsnr;Datum;Betrag;Art;Grund;Referenz;Zahlart;Notiz\nKD-1;B-1;15.01.2024;9.007.199.254.740.993,01;CHARGE;IMPORTED_CHARGE;;;x\nKD-2;B-2;15.01.2024;12,10;CHARGE;IMPORTED_CHARGE;;;x\n"
    const result = await mapWithFiles("inexact", mappingFile("inexact", mapping), csv)
    expect(result.rejected).toEqual([expect.objectContaining({ lines: [2], errors: [expect.objectContaining({ code: "inexact_number", column: "Betrag" })] })])
    expect(result.payloads).toEqual([expect.objectContaining({ transactions: [expect.objectContaining({ amount: 12.1 })] })])
  })

  it("refuses an NDJSON row with a number that JSON.parse would round, instead of mapping the rounded value", async () => {
    const mapping = {
      endpoint: "energy-amount",
      fields: {
        import_supplier: { value: "SW" },
        external_account_number: "Konto",
        "energy_amount.malo_number": "MaLo",
        "energy_amount.period_start_at": "Von",
        "energy_amount.period_end_at": "Bis",
        "energy_amount.product_identifier": { value: "1-1:1.8.0" },
        "energy_amount.product_identifier_type": { value: "SRW" },
        "energy_amount.quantity": { column: "Menge", convert: "decimal" },
        "energy_amount.quantity_unit": { value: "KWH" }
      }
    }
    const row = (account: string, quantity: string) => `{"Konto":"${account}","MaLo":"51238696781","Von":"2024-01-01T00:00:00+01:00","Bis":"2024-01-02T00:00:00+01:00","Menge":${quantity}}`
    const input = write(dir, "inexact.ndjson", [row("KD-1", "1.5"), row("KD-2", "12345678901234567890.123456789"), row("KD-3", "0.1"), row("KD-4", "\"12345678901234567890.123456789\"")].join("\n") + "\n")
    const rejects = join(dir, "inexact-ndjson.rejects.ndjson")
    const run = await runCli(["map", "-m", mappingFile("inexact-ndjson", mapping), "-r", rejects, input])
    expect(run.code).toBe(1)
    expect(ndjson(run.stdout).map((p) => [p["external_account_number"], (p["energy_amount"] as Record<string, unknown>)["quantity"]])).toEqual([
      ["KD-1", "1.5"],
      ["KD-3", "0.1"],
      ["KD-4", "12345678901234567890.123456789"]
    ])
    expect(readNdjson(rejects)).toEqual([expect.objectContaining({
      lines: [2],
      errors: [expect.objectContaining({ code: "inexact_number", detail: expect.stringContaining("12345678901234567890.123456789") })]
    })])
  })

  it("rejects an NDJSON row that repeats a key, naming it, instead of keeping the last value", async () => {
    const input = write(dir, "repeated-key.ndjson", ["{\"Konto\":\"KD-1\",\"Text\":\"eins\"}", "{\"Konto\":\"KD-2\",\"Text\":\"alt\",\"Text\":\"neu\"}", "{\"Konto\":\"KD-3\",\"Text\":\"drei\"}"].join("\n") + "\n")
    const rejects = join(dir, "repeated-key.rejects.ndjson")
    const run = await runCli(["map", "-m", mappingFile("repeated-key", NOTES_BY_ACCOUNT), "-r", rejects, input])
    expect(run.code).toBe(1)
    expect(ndjson(run.stdout).map((p) => p["external_account_number"])).toEqual(["KD-1", "KD-3"])
    expect(readNdjson(rejects)).toEqual([expect.objectContaining({
      lines: [2],
      errors: [expect.objectContaining({ code: "invalid_json", detail: expect.stringContaining("\"Text\" appears twice") })]
    })])
  })

  it("rejects a transaction id repeated for one account in another batch, naming the first line", async () => {
    const mapping = JSON.parse(readFileSync(join(ROOT, "examples", "mappings", "transactions.mapping.json"), "utf8")) as unknown
    const row = (id: string, amount: string) => `KD-1;${id};15.01.2024;${amount};CHARGE;IMPORTED_CHARGE;;;x`
    const csv = `Konto;Buchungsnr;Datum;Betrag;Art;Grund;Referenz;Zahlart;Notiz\n${[row("B-1", "1"), row("B-2", "2"), row("B-3", "3"), row("B-1", "4")].join("\n")}\n`
    const result = await mapWithFiles("dup-tx", mappingFile("dup-tx", mapping), csv)
    expect(result.run.code).toBe(1)
    expect(result.payloads).toHaveLength(1)
    expect(result.rejected).toEqual([expect.objectContaining({
      lines: [4, 5],
      errors: [expect.objectContaining({ code: "duplicate_transaction_ids", attr: "transactions.1.transaction_id", detail: expect.stringContaining("from line 2") })]
    })])
    expectConserved(result, range(2, 5))
  })

  it("rejects an identical payload from a later row, unless --allow-duplicates", async () => {
    const csv = `${EA_HEADER}\n${eaRow(1)}\n${eaRow(2)}\n${eaRow(1)}\n`
    const result = await mapWithFiles("dup-payload", eaMapping, csv)
    expect(result.rejected).toEqual([expect.objectContaining({ lines: [4], errors: [expect.objectContaining({ code: "duplicate_payload", detail: expect.stringContaining("line 2") })] })])
    const allowed = await mapWithFiles("dup-allowed", eaMapping, csv, ["--allow-duplicates"])
    expect([allowed.run.code, allowed.payloads.length]).toEqual([0, 3])
  })

  it("writes every payload but the repeats, in order, when repeats fall inside and across batches, with one job or two", async () => {
    // Every 7th row repeats the row 3 above it; 2,500 rows span three batches of 1,000.
    const rows = range(1, 2500).map((n) => (n % 7 === 0 ? eaRow(n - 3) : eaRow(n)))
    const csv = `${EA_HEADER}\n${rows.join("\n")}\n`
    const repeats = range(1, 2500).filter((n) => n % 7 === 0)
    const kept = range(1, 2500).filter((n) => n % 7 !== 0)
    for (const jobs of ["1", "2"]) {
      const result = await mapWithFiles(`dup-batches-${jobs}`, eaMapping, csv, ["--jobs", jobs])
      expect(result.payloads.map((p) => p["external_account_number"])).toEqual(kept.map((n) => `KD-${1000 + n}`))
      expect(result.lineageLines.map((l) => l["lines"])).toEqual(kept.map((n) => [n + 1]))
      expect(result.rejected.map((r) => r["lines"])).toEqual(repeats.map((n) => [n + 1]))
      expect(result.rejected.every((r) => (r["errors"] as Array<Record<string, unknown>>)[0]!["code"] === "duplicate_payload")).toBe(true)
      expectConserved(result, range(2, 2501))
    }
  })

  it("rejects a repeated transaction id with a mapping of one payload per row, in the workers too", async () => {
    const mapping = {
      endpoint: "transactions",
      fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
      collections: [{ path: "transactions", fields: { transaction_id: "Buchungsnr", transaction_date: { column: "Datum", convert: "date" }, amount: { column: "Betrag", convert: "number", options: { locale: "de" } }, type: "Art", reason: "Grund" } }]
    }
    const row = (n: number, id: string) => `KD-1;${id};15.01.2024;${n},5;CHARGE;IMPORTED_CHARGE`
    const lines = range(1, 1500).map((n) => row(n, n === 1200 ? "B-7" : `B-${n}`))
    const csv = `Konto;Buchungsnr;Datum;Betrag;Art;Grund\n${lines.join("\n")}\n`
    for (const jobs of ["1", "2"]) {
      const result = await mapWithFiles(`dup-tx-rows-${jobs}`, mappingFile(`dup-tx-rows-${jobs}`, mapping), csv, ["--jobs", jobs])
      expect(result.rejected).toEqual([expect.objectContaining({ lines: [1201], errors: [expect.objectContaining({ code: "duplicate_transaction_ids", detail: expect.stringContaining("from line 8") })] })])
      expect(result.payloads).toHaveLength(1499)
      expect(result.payloads[1199]).toMatchObject({ transactions: [expect.objectContaining({ transaction_id: "B-1201" })] })
      expectConserved(result, range(2, 1501))
    }
  })

  it("cuts batches between items: a SUPPLY_CHARGE of 3 line rows stays whole", async () => {
    const mapping = {
      endpoint: "transactions",
      groupBy: ["Konto"],
      batchSize: 2,
      fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" },
      collections: [{
        path: "transactions",
        groupBy: ["Buchungsnr"],
        fields: { transaction_id: "Buchungsnr", transaction_date: { column: "Datum", convert: "date" }, amount: { column: "Betrag", convert: "number", options: { locale: "de" } }, type: "Art", product_code: "Produkt" },
        collections: [{
          path: "line_items",
          when: { column: "Art", equals: "SUPPLY_CHARGE" },
          fields: {
            rate_band: { value: "CONSUMPTION_STANDARD" },
            start_date: { column: "Von", convert: "date" },
            end_date: { column: "Bis", convert: "date" },
            number_of_units: { column: "Menge", convert: "number", options: { locale: "de" } },
            net_amount: { column: "Netto", convert: "number", options: { locale: "de" } },
            price_per_unit: { column: "Preis", convert: "number", options: { locale: "de" } }
          }
        }]
      }]
    }
    const header = "Konto;Buchungsnr;Datum;Betrag;Art;Produkt;Von;Bis;Menge;Netto;Preis"
    const supply = (from: string, to: string) => `KD-1;B-1;31.01.2024;30,00;SUPPLY_CHARGE;STROM;${from};${to};100;10,00;0,1`
    const charge = (id: string) => `KD-1;${id};31.01.2024;5,00;CHARGE;;;;;;`
    const csv = `${header}\n${supply("01.01.2024", "10.01.2024")}\n${supply("11.01.2024", "20.01.2024")}\n${supply("21.01.2024", "31.01.2024")}\n${charge("B-2")}\n${charge("B-3")}\n`
    const result = await mapWithFiles("batch-items", mappingFile("batch-items", mapping), csv)
    expect(result.rejected).toEqual([])
    const transactions = result.payloads.map((p) => (p["transactions"] as Array<Record<string, unknown>>).map((t) => [t["transaction_id"], (t["line_items"] as Array<unknown> | undefined)?.length ?? 0]))
    expect(transactions).toEqual([[["B-1", 3], ["B-2", 0]], [["B-3", 0]]])
    expect(result.lineageLines).toEqual([{ payload: 0, lines: [2, 3, 4, 5] }, { payload: 1, lines: [6] }])
  })

  it("rejects a group whose rows disagree on a payload field, a row that matches no collection, and an item whose rows conflict", async () => {
    const mapping = {
      endpoint: "notes",
      groupBy: ["Konto"],
      fields: { import_supplier: "Lieferant", external_account_number: "Konto" },
      collections: [{ path: "notes", groupBy: ["Nr"], when: { column: "Typ", equals: "NOTE" }, fields: { body: "Text" } }]
    }
    const csv = "Lieferant;Konto;Typ;Nr;Text\nSW_A;KD-1;NOTE;1;eins\nSW_B;KD-1;NOTE;2;zwei\nSW_A;KD-2;note;1;verloren\nSW_A;KD-2;NOTE;2;gut\nSW_A;KD-3;NOTE;1;eins\nSW_A;KD-3;NOTE;1;anders\nSW_A;KD-3;NOTE;2;bleibt\n"
    const result = await mapWithFiles("consistency", mappingFile("consistency", mapping), csv)
    const codes = result.rejected.map((r) => [r["lines"], (r["errors"] as Array<{ code: string }>).map((e) => e.code)])
    expect(codes).toEqual([
      [[2, 3], ["inconsistent_group"]],
      [[4], ["unmatched_row"]],
      [[6, 7], ["inconsistent_item"]]
    ])
    expect(result.payloads).toEqual([
      { import_supplier: "SW_A", external_account_number: "KD-2", notes: [{ body: "gut" }] },
      { import_supplier: "SW_A", external_account_number: "KD-3", notes: [{ body: "bleibt" }] }
    ])
    expectConserved(result, range(2, 8))
  })

  it("keeps the raw text of every rejected row, a multi-line one included, so it can be fixed and sent again", async () => {
    const mapping = { endpoint: "notes", groupBy: ["Konto"], fields: { import_supplier: { value: "SW" }, external_account_number: "Konto" }, collections: [{ path: "notes", fields: { body: "Text", created_at: { column: "Zeit", convert: "datetime" } } }] }
    const csv = "Konto;Zeit;Text\nKD-1;01.02.2024 10:00;gut\nKD-2;31.02.2024 10:00;\"zwei\nZeilen\"\nKD-3;x;y;z\n"
    const result = await mapWithFiles("raw", mappingFile("raw", mapping), csv)
    expect(result.rejected.map((r) => [r["lines"], r["raw"]])).toEqual([
      [[3, 4], ["KD-2;31.02.2024 10:00;\"zwei\nZeilen\""]],
      [[5], ["KD-3;x;y;z"]]
    ])
  })

  it("skips blank lines above the header; a file of blank lines and a byte order mark has no rows, as an empty one", async () => {
    const result = await mapWithFiles("blank-above", mappingFile("blank-above", NOTES_BY_ACCOUNT), "\uFEFF\n  \r\nKonto;Text\nKD-1;eins\n\nKD-2;zwei\n", ["--format", "json"])
    expect(result.run.code).toBe(0)
    expect(result.payloads.map((p) => p["external_account_number"])).toEqual(["KD-1", "KD-2"])
    expectConserved(result, [4, 6])
    expect(JSON.parse(result.run.stdout)).toMatchObject({ ok: true, rowsRead: 2, rowsInPayloads: 2, blankLines: 3 })
    for (const [name, text] of [["bom-only", "\uFEFF"], ["blank-only", "\uFEFF\n\r\n  \n"]] as const) {
      const empty = await mapWithFiles(name, mappingFile(name, NOTES_BY_ACCOUNT), text)
      expect(empty.run.code, name).toBe(1)
      expect(empty.run.stderr, name).toContain(`no rows in ${empty.input}:`)
    }
  })

  it("stops when a UTF-8 export is given as latin1 or windows-1252 (Müller read as MÃ¼ller), before writing anything", async () => {
    const text = "Konto;Text\nKD-1;eins\nKD-2;Zähler bei Müller defekt\n"
    for (const encoding of ["latin1", "windows-1252"]) {
      const result = await mapWithFiles(`utf8-as-${encoding}`, mappingFile(`utf8-as-${encoding}`, NOTES_BY_ACCOUNT), text, ["--encoding", encoding])
      expect(result.run.code, encoding).toBe(2)
      expect(result.run.stderr).toContain(`looks like UTF-8, not ${encoding}: line 3 reads "KD-2;ZÃ¤hler bei MÃ¼ller defekt"`)
      expect(result.run.stderr).toContain("--encoding utf-8")
      expect(existsSync(result.out), encoding).toBe(false)
    }
    // A line whose first umlaut comes late: the excerpts show it, else the two readings look the same.
    const late = `Konto;Text\nKD-3;${"Zählerstand abgelesen ".replace("ä", "a").repeat(4)}beim Kunden Müller\n`
    const far = await mapWithFiles("utf8-late", mappingFile("utf8-late", NOTES_BY_ACCOUNT), late, ["--encoding", "latin1"])
    expect(far.run.code).toBe(2)
    expect(far.run.stderr).toContain("Kunden MÃ¼ller\" in latin1")
    expect(far.run.stderr).toContain("Kunden Müller\" in UTF-8")
    // The same text written in windows-1252 is read as such.
    const input = write(dir, "real-1252.csv", Buffer.from(text, "latin1"))
    const run = await runCli(["map", "-m", mappingFile("real-1252", NOTES_BY_ACCOUNT), "--encoding", "windows-1252", input])
    expect(run.code).toBe(0)
    expect(ndjson(run.stdout).map((p) => p["notes"])).toEqual([[{ body: "eins" }], [{ body: "Zähler bei Müller defekt" }]])
  })

  it("says a file whose lines end in CR alone is one line, when its header does not fit", async () => {
    const result = await mapWithFiles("cr-only", mappingFile("cr-only", NOTES_BY_ACCOUNT), "Konto;Text\rKD-1;eins\rKD-2;zwei\r")
    expect(result.run.code).toBe(2)
    expect(result.run.stderr).toContain("lines seem to end in CR alone")
    const fits = await mapWithFiles("cr-fits", mappingFile("cr-fits", NOTES_BY_ACCOUNT), "Konto;Text\nKD-1;eins\n")
    expect(fits.run.stderr).not.toContain("CR alone")
  })

  it("gives a line break inside a quoted field as \\n whatever the file's line ends, and counts its lines", async () => {
    const csv = "Konto;Text\r\nKD-1;\"zwei\r\nZeilen\"\r\nKD-2;\"drei\nge\r\nmischt\"\nKD-3;eine\r\n"
    const result = await mapWithFiles("crlf-field", mappingFile("crlf-field", NOTES_BY_ACCOUNT), csv)
    expect(result.rejected).toEqual([])
    expect(result.payloads.map((p) => p["notes"])).toEqual([[{ body: "zwei\nZeilen" }], [{ body: "drei\nge\nmischt" }], [{ body: "eine" }]])
    expectConserved(result, range(2, 7))
  })

  it("refuses a UTF-16 line with a lone surrogate, or cut inside a code unit, instead of mapping a replacement character", async () => {
    const bytes = Buffer.concat([
      Buffer.from("Konto;Text\nKD-1;Zähler\nKD-2;Z", "utf16le"),
      Buffer.from([0x00, 0xd8]),
      Buffer.from("\nKD-3;gut\nKD-4;x", "utf16le"),
      Buffer.from([0x41])
    ])
    const input = write(dir, "utf16.csv", bytes)
    const rejects = join(dir, "utf16.rejects.ndjson")
    const lineage = join(dir, "utf16.lineage.ndjson")
    const run = await runCli(["map", "-m", mappingFile("utf16", NOTES_BY_ACCOUNT), "--encoding", "utf-16le", "-r", rejects, "--lineage", lineage, input])
    expect(run.code).toBe(1)
    expect(ndjson(run.stdout).map((p) => p["notes"])).toEqual([[{ body: "Zähler" }], [{ body: "gut" }]])
    expect(readNdjson(lineage)).toEqual([{ payload: 0, lines: [2] }, { payload: 1, lines: [4] }])
    expect(readNdjson(rejects).map((r) => [r["lines"], (r["errors"] as Array<{ code: string }>)[0]!.code])).toEqual([[[3], "invalid_encoding"], [[5], "invalid_encoding"]])
  })

  it("compares group keys after trimming: a trailing space or a BOM does not split an account", async () => {
    const result = await mapWithFiles("trim", mappingFile("trim", NOTES_BY_ACCOUNT), "Konto;Text\nKD-1;eins\nKD-1 ;zwei\n\uFEFFKD-1;drei\n")
    expect(result.rejected).toEqual([])
    expect(result.payloads).toEqual([{ import_supplier: "SW", external_account_number: "KD-1", notes: [{ body: "eins" }, { body: "zwei" }, { body: "drei" }] }])
  })

  it("reports an export without rows as an error unless --allow-empty, and gives a JSON summary", async () => {
    const empty = await mapWithFiles("empty", eaMapping, `${EA_HEADER}\n`)
    expect(empty.run.code).toBe(1)
    expect(empty.run.stderr).toContain("no rows in")
    const allowed = await mapWithFiles("empty-ok", eaMapping, `${EA_HEADER}\n`, ["--allow-empty"])
    expect(allowed.run.code).toBe(0)
    const summary = await mapWithFiles("summary", eaMapping, `${EA_HEADER}\n${eaRow(1)}\n\n${eaRow(2)};x\n`, ["--format", "json"])
    expect(JSON.parse(summary.run.stdout)).toMatchObject({
      ok: false,
      rowsRead: 2,
      rowsInPayloads: 1,
      rowsRejected: 1,
      payloads: 1,
      blankLines: 1,
      rejectedByCode: { invalid_csv: 1 }
    })
  })
})
