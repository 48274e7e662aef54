/**
 * `data-import map`, run as a child process, with a delivery note whose middle amount cannot be read:
 * the whole note is rejected, each of its lines listed once, the others naming the line that broke it.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()

const mapping = {
  endpoint: "delivery-note",
  groupBy: ["Konto", "Lieferschein"],
  fields: {
    import_supplier: { value: "STADTWERKE_NORD" },
    external_account_number: "Konto",
    "delivery_note.malo_number": "MaLo",
    "delivery_note.edifact_reference_number": "Lieferschein"
  },
  collections: [{
    path: "delivery_note.amounts",
    fields: {
      period_start_at: { column: "Von", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm" } },
      period_end_at: { column: "Bis", convert: "datetime", options: { format: "dd.MM.yyyy HH:mm" } },
      product_identifier: "OBIS",
      product_identifier_type: { value: "SRW" },
      quantity: { column: "Menge", convert: "decimal", options: { locale: "de" } },
      quantity_unit: { value: "KWH" }
    }
  }]
}

const csv = [
  "Konto;Lieferschein;MaLo;Von;Bis;OBIS;Menge",
  "KD-1;LS-1;51238696781;01.01.2024 00:00;31.03.2024 00:00;1-1:1.8.0;812,5",
  "KD-1;LS-1;51238696781;31.03.2024 00:00;30.06.2024 00:00;1-1:1.8.0;sechs",
  "KD-1;LS-1;51238696781;30.06.2024 00:00;30.09.2024 00:00;1-1:1.8.0;640,25",
  "KD-1;LS-2;51238696781;01.07.2024 00:00;30.09.2024 00:00;1-1:1.8.0;1.020",
  ""
].join("\n")

describe("map: a document is whole or not at all", () => {
  it("rejects every line of a delivery note with a bad amount, names the line that broke it, and sends the next note", async () => {
    const mappingFile = write(dir, "delivery-notes.mapping.json", JSON.stringify(mapping))
    const input = write(dir, "delivery-notes.csv", csv)
    const rejects = join(dir, "delivery-notes.rejects.ndjson")
    const run = await runCli(["map", "-m", mappingFile, "--rejects", rejects, input])
    expect(run.code).toBe(1)
    const payloads = run.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { delivery_note: { edifact_reference_number: string } })
    expect(payloads.map((p) => p.delivery_note.edifact_reference_number)).toEqual(["LS-2"])
    const rejected = readFileSync(rejects, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { lines: Array<number>; errors: Array<{ code: string; attr?: string; detail: string }> })
    expect(rejected.map((r) => [r.lines, r.errors.map((e) => e.code)])).toEqual([
      [[2, 4], ["document_incomplete"]],
      [[3], ["invalid"]]
    ])
    // The note's other lines point at line 3 (the file's line, not the row's number) and its reason.
    expect(rejected[0]!.errors[0]!.detail).toContain("This delivery note goes out whole or not at all, and a part of it was rejected: line 3: delivery_note.amounts.1.quantity invalid: \"sechs\"")
    expect(rejected[1]!.errors[0]!.attr).toBe("delivery_note.amounts.1.quantity")
    // Every line once: the run's own check holds, and the summary adds up.
    expect(run.stderr).toContain("4 rows read = 1 in 1 payload (delivery-note) + 3 rejected")
  })
})
