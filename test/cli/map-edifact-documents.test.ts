/**
 * `data-import map` of EDIFACT documents: a mapping grouped by `@message` over records of several tags
 * (`"record": [...]`, `"detail": "UNH"`), run as a child process. A document is the records of one
 * message of one input file: two files whose messages share a reference give two documents.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const dir = tempDir()

/** Notes from an INVOIC's free texts: one payload per message, a note per FTX, whatever the segments between. */
const READER = { source: "edifact", record: ["FTX"], groups: ["LIN"], detail: "UNH", messages: ["INVOIC:D:06A"] }
const MAPPING = {
  endpoint: "notes",
  source: "edifact",
  reader: "notes.reader.json",
  groupBy: ["@message"],
  fields: { import_supplier: { value: "STADTWERKE_NORD" }, external_account_number: "RFF+IT.1.2" },
  collections: [{ path: "notes", when: { column: "@record", equals: "FTX" }, fields: { body: "FTX.4.1", created_at: "DTM+137" } }]
}

const interchange = (reference: string, texts: ReadonlyArray<string>): string => {
  const body = ["BGM+380+R-1+9", "DTM+137:202404010800:203", "RFF+IT:KD-1", ...texts.map((t) => `FTX+AAI+++${t}`), "LIN+1", "UNS+S"]
  const segments = ["UNB+UNOC:3+S:14+R:14+240401:0800+" + reference, "UNH+1+INVOIC:D:06A:UN:2.8e", ...body, `UNT+${body.length + 2}+1`, `UNZ+1+${reference}`]
  return segments.map((s) => `${s}'`).join("\n")
}

describe("data-import map: documents of EDIFACT messages", () => {
  it("gives one document per message of each file, never one spanning two files with the same message reference", async () => {
    write(dir, "notes.reader.json", JSON.stringify(READER))
    const mapping = write(dir, "notes.mapping.json", JSON.stringify(MAPPING))
    const first = write(dir, "a.edi", interchange("I1", ["eins", "zwei"]))
    const second = write(dir, "b.edi", interchange("I1", ["drei"]))
    const out = join(dir, "notes.ndjson")
    const run = await runCli(["map", "-m", mapping, "-o", out, first, second])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe(`${first}: 2 rows read = 2 in 1 payload (notes) + 0 rejected\n${second}: 1 row read = 1 in 1 payload (notes) + 0 rejected\n`)
    const created = "2024-04-01T08:00:00+02:00"
    expect(lines(readFileSync(out, "utf8"))).toEqual([
      { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "eins", created_at: created }, { body: "zwei", created_at: created }] },
      { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "drei", created_at: created }] }
    ])
  })

  it("warns of a repeated record only when its cells repeat, not when its segments' text does", async () => {
    // An FTX per line: the same text under two lines is two notes; twice under one line, a repeat.
    write(dir, "lines.reader.json", JSON.stringify({ ...READER, groups: ["LIN"], record: ["FTX"] }))
    const mapping = write(dir, "lines.mapping.json", JSON.stringify({
      ...MAPPING,
      reader: "lines.reader.json",
      collections: [{ path: "notes", fields: { body: { columns: ["LIN.1.1", "FTX.4.1"] }, created_at: "DTM+137" } }]
    }))
    const body = ["BGM+380+R-1+9", "DTM+137:202404010800:203", "RFF+IT:KD-1", "LIN+1", "FTX+AAI+++gleich", "LIN+2", "FTX+AAI+++gleich", "FTX+AAI+++gleich"]
    const text = ["UNB+UNOC:3+S:14+R:14+240401:0800+I1", "UNH+1+INVOIC:D:06A:UN:2.8e", ...body, `UNT+${body.length + 2}+1`, "UNZ+1+I1"].map((s) => `${s}'`).join("\n")
    const input = write(dir, "lines.edi", text)
    const run = await runCli(["map", "-m", mapping, "-o", join(dir, "lines.ndjson"), input])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain(`${input}:9,10 duplicate_row Line 10 repeats line 9 exactly (the same cells)`)
    expect(run.stderr).toContain("warnings by code (1):\n  duplicate_row 1\n")
  })

  it("refuses a reader file whose record or detail is not usable, naming each", async () => {
    write(dir, "bad.reader.json", JSON.stringify({ ...READER, record: ["FTX", 3], detail: "UNT", segments: 1 }))
    const mapping = write(dir, "bad.mapping.json", JSON.stringify({ ...MAPPING, reader: "bad.reader.json" }))
    const run = await runCli(["map", "-m", mapping, "-o", join(dir, "bad.ndjson"), write(dir, "c.edi", interchange("I1", ["x"]))])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`record: the tag of the segments that start a record ("QTY"), or a list of tags (["LIN", "TAX"])`)
    expect(run.stderr).toContain(`detail: where groups open: "UNS" (after the UNS, as MSCONS) or "UNH" (from the message's start; a UNS closes every group)`)
    expect(run.stderr).toContain(`unknown key "segments"`)
  })
})
