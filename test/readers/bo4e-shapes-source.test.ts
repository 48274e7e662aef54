/**
 * `map`'s reading of BO4E through the example Energiemenge reader file: the Verbrauch whose
 * `messwertstatus` the example leaves out are excluded rows with their reason and location, every other
 * one a row, in document order (test/fixtures/bo4e/constructed/energiemenge-forecasts-and-substitutes.json).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { Mapping } from "../../src/index.js"
import { openBo4eRows } from "../../src/readers/bo4e/bo4e-source.js"
import type { SourceItem } from "../../src/readers/rows/source-rows.js"

const ROOT = new URL("../../", import.meta.url).pathname
const MAPPING = join(ROOT, "examples", "market-messages", "bo4e-energiemenge.mapping.json")
const INPUT = join(ROOT, "test", "fixtures", "bo4e", "constructed", "energiemenge-forecasts-and-substitutes.json")

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

describe("openBo4eRows: the example's skip of messwertstatus", () => {
  it("gives 6 rows and 6 excluded rows, each excluded one with its status, its place and its line", async () => {
    const mapping = JSON.parse(readFileSync(MAPPING, "utf8")) as Mapping
    const warnings: Array<string> = []
    const items: Array<SourceItem> = []
    for await (const item of await openBo4eRows("in.json", once(readFileSync(INPUT)), mapping, MAPPING, (w) => warnings.push(w))) items.push(item)
    // stammdaten[0] is a Marktlokation: a warning (printed, and an item map counts), not a row.
    expect(warnings).toEqual(["warning: in.json: document 1 (line 1), stammdaten[0]: other_type: a MARKTLOKATION, not ENERGIEMENGE: not read"])
    const summary = items.map((item) => item.kind === "excluded" ? [item.lines, item.reason, item.detail] : item.kind === "row" ? [item.lines, item.record["energieverbrauch[].messwertstatus"], item.record["@account"]] : [item.kind])
    const at = (i: number) => `in.json: document 1 (line 1), stammdaten[1].energieverbrauch[${i}]: energieverbrauch[].messwertstatus is`
    expect(summary).toEqual([
      ["warning"],
      [[1], "ABGELESEN", "KD-8003"],
      [[2], "messwertstatus PROGNOSEWERT", `${at(1)} "PROGNOSEWERT", which the reader file skips`],
      [[3], "ERSATZWERT", "KD-8003"],
      [[4], "messwertstatus PROGNOSEWERT", `${at(3)} "PROGNOSEWERT", which the reader file skips`],
      [[5], "ABGELESEN", "KD-8003"],
      [[6], "messwertstatus NICHT_VERWENDBAR", `${at(5)} "NICHT_VERWENDBAR", which the reader file skips`],
      [[7], "messwertstatus FEHLT", `${at(6)} "FEHLT", which the reader file skips`],
      [[8], "ERSATZWERT", "KD-8003"],
      [[9], "messwertstatus VORSCHLAGSWERT", `${at(8)} "VORSCHLAGSWERT", which the reader file skips`],
      [[10], "messwertstatus ANGABE_FUER_LIEFERSCHEIN", `${at(9)} "ANGABE_FUER_LIEFERSCHEIN", which the reader file skips`],
      [[11], "ABGELESEN", "KD-8003"],
      [[12], "ENERGIEMENGESUMMIERT", "KD-8003"]
    ])
    expect(items.filter((i) => i.kind === "excluded").every((i) => i.kind === "excluded" && i.outcome === "skipped")).toBe(true)
  })
})
