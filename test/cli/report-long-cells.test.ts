/**
 * `data-import report` of rejected rows with cells of a megabyte: every format but CSV cuts the raw row
 * to REPORT_CELL_LENGTH characters and says how many more there are; the CSV to-do list keeps it whole.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const NOTES = join(ROOT, "examples", "mappings", "notes.mapping.json")
const dir = tempDir()

describe("report of rows with a cell of a megabyte", () => {
  it("cuts the raw row in text, markdown, json and html, marking the cut; keeps it whole in csv", async () => {
    // Markup-dense cells: each character is escaped to several in HTML.
    const cell = "<&>\"".repeat(250_000)
    // Three rows without a note text or document: each is rejected with its raw row.
    const rows = [1, 2, 3].map((n) => `KD-${n};01.02.2024 10:00;;;N;${cell}`)
    const input = write(dir, "long-cells.csv", `Kundennummer;Erstellt;Text;Anhang;Angeheftet;Zusatz\n${rows.join("\n")}\n`)
    const ledger = join(dir, "campaign.ledger")
    const mapped = await runCli(["map", "-m", NOTES, "--journal", ledger, "--new-ledger", "-o", join(dir, "notes.ndjson"), "-r", join(dir, "rejects.ndjson"), input])
    expect(mapped.code).toBe(1)

    // The raw row: "KD-1;01.02.2024 10:00;;;N;" (26 characters) and the cell (1,000,000): 4,096 shown, 995,930 more.
    const shown = `KD-1;01.02.2024 10:00;;;N;${cell}`.slice(0, 4096)
    const json = await runCli(["report", "--journal", ledger, "--format", "json"])
    expect(json.code).toBe(1)
    expect(json.stdout.length).toBeLessThan(100_000)
    const listed = (JSON.parse(json.stdout) as { problems: { listed: Array<{ raw: string }> } }).problems.listed
    expect(listed.map((p) => p.raw)).toEqual([1, 2, 3].map((n) => `${shown.replace("KD-1", `KD-${n}`)}… 995930 more characters`))

    const html = await runCli(["report", "--journal", ledger, "--format", "html", "--out", join(dir, "report.html")])
    expect(html.code).toBe(1)
    const page = readFileSync(join(dir, "report.html"), "utf8")
    expect(page.length).toBeLessThan(300_000)
    expect(page.match(/… 995930 more characters/gu)?.length).toBe(3)

    for (const format of ["text", "markdown"]) {
      const run = await runCli(["report", "--journal", ledger, "--format", format])
      expect(run.code, format).toBe(1)
      expect(run.stdout.length, format).toBeLessThan(100_000)
    }

    const csv = await runCli(["report", "--journal", ledger, "--format", "csv", "--out", join(dir, "todo.csv")])
    expect(csv.code).toBe(1)
    const todo = parse(readFileSync(join(dir, "todo.csv"), "utf8"), { columns: true }) as Array<{ raw: string }>
    expect(todo.map((r) => r.raw)).toEqual(rows)
  })
})
