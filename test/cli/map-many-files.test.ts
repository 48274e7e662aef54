/**
 * `data-import map` of an archive: a folder of 1,000 small MSCONS interchanges, one a file, generated
 * at test time (test/support/mscons-archive.ts), given as a folder or as a list (`--files-from`), with
 * one job and with two. Every QTY ends in exactly one outcome, each located in its file.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { type ArchiveFile, type ArchiveQuantity, writeMsconsArchive } from "../support/mscons-archive.js"
import { ROOT, runCli, tempDir, WORKERS_ALWAYS } from "./run-cli.js"

const MAPPING = join(ROOT, "examples", "market-messages", "mscons-energy-amounts.mapping.json")
const dir = tempDir()

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

/** `map` of `inputs` (with `extra` options) into files named after `name`. */
const mapArchive = async (name: string, inputs: ReadonlyArray<string>, extra: ReadonlyArray<string>, options: Parameters<typeof runCli>[1] = {}) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const lineage = join(dir, `${name}.lineage.ndjson`)
  const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--lineage", lineage, ...extra, ...inputs], options)
  return { run, out: readFileSync(out), rejects: readFileSync(rejects), lineage: readFileSync(lineage) }
}

describe("map of an archive of many small interchanges", () => {
  // 1,000 files of 1 to 3 messages, 56 QTYs each; in every 100th file (the 1st, the 101st, …) the second
  // QTY holds "x,yyy,5", which is no number: 10 rejects.
  const archive = join(dir, "archive")
  const files: ReadonlyArray<ArchiveFile> = writeMsconsArchive(archive, { files: 1000, brokenEvery: 100 })

  it("maps a folder of 1,000 interchanges: every QTY once, in a payload of its quantity or a located reject, the same with --jobs 1 and 2", async () => {
    const one = await mapArchive("folder-1", [archive], ["--jobs", "1"])
    expect(one.run.code).toBe(1)
    const payloads = lines(one.out.toString("utf8"))
    const rejected = lines(one.rejects.toString("utf8"))
    const lineage = lines(one.lineage.toString("utf8")) as Array<{ payload: number; file: string; lines: Array<number> }>
    // 1,000 files × 56 QTYs, 10 of them broken.
    expect(files.length).toBe(1000)
    expect(payloads.length).toBe(55_990)
    expect(rejected.length).toBe(10)
    expect(lineage.length).toBe(55_990)
    expect(one.run.stderr).toContain(`${files[100]!.path}: 56 rows read = 55 in 55 payloads (energy-amount) + 1 rejected`)
    expect(one.run.stderr).toContain(`${files[999]!.path}: 56 rows read = 56 in 56 payloads (energy-amount) + 0 rejected`)

    // Each QTY written is settled once: by a payload of its own quantity, MaLo and quarter-hour, named by
    // file and segment in the lineage, or by a reject naming its file, message and segment.
    const byPlace = new Map<string, ArchiveQuantity>(files.flatMap((f) => f.quantities.map((q) => [`${f.path}#${q.segment}`, q] as const)))
    const settled = new Set<string>()
    lineage.forEach((entry, i) => {
      expect(entry.payload).toBe(i)
      expect(entry.lines.length).toBe(1)
      const place = `${entry.file}#${entry.lines[0]}`
      const written = byPlace.get(place)
      expect(written?.quantity, place).toBeDefined()
      expect(settled.has(place)).toBe(false)
      settled.add(place)
      const amount = payloads[i]!["energy_amount"] as Record<string, string>
      expect(amount["quantity"]).toBe(written!.quantity)
      expect(amount["malo_number"]).toBe(written!.malo)
      // No unit on the QTY: the OBIS code's, from the reader's unit table.
      expect(amount["quantity_unit"]).toBe("KWH")
      expect(amount["product_identifier"]).toBe(written!.obis)
      expect(new Date(amount["period_start_at"]!).toISOString().replace(".000", "")).toBe(written!.start)
    })
    for (const r of rejected) {
      const file = r["file"] as string
      const place = `${file}#${(r["lines"] as Array<number>)[0]}`
      expect(byPlace.get(place)?.quantity, place).toBeUndefined()
      expect(settled.has(place)).toBe(false)
      settled.add(place)
      expect(JSON.stringify(r)).toContain(`${file}: message \\"1\\" (#1), segment ${(r["lines"] as Array<number>)[0]}`)
    }
    expect(settled.size).toBe(56_000)
    expect([...byPlace.keys()].every((place) => settled.has(place))).toBe(true)

    // Two jobs, the inputs given as a list: the same bytes, payloads, rejects and lineage alike, whether
    // small inputs stay in the main thread (the default) or go to the workers.
    const list = join(dir, "archive.list")
    writeFileSync(list, `${files.map((f) => f.path).join("\r\n")}\r\n\r\n`)
    for (const [name, env] of [["list-2", {}], ["list-2-workers", WORKERS_ALWAYS]] as const) {
      const two = await mapArchive(name, [], ["--jobs", "2", "--files-from", list], { env })
      expect(two.run.code).toBe(1)
      expect(two.out.equals(one.out)).toBe(true)
      expect(two.rejects.equals(one.rejects)).toBe(true)
      expect(two.lineage.equals(one.lineage)).toBe(true)
    }
  })

  it("reads a folder's subfolders and files in the order of their paths, and a list from stdin", async () => {
    const nested = join(dir, "nested")
    // The files of the archive's first three, put in subfolders whose order is not the order of creation.
    const texts = files.slice(0, 3).map((f) => readFileSync(f.path))
    mkdirSync(join(nested, "2025", "01"), { recursive: true })
    mkdirSync(join(nested, "2024", "12"), { recursive: true })
    writeFileSync(join(nested, "2025", "01", "a.edi"), texts[2]!)
    writeFileSync(join(nested, "2024", "12", "b.edi"), texts[1]!)
    writeFileSync(join(nested, "2024", "a.edi"), texts[0]!)
    const expectedOrder = [join(nested, "2024", "12", "b.edi"), join(nested, "2024", "a.edi"), join(nested, "2025", "01", "a.edi")]
    const folder = await mapArchive("nested", [nested], [])
    const filesOf = (lineage: Buffer): Array<string> => [...new Set(lines(lineage.toString("utf8")).map((l) => l["file"] as string))]
    expect(filesOf(folder.lineage)).toEqual(expectedOrder)
    // The first file is broken (every 100th, from the 1st): its 55 payloads and its reject.
    expect(lines(folder.out.toString("utf8")).length).toBe(55 + 56 + 56)
    expect(lines(folder.rejects.toString("utf8")).map((r) => r["file"])).toEqual([join(nested, "2024", "a.edi")])
    expect(folder.run.stderr.indexOf(expectedOrder[0]!)).toBeLessThan(folder.run.stderr.indexOf(expectedOrder[1]!))
    expect(folder.run.stderr.indexOf(expectedOrder[1]!)).toBeLessThan(folder.run.stderr.indexOf(expectedOrder[2]!))

    const fromStdin = await mapArchive("stdin-list", [], ["--files-from", "-"], { stdin: `${expectedOrder.join("\n")}\n` })
    expect(fromStdin.out.equals(folder.out)).toBe(true)
    expect(fromStdin.lineage.equals(folder.lineage)).toBe(true)
  })

  it("refuses an empty folder, an empty list and no input at all, before writing anything", async () => {
    const empty = join(dir, "empty")
    mkdirSync(empty, { recursive: true })
    const none = join(dir, "none.list")
    writeFileSync(none, "\n\n")
    for (const [args, message] of [
      [[empty], `the folder ${empty} holds no file`],
      [["--files-from", none], `the list ${none} (--files-from) names no file`],
      [[], "map needs an input: a file, a folder, or --files-from LIST"]
    ] as const) {
      const run = await runCli(["map", "-m", MAPPING, ...args])
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(message)
      expect(run.stdout).toBe("")
    }
  })
})
