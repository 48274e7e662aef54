/**
 * `data-import map` of an EDIFACT interchange, for a mapping with `"source": "edifact"`: the real
 * German MSCONS sample (test/fixtures/market-messages) through examples/market-messages, run as a
 * child process.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "mscons-energy-amounts.mapping.json")
const sample = gunzipSync(readFileSync(join(ROOT, "test", "fixtures", "market-messages", "de-2024-redispatch-2.4b-two-malos.edi.gz"))).toString("latin1")
const dir = tempDir()

/** Counted from the text alone: QTY segments per MaLo (the LOC+172 before them). */
const qtysPerMalo = (text: string): Map<string, number> => {
  const counts = new Map<string, number>()
  let malo = ""
  for (const segment of text.split("'")) {
    const s = segment.trim()
    if (s.startsWith("LOC+172+")) malo = s.slice(8).split(/[+:]/u)[0]!
    if (s.startsWith("QTY+")) counts.set(malo, (counts.get(malo) ?? 0) + 1)
  }
  return counts
}

describe("data-import map with an EDIFACT mapping", () => {
  it("maps every QTY of the real MSCONS sample to a valid energy amount of the right account", async () => {
    const input = write(dir, "sample.edi", Buffer.from(sample, "latin1"))
    const out = join(dir, "sample.ndjson")
    const rejects = join(dir, "sample.rejects.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, input])
    expect(run.code).toBe(0)
    const payloads = lines(readFileSync(out, "utf8"))
    const expected = qtysPerMalo(sample)
    expect(payloads.length).toBe([...expected.values()].reduce((a, b) => a + b, 0))
    expect(lines(readFileSync(rejects, "utf8"))).toEqual([])
    const perMalo = new Map<string, number>()
    for (const payload of payloads) {
      expect(validatePayload("energy-amount", payload).ok).toBe(true)
      const amount = payload["energy_amount"] as Record<string, string>
      perMalo.set(amount["malo_number"]!, (perMalo.get(amount["malo_number"]!) ?? 0) + 1)
      // accounts.csv: 51481308448 moves from KD-1001 to KD-2002 on 15 March 2022 (Berlin midnight).
      if (amount["malo_number"] === "51481308448") {
        expect(payload["external_account_number"]).toBe(amount["period_start_at"]! < "2022-03-15T00:00:00+01:00" ? "KD-1001" : "KD-2002")
      }
    }
    expect(perMalo).toEqual(expected)
  })

  it("rejects the QTYs of a damaged message naming file, message and segment; the other message still maps", async () => {
    // The first message's UNT count is made wrong: its QTYs are rejected, the second message's are not.
    const damaged = sample.replace(/UNT\+(\d+)\+1'/u, (_, n: string) => `UNT+${Number(n) + 1}+1'`)
    expect(damaged).not.toBe(sample)
    const firstMessage = damaged.slice(0, damaged.indexOf("UNH+2+"))
    const input = write(dir, "damaged.edi", Buffer.from(damaged, "latin1"))
    const out = join(dir, "damaged.ndjson")
    const rejects = join(dir, "damaged.rejects.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, input])
    expect(run.code).not.toBe(0)
    const rejected = lines(readFileSync(rejects, "utf8"))
    const inFirst = [...qtysPerMalo(firstMessage).values()].reduce((a, b) => a + b, 0)
    const all = [...qtysPerMalo(damaged).values()].reduce((a, b) => a + b, 0)
    expect(rejected.length).toBe(inFirst)
    expect(lines(readFileSync(out, "utf8")).length).toBe(all - inFirst)
    expect(JSON.stringify(rejected[0])).toContain("damaged.edi: message \\\"1\\\" (#1), segment")
    expect(JSON.stringify(rejected[0])).toContain("segment_count_mismatch")
  })
})
