/**
 * `data-import map`'s reasons for a rejected row speak the export's terms: the mapping's column, the
 * cell as it was written there, and the payload's attribute in brackets; each reason one sentence.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const mapping = join(ROOT, "examples", "mappings", "transactions.mapping.json")
const HEADER = "Konto;Buchungsnr;Datum;Betrag;Art;Grund;Referenz;Zahlart;Notiz"
const rest = "PAYMENT;ACCOUNT_CHARGE_PAYMENT;R-1;DD_REGULAR_COLLECTION;"

describe("map's reasons", () => {
  it("name the column and show the cell as written, for a required field, an invalid cell and an invalid value", async () => {
    const file = write(dir, "reasons.csv", [
      HEADER,
      `KD-1;BU-1;;10,00;${rest}`,
      `KD-2;BU-2;01.01.2099;12,50;${rest}`,
      `KD-3;BU-3;02.03.2024;1.204,5x;${rest}`,
      ""
    ].join("\n"))
    const rejects = join(dir, "reasons.rejects.ndjson")
    const run = await runCli(["map", "-m", mapping, file])
    expect(run.code).toBe(1)
    const reasons = run.stderr.split("\n").filter((l) => l.startsWith(`${file}:`) && !l.includes("rows read"))
    expect(reasons).toEqual([
      `${file}:2 column "Datum" (transactions.0.transaction_date): required: This field is required.`,
      `${file}:3 column "Datum" = "01.01.2099" (transactions.0.transaction_date): transaction_in_future: The transaction date 2099-01-01 is in the future.`,
      `${file}:4 column "Betrag" = "1.204,5x" (transactions.0.amount): invalid: "1.204,5x" is not a decimal number.`
    ])
    const written = await runCli(["map", "-m", mapping, "-r", rejects, file])
    expect(written.code).toBe(1)
    const errors = readFileSync(rejects, "utf8").split("\n").filter((l) => l !== "").map((l) => (JSON.parse(l) as { errors: Array<unknown> }).errors[0])
    expect(errors).toEqual([
      { column: "Datum", cell: "", attr: "transactions.0.transaction_date", code: "required", detail: "This field is required." },
      { column: "Datum", cell: "01.01.2099", attr: "transactions.0.transaction_date", code: "transaction_in_future", detail: "The transaction date 2099-01-01 is in the future." },
      { column: "Betrag", cell: "1.204,5x", attr: "transactions.0.amount", code: "invalid", detail: "\"1.204,5x\" is not a decimal number" }
    ])
  })
})
