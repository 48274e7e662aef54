/**
 * `data-import map` on lines no export has: a CSV whose lines end in CR alone (one physical line of
 * megabytes), a file with no line break at all, and one row longer than `--max-line-length`. Each is a
 * clear refusal or a located reject, with a short message, never a hang.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const NOTES = join(ROOT, "examples", "mappings", "notes.mapping.json")
const HEADER = "Kundennummer;Erstellt;Text;Anhang;Angeheftet"
const row = (n: number): string => `KD-${n};01.02.2024 10:00;Notiz ${n};;N`
const dir = tempDir()

describe("map: a header line longer than any header", () => {
  it("CR-only line ends (5 MB): refused at once, naming the line and the CR, listing a few cells only", async () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => row(i + 1))
    const input = write(dir, "cr-only.csv", `${HEADER}\r${rows.join("\r")}\r`)
    const run = await runCli(["map", "-m", NOTES, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`the header (line 1) of ${input}`)
    expect(run.stderr).toContain("carriage return")
    // A message to read, not the file again: the first cells, then a count of the others.
    expect(run.stderr.length).toBeLessThan(2_000)
    expect(run.stdout).toBe("")
  })

  it("no line break at all (40 MB, a binary given by mistake): refused, not read into one line", async () => {
    const input = join(dir, "no-break.csv")
    writeFileSync(input, Buffer.alloc(40 * 1024 * 1024, "ab;cd,ef\t"))
    const run = await runCli(["map", "-m", NOTES, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`the header (line 1) of ${input}`)
    expect(run.stderr.length).toBeLessThan(2_000)
  })

  it("a header of many unknown columns names the first ones and counts the rest", async () => {
    const names = Array.from({ length: 500 }, (_, i) => `Spalte${i + 1}`)
    const input = write(dir, "wide.csv", `${names.join(";")}\n${names.map(() => "x").join(";")}\n`)
    const run = await runCli(["map", "-m", NOTES, input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('column "Kundennummer" is not in the header')
    expect(run.stderr).toContain('"Spalte1", "Spalte2"')
    expect(run.stderr).toContain("… and 490 more")
    expect(run.stderr).not.toContain("Spalte500")
  })
})

describe("map --max-line-length", () => {
  it("a row longer than the bound is rejected alone, located, and the next rows map", async () => {
    const long = `KD-2;01.02.2024 10:00;${"x".repeat(5_000)};;N`
    const input = write(dir, "long-row.csv", `${HEADER}\n${row(1)}\n${long}\n${row(3)}\n`)
    const rejects = join(dir, "long-row.rejects.ndjson")
    const run = await runCli(["map", "-m", NOTES, "--max-line-length", "4K", "-r", rejects, input])
    expect(run.code).toBe(1)
    expect(run.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { external_account_number: string }).external_account_number)).toEqual(["KD-1", "KD-3"])
    const rejected = readFileSync(rejects, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { lines: Array<number>; errors: Array<{ detail: string }> })
    expect(rejected.map((r) => r.lines)).toEqual([[3]])
    // "KD-2;" (5), the date and its ";" (17), 5,000 x, ";;N" (3): 5,025 bytes.
    expect(rejected[0]!.errors[0]!.detail).toContain("5025 bytes, more than the maximum of 4096")
  })
})
