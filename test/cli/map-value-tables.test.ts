/**
 * `data-import map` with value tables (inline, and in CSV and JSON files beside the mapping) and with
 * date-only cells read as date-times, run as a child process.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, tempDir, write, WORKERS_ALWAYS } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const dir = tempDir()
mkdirSync(join(dir, "codes"))

const transactionsMapping = {
  endpoint: "transactions",
  fields: {
    import_supplier: { column: "Mandant", values: { "1000": "STADTWERKE_NORD", "2000": "STADTWERKE_SUED" } },
    external_account_number: "Konto"
  },
  collections: [{
    path: "transactions",
    fields: {
      transaction_id: "Beleg",
      transaction_date: { column: "Datum", convert: "date" },
      amount: { column: "Betrag", convert: "number", options: { locale: "de" } },
      type: { column: "Buchungsart", values: { file: "codes/buchungsart.csv" } },
      payment_type: { columns: ["Buchungsart", "Zahlweg"], values: { file: "codes/zahlweg.json" }, default: null }
    }
  }]
}

write(dir, "codes/buchungsart.csv", "Buchungsart;type\r\nZAHL;PAYMENT\r\nFORD;CHARGE\r\n")
write(dir, "codes/zahlweg.json", JSON.stringify({ "ZAHL|LS": "DD_REGULAR_COLLECTION", "ZAHL|UE": "BANK_TRANSFER" }))
const mappingFile = write(dir, "transactions.mapping.json", JSON.stringify(transactionsMapping, null, 2))

describe("map with value tables", () => {
  it("translates codes from a CSV file, combinations from a JSON file and the supplier from Mandant; rejects unknown codes naming the known ones", async () => {
    const input = write(dir, "buchungen.csv", [
      "Mandant;Konto;Beleg;Datum;Betrag;Buchungsart;Zahlweg",
      "1000;KD-1;B1;01.02.2024;12,50;ZAHL;LS",
      "2000;KD-2;B2;01.02.2024;30,00;FORD;",
      "1000;KD-3;B3;02.02.2024;5,00;GUT;",
      "3000;KD-4;B4;02.02.2024;5,00;ZAHL;UE",
      "1000;KD-5;B5;03.02.2024;7,00;ZAHL;UE",
      ""
    ].join("\n"))
    const out = join(dir, "buchungen.ndjson")
    const rejects = join(dir, "buchungen.rejects.ndjson")
    // Two jobs: the mapping, its tables read, goes to worker threads.
    const run = await runCli(["map", "-m", mappingFile, "-o", out, "-r", rejects, "--jobs", "2", input], { env: WORKERS_ALWAYS })
    expect(run.code).toBe(1)
    expect(lines(readFileSync(out, "utf8"))).toEqual([
      { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", transactions: [{ transaction_id: "B1", transaction_date: "2024-02-01", amount: 12.5, type: "PAYMENT", payment_type: "DD_REGULAR_COLLECTION" }] },
      { import_supplier: "STADTWERKE_SUED", external_account_number: "KD-2", transactions: [{ transaction_id: "B2", transaction_date: "2024-02-01", amount: 30, type: "CHARGE" }] },
      { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-5", transactions: [{ transaction_id: "B5", transaction_date: "2024-02-03", amount: 7, type: "PAYMENT", payment_type: "BANK_TRANSFER" }] }
    ])
    const rejected = lines(readFileSync(rejects, "utf8"))
    expect(rejected.map((r) => r["lines"])).toEqual([[4], [5]])
    expect(rejected[0]!["errors"]).toEqual([{ column: "Buchungsart", cell: "GUT", attr: "transactions.0.type", code: "unknown_value", detail: 'Buchungsart "GUT" is not in the value table (known: "FORD", "ZAHL")' }])
    expect(rejected[1]!["errors"]).toEqual([{ column: "Mandant", cell: "3000", attr: "import_supplier", code: "unknown_value", detail: 'Mandant "3000" is not in the value table (known: "1000", "2000")' }])
  })

  it("refuses a mapping whose table file is broken or missing, naming the field, the file and the line, before any output", async () => {
    write(dir, "codes/doppelt.csv", "from;to\nZAHL;PAYMENT\nFORD;CHARGE\nZAHL;CHARGE\n")
    const broken = write(dir, "broken.mapping.json", JSON.stringify({
      ...transactionsMapping,
      collections: [{ ...transactionsMapping.collections[0]!, fields: { ...transactionsMapping.collections[0]!.fields, type: { column: "Buchungsart", values: { file: "codes/doppelt.csv" } }, reason: { column: "Grund", values: { file: "codes/fehlt.json" } } } }]
    }))
    const input = write(dir, "eine.csv", "Mandant;Konto;Beleg;Datum;Betrag;Buchungsart;Zahlweg;Grund\n1000;KD-1;B1;01.02.2024;1,00;ZAHL;LS;x\n")
    const out = join(dir, "never.ndjson")
    const run = await runCli(["map", "-m", broken, "-o", out, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('collections.0.fields.type.values: codes/doppelt.csv:4: "ZAHL" is already in the table (line 2)')
    expect(run.stderr).toContain("collections.0.fields.reason.values: cannot read codes/fehlt.json")
    expect(existsSync(out)).toBe(false)
  })
})

describe("map with a mapping or reader file that writes a key twice", () => {
  it("refuses an inline value table with a code twice, naming the key, before any output", async () => {
    const text = JSON.stringify(transactionsMapping, null, 2).replace('"1000": "STADTWERKE_NORD",', '"1000": "STADTWERKE_NORD",\n        "1000": "STADTWERKE_SUED",')
    expect(text).toContain('"1000": "STADTWERKE_SUED",\n        "2000"')
    const twice = write(dir, "twice.mapping.json", text)
    const input = write(dir, "twice.csv", "Mandant;Konto;Beleg;Datum;Betrag;Buchungsart;Zahlweg\n1000;KD-1;B1;01.02.2024;1,00;ZAHL;LS\n")
    const out = join(dir, "twice.ndjson")
    const run = await runCli(["map", "-m", twice, "-o", out, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`the mapping ${twice} writes the key "1000" twice in one object`)
    expect(existsSync(out)).toBe(false)
  })

  it("refuses a reader file with a key twice", async () => {
    mkdirSync(join(dir, "bo4e"), { recursive: true })
    write(dir, "bo4e/twice.reader.json", '{ "source": "bo4e", "records": "energieverbrauch[]", "records": "x[]" }')
    const mapping = write(dir, "bo4e/twice.mapping.json", JSON.stringify({ endpoint: "notes", source: "bo4e", reader: "twice.reader.json", fields: { import_supplier: { value: "SW" }, external_account_number: "lokationsId", "notes.0.note": "energieverbrauch[].wert" } }))
    const input = write(dir, "bo4e/one.json", '{"boTyp":"ENERGIEMENGE","lokationsId":"1","energieverbrauch":[{"wert":1}]}')
    const run = await runCli(["map", "-m", mapping, "-o", join(dir, "bo4e/never.ndjson"), input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('writes the key "records" twice in one object')
  })
})

describe("map with date-only periods", () => {
  const mapping = (time: "end" | "next-start") => write(dir, `periods-${time}.mapping.json`, JSON.stringify({
    endpoint: "energy-amount",
    fields: {
      import_supplier: { value: "STADTWERKE_NORD" },
      external_account_number: "Kundennummer",
      "energy_amount.malo_number": "MaLo",
      "energy_amount.period_start_at": { column: "Von", convert: "datetime", options: { format: "dd.MM.yyyy", timeZone: "Europe/Berlin", time: "start" } },
      "energy_amount.period_end_at": { column: "Bis", convert: "datetime", options: { format: "dd.MM.yyyy", timeZone: "Europe/Berlin", time } },
      "energy_amount.product_identifier": { value: "1-1:1.8.0" },
      "energy_amount.product_identifier_type": { value: "SRW" },
      "energy_amount.quantity": { column: "Menge", convert: "decimal", options: { locale: "de" } },
      "energy_amount.quantity_unit": { value: "KWH" }
    }
  }))
  const input = write(dir, "monate.csv", [
    "Kundennummer;MaLo;Von;Bis;Menge",
    "KD-1;51238696781;01.03.2024;31.03.2024;100,5",
    "KD-1;51238696781;01.04.2024;30.04.2024;90",
    "KD-1;51238696781;01.10.2024;31.10.2024;110",
    "KD-1;51238696781;27.10.2024;27.10.2024;4",
    ""
  ].join("\n"))
  const periods = (stdout: string) => lines(stdout).map((p) => {
    const amount = p["energy_amount"] as { period_start_at: string; period_end_at: string }
    return [amount.period_start_at, amount.period_end_at]
  })

  it("reads the first and last day of each month as start and end, across both clock changes", async () => {
    const run = await runCli(["map", "-m", mapping("end"), input])
    expect(run.code).toBe(0)
    expect(periods(run.stdout)).toEqual([
      ["2024-03-01T00:00:00+01:00", "2024-03-31T23:59:59+02:00"],
      ["2024-04-01T00:00:00+02:00", "2024-04-30T23:59:59+02:00"],
      ["2024-10-01T00:00:00+02:00", "2024-10-31T23:59:59+01:00"],
      ["2024-10-27T00:00:00+02:00", "2024-10-27T23:59:59+01:00"]
    ])
  })

  it("reads the last day as the start of the next (the exclusive end), across both clock changes", async () => {
    const run = await runCli(["map", "-m", mapping("next-start"), input])
    expect(run.code).toBe(0)
    expect(periods(run.stdout)).toEqual([
      ["2024-03-01T00:00:00+01:00", "2024-04-01T00:00:00+02:00"],
      ["2024-04-01T00:00:00+02:00", "2024-05-01T00:00:00+02:00"],
      ["2024-10-01T00:00:00+02:00", "2024-11-01T00:00:00+01:00"],
      ["2024-10-27T00:00:00+02:00", "2024-10-28T00:00:00+01:00"]
    ])
  })

  it("rejects a cell in no accepted format at its line, listing the formats accepted and the one configured", async () => {
    const bad = write(dir, "monat-kaputt.csv", "Kundennummer;MaLo;Von;Bis;Menge\nKD-1;51238696781;01.03.2024;2024-03-31;1\n")
    const run = await runCli(["map", "-m", mapping("end"), bad])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('monat-kaputt.csv:2 column "Bis" = "2024-03-31" (energy_amount.period_end_at): ')
    expect(run.stderr).toContain('"2024-03-31" does not match the configured format dd.MM.yyyy')
    expect(run.stderr).toContain("yyyy-MM-ddTHH:mm:ss")
  })
})
