/**
 * `data-import map` refuses value tables with keys no cell can meet as written: a key with space around a
 * cell (cells are trimmed before the look-up, so it is never found) and two keys that are one text in two
 * Unicode spellings (composed and decomposed: a cell meets only one of them). Inline tables and tables in
 * JSON and CSV files alike, naming the table and the keys, before any output.
 */
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
mkdirSync(join(dir, "codes"))

/** "Gebühr" with ü as one code point (NFC), and as u and a combining diaeresis (NFD). */
const COMPOSED = "Geb\u00fchr"
const DECOMPOSED = "Gebu\u0308hr"

const mappingWith = (type: unknown, paymentType?: unknown) => ({
  endpoint: "transactions",
  fields: { import_supplier: "Mandant", external_account_number: "Konto" },
  collections: [{
    path: "transactions",
    fields: {
      transaction_id: "Beleg",
      transaction_date: { column: "Datum", convert: "date" },
      amount: { column: "Betrag", convert: "number", options: { locale: "de" } },
      type,
      ...(paymentType === undefined ? {} : { payment_type: paymentType })
    }
  }]
})
const input = write(dir, "buchungen.csv", `Mandant;Konto;Beleg;Datum;Betrag;Buchungsart;Zahlweg\nSTADTWERKE_NORD;KD-1;B1;01.02.2024;1,00;ZAHL;LS\n`)

const mapWith = async (name: string, mapping: unknown) => {
  const file = write(dir, `${name}.mapping.json`, JSON.stringify(mapping))
  const out = join(dir, `${name}.ndjson`)
  const run = await runCli(["map", "-m", file, "-o", out, input])
  expect(run.code, run.stderr).toBe(2)
  expect(existsSync(out)).toBe(false)
  return run.stderr
}

describe("map: value table keys no cell can meet", () => {
  it("an inline table with a key and the same key with a trailing space: refused, naming the field and both keys", async () => {
    const stderr = await mapWith("spaced", mappingWith({ column: "Buchungsart", values: { ZAHL: "PAYMENT", "ZAHL ": "CHARGE" } }))
    expect(stderr).toContain("collections.0.fields.type")
    expect(stderr).toContain('the key "ZAHL " is "ZAHL" with space around it')
    expect(stderr).toContain('the table has "ZAHL" too')
  })

  it("a key of several columns with space around one of its cells: refused", async () => {
    const stderr = await mapWith("columns", mappingWith({ column: "Buchungsart", values: { ZAHL: "PAYMENT" } }, {
      columns: ["Buchungsart", "Zahlweg"],
      values: { "ZAHL| LS": "DD_REGULAR_COLLECTION" },
      default: null
    }))
    expect(stderr).toContain("collections.0.fields.payment_type")
    expect(stderr).toContain('the key "ZAHL| LS" is "ZAHL|LS" with space around it')
  })

  it("an inline table with one key composed and decomposed: refused, naming both spellings", async () => {
    const stderr = await mapWith("nfd", mappingWith({ column: "Buchungsart", values: { [COMPOSED]: "CHARGE", [DECOMPOSED]: "PAYMENT" } }))
    expect(stderr).toContain("collections.0.fields.type")
    expect(stderr).toContain('the keys "Gebühr" and "Gebu\\u0308hr" are one text in two Unicode spellings')
  })

  it("a JSON table file with a spaced key, and a CSV table file with both spellings: refused, naming the file and the keys", async () => {
    write(dir, "codes/spaced.json", JSON.stringify({ FORD: "CHARGE", " FORD": "PAYMENT" }))
    write(dir, "codes/nfd.csv", `from;to\n${COMPOSED};CHARGE\nZAHL;PAYMENT\n${DECOMPOSED};PAYMENT\n`)
    const json = await mapWith("spaced-file", mappingWith({ column: "Buchungsart", values: { file: "codes/spaced.json" } }))
    expect(json).toContain('collections.0.fields.type.values: codes/spaced.json: the key " FORD" is "FORD" with space around it')
    const csv = await mapWith("nfd-file", mappingWith({ column: "Buchungsart", values: { file: "codes/nfd.csv" } }))
    expect(csv).toContain('collections.0.fields.type.values: codes/nfd.csv: the keys "Gebühr" and "Gebu\\u0308hr" are one text in two Unicode spellings')
  })

  it("a table of distinct keys, umlauts composed, is used as before", async () => {
    const file = write(dir, "fine.mapping.json", JSON.stringify(mappingWith({ column: "Buchungsart", values: { ZAHL: "PAYMENT", [COMPOSED]: "CHARGE" } })))
    const run = await runCli(["map", "-m", file, "-o", join(dir, "fine.ndjson"), input])
    expect(run.code, run.stderr).toBe(0)
  })
})
