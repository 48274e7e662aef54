/**
 * `data-import map`, run as a child process: outputs appear whole or not at all. A run stopped by a
 * signal leaves no file at its targets and no temporary file beside them; an input in another encoding
 * stops before anything is written.
 */
import { spawn } from "node:child_process"
import { createWriteStream, existsSync, mkdirSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { once } from "node:events"
import { describe, expect, it } from "vitest"
import { CLI, ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const energy = join(ROOT, "examples", "mappings", "energy-amounts.mapping.json")
const EA_HEADER = "Kundennummer;MaLo;Zeitraum_von;Zeitraum_bis;OBIS;Menge;Einheit;Storniert;Qualifier;Plausi"
const eaRow = (n: number): string => `KD-${n};51238696781;01.10.2024 00:00;31.10.2024 23:59;1-1:1.8.0;${n},5;KWH;;Z18;`

/** Writes a CSV of `rows` meter readings (large: written as a stream). */
const bigCsv = async (name: string, rows: number): Promise<string> => {
  const path = join(dir, name)
  const stream = createWriteStream(path)
  stream.write(`${EA_HEADER}\n`)
  for (let n = 1; n <= rows; n++) if (!stream.write(`${eaRow(n)}\n`)) await once(stream, "drain")
  stream.end()
  await once(stream, "finish")
  return path
}

/** A fresh directory for a run's outputs, holding one file of its own. */
const outputDir = (name: string): string => {
  const path = join(dir, name)
  mkdirSync(path)
  write(path, ".keep", "")
  return path
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe("map: whole outputs", () => {
  it("leaves no file at the targets and no temporary file when SIGINT stops it, says so, and exits 130", async () => {
    const input = await bigCsv("big.csv", 400_000)
    const outDir = outputDir("interrupted")
    const targets = ["payloads.ndjson", "rejects.ndjson", "lineage.ndjson"].map((f) => join(outDir, f))
    const child = spawn(process.execPath, [CLI, "map", "-m", energy, "--jobs", "1", "-o", targets[0]!, "-r", targets[1]!, "--lineage", targets[2]!, input], { stdio: ["ignore", "pipe", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
    const closed = once(child, "close")
    // Interrupt once the run writes (its temporary files exist), bounded in time.
    const deadline = Date.now() + 20_000
    while (!readdirSync(outDir).some((f) => f.endsWith(".tmp")) && Date.now() < deadline) await sleep(20)
    expect(readdirSync(outDir).some((f) => f.endsWith(".tmp"))).toBe(true)
    await sleep(200)
    child.kill("SIGINT")
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    const [code] = await closed
    clearTimeout(killer)
    expect(code).toBe(130)
    expect(stderr).toContain("map interrupted (SIGINT)")
    for (const target of targets) expect(existsSync(target)).toBe(false)
    expect(readdirSync(outDir)).toEqual([".keep"])
  }, 90_000)

  it("renames the finished outputs into place, and leaves no temporary file", async () => {
    const input = write(dir, "small.csv", `${EA_HEADER}\n${eaRow(1)}\n${eaRow(2)}\n`)
    const outDir = outputDir("finished")
    const run = await runCli(["map", "-m", energy, "-o", join(outDir, "out.ndjson"), "-r", join(outDir, "rejects.ndjson"), "--lineage", join(outDir, "lineage.ndjson"), input])
    expect(run.code).toBe(0)
    expect(readdirSync(outDir).sort()).toEqual([".keep", "lineage.ndjson", "out.ndjson", "rejects.ndjson"])
  })

  it("stops a Windows-1252 file read as UTF-8 with one message and exit 2, writing nothing", async () => {
    // Lines 2–3 are ASCII; line 4 starts with "Zähler" in Windows-1252: its byte 2 is ä (0xE4).
    const bytes = Buffer.from(`${EA_HEADER}\n${eaRow(1)}\n${eaRow(2)}\n${eaRow(3).replace("KD-3", "Zähler")}\n${eaRow(4)}\n`, "latin1")
    const input = write(dir, "ansi.csv", bytes)
    const outDir = outputDir("ansi")
    const run = await runCli(["map", "-m", energy, "-o", join(outDir, "out.ndjson"), "-r", join(outDir, "rejects.ndjson"), input])
    expect(run.code).toBe(2)
    const message = run.stderr.trim().split("\n")
    expect(message).toHaveLength(1)
    expect(message[0]).toContain(`${input} is not utf-8: line 4, byte 2 (0xE4)`)
    expect(message[0]).toContain("run again with --encoding windows-1252")
    expect(readdirSync(outDir)).toEqual([".keep"])
    const fixed = await runCli(["map", "-m", energy, "-o", join(outDir, "out.ndjson"), "--encoding", "windows-1252", input])
    expect(fixed.code).toBe(0)
  })

  it("still refuses only the damaged line deep inside a file that is UTF-8 from its first lines on", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => eaRow(i + 1))
    rows[1] = rows[1]!.replace("KD-2", "KD-Müller") // line 3: good UTF-8 outside ASCII
    const bytes = Buffer.concat([Buffer.from(`${EA_HEADER}\n${rows.slice(0, 20).join("\n")}\n`), Buffer.from([0x4b, 0x44, 0xff, 0x0a]), Buffer.from(`${rows.slice(20).join("\n")}\n`)])
    const input = write(dir, "damaged.csv", bytes)
    const run = await runCli(["map", "-m", energy, "-o", join(dir, "damaged.out"), input])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`${input}:22 invalid_encoding`)
    expect(run.stderr).toContain("31 rows read = 30 in 30 payloads (energy-amount) + 1 rejected")
  })
})
