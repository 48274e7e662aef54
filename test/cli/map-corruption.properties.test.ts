/**
 * A property of `data-import map` run as a child process: whatever random damage an export takes (stray
 * quotes and delimiters, line breaks, truncated lines, NUL bytes, invalid UTF-8), lineage and rejects
 * account for every data line exactly once, and every line the damage did not touch maps to the same
 * payload as before.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const mapping = join(ROOT, "examples", "mappings", "energy-amounts.mapping.json")
const HEADER = "Kundennummer;MaLo;Zeitraum_von;Zeitraum_bis;OBIS;Menge;Einheit;Storniert;Qualifier;Plausi"

const row = (n: number): string =>
  `KD-${1000 + n};5123869${String(6781 + n).padStart(4, "0")};0${1 + (n % 9)}.10.2024 00:00;31.10.2024 23:59;1-1:1.8.0;${n * 7},${n % 10}5;KWH;${n % 3 === 0 ? "X" : ""};Z18;${n % 2 === 0 ? "Z57,Z84" : ""}`

type Damage = { readonly kind: "quote" | "delimiter" | "linebreak" | "truncate" | "nul" | "utf8"; readonly at: number }

const INSERTS: Record<Exclude<Damage["kind"], "truncate">, Buffer> = {
  quote: Buffer.from("\""),
  delimiter: Buffer.from(";"),
  linebreak: Buffer.from("\n"),
  nul: Buffer.from([0]),
  utf8: Buffer.from([0xc3, 0x28])
}

const damageArb = fc.record({
  kind: fc.constantFrom<Damage["kind"]>("quote", "delimiter", "linebreak", "truncate", "nul", "utf8"),
  at: fc.double({ min: 0, max: 1, noNaN: true })
})

const ndjson = (path: string): Array<Record<string, unknown>> =>
  readFileSync(path, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

/** Maps a CSV file; returns each settled line's payload (or "rejected"), and the JSON summary. */
const mapFile = async (name: string, bytes: Buffer) => {
  const input = write(dir, `${name}.csv`, bytes)
  const out = join(dir, `${name}.out`)
  const rejects = join(dir, `${name}.rejects`)
  const lineage = join(dir, `${name}.lineage`)
  const run = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, "--lineage", lineage, "--format", "json", input])
  expect(run.code === 0 || run.code === 1).toBe(true)
  const payloads = ndjson(out)
  const settled = new Map<number, string>()
  const settle = (line: number, what: string): void => {
    expect(settled.has(line), `line ${line} settled twice`).toBe(false)
    settled.set(line, what)
  }
  for (const l of ndjson(lineage)) for (const line of l["lines"] as Array<number>) settle(line, JSON.stringify(payloads[l["payload"] as number]))
  for (const r of ndjson(rejects)) for (const line of r["lines"] as Array<number>) settle(line, "rejected")
  return { settled, summary: JSON.parse(run.stdout) as { blankLines: number; rowsRead: number } }
}

describe("map under random damage", () => {
  it("accounts for every data line once, and maps every untouched line as before", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 3, max: 30 }), fc.array(fc.tuple(fc.nat(), damageArb), { minLength: 1, maxLength: 4 }), async (count, damages) => {
        const rows = Array.from({ length: count }, (_, i) => Buffer.from(row(i + 1)))
        // The byte order mark declares UTF-8 from the start: invalid bytes anywhere are damage, refused line by line.
        const original = Buffer.from(`\uFEFF${HEADER}\n${rows.map((r) => r.toString()).join("\n")}\n`)
        const before = await mapFile("original", original)
        // Damage data lines (never the header), and follow where each untouched line ends up.
        const damaged = new Set<number>()
        for (const [which, damage] of damages) {
          const i = which % count
          damaged.add(i)
          const at = Math.floor(damage.at * rows[i]!.length)
          rows[i] = damage.kind === "truncate"
            ? rows[i]!.subarray(0, at)
            : Buffer.concat([rows[i]!.subarray(0, at), INSERTS[damage.kind], rows[i]!.subarray(at)])
        }
        const newLineOf: Array<number> = []
        let line = 2
        rows.forEach((r, i) => {
          newLineOf[i] = line
          line += r.toString("latin1").split("\n").length
        })
        const lastLine = line - 1
        const after = await mapFile("damaged", Buffer.concat([Buffer.from(`\uFEFF${HEADER}\n`), ...rows.flatMap((r) => [r, Buffer.from("\n")])]))
        // Every physical data line is settled once or skipped as blank; nothing else.
        expect(after.settled.size + after.summary.blankLines).toBe(lastLine - 1)
        for (const settledLine of after.settled.keys()) expect(settledLine >= 2 && settledLine <= lastLine).toBe(true)
        for (let i = 0; i < count; i++) {
          if (damaged.has(i)) continue
          expect(after.settled.get(newLineOf[i]!), `untouched row ${i + 1}`).toBe(before.settled.get(i + 2))
        }
      }),
      { numRuns: 30 }
    )
    // 60 runs of the built CLI: two minutes is too short when another test file shares the cores.
  }, 300_000)
})
