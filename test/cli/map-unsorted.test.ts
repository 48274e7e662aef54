/**
 * `data-import map` with `groupBy` on an export whose rows of a group are not next to each other: the
 * payloads are those of the same export sorted by its groups (a stable sort, groups in the order of
 * their first row), with each payload's lineage pointing at the lines of the file as given, and every row
 * in exactly one payload or one rejection.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const mapping = join(ROOT, "examples", "mappings", "transactions.mapping.json")
const HEADER = "Konto;Buchungsnr;Datum;Betrag;Art;Grund;Referenz;Zahlart;Notiz"

const ndjson = (path: string): Array<Record<string, unknown>> =>
  readFileSync(path, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

/** A generated row: its account, and its text (a quoted note may span two physical lines). */
interface Row {
  readonly account: number
  readonly text: string
}

const rowOf = (id: number, account: number, kind: number): Row => {
  // Every seventh row has an amount no locale reads (rejected); some notes are quoted, one spans two lines.
  const amount = kind === 6 ? "zwölf" : `${id},${kind}0`
  const note = kind === 2 ? "\"Abschlag; Januar\"" : kind === 4 ? "\"erste Zeile\nzweite Zeile\"" : ""
  return { account, text: `KD-${account};BU-${id};${String(1 + (id % 28)).padStart(2, "0")}.03.2024;${amount};PAYMENT;ACCOUNT_CHARGE_PAYMENT;R-${id};DD_REGULAR_COLLECTION;${note}` }
}

/** Writes `rows` as a CSV export; returns its path and, for each physical line, the index of its row. */
const writeExport = (name: string, rows: ReadonlyArray<Row>, ids: ReadonlyArray<number>) => {
  const rowAtLine = new Map<number, number>()
  let line = 2
  ids.forEach((id) => {
    const span = rows[id]!.text.split("\n").length
    for (let k = 0; k < span; k++) rowAtLine.set(line + k, id)
    line += span
  })
  const path = write(dir, `${name}.csv`, `${HEADER}\n${ids.map((id) => rows[id]!.text).join("\n")}\n`)
  return { path, rowAtLine }
}

/** Maps an export; returns the payloads (text), each payload's rows, and the rows rejected. */
const mapExport = async (name: string, rows: ReadonlyArray<Row>, ids: ReadonlyArray<number>) => {
  const { path, rowAtLine } = writeExport(name, rows, ids)
  const out = join(dir, `${name}.out`)
  const rejects = join(dir, `${name}.rejects`)
  const lineage = join(dir, `${name}.lineage`)
  const run = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, "--lineage", lineage, path])
  expect(run.code === 0 || run.code === 1, run.stderr).toBe(true)
  const rowsOf = (lines: ReadonlyArray<number>): Array<number> => [...new Set(lines.map((l) => rowAtLine.get(l)!))]
  const settled: Array<number> = []
  const payloadRows = ndjson(lineage).map((l) => rowsOf(l["lines"] as Array<number>))
  const rejectedRows = ndjson(rejects).map((r) => rowsOf(r["lines"] as Array<number>))
  for (const r of [...payloadRows, ...rejectedRows]) settled.push(...r)
  return { payloads: readFileSync(out, "utf8").split("\n").filter((l) => l !== ""), payloadRows, rejectedRows, settled, stderr: run.stderr }
}

/** The ids stably sorted by account, accounts in the order of their first row. */
const groupedByFirstRow = (rows: ReadonlyArray<Row>, ids: ReadonlyArray<number>): Array<number> => {
  const first = new Map<number, number>()
  ids.forEach((id, at) => {
    if (!first.has(rows[id]!.account)) first.set(rows[id]!.account, at)
  })
  return ids.map((id, at) => ({ id, at })).sort((x, y) => first.get(rows[x.id]!.account)! - first.get(rows[y.id]!.account)! || x.at - y.at).map((e) => e.id)
}

describe("map with groupBy on an unsorted export", () => {
  it("maps a group whose rows are apart into one payload, in the order of its first row", async () => {
    const file = write(dir, "apart.csv", [
      HEADER,
      "KD-1;BU-1;01.03.2024;10,00;PAYMENT;ACCOUNT_CHARGE_PAYMENT;R-1;DD_REGULAR_COLLECTION;",
      "KD-2;BU-2;02.03.2024;20,00;PAYMENT;ACCOUNT_CHARGE_PAYMENT;R-2;DD_REGULAR_COLLECTION;",
      "KD-1;BU-3;03.03.2024;30,00;PAYMENT;ACCOUNT_CHARGE_PAYMENT;R-3;DD_REGULAR_COLLECTION;",
      ""
    ].join("\n"))
    const lineage = join(dir, "apart.lineage")
    const run = await runCli(["map", "-m", mapping, "--lineage", lineage, file])
    expect(run.code).toBe(0)
    const payloads = run.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { external_account_number: string; transactions: Array<{ transaction_id: string }> })
    expect(payloads.map((p) => [p.external_account_number, p.transactions.map((t) => t.transaction_id)])).toEqual([
      ["KD-1", ["BU-1", "BU-3"]],
      ["KD-2", ["BU-2"]]
    ])
    expect(ndjson(lineage)).toEqual([{ payload: 0, lines: [2, 4] }, { payload: 1, lines: [3] }])
    expect(run.stderr).toContain("3 rows read = 3 in 2 payloads (transactions) + 0 rejected")
  })

  it("maps shuffled rows to the payloads of the export sorted by account, each row once", async () => {
    const exportArb = fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 40 })
      .chain((spec) => fc.tuple(fc.constant(spec), fc.shuffledSubarray(spec.map((_, i) => i), { minLength: spec.length, maxLength: spec.length })))
    let n = 0
    await fc.assert(
      fc.asyncProperty(exportArb, async ([spec, shuffled]) => {
        const rows = spec.map(([account, kind], id) => rowOf(id, account, kind))
        const sorted = groupedByFirstRow(rows, shuffled)
        n++
        const apart = await mapExport(`shuffled-${n}`, rows, shuffled)
        const together = await mapExport(`sorted-${n}`, rows, sorted)
        expect(apart.payloads).toEqual(together.payloads)
        expect(apart.payloadRows).toEqual(together.payloadRows)
        expect(apart.rejectedRows.map((r) => [...r].sort((a, b) => a - b)).sort()).toEqual(together.rejectedRows.map((r) => [...r].sort((a, b) => a - b)).sort())
        expect([...apart.settled].sort((a, b) => a - b)).toEqual(rows.map((_, id) => id))
        expect(apart.stderr).not.toContain("group_not_contiguous")
      }),
      { numRuns: 12 }
    )
  }, 120_000)
})
